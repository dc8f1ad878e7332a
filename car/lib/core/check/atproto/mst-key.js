// MST key arithmetic (atproto.com/specs/repository, "MST Structure"): a key's height and the
// prefix compression of keys inside a node.
import { digestOf } from '../hash.js'

/**
 * The key's depth in the tree: leading zero bits of SHA-256(key), counted in 2-bit units (fanout 4).
 *
 * @param {Uint8Array} key
 */
export function keyHeight (key) {
  const digest = /** @type {Uint8Array} */ (digestOf(0x12, key)) // sha2-256: loaded before a repo is checked
  let zeros = 0
  for (let i = 0; i < digest.length; i++) {
    const byte = digest[i]
    if (byte === 0) { zeros += 8; continue }
    zeros += Math.clz32(byte) - 24
    break
  }
  return zeros >> 1
}

/**
 * How many leading bytes two keys share.
 *
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
export function commonPrefixLength (a, b) {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a[i] === b[i]) i++
  return i
}

/**
 * Byte-wise order of two keys (the MST's sort order): negative, 0 or positive.
 *
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
export function compareKeys (a, b) {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return a.length - b.length
}
