// @ipld/car's src/decoder.js bytesReader and readHeader (an internal module its reader tests use to
// read a header alone): the header as this library reads it (CarBlockIterator opens a CAR by
// reading its header, and nothing more until it is iterated).
import { CarBlockIterator } from './index.js'

/** @param {Uint8Array} bytes */
export const bytesReader = (bytes) => bytes

/** @param {Uint8Array} bytes @returns {Promise<{ version: number, roots: import('multiformats/cid').CID[] }>} */
export async function readHeader (bytes) {
  const iterator = await CarBlockIterator.fromBytes(bytes)
  return { version: iterator.version, roots: await iterator.getRoots() }
}
