// One block read by position: what a summary's problem or onBlock points at, fetched again.
import { CID } from 'multiformats/cid'
import { openSource } from '../read/source.js'
import { readVarint, CarReadError, decodeSectionCid } from '../read/car-reader.js'
import { verifyBlock } from '../check/hash.js'
import { missing, loadFor } from '../check/on-demand.js'
import { DEFAULT_MAX_BLOCK_SIZE } from '../read/limits.js'

/**
 * @typedef {import('../read/source.js').CarInput} CarInput
 * @typedef {import('./block-iterator.js').Block} Block
 */

/**
 * The block whose section starts at `offset` (as a summary's problems and onBlock give it), read by
 * position, with its hash checked (`hash`: 'ok' | 'mismatch' | 'unverified').
 *
 * @param {CarInput} input a Blob, File, Uint8Array or ArrayBuffer (something read by position)
 * @param {number} offset
 * @param {{ maxBlockSize?: number }} [options]
 * @returns {Promise<Block & { hash: 'ok' | 'mismatch' | 'unverified' }>}
 */
export async function readBlockAt (input, offset, { maxBlockSize = DEFAULT_MAX_BLOCK_SIZE } = {}) {
  const source = openSource(input)
  if (!source.seekable) throw new TypeError('readBlockAt needs an input it can read by position: a Blob, a File or bytes')
  const size = source.size ?? Infinity
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= size) throw new RangeError(`offset ${offset} is not inside the CAR (${size} bytes)`)
  const head = await source.readRange(offset, Math.min(10, size - offset))
  const varint = readVarint(head)
  if (!varint || varint.value === 0) throw new CarReadError(`no CAR section starts at byte offset ${offset} (no valid length varint there)`, { blocks: 0, offset })
  if (varint.value > maxBlockSize + 4096 || offset + varint.size + varint.value > size) throw new CarReadError(`the section at byte offset ${offset} claims ${varint.value} bytes, more than the maximum block size or what is left of the input`, { blocks: 0, offset })
  const section = await source.readRange(offset + varint.size, varint.value)
  let cid, bytes
  try {
    [cid, bytes] = decodeSectionCid(section)
    // each its own copy: a read of bytes or a Blob may be a view of the caller's whole input (and a
    // Buffer's slice() is a view too: copied through a plain Uint8Array)
    const plain = new Uint8Array(section.buffer, section.byteOffset, section.byteLength)
    const cidLength = section.length - bytes.length
    cid = CID.decode(plain.slice(0, cidLength))
    bytes = plain.slice(cidLength)
  } catch (err) {
    throw new CarReadError(`the section at byte offset ${offset} does not start with a valid CID (${String(/** @type {any} */ (err)?.message ?? err).split('\n')[0]})`, { blocks: 0, offset })
  }
  if (missing(cid.code, cid.multihash.code)) await loadFor(cid.code, cid.multihash.code)
  return { cid, bytes, offset, hash: verifyBlock(cid, bytes) }
}
