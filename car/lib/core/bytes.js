// Byte comparison for the hot path: Node's memcmp-backed Buffer#equals on zero-copy views
// (multiformats' bytes.equals is a JS loop, several times slower on whole blocks).

/** @param {Uint8Array} u */
const view = (u) => Buffer.from(u.buffer, u.byteOffset, u.byteLength)

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
export function sameBytes (a, b) {
  return a.byteLength === b.byteLength && view(a).equals(view(b))
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
