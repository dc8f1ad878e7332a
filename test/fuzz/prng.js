// Seeded PRNG for the fuzzer: sfc32 seeded through splitmix32, so a (seed, iteration) pair
// always yields the same stream and any single input can be replayed on its own.

function splitmix32 (a) {
  return function () {
    a = (a + 0x9e3779b9) | 0
    let z = a
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
    return (z ^ (z >>> 16)) >>> 0
  }
}

export class Rng {
  /**
   * @param {number} seed
   * @param {number} [stream] e.g. the iteration number
   */
  constructor (seed, stream = 0) {
    const mix = splitmix32((seed >>> 0) ^ Math.imul(stream >>> 0, 0x27d4eb2d) ^ ((stream / 0x100000000) >>> 0))
    this.a = mix(); this.b = mix(); this.c = mix(); this.d = mix() | 1
    for (let i = 0; i < 12; i++) this.u32()
  }

  /** @returns {number} uniform 32-bit unsigned integer */
  u32 () {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return t >>> 0
  }

  /** @returns {number} in [0, 1) */
  float () { return this.u32() / 0x100000000 }

  /** @param {number} n @returns {number} integer in [0, n) */
  int (n) { return n <= 0x100000000 ? Math.floor(this.float() * n) : Math.floor((this.u32() * 0x100000000 + this.u32()) / 2 ** 64 * n) }

  /** @param {number} lo @param {number} hi @returns {number} integer in [lo, hi] */
  range (lo, hi) { return lo + this.int(hi - lo + 1) }

  /** @param {number} p @returns {boolean} */
  chance (p) { return this.float() < p }

  /** @template T @param {ArrayLike<T>} arr @returns {T} */
  pick (arr) { return arr[this.int(arr.length)] }

  /** small sizes are likely, large ones possible: 0..max, geometric-ish */
  size (max = 64) {
    const r = this.float()
    return Math.min(max, Math.floor(r * r * r * (max + 1)))
  }

  /** @param {number} n @returns {Uint8Array} */
  bytes (n) {
    const out = new Uint8Array(n)
    for (let i = 0; i < n; i++) out[i] = this.u32() & 0xff
    return out
  }
}
