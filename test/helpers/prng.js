// The one seeded PRNG for the bench corpora, the differential tests and the fuzzer's garbage values.
// Its output stream is load-bearing (the sample CAR, seeded corpora and seeded test inputs depend on
// it): do not change the algorithm. (The fuzzer keeps its own sfc32 generator in test/fuzz/prng.js.)

/**
 * mulberry32: a small seeded PRNG returning floats in [0, 1).
 *
 * @param {number} seed
 * @returns {() => number}
 */
export function mulberry32 (seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Run `fn` with Math.random replaced by `random` (ipld-garbage draws from Math.random),
 * restoring it afterwards even if `fn` throws.
 *
 * @template T
 * @param {() => number} random
 * @param {() => T} fn
 * @returns {T}
 */
export function withMathRandom (random, fn) {
  const saved = Math.random
  Math.random = random
  try {
    return fn()
  } finally {
    Math.random = saved
  }
}
