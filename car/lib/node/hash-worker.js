// Worker thread of the Node CarBlockIterator: checks the hashes of a batch of sections and sends
// the batch's buffer back (transferred both ways: the blocks are the caller's, in its ArrayBuffer).
import { parentPort } from 'node:worker_threads'
import './hash.js'
import { hashedSections } from '../core/hashed-sections.js'

parentPort?.on('message', (/** @type {{ id: number, bytes: Uint8Array, ends: Uint32Array }} */ { id, bytes, ends }) => {
  let verified = 0
  try {
    verified = hashedSections(bytes, ends)
  } catch {} // the thread handing the blocks out checks them again and reports what is wrong
  parentPort?.postMessage({ id, verified, bytes }, [/** @type {ArrayBuffer} */ (bytes.buffer)])
})
