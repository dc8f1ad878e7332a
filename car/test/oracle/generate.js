// CARs for the property oracle, built byte by byte from a seeded PRNG (not by this repo's writer):
// CARv1 and CARv2 (no index, IndexSorted, MultihashIndexSorted), DAG-CBOR, dag-pb, raw and identity
// blocks, CIDv0 and CIDv1, multihash digests of every length a CID may carry (identity 0-140 bytes,
// truncated sha2-256), duplicates, zero-length sections, long and non-minimal varints, index offsets
// past padding, roots present, missing, none or many. The same (seed, iteration) always gives the
// same bytes, so an input is replayed from its two numbers (run.js --seed S --only I).
import * as dagCbor from '@ipld/dag-cbor'
import * as dagPb from '@ipld/dag-pb'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { sha256 } from 'multiformats/hashes/sha2'
import { Rng } from '../../../test/fuzz/prng.js'
import { carV2, varint } from '../helpers/car-oracle.js'

export { Rng }

const INDEX_SORTED = 0x0400
const MULTIHASH_INDEX_SORTED = 0x0401
const IDENTITY = 0x00

/** The generators, by name: each makes one kind of CAR; run.js counts inputs per generator. */
export const GENERATORS = ['v1', 'v1-odd-framing', 'v2-none', 'v2-index-sorted', 'v2-multihash-index-sorted']

/**
 * @typedef {{ cid: CID, bytes: Uint8Array }} Block
 * @typedef {{ start: number, width: number, count: number }} IndexBucket where a bucket's records lie in the CAR
 * @typedef {{
 *   generator: string, bytes: Uint8Array, roots: CID[], blocks: Block[],
 *   features: string[], buckets: IndexBucket[]
 * }} Generated
 */

/** @param {Rng} rng @param {number} n */
function text (rng, n) {
  let s = ''
  for (let i = 0; i < n; i++) s += String.fromCharCode(97 + rng.int(26))
  return s
}

/**
 * A DAG-CBOR value (encoded canonically by @ipld/dag-cbor) linking to some earlier blocks.
 *
 * @param {Rng} rng @param {Block[]} earlier @param {number} depth
 * @returns {any}
 */
function value (rng, earlier, depth = 0) {
  const kind = rng.int(depth > 2 ? 6 : 8)
  switch (kind) {
    case 0: return rng.int(2) ? rng.range(-1000, 100000) : rng.u32() * 1024
    case 1: return text(rng, rng.size(40))
    case 2: return rng.bytes(rng.size(40))
    case 3: return rng.pick([true, false, null])
    case 4: return earlier.length ? rng.pick(earlier).cid : 'no link'
    case 5: return rng.float() * 1e6 + 0.5
    case 6: {
      const out = []
      for (let i = rng.size(6); i > 0; i--) out.push(value(rng, earlier, depth + 1))
      return out
    }
    default: {
      /** @type {Record<string, any>} */ const out = {}
      for (let i = rng.size(6); i > 0; i--) out[text(rng, rng.range(1, 8))] = value(rng, earlier, depth + 1)
      return out
    }
  }
}

/**
 * The CID of `bytes` under a random hash: sha2-256 (sometimes truncated: a multihash may carry
 * fewer digest bytes than the function makes), blake2b-256, or identity (only for small blocks).
 *
 * @param {Rng} rng @param {number} code @param {Uint8Array} bytes @param {string[]} features
 */
async function cidFor (rng, code, bytes, features) {
  const r = rng.int(20)
  if (r === 0 && bytes.length <= 140) { features.push('identity'); return CID.create(1, code, Digest.create(IDENTITY, bytes)) }
  if (r === 1) { features.push('blake2b-256'); return CID.create(1, code, await blake2b256.digest(bytes)) }
  const full = await sha256.digest(bytes)
  if (r === 2) {
    features.push('truncated-sha256')
    return CID.create(1, code, Digest.create(sha256.code, full.digest.subarray(0, rng.range(1, 31))))
  }
  if (code === dagPb.code && rng.chance(0.5)) { features.push('cidv0'); return CID.createV0(full) }
  return CID.create(1, code, full)
}

/** @param {Rng} rng @param {Block[]} earlier @param {string[]} features @returns {Promise<Block>} */
async function makeBlock (rng, earlier, features) {
  const kind = rng.int(10)
  if (kind < 4) {
    const bytes = dagCbor.encode(value(rng, earlier))
    features.push('dag-cbor')
    return { cid: await cidFor(rng, dagCbor.code, bytes, features), bytes }
  }
  if (kind < 6) {
    const links = earlier.filter(() => rng.chance(0.3)).slice(0, 4).map((b, i) => ({ Hash: b.cid, Name: `l${i}`, Tsize: b.bytes.length }))
    const bytes = dagPb.encode(dagPb.prepare({ Data: rng.bytes(rng.size(30)), Links: links }))
    features.push('dag-pb')
    return { cid: await cidFor(rng, dagPb.code, bytes, features), bytes }
  }
  if (kind === 6) {
    // an identity CID with a digest of any length 0-140 (its length varint 1 or 2 bytes)
    const bytes = rng.bytes(rng.int(4) === 0 ? rng.range(120, 140) : rng.size(20))
    features.push('identity')
    return { cid: CID.create(1, 0x55, Digest.create(IDENTITY, bytes)), bytes }
  }
  // raw: sometimes empty, sometimes big enough for a 3-byte section length varint
  const size = rng.int(30) === 0 ? rng.range(16384, 20000) : rng.int(8) === 0 ? 0 : rng.size(300)
  const bytes = rng.bytes(size)
  features.push('raw')
  return { cid: await cidFor(rng, 0x55, bytes, features), bytes }
}

/** A varint of n, minimal or padded with `extra` continuation bytes (non-minimal). @param {number} n @param {number} extra */
export function longVarint (n, extra) {
  const minimal = varint(n)
  if (extra === 0) return minimal
  const out = [...minimal]
  out[out.length - 1] |= 0x80
  for (let i = 1; i < extra; i++) out.push(0x80)
  out.push(0x00)
  return Uint8Array.from(out)
}

/** @param {Uint8Array[]} parts */
function concat (parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) { out.set(p, at); at += p.length }
  return out
}

/**
 * The CARv1 of roots and sections; `odd` adds framing oddities: non-minimal varints, a zero-length
 * section, a header with more fields.
 *
 * @param {Rng} rng @param {CID[]} roots @param {Block[]} sections @param {boolean} odd @param {string[]} features
 * @returns {{ v1: Uint8Array, offsets: number[] }} the bytes, and each section's offset in them
 */
function buildV1 (rng, roots, sections, odd, features) {
  const header = dagCbor.encode({ roots, version: 1 })
  const parts = []
  const headerExtra = odd && rng.chance(0.2) ? rng.range(1, 3) : 0
  if (headerExtra) features.push('non-minimal-varint')
  parts.push(longVarint(header.length, headerExtra), header)
  let at = parts[0].length + header.length
  const offsets = []
  const zeroAt = odd && rng.chance(0.3) ? rng.int(sections.length + 1) : -1
  for (let i = 0; i <= sections.length; i++) {
    if (i === zeroAt) {
      features.push('zero-length-section')
      parts.push(Uint8Array.of(0))
      at += 1
    }
    if (i === sections.length) break
    const { cid, bytes } = sections[i]
    const extra = odd && rng.chance(0.1) ? rng.range(1, 2) : 0
    if (extra) features.push('non-minimal-varint')
    const len = longVarint(cid.bytes.length + bytes.length, extra)
    offsets.push(at)
    parts.push(len, cid.bytes, bytes)
    at += len.length + cid.bytes.length + bytes.length
  }
  return { v1: concat(parts), offsets }
}

/**
 * A CARv2 index of the sections (every copy of a duplicate, identity CIDs left out, as go-car
 * writes it): IndexSorted, or MultihashIndexSorted, buckets by digest width, records sorted by digest.
 *
 * @param {number} format @param {Block[]} sections @param {number[]} offsets
 * @returns {{ bytes: Uint8Array, buckets: IndexBucket[] }} `buckets`: where the records lie, from the index's start
 */
function buildIndex (format, sections, offsets) {
  /** @type {Map<number, Map<number, { digest: Uint8Array, offset: number }[]>>} code -> width -> records */
  const byCode = new Map()
  sections.forEach(({ cid }, i) => {
    const code = cid.multihash.code
    if (code === IDENTITY) return
    const digest = cid.multihash.digest
    const widths = byCode.get(code) ?? new Map()
    byCode.set(code, widths)
    const records = widths.get(digest.length + 8) ?? []
    widths.set(digest.length + 8, records)
    records.push({ digest, offset: offsets[i] })
  })
  const parts = [varint(format)]
  let at = parts[0].length
  /** @type {IndexBucket[]} */ const buckets = []
  /** @param {Map<number, { digest: Uint8Array, offset: number }[]>} widths */
  const multiWidth = (widths) => {
    const head = new DataView(new ArrayBuffer(4))
    head.setInt32(0, widths.size, true)
    parts.push(new Uint8Array(head.buffer)); at += 4
    for (const width of [...widths.keys()].sort((a, b) => a - b)) {
      const records = /** @type {{ digest: Uint8Array, offset: number }[]} */ (widths.get(width))
      records.sort((a, b) => compareBytes(a.digest, b.digest))
      const bucketHead = new DataView(new ArrayBuffer(12))
      bucketHead.setUint32(0, width, true)
      bucketHead.setBigUint64(4, BigInt(width * records.length), true)
      parts.push(new Uint8Array(bucketHead.buffer)); at += 12
      const body = new Uint8Array(width * records.length)
      const view = new DataView(body.buffer)
      records.forEach((r, i) => { body.set(r.digest, i * width); view.setBigUint64(i * width + width - 8, BigInt(r.offset), true) })
      buckets.push({ start: at, width, count: records.length })
      parts.push(body); at += body.length
    }
  }
  if (format === INDEX_SORTED) {
    /** @type {Map<number, { digest: Uint8Array, offset: number }[]>} */ const all = new Map()
    for (const widths of byCode.values()) {
      for (const [w, records] of widths) all.set(w, [...(all.get(w) ?? []), ...records])
    }
    multiWidth(all)
  } else {
    const count = new DataView(new ArrayBuffer(4))
    count.setInt32(0, byCode.size, true)
    parts.push(new Uint8Array(count.buffer)); at += 4
    for (const code of [...byCode.keys()].sort((a, b) => a - b)) {
      const c = new DataView(new ArrayBuffer(8))
      c.setBigUint64(0, BigInt(code), true)
      parts.push(new Uint8Array(c.buffer)); at += 8
      multiWidth(/** @type {Map<number, any>} */ (byCode.get(code)))
    }
  }
  return { bytes: concat(parts), buckets }
}

/** @param {Uint8Array} a @param {Uint8Array} b */
export function compareBytes (a, b) {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return a.length - b.length
}

/**
 * One generated CAR, from (seed, iteration).
 *
 * @param {number} seed @param {number} iteration
 * @returns {Promise<Generated>}
 */
export async function generate (seed, iteration) {
  const rng = new Rng(seed, iteration)
  const generator = GENERATORS[rng.int(GENERATORS.length)]
  /** @type {string[]} */ const features = []
  /** @type {Block[]} */ const blocks = []
  for (let n = rng.range(0, 8); n > 0; n--) blocks.push(await makeBlock(rng, blocks, features))
  // sections: the blocks in a random order, some twice
  const sections = [...blocks]
  for (let i = sections.length - 1; i > 0; i--) { const j = rng.int(i + 1); [sections[i], sections[j]] = [sections[j], sections[i]] }
  if (blocks.length && rng.chance(0.25)) {
    features.push('duplicate')
    sections.splice(rng.int(sections.length + 1), 0, rng.pick(blocks))
  }
  // roots: one present, none, many, or missing (a CID of bytes not in the CAR)
  /** @type {CID[]} */ const roots = []
  const r = rng.int(10)
  if (r === 0) features.push('no-roots')
  else if (r === 1 || !blocks.length) {
    features.push('missing-root')
    roots.push(CID.create(1, 0x55, await sha256.digest(rng.bytes(8))))
  } else if (r === 2) {
    features.push('many-roots')
    for (let i = rng.range(2, 5); i > 0; i--) roots.push(rng.pick(blocks).cid)
  } else roots.push(rng.pick(blocks).cid)
  const odd = generator === 'v1-odd-framing'
  const { v1, offsets } = buildV1(rng, roots, sections, odd, features)
  if (!generator.startsWith('v2')) return { generator, bytes: v1, roots, blocks: sections, features, buckets: [] }
  const padding = rng.chance(0.3) ? rng.range(1, 40) : 0
  if (generator === 'v2-none') {
    return { generator, bytes: new Uint8Array(carV2(v1, { padding })), roots, blocks: sections, features, buckets: [] }
  }
  const index = buildIndex(generator === 'v2-index-sorted' ? INDEX_SORTED : MULTIHASH_INDEX_SORTED, sections, offsets)
  // the index right after the payload, or past some padding (an index offset anywhere after it)
  const gap = rng.chance(0.3) ? rng.range(1, 30) : 0
  if (gap) features.push('index-gap')
  const dataOffset = 51 + padding
  const indexOffset = dataOffset + v1.length + gap
  const bytes = new Uint8Array(carV2(v1, { padding, indexOffset, trailer: concat([new Uint8Array(gap), index.bytes]) }))
  const buckets = index.buckets.map((b) => ({ ...b, start: b.start + indexOffset }))
  return { generator, bytes, roots, blocks: sections, features, buckets }
}
