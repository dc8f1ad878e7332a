// The CARv2 index, when a CARv2 file has one: parsed (the two formats go-car writes, IndexSorted 0x0400
// and MultihashIndexSorted 0x0401: little-endian counts, widths and offsets, records sorted by digest)
// and checked against the blocks actually read: every block (identity CIDs aside, which indexes may
// leave out) must be listed at its own section offset, every entry (identity ones too) must name
// the block that starts where the entry says, and the records must be in the order the format
// gives them (readers binary-search a bucket). @ipld/car reads CARv2 but not its index, so this is done here.
// Format: https://ipld.io/specs/transport/car/carv2/#index-format
//
// Cost: linear but for sorts of typed arrays. Each block read keeps its digest's bytes in one growing
// buffer per digest length, its offset, a byte for its multihash code and a byte for "a duplicate"
// (about 42 bytes for a sha2-256 block); the index's records are read where they lie, with their
// offsets in a typed array. At the end both sides are sorted by key then offset and merged in order.
import { CID } from 'multiformats/cid'
import { uvarint, varintEnd } from '../base/varint.js'
import { INDEX_OFFSETS_LISTED as OFFSETS_LISTED, INDEX_RECORDS_FIRST_CAPACITY as FIRST_CAPACITY } from './limits.js'

const INDEX_SORTED = 0x0400
const MULTIHASH_INDEX_SORTED = 0x0401
const IDENTITY = 0x00
const SHA2_256 = 0x12

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

/** The blocks whose digests have one length, in CAR order: digests end to end, offsets, code ids, duplicate flags. */
class DigestGroup {
  /** @param {number} length @param {boolean} wideCodes more than 256 multihash codes seen */
  constructor (length, wideCodes) {
    this.length = length
    this.count = 0
    this.digests = new Uint8Array(length * FIRST_CAPACITY)
    /** section offsets relative to the data payload: increasing, as blocks come in CAR order */
    this.offsets = new Float64Array(FIRST_CAPACITY)
    /** @type {Uint8Array | Uint32Array} index in BlockRecords#codes */
    this.codeIds = wideCodes ? new Uint32Array(FIRST_CAPACITY) : new Uint8Array(FIRST_CAPACITY)
    /** 1: the same CID appeared earlier */
    this.duplicate = new Uint8Array(FIRST_CAPACITY)
  }

  grow () {
    const capacity = this.offsets.length * 2
    const digests = new Uint8Array(this.length * capacity)
    digests.set(this.digests)
    this.digests = digests
    const offsets = new Float64Array(capacity)
    offsets.set(this.offsets)
    this.offsets = offsets
    const codeIds = this.codeIds instanceof Uint8Array ? new Uint8Array(capacity) : new Uint32Array(capacity)
    codeIds.set(this.codeIds)
    this.codeIds = codeIds
    const duplicate = new Uint8Array(capacity)
    duplicate.set(this.duplicate)
    this.duplicate = duplicate
  }

  widenCodes () {
    this.codeIds = Uint32Array.from(this.codeIds)
  }
}

/** Records of the blocks read, kept compactly (no object or string per block) until the index is read. */
export class BlockRecords {
  constructor () {
    /** @type {Map<number, DigestGroup>} by digest length */
    this.groups = new Map()
    /** @type {number[]} the multihash codes seen, by id */
    this.codes = []
    /** @type {Map<number, number>} code -> id */
    this.codeIds = new Map()
    /** @type {DigestGroup | null} the last group added to (almost every block has the same length) */
    this.last = null
    this.lastCode = -1
    this.lastCodeId = 0
  }

  /**
   * @param {Uint8Array} bytes
   * @param {number} from
   * @param {number} to a block's CID is bytes[from, to)
   * @param {number} offset the section's offset from the start of the data payload
   * @param {boolean} duplicate the same CID appeared earlier
   */
  addCid (bytes, from, to, offset, duplicate) {
    if (to - from === 34 && bytes[from] === 0x12 && bytes[from + 1] === 0x20) { // CIDv0: a bare sha2-256 multihash
      this.add(SHA2_256, bytes, from + 2, to, offset, duplicate)
      return
    }
    // CIDv1: version, codec, hash code, digest length, digest
    if (uvarint(bytes, from, to) === 1 && uvarint(bytes, varintEnd, to) !== -1) {
      const code = uvarint(bytes, varintEnd, to)
      const length = code === -1 ? -1 : uvarint(bytes, varintEnd, to)
      if (length !== -1 && varintEnd + length === to) {
        this.add(code, bytes, varintEnd, to, offset, duplicate)
        return
      }
    }
    // a varint longer than uvarint reads: multiformats' reader
    const { multihash } = CID.decode(bytes.subarray(from, to))
    this.add(multihash.code, multihash.digest, 0, multihash.digest.length, offset, duplicate)
  }

  /**
   * @param {number} code multihash code
   * @param {Uint8Array} bytes
   * @param {number} from
   * @param {number} to the digest is bytes[from, to)
   * @param {number} offset the section's offset from the start of the data payload
   * @param {boolean} duplicate the same CID appeared earlier
   */
  add (code, bytes, from, to, offset, duplicate) {
    const length = to - from
    let group = this.last
    if (group === null || group.length !== length) {
      group = this.groups.get(length) ?? null
      if (group === null) {
        group = new DigestGroup(length, this.codes.length > 256)
        this.groups.set(length, group)
      }
      this.last = group
    }
    if (code !== this.lastCode) {
      let id = this.codeIds.get(code)
      if (id === undefined) {
        id = this.codes.length
        this.codes.push(code)
        this.codeIds.set(code, id)
        if (id === 256) for (const g of this.groups.values()) g.widenCodes()
      }
      this.lastCode = code
      this.lastCodeId = id
    }
    if (group.count === group.offsets.length) group.grow()
    const i = group.count++
    group.digests.set(bytes.subarray(from, to), i * length)
    group.offsets[i] = offset
    group.codeIds[i] = this.lastCodeId
    group.duplicate[i] = duplicate ? 1 : 0
  }
}

/** An index that cannot be read as its format says. */
class BadIndex extends Error {}

/**
 * @typedef {object} IndexWalker what walkIndex reports as it goes
 * @property {(code: number, at: number) => void} [code] a MultihashIndexSorted code, at index byte `at`
 * @property {(code: number | null, width: number, at: number, first: number, count: number) => void} bucket
 *   a bucket of `count` records of `width` bytes from index byte `first`, its header at `at`
 */

/**
 * Walk the index's layout, checking that it can be read as its format says.
 *
 * @param {Uint8Array} bytes the index, from the index offset to the end of the file
 * @param {IndexWalker} walker
 * @returns {string} the format
 */
function walkIndex (bytes, walker) {
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
  const widths = (/** @type {number | null} */ code) => {
    need(4, 'a bucket count')
    const buckets = view.getInt32(at, true)
    at += 4
    if (buckets < 0) throw new BadIndex(`negative bucket count ${buckets}`)
    for (let k = 0; k < buckets; k++) {
      need(12, 'a bucket header')
      const headerAt = at
      const width = view.getUint32(at, true)
      const length = Number(view.getBigUint64(at + 4, true))
      at += 12
      if (width < 8) throw new BadIndex(`record width ${width} is under 8`)
      if (length % width !== 0) throw new BadIndex(`bucket of ${length} bytes is not a whole number of ${width}-byte records`)
      need(length, `a bucket of ${length} bytes`)
      walker.bucket(code, width, headerAt, at, length / width)
      at += length
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
      walker.code?.(code, at)
      at += 8
      widths(code)
    }
  } else {
    throw new BadIndex(`its format 0x${codec.toString(16)} is not one this tool reads (IndexSorted 0x400, MultihashIndexSorted 0x401), so it was not checked`)
  }
  if (at !== bytes.length) throw new BadIndex(`${bytes.length - at} bytes follow its last record`)
  return codec === INDEX_SORTED ? 'IndexSorted' : 'MultihashIndexSorted'
}

/**
 * The index's records where they lie: entry e (in file order) is the record at index byte at[e],
 * naming the block at offset[e] of the data payload.
 *
 * @param {Uint8Array} bytes
 */
export function parseIndex (bytes) {
  /** @type {{ code: number | null, width: number, first: number, count: number, entry: number }[]} the non-empty buckets, in file order */
  const buckets = []
  let entries = 0
  const format = walkIndex(bytes, {
    bucket (code, width, _at, first, count) {
      if (count === 0) return
      buckets.push({ code, width, first, count, entry: entries })
      entries += count
    }
  })
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const at = bytes.length <= 0xffffffff ? new Uint32Array(entries) : new Float64Array(entries)
  const offset = new Float64Array(entries)
  /** @type {Uint32Array} the bucket of each entry */
  const bucket = new Uint32Array(entries)
  for (let b = 0; b < buckets.length; b++) {
    const { width, first, count, entry } = buckets[b]
    for (let k = 0; k < count; k++) {
      const record = first + k * width
      at[entry + k] = record
      offset[entry + k] = view.getUint32(record + width - 8, true) + view.getUint32(record + width - 4, true) * 2 ** 32
      bucket[entry + k] = b
    }
  }
  return { format, buckets, entries, at, offset, bucket }
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
  /** @type {ReturnType<typeof parseIndex>} */
  let parsed
  try {
    parsed = parseIndex(bytes)
  } catch (err) {
    if (!(err instanceof BadIndex)) throw err
    report({ message: `CARv2 index at byte offset ${indexOffset} cannot be read: ${err.message}`, offset: indexOffset })
    return { format: '?', entries: 0, problems: 1 }
  }
  let problems = 0
  const problem = (/** @type {number} */ offset, /** @type {string} */ message) => {
    problems++
    report({ offset, message })
  }
  const { buckets, entries } = parsed
  const withCode = parsed.format === 'MultihashIndexSorted'
  /** @type {Matching} */
  const matching = {
    bytes,
    parsed,
    withCode,
    codes: records.codes,
    dataOffset,
    matched: new Uint8Array(entries),
    unlisted: { offsets: [], listed: [] },
    unnamedIdentity: []
  }
  const { matched, unlisted, unnamedIdentity } = matching

  /** @type {Map<number, number[]>} digest length -> the buckets of that width */
  const bucketsByLength = new Map()
  for (let b = 0; b < buckets.length; b++) {
    const length = buckets[b].width - 8
    const same = bucketsByLength.get(length)
    if (same) same.push(b)
    else bucketsByLength.set(length, [b])
  }
  for (const length of new Set([...records.groups.keys(), ...bucketsByLength.keys()])) {
    matchLength(matching, length, records.groups.get(length), bucketsByLength.get(length) ?? [])
  }

  // the blocks the index misses, in CAR order
  const byOffset = Array.from(unlisted.offsets.keys()).sort((a, b) => unlisted.offsets[a] - unlisted.offsets[b])
  for (const k of byOffset) {
    const at = dataOffset + unlisted.offsets[k]
    const listed = unlisted.listed[k]
    problem(at, listed === null
      ? `CARv2 index does not list the block at byte offset ${at}`
      : `CARv2 index gives the block at byte offset ${at} the offset${listed.count > 1 ? 's' : ''} ${listed.text}`)
  }
  // the entries that name no block where they say, in file order
  /** @type {Float64Array | null} every block's offset, sorted: made only when an entry is wrong */
  let blockOffsets = null
  for (let e = 0; e < entries; e++) {
    if (matched[e]) continue
    blockOffsets ??= allBlockOffsets(records)
    const offset = parsed.offset[e]
    const at = dataOffset + offset
    problem(at, has(blockOffsets, offset)
      ? `CARv2 index names a different block than the one at byte offset ${at}`
      : `CARv2 index lists a block at byte offset ${at}, where no block starts`)
  }
  // an identity-CID block need not be listed, unless the header says the CAR is fully indexed
  if (full && unnamedIdentity.length > 0) {
    const listedOffsets = parsed.offset.slice().sort()
    for (const offset of Float64Array.from(unnamedIdentity).sort()) {
      if (has(listedOffsets, offset)) continue // listed, as another block: a wrong entry, reported above
      problem(dataOffset + offset, `CARv2 index does not list the identity-CID block at byte offset ${dataOffset + offset}, though the header says the CAR is fully indexed`)
    }
  }
  reportOrder(bytes, indexOffset, withCode, problem)
  return { format: parsed.format, entries, problems }
}

/**
 * @typedef {object} Matching checkIndex's matching of the index's entries with the blocks
 * @property {Uint8Array} bytes the index bytes
 * @property {ReturnType<typeof parseIndex>} parsed
 * @property {boolean} withCode the entries have multihash codes (MultihashIndexSorted)
 * @property {BlockRecords['codes']} codes
 * @property {number} dataOffset
 * @property {Uint8Array} matched 1: an entry names the block at its offset
 * @property {{ offsets: number[], listed: ({ text: string, count: number } | null)[] }} unlisted blocks
 *   the index gives other offsets or none: their offsets, and the offsets listed for their key
 * @property {number[]} unnamedIdentity identity-CID blocks no entry names
 */

/**
 * Sort both sides of one digest length by key, then offset, and merge them.
 *
 * @param {Matching} m what checkIndex matches, and what it learns
 * @param {number} length
 * @param {DigestGroup | undefined} group the blocks
 * @param {number[]} lengthBuckets the index's buckets of that length
 */
function matchLength (m, length, group, lengthBuckets) {
  const { bytes, parsed, withCode, codes, dataOffset, matched, unlisted, unnamedIdentity } = m
  const { buckets } = parsed
  const digests = group?.digests ?? new Uint8Array(0)
  const codeIds = group?.codeIds ?? new Uint8Array(0)
  const offsets = group?.offsets ?? new Float64Array(0)
  const duplicate = group?.duplicate ?? new Uint8Array(0)
  const blocks = sortedBlocks(group, withCode, codes)
  const ids = sortedEntries(bytes, parsed, lengthBuckets, withCode)
  const blockCode = (/** @type {number} */ i) => codes[codeIds[i]]
  const entryCode = (/** @type {number} */ e) => /** @type {number} */ (buckets[parsed.bucket[e]].code)
  const blockKeyVsEntry = (/** @type {number} */ i, /** @type {number} */ e) =>
    (withCode ? blockCode(i) - entryCode(e) : 0) || compareBytes(digests, i * length, bytes, parsed.at[e], length)
  const sameBlockKey = (/** @type {number} */ i, /** @type {number} */ j) =>
    (!withCode || blockCode(i) === blockCode(j)) && compareBytes(digests, i * length, digests, j * length, length) === 0
  const sameEntryKey = (/** @type {number} */ e, /** @type {number} */ f) =>
    (!withCode || entryCode(e) === entryCode(f)) && compareBytes(bytes, parsed.at[e], bytes, parsed.at[f], length) === 0
  let p = 0
  let q = 0
  while (p < blocks.length) {
    const order = q === ids.length ? -1 : blockKeyVsEntry(blocks[p], ids[q])
    if (order > 0) { q++; continue } // an entry whose key no block has: not matched
    if (order < 0) { // a block whose key the index does not list
      const b = blocks[p++]
      if (blockCode(b) === IDENTITY) unnamedIdentity.push(offsets[b])
      else { unlisted.offsets.push(offsets[b]); unlisted.listed.push(null) }
      continue
    }
    // the blocks [p, pEnd) and the entries [q, qEnd) have the same key, each side by offset
    let pEnd = p + 1
    while (pEnd < blocks.length && sameBlockKey(blocks[p], blocks[pEnd])) pEnd++
    let qEnd = q + 1
    while (qEnd < ids.length && sameEntryKey(ids[q], ids[qEnd])) qEnd++
    /** @type {{ text: string, count: number } | null} the key's offsets as a message gives them, made at most once */
    let listed = null
    let r = q
    for (; p < pEnd; p++) {
      const b = blocks[p]
      const offset = offsets[b]
      while (r < qEnd && parsed.offset[ids[r]] < offset) r++
      let named = false
      for (; r < qEnd && parsed.offset[ids[r]] === offset; r++) { matched[ids[r]] = 1; named = true }
      if (named) continue
      if (blockCode(b) === IDENTITY) { unnamedIdentity.push(offset); continue }
      if (duplicate[b]) continue // a later copy: listing the CID once is enough
      listed ??= { text: offsetsText(ids.subarray(q, qEnd), parsed.offset, dataOffset), count: qEnd - q }
      unlisted.offsets.push(offset)
      unlisted.listed.push(listed)
    }
    q = qEnd
  }
}

/**
 * A group's blocks, sorted by key (multihash code when the index has them, then digest), then offset.
 *
 * @param {DigestGroup | undefined} group
 * @param {boolean} withCode
 * @param {number[]} codes
 */
function sortedBlocks (group, withCode, codes) {
  if (!group) return new Uint32Array(0)
  const { length, digests, codeIds, count } = group
  // A native sort of numbers, no comparator: each block's number (its place in CAR order, so its
  // offset's order) below its digest's first bytes, as many as fit in a double's 53 bits.
  const numberBits = Math.max(1, Math.ceil(Math.log2(count + 1)))
  const prefixLength = Math.min(length, 4, Math.floor((53 - numberBits) / 8))
  const scale = 2 ** numberBits
  const keys = new Float64Array(count)
  for (let i = 0; i < count; i++) {
    let prefix = 0
    for (let k = 0; k < prefixLength; k++) prefix = prefix * 256 + digests[i * length + k]
    keys[i] = prefix * scale + i
  }
  keys.sort()
  const order = new Uint32Array(count)
  for (let k = 0; k < count; k++) order[k] = keys[k] % scale
  if (prefixLength < length) {
    // blocks with the same first bytes: by the rest of their digests (copies of one block are so already)
    const byRest = (/** @type {number} */ i, /** @type {number} */ j) =>
      compareBytes(digests, i * length + prefixLength, digests, j * length + prefixLength, length - prefixLength) || i - j
    let start = 0
    for (let k = 1; k <= count; k++) {
      if (k < count && Math.floor(keys[k] / scale) === Math.floor(keys[start] / scale)) continue
      if (k - start > 1) sortRun(order.subarray(start, k), byRest)
      start = k
    }
  }
  return withCode && codes.length > 1 ? byCodeStable(order, codeIds, codes) : order
}

/**
 * `order` ordered by multihash code, keeping the order within each code (a counting sort).
 *
 * @param {Uint32Array} order
 * @param {Uint8Array | Uint32Array} codeIds
 * @param {number[]} codes
 */
function byCodeStable (order, codeIds, codes) {
  const ids = codes.map((_, id) => id).sort((a, b) => codes[a] - codes[b])
  const rank = new Uint32Array(codes.length)
  ids.forEach((id, r) => { rank[id] = r })
  const starts = new Float64Array(codes.length + 1)
  for (let k = 0; k < order.length; k++) starts[rank[codeIds[order[k]]] + 1]++
  for (let r = 1; r <= codes.length; r++) starts[r] += starts[r - 1]
  const out = new Uint32Array(order.length)
  for (let k = 0; k < order.length; k++) out[starts[rank[codeIds[order[k]]]]++] = order[k]
  return out
}

/**
 * Sort a run in place, unless it is sorted already (checked in one pass).
 *
 * @param {Uint32Array} run
 * @param {(a: number, b: number) => number} compare
 */
function sortRun (run, compare) {
  for (let k = 1; k < run.length; k++) {
    if (compare(run[k - 1], run[k]) > 0) {
      run.sort(compare)
      return
    }
  }
}

/**
 * The entries of some buckets, sorted by key, then offset. A valid index has them by key already;
 * only the offsets of one key may be in any order (go-car's sort is not stable).
 *
 * @param {Uint8Array} bytes
 * @param {ReturnType<typeof parseIndex>} parsed
 * @param {number[]} lengthBuckets
 * @param {boolean} withCode
 */
function sortedEntries (bytes, parsed, lengthBuckets, withCode) {
  const { buckets, at, offset, bucket } = parsed
  let count = 0
  for (const b of lengthBuckets) count += buckets[b].count
  const ids = new Uint32Array(count)
  let n = 0
  for (const b of lengthBuckets) for (let k = 0; k < buckets[b].count; k++) ids[n++] = buckets[b].entry + k
  if (count === 0) return ids
  const length = buckets[lengthBuckets[0]].width - 8
  const code = (/** @type {number} */ e) => /** @type {number} */ (buckets[bucket[e]].code)
  const byKey = (/** @type {number} */ e, /** @type {number} */ f) =>
    (withCode ? code(e) - code(f) : 0) || compareBytes(bytes, at[e], bytes, at[f], length)
  const byOffset = (/** @type {number} */ e, /** @type {number} */ f) => offset[e] - offset[f]
  let start = 0
  for (let k = 1; k < count; k++) {
    const order = byKey(ids[k - 1], ids[k])
    if (order > 0) return ids.sort((e, f) => byKey(e, f) || byOffset(e, f)) // not by key (the order check says so): sort the lot
    if (order < 0) {
      sortRun(ids.subarray(start, k), byOffset)
      start = k
    }
  }
  sortRun(ids.subarray(start, count), byOffset)
  return ids
}

/**
 * The offsets an index gives one key, in file order, as a message lists them.
 *
 * @param {Uint32Array} ids the key's entries
 * @param {Float64Array} offsets
 * @param {number} dataOffset
 */
function offsetsText (ids, offsets, dataOffset) {
  const inFileOrder = ids.slice().sort()
  const shown = Array.from(inFileOrder.subarray(0, OFFSETS_LISTED), (e) => dataOffset + offsets[e]).join(', ')
  return inFileOrder.length > OFFSETS_LISTED ? `${shown} and ${inFileOrder.length - OFFSETS_LISTED} more` : shown
}

/** @param {BlockRecords} records every block's offset (identity CIDs' too), sorted */
function allBlockOffsets (records) {
  let count = 0
  for (const g of records.groups.values()) count += g.count
  const all = new Float64Array(count)
  let n = 0
  for (const g of records.groups.values()) { all.set(g.offsets.subarray(0, g.count), n); n += g.count }
  return all.sort()
}

/** @param {Float64Array} sorted @param {number} value */
function has (sorted, value) {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (sorted[mid] < value) low = mid + 1
    else high = mid
  }
  return low < sorted.length && sorted[low] === value
}

/**
 * The order the CARv2 spec gives an index, which go-car writes and readers rely on to binary-search it:
 * multihash codes ascending, each once; in each, buckets by record width ascending, each width once
 * (a reader keeps one bucket per width); in each bucket, records by digest bytes (equal digests in any order).
 *
 * @param {Uint8Array} bytes a readable index
 * @param {number} indexOffset
 * @param {boolean} withCode
 * @param {(offset: number, message: string) => void} problem
 */
function reportOrder (bytes, indexOffset, withCode, problem) {
  const format = withCode ? 'MultihashIndexSorted' : 'IndexSorted'
  let lastCode = -1
  let lastWidth = -1
  walkIndex(bytes, {
    code (code, at) {
      if (code <= lastCode) {
        problem(indexOffset + at, `CARv2 index multihash code 0x${code.toString(16)} at byte offset ${indexOffset + at} is out of order: it follows code 0x${lastCode.toString(16)}, but ${format} lists each code once, smallest first; rewrite the index (go-car: car index)`)
      }
      lastCode = Math.max(lastCode, code)
      lastWidth = -1
    },
    bucket (_code, width, at, first, count) {
      if (width <= lastWidth) {
        problem(indexOffset + at, `CARv2 index bucket of ${width}-byte records at byte offset ${indexOffset + at} is out of order: it follows one of ${lastWidth}-byte records, but ${format} has one bucket per width, smallest first${withCode ? ' (for each multihash code)' : ''}; rewrite the index (go-car: car index)`)
      }
      lastWidth = Math.max(lastWidth, width)
      const length = width - 8
      for (let k = 1; k < count; k++) {
        const record = first + k * width
        if (compareBytes(bytes, record - width, bytes, record, length) <= 0) continue
        problem(indexOffset + record, `CARv2 index record at byte offset ${indexOffset + record} is out of order: its digest sorts before the previous record's, but ${format} keeps each bucket's records sorted by digest so that readers can binary-search them (a reader would miss blocks); rewrite the index (go-car: car index)`)
      }
    }
  })
}

/**
 * @param {Uint8Array} a @param {number} aFrom
 * @param {Uint8Array} b @param {number} bFrom
 * @param {number} length
 * @returns {number} below 0, 0 or above 0 as a[aFrom, aFrom + length) sorts before, with or after b's bytes
 */
function compareBytes (a, aFrom, b, bFrom, length) {
  for (let k = 0; k < length; k++) {
    const d = a[aFrom + k] - b[bFrom + k]
    if (d !== 0) return d
  }
  return 0
}
