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
  try {
    if (msg.sections) {
      const result = processSections(codec, msg.sections, { maxBlockSize: /** @type {number} */ (msg.maxBlockSize) })
      Atomics.add(progress, at + 1, 1)
      parentPort?.postMessage({ id: msg.id, sectionResult: result })
      return
    }
    // results are cloned, not transferred: an encoder's output may be a view on a buffer it reuses
    const results = processBatch(codec, unpack(/** @type {import('./batch.js').PackedBatch} */ (msg.batch)), options)
    Atomics.add(progress, at + 1, 1)
    parentPort?.postMessage({ id: msg.id, results })
  } catch (err) {
    Atomics.add(progress, at + 1, 1)
    parentPort?.postMessage({ id: msg.id, error: String(/** @type {any} */ (err)?.message ?? err) })
  }
})
Atomics.store(progress, at, 1)
