// UTF-8 for DAG-CBOR text: strict both ways (no lone surrogates out, no invalid bytes in),
// with one lossless escape hatch for historical data: in relaxed decoding, each byte of an
// invalid UTF-8 sequence becomes the lone surrogate U+DC00+byte (U+DC80..U+DCFF, the
// "surrogateescape" scheme), and the encoder's `escapedBytes` option writes those back as
// the raw bytes. Valid UTF-8 never decodes to a lone surrogate, so the mapping is unambiguous.

import { JAVASCRIPTCORE } from './engine.js'
import { decodeReplacing } from '#text-decode'

const textEncoder = new TextEncoder()
/** String.prototype.isWellFormed is missing in older browsers (Safari < 16.4) */
const hasIsWellFormed = typeof ''.isWellFormed === 'function'

/** Text at most this long is decoded in JS, longer by TextDecoder (in Node Buffer's utf8Slice,
 * lib/text-decode-node.js), whose fixed cost per call a JS loop beats up to about here.
 * shortAscii has a case for every length up to it. */
export const SHORT_TEXT = 24
/** Where TextDecoder is a host function (a browser's C++ binding; Node's and Deno's are JavaScript
 * classes), a call costs about twice what it does in Node: there ASCII text up to this long is
 * decoded in JS too (bench/README.md has the measurements). JavaScriptCore's (Bun, Safari) is a
 * host function whose call costs less than this JS path, so it keeps TextDecoder. */
export const MEDIUM_TEXT = !JAVASCRIPTCORE && /\[native code\]/.test(Function.prototype.toString.call(TextDecoder)) ? 128 : 0
/** Strings at most this long are encoded in JS, longer by TextEncoder.encodeInto (~90 ns per
 * call with isWellFormed; the JS loop measured 75 ns at 30 chars, 134 ns at 60). */
const SHORT_STRING = 40

/**
 * The detail of the error for a string that `writeUtf8(s, ..., escaped)` cannot write, or ''
 * when it can: where its first unwritable lone surrogate is and, for one that relaxed decode
 * makes of invalid UTF-8 (U+DC80..U+DCFF), the option that writes it back.
 *
 * @param {string} s
 * @param {boolean} escaped
 * @returns {string}
 */
export function loneSurrogateDetail (s, escaped) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0xd800 || c > 0xdfff) continue
    if (c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      i++
      continue
    }
    const escape = c >= 0xdc80 && c <= 0xdcff
    if (escape && escaped) continue
    return `the lone surrogate at index ${i} has no UTF-8 form` + (escape
      ? ` (U+${c.toString(16).toUpperCase()} is how decode(bytes, { relaxed: true }) keeps a byte of invalid UTF-8: encode(value, { escapedBytes: true }) writes it back as that byte)`
      : '')
  }
  return ''
}

/**
 * Write `s` as UTF-8 into buf at pos (room for 3 bytes per UTF-16 unit must be there);
 * returns the new pos, or -1 if `s` holds a lone surrogate that cannot be written (in
 * `escaped` mode U+DC80..U+DCFF are written as the single raw bytes they stand for).
 *
 * @param {string} s
 * @param {Uint8Array} buf
 * @param {number} pos
 * @param {boolean} escaped
 * @returns {number}
 */
export function writeUtf8 (s, buf, pos, escaped) {
  const n = s.length
  if (n > SHORT_STRING && !escaped && hasIsWellFormed) {
    if (!s.isWellFormed()) return -1
    return pos + textEncoder.encodeInto(s, buf.subarray(pos)).written
  }
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) {
      buf[pos++] = c
    } else if (c < 0x800) {
      buf[pos++] = 0xc0 | (c >> 6)
      buf[pos++] = 0x80 | (c & 0x3f)
    } else if (c < 0xd800 || c > 0xdfff) {
      buf[pos++] = 0xe0 | (c >> 12)
      buf[pos++] = 0x80 | ((c >> 6) & 0x3f)
      buf[pos++] = 0x80 | (c & 0x3f)
    } else if (c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      const cp = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00)
      buf[pos++] = 0xf0 | (cp >> 18)
      buf[pos++] = 0x80 | ((cp >> 12) & 0x3f)
      buf[pos++] = 0x80 | ((cp >> 6) & 0x3f)
      buf[pos++] = 0x80 | (cp & 0x3f)
    } else if (escaped && c >= 0xdc80 && c <= 0xdcff) {
      buf[pos++] = c & 0xff
    } else {
      return -1
    }
  }
  return pos
}

/**
 * Decode src[start, end) as UTF-8. Returns null when it is not valid UTF-8 (strict; the
 * offending byte's offset is then in `invalidAt`), or,
 * with `escaped`, maps each byte of every invalid sequence to U+DC00+byte.
 *
 * @param {Uint8Array} src
 * @param {number} start
 * @param {number} end
 * @param {boolean} escaped
 * @returns {string|null}
 */
export function readUtf8 (src, start, end, escaped) {
  const n = end - start
  if (n <= SHORT_TEXT) {
    const s = shortAscii(src, start, n)
    if (s !== null) return s
  } else if (n <= MEDIUM_TEXT) {
    const s = mediumAscii(src, start, n)
    if (s !== null) return s
  }
  // the replacing decoder, then a U+FFFD scan (it can only have replaced something if its
  // output holds one); only then is the text checked byte by byte
  const s = decodeReplacing(src, start, end)
  if (s.indexOf('\ufffd') < 0) return s
  let at = invalidUtf8At(src, start, end)
  if (at < 0) return s // a U+FFFD of its own
  if (!escaped) {
    invalidAt = at
    return null
  }
  // each byte where an invalid sequence starts becomes U+DC00+byte; the valid runs between
  // such bytes are decoded as they are
  let text = ''
  let from = start
  while (at >= 0) {
    text += decodeReplacing(src, from, at) + fromCharCode(0xdc00 + src[at])
    from = at + 1
    at = invalidUtf8At(src, from, end)
  }
  return text + decodeReplacing(src, from, end)
}

const fromCharCode = String.fromCharCode

/**
 * Short ASCII text as a string, or null when a byte is not ASCII: one fromCharCode call with
 * exactly its characters as arguments, which V8 turns into one flat string with no array to fill
 * first (as apply() needs) and no intermediate strings (as concatenation makes); bench/README.md
 * has the measurements. The ASCII check ORs the bytes the call takes, so each byte is read once,
 * where a loop checking them first read each twice and ended at a length the CPU cannot predict.
 *
 * @param {Uint8Array} src
 * @param {number} s - start
 * @param {number} n - length, 0 to SHORT_TEXT (the default case is SHORT_TEXT, 24)
 * @returns {string|null}
 */
export function shortAscii (src, s, n) {
  switch (n) {
    case 0: return ''
    case 1: {
      const c0 = src[s]
      return c0 < 0x80 ? fromCharCode(c0) : null
    }
    case 2: {
      const c0 = src[s], c1 = src[s + 1]
      return (c0 | c1) < 0x80 ? fromCharCode(c0, c1) : null
    }
    case 3: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2]
      return (c0 | c1 | c2) < 0x80 ? fromCharCode(c0, c1, c2) : null
    }
    case 4: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3]
      return (c0 | c1 | c2 | c3) < 0x80 ? fromCharCode(c0, c1, c2, c3) : null
    }
    case 5: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4]
      return (c0 | c1 | c2 | c3 | c4) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4) : null
    }
    case 6: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5]
      return (c0 | c1 | c2 | c3 | c4 | c5) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5) : null
    }
    case 7: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6) : null
    }
    case 8: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7) : null
    }
    case 9: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8) : null
    }
    case 10: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9) : null
    }
    case 11: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10) : null
    }
    case 12: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10], c11 = src[s + 11]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11) : null
    }
    case 13: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10], c11 = src[s + 11], c12 = src[s + 12]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12) : null
    }
    case 14: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10], c11 = src[s + 11], c12 = src[s + 12], c13 = src[s + 13]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12 | c13) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13) : null
    }
    case 15: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10], c11 = src[s + 11], c12 = src[s + 12], c13 = src[s + 13], c14 = src[s + 14]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12 | c13 | c14) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14) : null
    }
    case 16: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10], c11 = src[s + 11], c12 = src[s + 12], c13 = src[s + 13], c14 = src[s + 14], c15 = src[s + 15]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12 | c13 | c14 | c15) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15) : null
    }
    case 17: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10], c11 = src[s + 11], c12 = src[s + 12], c13 = src[s + 13], c14 = src[s + 14], c15 = src[s + 15], c16 = src[s + 16]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12 | c13 | c14 | c15 | c16) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16) : null
    }
    case 18: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10], c11 = src[s + 11], c12 = src[s + 12], c13 = src[s + 13], c14 = src[s + 14], c15 = src[s + 15], c16 = src[s + 16], c17 = src[s + 17]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12 | c13 | c14 | c15 | c16 | c17) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17) : null
    }
    case 19: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10], c11 = src[s + 11], c12 = src[s + 12], c13 = src[s + 13], c14 = src[s + 14], c15 = src[s + 15], c16 = src[s + 16], c17 = src[s + 17], c18 = src[s + 18]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12 | c13 | c14 | c15 | c16 | c17 | c18) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18) : null
    }
    case 20: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10], c11 = src[s + 11], c12 = src[s + 12], c13 = src[s + 13], c14 = src[s + 14], c15 = src[s + 15], c16 = src[s + 16], c17 = src[s + 17], c18 = src[s + 18], c19 = src[s + 19]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12 | c13 | c14 | c15 | c16 | c17 | c18 | c19) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19) : null
    }
    case 21: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10], c11 = src[s + 11], c12 = src[s + 12], c13 = src[s + 13], c14 = src[s + 14], c15 = src[s + 15], c16 = src[s + 16], c17 = src[s + 17], c18 = src[s + 18], c19 = src[s + 19], c20 = src[s + 20]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12 | c13 | c14 | c15 | c16 | c17 | c18 | c19 | c20) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20) : null
    }
    case 22: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10], c11 = src[s + 11], c12 = src[s + 12], c13 = src[s + 13], c14 = src[s + 14], c15 = src[s + 15], c16 = src[s + 16], c17 = src[s + 17], c18 = src[s + 18], c19 = src[s + 19], c20 = src[s + 20], c21 = src[s + 21]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12 | c13 | c14 | c15 | c16 | c17 | c18 | c19 | c20 | c21) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20, c21) : null
    }
    case 23: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10], c11 = src[s + 11], c12 = src[s + 12], c13 = src[s + 13], c14 = src[s + 14], c15 = src[s + 15], c16 = src[s + 16], c17 = src[s + 17], c18 = src[s + 18], c19 = src[s + 19], c20 = src[s + 20], c21 = src[s + 21], c22 = src[s + 22]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12 | c13 | c14 | c15 | c16 | c17 | c18 | c19 | c20 | c21 | c22) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20, c21, c22) : null
    }
    default: {
      const c0 = src[s], c1 = src[s + 1], c2 = src[s + 2], c3 = src[s + 3], c4 = src[s + 4], c5 = src[s + 5], c6 = src[s + 6], c7 = src[s + 7], c8 = src[s + 8], c9 = src[s + 9], c10 = src[s + 10], c11 = src[s + 11], c12 = src[s + 12], c13 = src[s + 13], c14 = src[s + 14], c15 = src[s + 15], c16 = src[s + 16], c17 = src[s + 17], c18 = src[s + 18], c19 = src[s + 19], c20 = src[s + 20], c21 = src[s + 21], c22 = src[s + 22], c23 = src[s + 23]
      return (c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 | c9 | c10 | c11 | c12 | c13 | c14 | c15 | c16 | c17 | c18 | c19 | c20 | c21 | c22 | c23) < 0x80 ? fromCharCode(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20, c21, c22, c23) : null
    }
  }
}

/** one array per length, SHORT_TEXT + 1 to MEDIUM_TEXT, made on first use: setting the length
 * of one shared array cost more than the apply itself in Chromium
 * @type {number[][]} */
const mediumUnits = []

/**
 * ASCII text of SHORT_TEXT to MEDIUM_TEXT bytes as one flat string (one fromCharCode.apply over
 * an array of exactly its characters), or null when a byte is not ASCII.
 *
 * @param {Uint8Array} src
 * @param {number} s - start
 * @param {number} n - length
 * @returns {string|null}
 */
export function mediumAscii (src, s, n) {
  const units = mediumUnits[n] ?? (mediumUnits[n] = new Array(n).fill(0))
  for (let i = 0; i < n; i++) {
    const b = src[s + i]
    if (b >= 0x80) return null
    units[i] = b
  }
  return fromCharCode.apply(null, units)
}

/** offset of the invalid byte where readUtf8 last returned null */
export let invalidAt = 0

/**
 * Where src[start, end) stops being valid UTF-8: the offset of the first byte of the first
 * invalid sequence (the offset readUtf8 reports in `invalidAt`), or -1 when it is all valid.
 * Builds no string (validate.js checks text with it; readUtf8 finds invalid bytes with it).
 *
 * @param {Uint8Array} src
 * @param {number} start
 * @param {number} end
 * @returns {number}
 */
export function invalidUtf8At (src, start, end) {
  // a sequence's tests without making its code point; runs of ASCII 8 bytes to a test
  let i = start
  const end8 = end - 7
  while (i < end) {
    const b = src[i]
    if (b < 0x80) {
      i++
      while (i < end8 && (src[i] | src[i + 1] | src[i + 2] | src[i + 3] | src[i + 4] | src[i + 5] | src[i + 6] | src[i + 7]) < 0x80) i += 8
      continue
    }
    if (b < 0xc2 || b > 0xf4) return i
    const b1 = i + 1 < end ? src[i + 1] : 0
    if (b < 0xe0) {
      if ((b1 & 0xc0) !== 0x80) return i
      i += 2
      continue
    }
    const b2 = i + 2 < end ? src[i + 2] : 0
    if (b < 0xf0) {
      if (b1 < (b === 0xe0 ? 0xa0 : 0x80) || b1 > (b === 0xed ? 0x9f : 0xbf) || (b2 & 0xc0) !== 0x80) return i
      i += 3
      continue
    }
    const b3 = i + 3 < end ? src[i + 3] : 0
    if (b1 < (b === 0xf0 ? 0x90 : 0x80) || b1 > (b === 0xf4 ? 0x8f : 0xbf) || (b2 & 0xc0) !== 0x80 || (b3 & 0xc0) !== 0x80) return i
    i += 4
  }
  return -1
}
