/* global describe, it */
// Text in the browser: here TextDecoder is a host function, and ASCII text of SHORT_TEXT + 1 to
// MEDIUM_TEXT bytes is read by lib/utf8.js's mediumAscii instead (in Node MEDIUM_TEXT is 0 and
// test/utf8.spec.js calls mediumAscii directly). Expected strings are built from the bytes by
// String.fromCharCode, not by the codec.
import { decode, DagCborDecodeError } from '../../index.js'
import { MEDIUM_TEXT, SHORT_TEXT } from '../../lib/utf8.js'
import { ok, is, throws } from './assert.js'

/** a CBOR text head for n bytes (n < 65536) followed by the bytes */
function text (bytes) {
  const n = bytes.length
  const headBytes = n < 24 ? [0x60 | n] : n < 256 ? [0x78, n] : [0x79, n >> 8, n & 0xff]
  const out = new Uint8Array(headBytes.length + n)
  out.set(headBytes)
  out.set(bytes, headBytes.length)
  return out
}

describe('text decoding (browser)', () => {
  it('Chromium reads ASCII text up to MEDIUM_TEXT bytes in JS', () => {
    is(MEDIUM_TEXT, 128)
  })

  it('text of every length from SHORT_TEXT to MEDIUM_TEXT + 8: ASCII in its place, non-ASCII and invalid bytes anywhere', () => {
    for (let n = SHORT_TEXT; n <= MEDIUM_TEXT + 8; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => 0x20 + ((i * 7) % 0x5f))
      const ascii = String.fromCharCode(...bytes)
      ok(decode(text(bytes)) === ascii, `${n} ASCII bytes`)
      ok(decode(text(bytes)) === ascii, `${n} ASCII bytes, again`)
      for (const where of [0, n >> 1, n - 2]) {
        const two = bytes.slice()
        two[where] = 0xc3 // é: 0xc3 0xa9
        two[where + 1] = 0xa9
        const expected = String.fromCharCode(...bytes.subarray(0, where)) + 'é' + String.fromCharCode(...bytes.subarray(where + 2))
        ok(decode(text(two)) === expected, `${n} bytes, é at ${where}`)
        const bad = bytes.slice()
        bad[where] = 0x80
        const e = throws(() => decode(text(bad)), DagCborDecodeError, `${n} bytes, 0x80 at ${where}`)
        is(e.rule, 'invalid-utf8')
        is(e.offset, (n < 24 ? 1 : 2) + where, `${n} bytes, 0x80 at ${where}: offset`)
        is(decode(text(bad), { relaxed: true }), String.fromCharCode(...bytes.subarray(0, where)) + '\udc80' + String.fromCharCode(...bytes.subarray(where + 1)), `${n} bytes, 0x80 at ${where}, relaxed`)
      }
    }
  })
})
