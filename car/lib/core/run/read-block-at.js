// One block read by position: what a summary's problem or onBlock points at, fetched again.
import { openSource } from '../read/source.js'
import { readSectionAt } from '../read/sections.js'
import { verifyBlock } from '../check/hash.js'
import { missing, loadFor } from '../check/on-demand.js'
import { DEFAULT_MAX_BLOCK_SIZE, MAX_MAX_BLOCK_SIZE } from '../read/limits.js'
import { checkOptionsObject, checkByteCount } from '../base/options.js'

/**
 * @typedef {import('../read/source.js').CarInput} CarInput
 * @typedef {import('../api/car-block-iterator.js').Block} Block
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
export async function readBlockAt (input, offset, options) {
  const o = checkOptionsObject('readBlockAt', options)
  const maxBlockSize = checkByteCount('readBlockAt', 'maxBlockSize', o.maxBlockSize, MAX_MAX_BLOCK_SIZE) ?? DEFAULT_MAX_BLOCK_SIZE
  const source = openSource(input)
  if (!source.seekable) throw new TypeError('readBlockAt needs an input it can read by position: a Blob, a File or bytes')
  const size = source.size ?? Infinity
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= size) throw new RangeError(`offset ${offset} is not inside the CAR (${size} bytes)`)
  const { cid, bytes } = await readSectionAt(source, offset, { size, maxBlockSize })
  if (missing(cid.code, cid.multihash.code)) await loadFor(cid.code, cid.multihash.code)
  return { cid, bytes, offset, hash: verifyBlock(cid, bytes) }
}
