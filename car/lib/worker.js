// Worker thread: receives packed batches, answers with one BlockResult per block, in order.
import { parentPort, workerData } from 'node:worker_threads'
import { unpack, processBatch } from './batch.js'

const codec = await import(workerData.codecUrl)
const options = { canonicalize: workerData.canonicalize }

parentPort?.on('message', (/** @type {{ id: number, batch: import('./batch.js').PackedBatch }} */ msg) => {
  try {
    // results are cloned, not transferred: an encoder's output may be a view on a buffer it reuses
    parentPort?.postMessage({ id: msg.id, results: processBatch(codec, unpack(msg.batch), options) })
  } catch (err) {
    parentPort?.postMessage({ id: msg.id, error: String(/** @type {any} */ (err)?.message ?? err) })
  }
})
