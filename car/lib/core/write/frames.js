// Stage 6: the bytes of a CARv1, header and sections, encoded with this library's codec
// (dag-cbor-fast): what CarWriter (api/car-writer.js), CarBufferWriter (api/car-buffer-writer.js) and the pipeline's
// outputs (memory-target.js) write. Nothing here reads a CAR, so a bundle that only writes stays small.
import { encode } from 'dag-cbor-fast'
import { varintBytes } from '../base/varint.js'

/** @typedef {import('multiformats').CID} CID */

export { contentType } from './content-type.js'

/**
 * A CARv1 header: its length varint and the DAG-CBOR { roots, version: 1 }.
 *
 * @param {CID[]} roots
 */
export function headerBytes (roots) {
  const header = encode({ roots, version: 1 })
  const length = varintBytes(header.length)
  const out = new Uint8Array(length.length + header.length)
  out.set(length)
  out.set(header, length.length)
  return out
}

/**
 * One section: length varint, CID, block.
 *
 * @param {CID} cid
 * @param {Uint8Array} bytes
 */
export function sectionBytes (cid, bytes) {
  const length = varintBytes(cid.bytes.length + bytes.length)
  const out = new Uint8Array(length.length + cid.bytes.length + bytes.length)
  out.set(length)
  out.set(cid.bytes, length.length)
  out.set(bytes, length.length + cid.bytes.length)
  return out
}

/** @param {Uint8Array[]} chunks */
export function concat (chunks) {
  let length = 0
  for (const c of chunks) length += c.length
  const out = new Uint8Array(length)
  let at = 0
  for (const c of chunks) { out.set(c, at); at += c.length }
  return out
}
