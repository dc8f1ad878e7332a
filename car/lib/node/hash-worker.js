// Worker thread of the Node CarBlockIterator: checks the hashes of a batch of sections and sends
// the batch's buffer back (transferred both ways: the blocks are the caller's, in its ArrayBuffer).
import { parentPort } from 'node:worker_threads'
import './hash.js'
import { hashedSections } from '../core/hashed-sections.js'
import { loadHasher } from '../core/hash.js'

// blake2b-256 (sha2-256 is node:crypto's, there from the start), before the first batch: the
// batches wait in the port until the listener below is added
await loadHasher(0xb220).catch(() => {}) // without it, this thread leaves blake2b-256 blocks to the main thread

parentPort?.on('message', (/** @type {{ id: number, bytes: Uint8Array, ends: Uint32Array }} */ { id, bytes, ends }) => {
  let verified = 0
  try {
    verified = hashedSections(bytes, ends)
  } catch {} // the thread handing the blocks out checks them again and reports what is wrong
  parentPort?.postMessage({ id, verified, bytes }, [/** @type {ArrayBuffer} */ (bytes.buffer)])
})
