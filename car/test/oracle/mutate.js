// Mutations of a generated CAR: a bit flipped, the end cut off, bytes inserted, a stretch of the
// CAR copied over another place (a splice), two records of a CARv2 index swapped (out of order).
// Each takes the PRNG that made the CAR, so (seed, iteration) still names the input.

/** The mutations, by name (run.js counts inputs per mutation; 'none' is the CAR as generated). */
export const MUTATIONS = ['none', 'flip', 'truncate', 'insert', 'splice', 'swap-index-records']

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
