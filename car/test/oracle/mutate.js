// Mutations of a generated CAR: a bit flipped, the end cut off, bytes inserted, a stretch of the
// CAR copied over another place (a splice), two records of a CARv2 index swapped (out of order),
// a length varint (the header's or a section's) written longer than its shortest form, the CAR
// otherwise kept whole (a CARv2's sizes and index offsets moved to match).
// Each takes the PRNG that made the CAR, so (seed, iteration) still names the input.
import { longVarint } from './generate.js'

/** The mutations, by name (run.js counts inputs per mutation; 'none' is the CAR as generated). */
export const MUTATIONS = ['none', 'flip', 'truncate', 'insert', 'splice', 'swap-index-records', 'long-varint']

/**
 * @param {import('./generate.js').Rng} rng
 * @param {import('./generate.js').Generated} car
 * @returns {{ mutation: string, bytes: Uint8Array, detail: string }}
 */
export function mutate (rng, car) {
  const { bytes } = car
  let mutation = MUTATIONS[rng.int(MUTATIONS.length)]
  // an index to reorder needs a bucket of two records or more; otherwise flip a bit
  const buckets = car.buckets.filter((b) => b.count >= 2)
  if (mutation === 'swap-index-records' && !buckets.length) mutation = 'flip'
  if (mutation === 'none' || bytes.length === 0) return { mutation: 'none', bytes, detail: '' }
  if (mutation === 'long-varint') return longLengthVarint(rng, car)
  if (mutation === 'flip') {
    const at = rng.int(bytes.length)
    const bit = rng.int(8)
    const out = bytes.slice()
    out[at] ^= 1 << bit
    return { mutation, bytes: out, detail: `bit ${bit} of byte ${at}` }
  }
  if (mutation === 'truncate') {
    const at = rng.int(bytes.length)
    return { mutation, bytes: bytes.slice(0, at), detail: `cut at ${at}` }
  }
  if (mutation === 'insert') {
    const at = rng.int(bytes.length + 1)
    const n = rng.range(1, 8)
    const inserted = rng.chance(0.5) ? new Uint8Array(n) : rng.bytes(n)
    const out = new Uint8Array(bytes.length + n)
    out.set(bytes.subarray(0, at))
    out.set(inserted, at)
    out.set(bytes.subarray(at), at + n)
    return { mutation, bytes: out, detail: `${n} bytes at ${at}` }
  }
  if (mutation === 'splice') {
    // bytes [from, from + n) copied to replace [to, to + m): lengths, CIDs and sections out of place
    const from = rng.int(bytes.length)
    const n = rng.range(1, Math.min(64, bytes.length - from))
    const to = rng.int(bytes.length)
    const m = rng.range(0, Math.min(64, bytes.length - to))
    const out = new Uint8Array(bytes.length - m + n)
    out.set(bytes.subarray(0, to))
    out.set(bytes.subarray(from, from + n), to)
    out.set(bytes.subarray(to + m), to + n)
    return { mutation, bytes: out, detail: `[${from}, ${from + n}) over [${to}, ${to + m})` }
  }
  // swap two records of one bucket: the index's records out of order (the index still lists every block)
  const bucket = rng.pick(buckets)
  const i = rng.int(bucket.count)
  let j = rng.int(bucket.count - 1)
  if (j >= i) j++
  const out = bytes.slice()
  const a = bucket.start + i * bucket.width
  const b = bucket.start + j * bucket.width
  out.set(bytes.subarray(b, b + bucket.width), a)
  out.set(bytes.subarray(a, a + bucket.width), b)
  return { mutation, bytes: out, detail: `records ${i} and ${j} of the ${bucket.width}-byte bucket at ${bucket.start}` }
}

/** @param {Uint8Array} bytes @param {number} at a little-endian u64 */
const u64 = (bytes, at) => Number(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(at, true))

/**
 * One length varint of the CAR (its CARv1 header's, or a section's) written with 1 to 3 needless
 * continuation bytes: its value, and every other byte, unchanged. In a CARv2 the payload's size, the
 * index offset and the offsets of the index records after it grow by as many bytes, so the CAR's
 * only new fault is the varint, at `at` (the header's or section's byte offset). The repo oracle
 * (lexicon-repos.js) applies it to generated repo CARs too.
 *
 * @param {import('./generate.js').Rng} rng
 * @param {Pick<import('./generate.js').Generated, 'bytes' | 'generator' | 'buckets'>} car
 * @returns {{ mutation: string, bytes: Uint8Array, detail: string, at: number }}
 */
export function longLengthVarint (rng, car) {
  const { bytes } = car
  const v2 = car.generator.startsWith('v2')
  const dataOffset = v2 ? u64(bytes, 27) : 0
  const dataEnd = v2 ? dataOffset + u64(bytes, 35) : bytes.length
  /** @type {{ at: number, value: number, size: number }[]} the header's varint, then each section's */
  const varints = []
  for (let at = dataOffset; at < dataEnd;) {
    let value = 0
    let size = 0
    while (at + size < dataEnd && size < 9) {
      const b = bytes[at + size]
      value += (b & 0x7f) * 2 ** (7 * size++)
      if (b < 0x80) break
    }
    if (value === 0 && size === 1) { at += 1; continue } // a zero-length section: no length to lengthen
    varints.push({ at, value, size })
    at += size + value
  }
  const { at, value, size } = rng.pick(varints)
  const extra = rng.range(1, Math.min(3, 9 - size))
  const long = longVarint(value, extra + size - longVarint(value, 0).length) // with those it had (a generated long one)
  const out = new Uint8Array(bytes.length + long.length - size)
  out.set(bytes.subarray(0, at))
  out.set(long, at)
  out.set(bytes.subarray(at + size), at + long.length)
  const grown = long.length - size
  if (v2) {
    const view = new DataView(out.buffer)
    view.setBigUint64(35, BigInt(dataEnd - dataOffset + grown), true)
    const indexOffset = u64(bytes, 43)
    if (indexOffset !== 0) view.setBigUint64(43, BigInt(indexOffset + grown), true)
    // an index record's offset (its last 8 bytes, from the payload's start) past the varint moves too
    for (const bucket of car.buckets) {
      for (let i = 0; i < bucket.count; i++) {
        const field = bucket.start + grown + i * bucket.width + bucket.width - 8
        const offset = u64(out, field)
        if (dataOffset + offset > at) view.setBigUint64(field, BigInt(offset + grown), true)
      }
    }
  }
  return { mutation: 'long-varint', bytes: out, detail: `the ${at === dataOffset ? 'header' : 'section'} length varint at ${at} in ${long.length} bytes`, at }
}
