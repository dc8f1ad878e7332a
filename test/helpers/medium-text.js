// Rows of text around lib/utf8.js's limits (SHORT_TEXT, MEDIUM_TEXT): every length from SHORT_TEXT
// to MEDIUM_TEXT + 8 bytes, ASCII, with an e-acute, and with an invalid byte at the start, middle
// and end. Expected strings are built from the bytes by String.fromCharCode, not by the codec.
// Used where TextDecoder is a host function and that text is read by mediumAscii: the browser
// tests (Chromium) and the engines' smoke test (Firefox; Bun and Deno read it by TextDecoder).
import { ok, is, throws } from '../browser/assert.js'

/**
 * @param {Uint8Array} bytes
 * @returns {Uint8Array} a CBOR text item holding them (under 65,536 bytes)
 */
function text (bytes) {
  const n = bytes.length
  const headBytes = n < 24 ? [0x60 | n] : n < 256 ? [0x78, n] : [0x79, n >> 8, n & 0xff]
  const out = new Uint8Array(headBytes.length + n)
  out.set(headBytes)
  out.set(bytes, headBytes.length)
  return out
}

const chars = (/** @type {Uint8Array} */ b) => String.fromCharCode(...b)

/**
 * @param {number} from
 * @param {number} to
 * @returns {{ label: string, input: Uint8Array, strict: string | null, offset: number, relaxed: string }[]}
 */
export function mediumTextRows (from, to) {
  const rows = []
  for (let n = from; n <= to; n++) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => 0x20 + ((i * 7) % 0x5f))
    rows.push({ label: `${n} ASCII bytes`, input: text(bytes), strict: chars(bytes), offset: -1, relaxed: chars(bytes) })
    for (const where of [0, n >> 1, n - 2]) {
      const two = bytes.slice()
      two[where] = 0xc3 // é: 0xc3 0xa9
      two[where + 1] = 0xa9
      const withE = chars(bytes.subarray(0, where)) + 'é' + chars(bytes.subarray(where + 2))
      rows.push({ label: `${n} bytes, é at ${where}`, input: text(two), strict: withE, offset: -1, relaxed: withE })
      const bad = bytes.slice()
      bad[where] = 0x80
      rows.push({ label: `${n} bytes, 0x80 at ${where}`, input: text(bad), strict: null, offset: (n < 24 ? 1 : 2) + where, relaxed: chars(bytes.subarray(0, where)) + '\udc80' + chars(bytes.subarray(where + 1)) })
    }
  }
  return rows
}

/**
 * Decode every row twice (the array a length's string is built in is reused), strict and relaxed:
 * ASCII and e-acute rows give their text, an invalid byte the rule and offset of the error.
 *
 * @param {(bytes: Uint8Array, options?: { relaxed?: boolean }) => unknown} decode
 * @param {new (...args: any[]) => Error & { rule: string, offset: number }} DecodeError
 * @param {number} from
 * @param {number} to
 */
export function checkMediumText (decode, DecodeError, from, to) {
  for (const row of mediumTextRows(from, to)) {
    for (let again = 0; again < 2; again++) {
      if (row.strict !== null) {
        ok(decode(row.input) === row.strict, row.label)
      } else {
        const e = /** @type {any} */ (throws(() => decode(row.input), DecodeError, row.label))
        is(e.rule, 'invalid-utf8', `${row.label}: rule`)
        is(e.offset, row.offset, `${row.label}: offset`)
      }
      ok(decode(row.input, { relaxed: true }) === row.relaxed, `${row.label}, relaxed`)
    }
  }
}
