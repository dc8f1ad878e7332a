// Byte helpers with no Buffer: comparison, hex, base64, one-char-per-byte ("latin1") strings.
// The comparison and the copy into an array of its own (ownedCopy) are the platform's, `#bytes` in
// the package's `imports` map: in Node Buffer#equals (memcmp) and a copy that skips zero-filling
// memory it then overwrites (lib/node/bytes-node.js), elsewhere plain JavaScript (bytes-js.js). Both stay
// injectable (installEquals, installCopy).
import { equals as platformEquals, copy as platformCopy } from '#bytes'

/** @type {(a: Uint8Array, b: Uint8Array) => boolean} same length guaranteed */
let equalBytes = platformEquals

/**
 * Compare with `equals` from now on (called with arrays of the same length).
 *
 * @param {(a: Uint8Array, b: Uint8Array) => boolean} equals
 */
export function installEquals (equals) {
  equalBytes = equals
}

/** @type {(bytes: Uint8Array, from: number, to: number) => Uint8Array} */
let copyBytes = platformCopy

/**
 * Copy with `copy` from now on: it returns a Uint8Array over an ArrayBuffer of exactly to - from
 * bytes, holding bytes[from, to).
 *
 * @param {(bytes: Uint8Array, from: number, to: number) => Uint8Array} copy
 */
export function installCopy (copy) {
  copyBytes = copy
}

/**
 * bytes[from, to) in an ArrayBuffer of their own (as bytes.slice(from, to)).
 *
 * @param {Uint8Array} bytes
 * @param {number} from
 * @param {number} to
 */
export function ownedCopy (bytes, from, to) {
  return copyBytes(bytes, from, to)
}

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
export function sameBytes (a, b) {
  return a.byteLength === b.byteLength && equalBytes(a, b)
}

/**
 * Index of the first differing byte (the shorter length when one is a prefix of the other).
 *
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
export function firstDifference (a, b) {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i
  return n
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** @param {Uint8Array} bytes */
export function toHex (bytes) {
  let out = ''
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]]
  return out
}

const PIECE = 0x2000

/**
 * The bytes as a string of one char per byte (U+0000..U+00FF): a cheap map key.
 *
 * @param {Uint8Array} bytes
 */
export function toLatin1 (bytes) {
  if (bytes.length <= PIECE) return String.fromCharCode.apply(null, /** @type {any} */ (bytes))
  let out = ''
  for (let i = 0; i < bytes.length; i += PIECE) out += String.fromCharCode.apply(null, /** @type {any} */ (bytes.subarray(i, i + PIECE)))
  return out
}

/** @param {Uint8Array} bytes standard base64, with padding */
export function toBase64 (bytes) {
  return btoa(toLatin1(bytes))
}

/**
 * @param {string} text standard base64
 * @returns {Uint8Array}
 */
export function fromBase64 (text) {
  const binary = atob(text)
  const out = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
  return out
}

/**
 * Where the two bytes `first`, `second` next occur in `bytes` from `from`; -1 if nowhere.
 *
 * @param {Uint8Array} bytes
 * @param {number} first
 * @param {number} second
 * @param {number} [from]
 */
export function indexOfPair (bytes, first, second, from = 0) {
  for (let i = bytes.indexOf(first, from); i >= 0 && i < bytes.length - 1; i = bytes.indexOf(first, i + 1)) {
    if (bytes[i + 1] === second) return i
  }
  return -1
}
