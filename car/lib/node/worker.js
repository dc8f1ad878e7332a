// Worker thread: receives packed batches of blocks, answers with one BlockResult per block, in
// order; or batches of whole sections (verify without output), answered with a SectionResult.
import { parentPort, workerData } from 'node:worker_threads'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { unpack, processBatch } from '../core/run/batch.js'
import { processSections } from '../core/run/sections.js'
import { checkLoading } from '../core/check/on-demand.js'
import * as ownCodec from '../core/check/dag-cbor.js'

// the codec: this build's own when it is the main thread's default (run.js's defaultCodecUrl), so
// that a bundled thread runs the bundle's; another (a bench's) by require, as no top-level await is
// possible in the bundle (CommonJS)
const codec = workerData.codecUrl === new URL('../core/check/dag-cbor.js', import.meta.url).href ? ownCodec : createRequire(import.meta.url)(fileURLToPath(workerData.codecUrl))
const options = { canonicalize: workerData.canonicalize }
/** @type {Int32Array} [ready, batches checked] per worker, read by the main thread (workers.js) */
const progress = workerData.progress
const at = 2 * workerData.index

/** @typedef {{ id: number, batch?: import('../core/run/batch.js').PackedBatch, sections?: import('../core/read/car-reader.js').SectionBatch, maxBlockSize?: number }} Message */

/** @param {Message} msg */
function check (msg) {
  const answer = (/** @type {object} */ reply) => {
    Atomics.add(progress, at + 1, 1) // counted before the answer is sent: the main thread may read it first
    parentPort?.postMessage(reply)
  }
  const failed = (/** @type {any} */ err) => answer({ id: msg.id, error: String(err?.message ?? err) })
  try {
    // loads, in this thread, what the batch's blocks need (on-demand.js): then a Promise
    const result = checkLoading(() => msg.sections
      ? { id: msg.id, sectionResult: processSections(codec, msg.sections, { maxBlockSize: /** @type {number} */ (msg.maxBlockSize) }) }
      // results are cloned, not transferred: an encoder's output may be a view on a buffer it reuses
      : { id: msg.id, results: processBatch(codec, unpack(/** @type {import('../core/run/batch.js').PackedBatch} */ (msg.batch)), options) })
    if (result instanceof Promise) result.then(answer, failed)
    else answer(result)
  } catch (err) {
    failed(err)
  }
}

parentPort?.on('message', check)
Atomics.store(progress, at, 1)
