// The CARv2 index, when a CARv2 file has one: parsed (the two formats go-car writes, IndexSorted 0x0400
// and MultihashIndexSorted 0x0401: little-endian counts, widths and offsets, records sorted by digest)
// and checked against the blocks actually read: every block (identity CIDs aside, which indexes may
// leave out) must be listed at its own section offset, and every entry (identity ones too) must name
// the block that starts where the entry says. @ipld/car reads CARv2 but not its index, so this is done here.
// Format: https://ipld.io/specs/transport/car/carv2/#index-format
import { toHex } from '../base/bytes.js'

const INDEX_SORTED = 0x0400
const MULTIHASH_INDEX_SORTED = 0x0401
const IDENTITY = 0x00

/**
 * @typedef {object} IndexProblem
 * @property {string} message one line, with the byte offset it is about
 * @property {number} offset byte offset in the file the problem is about
 *
 * @typedef {object} IndexCheck
 * @property {string} format 'IndexSorted' | 'MultihashIndexSorted' | the codec in hex
 * @property {number} entries index records read
 * @property {number} problems how many mismatches were found (the first few are in the summary's problems)
 */

/** Records of the blocks read, kept compactly (code, digest, offset) until the index is read. */
export class BlockRecords {
  constructor () {
    /** @type {string[]} */
    this.keys = []
    /** @type {number[]} section offsets relative to the data payload */
    this.offsets = []
    /** @type {boolean[]} */
    this.duplicate = []
    /** @type {Map<number, string>} identity-CID blocks by offset (code:digest), which an index may or may not list */
    this.identity = new Map()
  }

  /**
   * @param {number} code multihash code
   * @param {Uint8Array} digest
   * @param {number} offset the section's offset from the start of the data payload
   * @param {boolean} duplicate the same CID appeared earlier
   */
  add (code, digest, offset, duplicate) {
    const key = `${code.toString(16)}:${toHex(digest)}`
    if (code === IDENTITY) {
      this.identity.set(offset, key)
      return
    }
    this.keys.push(key)
    this.offsets.push(offset)
    this.duplicate.push(duplicate)
  }
}

/** An index that cannot be read as its format says. */
class BadIndex extends Error {}

/**
 * @param {Uint8Array} bytes the index, from the index offset to the end of the file
 * @returns {{ format: string, entries: { code: number | null, digest: string, offset: number }[] }}
 */
export function parseIndex (bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = 0
  const need = (/** @type {number} */ n, /** @type {string} */ what) => {
    if (at + n > bytes.length) throw new BadIndex(`the index ends inside ${what} (index byte ${at}, ${bytes.length} bytes in all)`)
  }
  // the codec: a varint
  let codec = 0
  for (let i = 0; ; i++) {
    need(1, 'its format code')
    const b = bytes[at++]
    codec += (b & 0x7f) * 2 ** (7 * i)
    if (b < 0x80) break
    if (i === 8) throw new BadIndex('its format code is not a valid varint')
  }
  /** @type {{ code: number | null, digest: string, offset: number }[]} */
  const entries = []
  const widths = (/** @type {number | null} */ code) => {
    need(4, 'a bucket count')
    const buckets = view.getInt32(at, true)
    at += 4
    if (buckets < 0) throw new BadIndex(`negative bucket count ${buckets}`)
    for (let k = 0; k < buckets; k++) {
      need(12, 'a bucket header')
      const width = view.getUint32(at, true)
      const length = Number(view.getBigUint64(at + 4, true))
      at += 12
      if (width < 8) throw new BadIndex(`record width ${width} is under 8`)
      if (length % width !== 0) throw new BadIndex(`bucket of ${length} bytes is not a whole number of ${width}-byte records`)
      need(length, `a bucket of ${length} bytes`)
      for (let end = at + length; at < end; at += width) {
        const digest = toHex(bytes.subarray(at, at + width - 8))
        const offset = Number(view.getBigUint64(at + width - 8, true))
        entries.push({ code, digest, offset })
      }
    }
  }
  if (codec === INDEX_SORTED) {
    widths(null)
  } else if (codec === MULTIHASH_INDEX_SORTED) {
    need(4, 'the multihash code count')
    const codes = view.getInt32(at, true)
    at += 4
    if (codes < 0) throw new BadIndex(`negative multihash code count ${codes}`)
    for (let c = 0; c < codes; c++) {
      need(8, 'a multihash code')
      const code = Number(view.getBigUint64(at, true))
      at += 8
      widths(code)
    }
  } else {
    throw new BadIndex(`its format 0x${codec.toString(16)} is not one this tool reads (IndexSorted 0x400, MultihashIndexSorted 0x401), so it was not checked`)
  }
  if (at !== bytes.length) throw new BadIndex(`${bytes.length - at} bytes follow its last record`)
  return { format: codec === INDEX_SORTED ? 'IndexSorted' : 'MultihashIndexSorted', entries }
}

/**
 * Compare an index with the blocks read.
 *
 * @param {Uint8Array} bytes the index bytes
 * @param {number} indexOffset where they start in the file
 * @param {number} dataOffset where the data payload starts in the file (index offsets count from it)
 * @param {BlockRecords} records
 * @param {boolean} full the header says the CAR is fully indexed: identity-CID blocks must be listed too
 * @param {(p: IndexProblem) => void} report
 * @returns {IndexCheck}
 */
export function checkIndex (bytes, indexOffset, dataOffset, records, full, report) {
  let parsed
  try {
    parsed = parseIndex(bytes)
  } catch (err) {
    if (!(err instanceof BadIndex)) throw err
    report({ message: `CARv2 index at byte offset ${indexOffset} cannot be read: ${err.message}`, offset: indexOffset })
    return { format: '?', entries: 0, problems: 1 }
  }
  const withCode = parsed.format === 'MultihashIndexSorted'
  /** a block's key as the index's format writes it: IndexSorted records hold no multihash code */
  const asListed = (/** @type {string} */ key) => withCode ? key : key.slice(key.indexOf(':') + 1)
  const blockKey = (/** @type {number} */ i) => asListed(records.keys[i])
  /** @type {Map<string, number[]>} digest key -> the offsets the index gives it */
  const listed = new Map()
  for (const e of parsed.entries) {
    const key = e.code === null ? e.digest : `${e.code.toString(16)}:${e.digest}`
    const offsets = listed.get(key)
    if (offsets) offsets.push(e.offset)
    else listed.set(key, [e.offset])
  }
  /** @type {Map<number, string>} section offset -> digest key, of the blocks read */
  const atOffset = new Map()
  let problems = 0
  for (let i = 0; i < records.keys.length; i++) {
    const key = blockKey(i)
    const offset = records.offsets[i]
    atOffset.set(offset, key)
    const offsets = listed.get(key)
    if (offsets?.includes(offset) || (offsets && records.duplicate[i])) continue
    problems++
    report({
      offset: dataOffset + offset,
      message: offsets
        ? `CARv2 index gives the block at byte offset ${dataOffset + offset} the offset${offsets.length > 1 ? 's' : ''} ${offsets.map((o) => dataOffset + o).join(', ')}`
        : `CARv2 index does not list the block at byte offset ${dataOffset + offset}`
    })
  }
  // an identity-CID block need not be listed, but an entry that lists one must name it exactly
  for (const [offset, key] of records.identity) if (!atOffset.has(offset)) atOffset.set(offset, asListed(key))
  for (const e of parsed.entries) {
    const key = e.code === null ? e.digest : `${e.code.toString(16)}:${e.digest}`
    const there = atOffset.get(e.offset)
    if (there === key) continue
    problems++
    report({
      offset: dataOffset + e.offset,
      message: there === undefined
        ? `CARv2 index lists a block at byte offset ${dataOffset + e.offset}, where no block starts`
        : `CARv2 index names a different block than the one at byte offset ${dataOffset + e.offset}`
    })
  }
  if (full) {
    const listedOffsets = new Set(parsed.entries.map((e) => e.offset))
    for (const offset of records.identity.keys()) {
      if (listedOffsets.has(offset)) continue
      problems++
      report({ offset: dataOffset + offset, message: `CARv2 index does not list the identity-CID block at byte offset ${dataOffset + offset}, though the header says the CAR is fully indexed` })
    }
  }
  return { format: parsed.format, entries: parsed.entries.length, problems }
}
