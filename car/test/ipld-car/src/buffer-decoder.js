// @ipld/car's src/buffer-decoder.js bytesReader and readHeader (synchronous; an internal module its
// CarBufferReader tests use to read a header alone): the header as CarBufferReader reads it.
import { readCarHeader } from '../../../lib/core/read/in-memory.js'

/** @param {Uint8Array} bytes */
export const bytesReader = (bytes) => bytes

/** @param {Uint8Array} bytes @returns {{ version: number, roots: import('multiformats/cid').CID[] }} */
export function readHeader (bytes) {
  const { version, roots } = readCarHeader(bytes)
  return { version, roots }
}
