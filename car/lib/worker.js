// Worker thread: receives packed batches of blocks, answers with one BlockResult per block, in
// order; or batches of whole sections (verify without output), answered with a SectionResult.
import { parentPort, workerData } from 'node:worker_threads'
import { unpack, processBatch } from './batch.js'
import { processSections } from './sections.js'
import { loadForBlocks, loadForSections } from './on-demand.js'

const codec = await import(workerData.codecUrl)
const options = { canonicalize: workerData.canonicalize }
/** @type {Int32Array} [ready, batches checked] per worker, read by the main thread (workers.js) */
const progress = workerData.progress
const at = 2 * workerData.index

/** @typedef {{ id: number, batch?: import('./batch.js').PackedBatch, sections?: import('./read.js').SectionBatch, maxBlockSize?: number }} Message */

/** @param {object} reply */
function answer (reply) {
  Atomics.add(progress, at + 1, 1) // counted before the answer is sent: the main thread may read it first
  parentPort?.postMessage(reply)
}

/** @param {number} id @param {unknown} err */
const failed = (id, err) => answer({ id, error: String(/** @type {any} */ (err)?.message ?? err) })

/**
 * @param {Message} msg
 * @param {import('./batch.js').Block[] | null} blocks the batch's blocks, unpacked (null: msg has sections)
 */
function check (msg, blocks) {
  try {
    answer(msg.sections
      ? { id: msg.id, sectionResult: processSections(codec, msg.sections, { maxBlockSize: /** @type {number} */ (msg.maxBlockSize) }) }
      // results are cloned, not transferred: an encoder's output may be a view on a buffer it reuses
      : { id: msg.id, results: processBatch(codec, /** @type {import('./batch.js').Block[]} */ (blocks), options) })
  } catch (err) {
    failed(msg.id, err)
  }
}

parentPort?.on('message', (/** @type {Message} */ msg) => {
  try {
    const blocks = msg.sections ? null : unpack(/** @type {import('./batch.js').PackedBatch} */ (msg.batch))
    // the hashers and decoders this batch's blocks need, loaded in this thread (on-demand.js)
    const loading = msg.sections ? loadForSections(msg.sections) : loadForBlocks(/** @type {import('./batch.js').Block[]} */ (blocks))
    if (loading) loading.then(() => check(msg, blocks), (err) => failed(msg.id, err))
    else check(msg, blocks)
  } catch (err) {
    failed(msg.id, err)
  }
})
Atomics.store(progress, at, 1)
