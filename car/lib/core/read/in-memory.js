// A whole CAR in memory, read synchronously: the header and where each section lies, for the
// readers that must answer at once (CarBufferReader). The same checks as open-car.js's openCar,
// with its messages: every length the bytes claim is checked against what is left of them, and
// against the maximum block size, before anything is cut out of them; a CID is taken only in the
// one form its bytes have (decodeSectionCid). No block is copied here: the caller copies what it keeps.
import { CID } from 'multiformats/cid'
import { CarReadError, readVarint, decodeSectionCid, sectionError } from './open-car.js'
import { plainCid } from './sections.js'
import { plainCidEnd } from './section-places.js'
import { MAX_BLOCK_SIZE_OPTION } from './read-errors.js'
import { DEFAULT_MAX_BLOCK_SIZE, CID_ROOM, bytesText } from './limits.js'
import { V2_PRAGMA, v1HeaderRoots, isV2Pragma, nestedV2, checkV2Header } from './header.js'

const V2_HEADER_END = V2_PRAGMA.length + 40

/**
 * @typedef {{ version: 1 | 2, roots: CID[], dataStart: number, dataEnd: number }} CarBytesHeader
 *   dataStart: where the first section starts; dataEnd: where the sections end (a CARv2: its payload's end)
 * @typedef {(cid: CID | null, offset: number, cidStart: number, blockOffset: number, end: number, index: number) => void} SectionVisit
 *   a section: its CID (null when not asked for: it is bytes[cidStart, blockOffset)), where the
 *   section starts, where its CID starts, where its block starts and where it ends, and its number
 */

/**
 * @param {Uint8Array} bytes
 * @param {{ maxBlockSize?: number }} [options]
 * @returns {CarBytesHeader}
 */
export function readCarHeader (bytes, { maxBlockSize = DEFAULT_MAX_BLOCK_SIZE } = {}) {
  const maxSection = maxBlockSize + CID_ROOM
  /** @param {string} what */
  const bad = (what) => new CarReadError(`not a CAR file: bad header (${what})`, { blocks: 0, offset: 0 })
  /** the header's length claim at `at`, checked against `end`: where its bytes end */
  const claim = (/** @type {number} */ at, /** @type {number} */ end, /** @type {string} */ context) => {
    if (at >= end) throw bad(at === 0 ? 'the input is empty' : `${context}: the input ends at byte ${at}`)
    const varint = readVarint(bytes.subarray(at, Math.min(at + 9, end)))
    if (!varint) throw bad(`${context}: malformed length varint at byte ${at}`)
    if (varint.value === 0) throw bad(`${context}: length 0 at byte ${at}`)
    const left = end - at - varint.size
    if (varint.value > left) throw bad(`${context} at byte ${at} claims ${varint.value} bytes, but only ${left} are left in the input`)
    if (varint.value > maxSection) throw bad(`${context} at byte ${at} claims ${varint.value} bytes, more than the maximum block size (${bytesText(maxBlockSize)}, ${MAX_BLOCK_SIZE_OPTION})`)
    return { start: at + varint.size, end: at + varint.size + varint.value }
  }
  let first = claim(0, bytes.length, 'header')
  /** @type {1 | 2} */
  let version = 1
  let dataStart = 0
  let dataEnd = bytes.length
  if (isV2Pragma(bytes)) {
    if (bytes.length < V2_HEADER_END) throw bad(`CARv2 header cut short: the input ends before byte ${V2_HEADER_END}`)
    // the one check of the fixed header, as the streaming reader makes it (offsets, index offset)
    const { dataOffset, dataSize } = checkV2Header(bytes.subarray(V2_PRAGMA.length, V2_HEADER_END), bytes.length)
    version = 2
    dataStart = dataOffset
    dataEnd = dataOffset + dataSize
    first = claim(dataStart, dataEnd, 'CARv2 payload header')
    if (isV2Pragma(bytes.subarray(dataStart, dataEnd))) throw nestedV2(dataStart, dataSize)
  }
  const roots = v1HeaderRoots(bytes.subarray(first.start, first.end), `the header at byte offset ${dataStart}`)
  return { version, roots, dataStart: first.end, dataEnd }
}

/**
 * Every section between `start` and `end`, in order, to `visit`; the first bad one throws the
 * CarReadError openCar's blocks() gives for it. A plain CID is read (sections.js plainCid, or only
 * where it ends: section-places.js plainCidEnd) straight from the bytes; any other goes through
 * decodeSectionCid, which takes or refuses it. No object per section but the CID asked for.
 *
 * @param {Uint8Array} bytes
 * @param {number} start
 * @param {number} end
 * @param {SectionVisit} visit
 * @param {{ maxBlockSize?: number, version?: number, cids?: 'copy' | 'view' | 'none' }} [options] cids:
 *   each CID made with its bytes in arrays of their own (for CIDs handed out), as views of `bytes`,
 *   or not made (default 'view')
 */
export function forEachSection (bytes, start, end, visit, { maxBlockSize = DEFAULT_MAX_BLOCK_SIZE, version = 1, cids = 'view' } = {}) {
  const maxSection = maxBlockSize + CID_ROOM
  const container = version === 2 ? 'the CARv2 data payload' : 'the input'
  // a Buffer's slice() is a view: plainCid's copies are made through a plain Uint8Array
  const plain = bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let count = 0
  for (let at = start; at < end;) {
    /** @param {string} what */
    const corrupt = (what) => new CarReadError(`CAR is truncated or corrupt after ${count} complete blocks: the section at byte offset ${at} ${what}`, { blocks: count, offset: at })
    // the length varint: one or two bytes for any block under 16 KiB, read without an object
    let length, size
    if (bytes[at] < 0x80) {
      length = bytes[at]
      size = 1
    } else if (at + 1 < end && bytes[at + 1] < 0x80) {
      length = (bytes[at] & 0x7f) + bytes[at + 1] * 128
      size = 2
    } else {
      const varint = readVarint(bytes.subarray(at, Math.min(at + 9, end)))
      if (!varint) throw corrupt(end - at < 9 && bytes[end - 1] >= 0x80 ? `has a length varint cut short by the end of ${container}` : 'has a malformed length varint')
      length = varint.value
      size = varint.size
    }
    if (length === 0) throw corrupt('has length 0')
    const left = end - at - size
    if (length > left) throw corrupt(`claims ${length} bytes, but only ${left} are left in ${container}`)
    if (length > maxSection) throw sectionError(at, count, 'too-big', '', length, maxBlockSize)
    const sectionStart = at + size
    const sectionEnd = sectionStart + length
    let cid = null
    let blockOffset = -1
    if (cids === 'none') {
      blockOffset = plainCidEnd(bytes, sectionStart, sectionEnd)
    } else {
      cid = plainCid(plain, sectionStart, sectionEnd, cids === 'copy')
      if (cid !== null) blockOffset = sectionStart + cid.bytes.length
    }
    if (blockOffset < 0) {
      let rest
      try {
        [cid, rest] = decodeSectionCid(bytes.subarray(sectionStart, sectionEnd))
      } catch (err) {
        throw sectionError(at, count, 'cid', String(/** @type {any} */ (err)?.message ?? err).split('\n')[0], 0, maxBlockSize)
      }
      blockOffset = sectionEnd - rest.length
      cid = cids === 'copy' ? CID.decode(plain.slice(sectionStart, blockOffset)) : cids === 'view' ? cid : null
    }
    if (sectionEnd - blockOffset > maxBlockSize) throw sectionError(at, count, 'too-big', '', sectionEnd - blockOffset, maxBlockSize)
    visit(cid, at, sectionStart, blockOffset, sectionEnd, count)
    count++
    at = sectionEnd
  }
}
