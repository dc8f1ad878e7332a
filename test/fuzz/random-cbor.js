// Random inputs: plain random bytes, and randomly generated CBOR that is mostly well-formed and often
// canonical (so the decoder's deeper checks are reached, not only its first-byte rejections).
import { head, concat } from './cbor.js'
import { INTERESTING } from './mutate.js'

/** @typedef {import('./prng.js').Rng} Rng */

/** @param {Rng} r */
export function randomBytes (r) {
  return r.bytes(r.size(r.chance(0.1) ? 1024 : 48))
}

const TAGGED = INTERESTING.filter((b) => b[0] === 0xd8)
const utf8 = new TextEncoder()
const CHARS = ['a', 'b', 'z', 'A', '0', ' ', '~', '\u0000', '\u007f', '\u0080', 'é', '\u07ff', '\u0800', '☺', '\ufeff', '\uffff', '\ufffd', '\u{10000}', '\u{1f600}', '\u{10ffff}']

/** @param {Rng} r */
function textBytes (r) {
  if (r.chance(0.05)) return r.bytes(r.size(12)) // probably invalid UTF-8
  let s = ''
  for (let i = r.size(12); i > 0; i--) s += r.chance(0.7) ? String.fromCharCode(97 + r.int(26)) : r.pick(CHARS)
  return utf8.encode(s)
}

/** length-first then bytewise, as DAG-CBOR orders map keys */
function keyCompare (/** @type {Uint8Array} */ a, /** @type {Uint8Array} */ b) {
  if (a.length !== b.length) return a.length - b.length
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return 0
}

/** @param {Rng} r */
function width (r) {
  return r.chance(0.03) ? r.pick([1, 2, 4, 8]) : 0 // sometimes non-shortest
}

/**
 * @param {Rng} r
 * @param {number} depth
 * @returns {Uint8Array|number[]}
 */
function item (r, depth) {
  const k = r.int(depth > 6 ? 7 : 10)
  switch (k) {
    case 0: {
      const big = r.chance(0.1)
      const n = big ? BigInt(r.u32()) * 0x100000000n + BigInt(r.u32()) : r.size(100000)
      const w = width(r)
      return head(r.chance(0.5) ? 0 : 1, n, typeof n === 'number' && w && n >= 2 ** (8 * w) ? 0 : w)
    }
    case 1: {
      const b = r.bytes(r.size(40))
      return concat(head(2, b.length), b)
    }
    case 2: {
      const t = textBytes(r)
      return concat(head(3, t.length), t)
    }
    case 3: {
      const f = r.pick([0.5, -1.5, 1e300, 3.141592653589793, -0, 1, 2 ** 53, 2 ** 64, 5e-324, 0.1])
      const b = new Uint8Array(9)
      b[0] = 0xfb
      new DataView(b.buffer).setFloat64(1, f)
      return b
    }
    case 4: return [r.pick([0xf4, 0xf5, 0xf6, 0xf6])]
    case 5: return r.pick(INTERESTING)
    case 6: return r.pick(TAGGED) // tag 42 (mostly) around good and bad CID bytes
    case 7: case 8: { // array
      const n = r.size(8)
      const parts = [head(4, n)]
      for (let i = 0; i < n; i++) parts.push(item(r, depth + 1))
      return concat(...parts)
    }
    default: { // map, usually with sorted unique text keys
      const n = r.size(8)
      let keys = []
      for (let i = 0; i < n; i++) {
        const t = textBytes(r)
        keys.push(concat(head(3, t.length), t))
      }
      if (r.chance(0.85)) {
        keys.sort(keyCompare)
        keys = keys.filter((k, i) => i === 0 || keyCompare(k, keys[i - 1]) !== 0)
      }
      if (r.chance(0.03) && keys.length) keys[r.int(keys.length)] = item(r, depth + 1) // non-string key
      const parts = [head(5, keys.length)]
      for (const key of keys) parts.push(key, item(r, depth + 1))
      return concat(...parts)
    }
  }
}

/** @param {Rng} r */
export function randomCbor (r) {
  const b = item(r, r.chance(0.2) ? 0 : 5)
  return b instanceof Uint8Array ? b : Uint8Array.from(b)
}
