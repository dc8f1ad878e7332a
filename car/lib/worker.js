// Worker thread: receives packed batches of blocks, answers with one BlockResult per block, in
// order; or batches of whole sections (verify without output), answered with a SectionResult.
import { parentPort, workerData } from 'node:worker_threads'
import { unpack, processBatch } from './batch.js'
import { processSections } from './sections.js'

const codec = await import(workerData.codecUrl)
const options = { canonicalize: workerData.canonicalize }
/** @type {Int32Array} [ready, batches checked] per worker, read by the main thread (workers.js) */
const progress = workerData.progress
const at = 2 * workerData.index

parentPort?.on('message', (/** @type {{ id: number, batch?: import('./batch.js').PackedBatch, sections?: import('./read.js').SectionBatch, maxBlockSize?: number }} */ msg) => {
  let reply
  try {
    reply = msg.sections
      ? { id: msg.id, sectionResult: processSections(codec, msg.sections, { maxBlockSize: /** @type {number} */ (msg.maxBlockSize) }) }
      // results are cloned, not transferred: an encoder's output may be a view on a buffer it reuses
      : { id: msg.id, results: processBatch(codec, unpack(/** @type {import('./batch.js').PackedBatch} */ (msg.batch)), options) }
  } catch (err) {
    reply = { id: msg.id, error: String(/** @type {any} */ (err)?.message ?? err) }
  }
  Atomics.add(progress, at + 1, 1) // counted before the answer is sent: the main thread may read it first
  parentPort?.postMessage(reply)
})
Atomics.store(progress, at, 1)
