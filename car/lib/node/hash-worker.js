// Worker thread of the Node CarBlockIterator: checks the hashes of a batch of sections and sends
// the batch's buffer back (transferred both ways: the blocks are the caller's, in its ArrayBuffer).
import { parentPort, workerData } from 'node:worker_threads'
import { hashedSections } from '../core/run/hashed-sections.js'
import { loadHasher } from '../core/check/hash.js'

/** shared with the main thread (hash-workers.js): [0] workers started, [index] batches this one hashed */
const counts = /** @type {Int32Array} */ (workerData.counts)
const index = /** @type {number} */ (workerData.index)

parentPort?.on('message', (/** @type {{ id: number, bytes: Uint8Array, ends: Uint32Array }} */ { id, bytes, ends }) => {
  let verified = 0
  try {
    verified = hashedSections(bytes, ends)
  } catch {} // the thread handing the blocks out checks them again and reports what is wrong
  parentPort?.postMessage({ id, verified, bytes }, [/** @type {ArrayBuffer} */ (bytes.buffer)])
  Atomics.add(counts, index, 1)
})
// blake2b-256 (sha2-256 is node:crypto's, there from the start) loads meanwhile: until it has,
// hashedSections stops at a blake2b-256 block and leaves it to the main thread
loadHasher(0xb220).catch(() => {}) // without it, this thread leaves blake2b-256 blocks to the main thread
// the main thread hashes every batch itself until a worker can take some: it sees this without
// turning its event loop, which it may not do while it has batches to read and hand out
Atomics.add(counts, 0, 1)
