// sha2-256 in plain JavaScript (FIPS 180-4), for the first bytes a thread hashes where loading the
// platform's hasher costs more than hashing them here (hash.js, JS_SHA256_BYTES): compared with the
// expected digest in place, so that a block costs no allocation. @noble/hashes, the core's pure-JS
// fallback, takes two to three times as long in a fresh process, before V8 has optimized it.

/** the round constants */
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
])
/** the initial hash value */
const IV = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])
// Int32Array words: every value stays a small integer to V8 (a Uint32Array's would not)
const W = new Int32Array(64)
const H = new Int32Array(8)
/** the last one or two 64-byte blocks: the input's tail, the 0x80 byte, zeros and the bit length */
const TAIL = new Uint8Array(128)

/**
 * Hash the 64-byte block at p[o] into H.
 *
 * @param {Uint8Array} p @param {number} o
 */
function compress (p, o) {
  for (let i = 0; i < 16; i++, o += 4) W[i] = (p[o] << 24) | (p[o + 1] << 16) | (p[o + 2] << 8) | p[o + 3]
  for (let i = 16; i < 64; i++) {
    const x = W[i - 15]
    const y = W[i - 2]
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10)
    W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0
  }
  let a = H[0]
  let b = H[1]
  let c = H[2]
  let d = H[3]
  let e = H[4]
  let f = H[5]
  let g = H[6]
  let h = H[7]
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0
    h = g
    g = f
    f = e
    e = (d + t1) | 0
    d = c
    c = b
    b = a
    a = (t1 + t2) | 0
  }
  H[0] = (H[0] + a) | 0
  H[1] = (H[1] + b) | 0
  H[2] = (H[2] + c) | 0
  H[3] = (H[3] + d) | 0
  H[4] = (H[4] + e) | 0
  H[5] = (H[5] + f) | 0
  H[6] = (H[6] + g) | 0
  H[7] = (H[7] + h) | 0
}

/**
 * Does `bytes` hash (sha2-256) to the 32 bytes at expected[at]?
 *
 * @param {Uint8Array} bytes
 * @param {Uint8Array} expected
 * @param {number} at
 * @returns {boolean}
 */
export function sha256Matches (bytes, expected, at) {
  const n = bytes.length
  if (n >= 0x20000000) throw new RangeError(`sha256Matches hashes less than 512 MiB, not ${n} bytes`)
  H.set(IV)
  let o = 0
  for (; n - o >= 64; o += 64) compress(bytes, o)
  const rest = n - o
  TAIL.fill(0)
  for (let i = 0; i < rest; i++) TAIL[i] = bytes[o + i]
  TAIL[rest] = 0x80
  const end = rest < 56 ? 64 : 128
  // the length in bits, big-endian, in the last 8 bytes, of which the first 4 stay 0 below 512 MiB
  const bits = (n << 3) >>> 0
  TAIL[end - 4] = bits >>> 24
  TAIL[end - 3] = bits >>> 16
  TAIL[end - 2] = bits >>> 8
  TAIL[end - 1] = bits
  compress(TAIL, 0)
  if (end === 128) compress(TAIL, 64)
  for (let i = 0, k = at; i < 8; i++, k += 4) {
    if (((expected[k] << 24) | (expected[k + 1] << 16) | (expected[k + 2] << 8) | expected[k + 3]) !== H[i]) return false
  }
  return true
}
