// UTF-8 both ways, row by row (lib/utf8.js through encode and decode). Strings are written by a JS
// loop up to 40 UTF-16 units and by TextEncoder beyond; ASCII text is read by shortAscii up to 24
// bytes, other text by TextDecoder, in Node by Buffer's utf8Slice (lib/text-decode*.js; invalid
// bytes found by invalidUtf8At): every row runs short and padded past both limits. Expected bytes
// come from TextEncoder or are written out by hand.
import assert from 'node:assert/strict'
import { encode, decode, DagCborEncodeError, DagCborDecodeError } from '../index.js'
import { head, concat, fromHex, toHex, text } from './fuzz/cbor.js'
import { shortAscii, mediumAscii, SHORT_TEXT } from '../lib/utf8.js'
import { decodeReplacing } from '#text-decode'
import { decodeReplacing as decodeReplacingNode } from '../lib/text-decode-node.js'
import { decodeReplacing as decodeReplacingElsewhere } from '../lib/text-decode.js'

const utf8 = new TextEncoder()
/** padding that moves a string past the JS writer's 40 units and the JS reader's 24 bytes */
const PAD = 'p'.repeat(45)

describe('utf8: strings with a UTF-8 form, at the edges of each byte length', () => {
  const rows = [
    ['U+007F', '\u007f', '7f'], ['U+0080', '\u0080', 'c280'], ['U+07FF', '\u07ff', 'dfbf'], ['U+0800', '\u0800', 'e0a080'],
    ['U+D7FF', '\ud7ff', 'ed9fbf'], ['U+E000', '\ue000', 'ee8080'], ['U+FFFD', '\ufffd', 'efbfbd'], ['U+FFFF', '\uffff', 'efbfbf'],
    ['U+10000 (D800 DC00)', '\u{10000}', 'f0908080'], ['U+103FF (D800 DFFF)', '\u{103ff}', 'f0908fbf'],
    ['U+10FC00 (DBFF DC00)', '\u{10fc00}', 'f48fb080'], ['U+10FFFF (DBFF DFFF)', '\u{10ffff}', 'f48fbfbf'],
    ['U+1F600', '\u{1f600}', 'f09f9880'], ['U+0000', '\u0000', '00']
  ]
  for (const [label, ch, hex] of rows) {
    it(`${label} -> ${hex}, alone, between ASCII, twice, and in a long string; and back`, () => {
      assert.equal(toHex(utf8.encode(ch)), hex)
      for (const s of [ch, `a${ch}b`, ch + ch, PAD + ch, ch + PAD, `${PAD}a${ch}b${PAD}`]) {
        const expected = text(s)
        assert.equal(toHex(encode(s)), toHex(expected), JSON.stringify(s))
        assert.equal(toHex(encode(s, { escapedBytes: true })), toHex(expected), `${JSON.stringify(s)} with escapedBytes`)
        assert.equal(decode(expected), s)
        assert.equal(decode(expected, { relaxed: true }), s)
      }
    })
  }
})

describe('utf8: lone surrogates have no UTF-8 form', () => {
  // [string, index of the first lone surrogate]
  const rows = /** @type {Array<[string, number]>} */ ([
    ['\ud800', 0], ['\udbff', 0], ['\udc00', 0], ['\udfff', 0], ['\udc80', 0], ['\udcff', 0], ['\udd00', 0],
    ['a\ud800', 1], ['\ud800a', 0], ['\ud800\ud800', 0], ['\ud800\ud800\udc00', 0], ['\udc00\ud800', 0],
    ['\u{10000}\ud800', 2], ['\u{10000}\udc00', 2], ['ab\u{1f600}c\udfff', 5], ['\ud83d\ude00\ude00', 2],
    ['\ue000\ud800', 1], ['\ud7ff\udfff', 1], ['\udc00\udc00', 0], ['\ude00\udfff', 0], ['\u{10ffff}\ud800', 2], ['\u{10fc00}\udbff', 2],
    // after characters whose UTF-8 starts with EF, as a lone surrogate's replacement would:
    // EF BF BF, EF BE BD, EF 80 80, and U+FFFD's own EF BF BD
    ['\uffff\ud800', 1], ['\uffbd\udbff', 1], ['\uf000\ufffe\udfff', 2], ['\ufffd\udc00', 1], ['\ufffd\ufffd\ud800\ufffd', 2]
  ])
  for (const [s, index] of rows) {
    const label = JSON.stringify(s)
    it(`${label}: rule 'utf8', the message names index ${index}; also past 40 units and as a map key`, () => {
      for (const [value, at, path] of /** @type {Array<[unknown, number, string]>} */ ([[s, index, ''], [PAD + s, PAD.length + index, ''], [s + PAD, index, ''], [{ k: s }, index, '/k'], [{ [s]: 1 }, index, '/' + s], [[PAD, [s]], index, '/1/0']])) {
        assert.throws(() => encode(value), (/** @type {any} */ e) => {
          assert.ok(e instanceof DagCborEncodeError, String(e))
          assert.equal(e.rule, 'utf8')
          assert.equal(e.path, path)
          assert.ok(e.message.includes(`lone surrogate at index ${at} `), e.message)
          return true
        })
      }
    })
  }

  it('escapedBytes writes exactly U+DC80..U+DCFF as the bytes 0x80..0xFF, short and long', () => {
    for (let c = 0xdc00; c <= 0xdfff; c += c < 0xdc78 || c > 0xdd08 ? 0x3f : 1) {
      const ch = String.fromCharCode(c)
      for (const [prefix, suffix] of [['', ''], ['a', 'b'], [PAD, ''], ['', PAD]]) {
        const s = prefix + ch + suffix
        if (c >= 0xdc80 && c <= 0xdcff) {
          const content = concat(utf8.encode(prefix), [c & 0xff], utf8.encode(suffix))
          assert.equal(toHex(encode(s, { escapedBytes: true })), toHex(concat(head(3, content.length), content)), `U+${c.toString(16)}`)
        } else {
          assert.throws(() => encode(s, { escapedBytes: true }), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'utf8', `U+${c.toString(16)}`)
        }
        assert.throws(() => encode(s), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'utf8', `U+${c.toString(16)} without escapedBytes`)
      }
    }
  })

  it('escapedBytes still writes surrogate pairs as 4 bytes and rejects high surrogates', () => {
    assert.equal(toHex(encode('\u{1f600}\udcff', { escapedBytes: true })), '65f09f9880ff')
    assert.equal(toHex(encode('\udbff\udfff', { escapedBytes: true })), '64f48fbfbf')
    for (const s of ['\ud800\udc7f'.slice(0, 1), '\ud800a', '\udbff']) {
      assert.throws(() => encode(s, { escapedBytes: true }), (/** @type {any} */ e) => e.rule === 'utf8', JSON.stringify(s))
    }
  })
})

describe('utf8: decoding text, strict and relaxed', () => {
  // [label, bytes of the text (hex), offset of the first invalid byte in them or -1, the string]
  const rows = /** @type {Array<[string, string, number, string]>} */ ([
    ['2 bytes, lowest', 'c280', -1, '\u0080'],
    ['2 bytes, highest', 'dfbf', -1, '\u07ff'],
    ['overlong 2 bytes (C0)', 'c080', 0, '\udcc0\udc80'],
    ['overlong 2 bytes (C1)', 'c1bf', 0, '\udcc1\udcbf'],
    ['2 bytes, bad continuation', 'c241', 0, '\udcc2A'],
    ['2 bytes, cut short', 'c2', 0, '\udcc2'],
    ['3 bytes, lowest (E0 A0)', 'e0a080', -1, '\u0800'],
    ['overlong 3 bytes (E0 9F)', 'e09fbf', 0, '\udce0\udc9f\udcbf'],
    ['3 bytes below the surrogates (ED 9F)', 'ed9fbf', -1, '\ud7ff'],
    ['a surrogate (ED A0)', 'eda080', 0, '\udced\udca0\udc80'],
    ['a surrogate (ED BF BF)', 'edbfbf', 0, '\udced\udcbf\udcbf'],
    ['3 bytes above the surrogates (EE 80)', 'ee8080', -1, '\ue000'],
    ['3 bytes, highest (EF BF BF)', 'efbfbf', -1, '\uffff'],
    ['3 bytes, bad second byte', 'e04080', 0, '\udce0@\udc80'],
    ['3 bytes, bad third byte', 'e0a041', 0, '\udce0\udca0A'],
    ['3 bytes, cut short after 2', 'e0a0', 0, '\udce0\udca0'],
    ['4 bytes, lowest (F0 90)', 'f0908080', -1, '\u{10000}'],
    ['overlong 4 bytes (F0 8F)', 'f08fbfbf', 0, '\udcf0\udc8f\udcbf\udcbf'],
    ['4 bytes, highest (F4 8F)', 'f48fbfbf', -1, '\u{10ffff}'],
    ['beyond U+10FFFF (F4 90)', 'f4908080', 0, '\udcf4\udc90\udc80\udc80'],
    ['beyond U+10FFFF (F5)', 'f5808080', 0, '\udcf5\udc80\udc80\udc80'],
    ['4 bytes (F1), middle of the range', 'f1808080', -1, '\u{40000}'],
    ['4 bytes, bad third byte', 'f0908041', 0, '\udcf0\udc90\udc80A'],
    ['4 bytes, bad fourth byte', 'f09080c0', 0, '\udcf0\udc90\udc80\udcc0'],
    ['4 bytes, cut short after 3', 'f09080', 0, '\udcf0\udc90\udc80'],
    ['a lone continuation byte', '80', 0, '\udc80'],
    ['0xFF', 'ff', 0, '\udcff'],
    ['0xFE after ASCII', '61fe', 1, 'a\udcfe'],
    ['U+FFFD itself is valid', 'efbfbd', -1, '\ufffd'],
    ['a BOM is data', 'efbbbf61', -1, '\ufeffa']
  ])
  for (const [label, hex, invalid, value] of rows) {
    it(`${label} (${hex}): ${invalid < 0 ? 'read' : `rejected at its byte ${invalid}, relaxed reads escaped bytes`}; short and long`, () => {
      for (const [before, after] of [['', ''], ['xy', 'z'], [PAD, ''], ['', PAD], ['\ufeff', PAD + '\ufffd']]) {
        const pre = utf8.encode(before)
        const content = concat(pre, fromHex(hex), utf8.encode(after))
        const input = concat(head(3, content.length), content)
        const at = head(3, content.length).length + pre.length + invalid
        const expected = before + value + after
        if (invalid < 0) {
          assert.equal(decode(input), expected, `${JSON.stringify(before)} + ${hex}`)
        } else {
          assert.throws(() => decode(input), (/** @type {any} */ e) => {
            assert.ok(e instanceof DagCborDecodeError, String(e))
            assert.equal(e.rule, 'invalid-utf8')
            assert.equal(e.offset, at, `${JSON.stringify(before)} + ${hex}: ${e.message}`)
            assert.ok(e.message.includes('text is not valid UTF-8'), e.message)
            return true
          })
        }
        const relaxed = decode(input, { relaxed: true })
        assert.equal(relaxed, expected, `${JSON.stringify(before)} + ${hex} relaxed`)
        assert.equal(toHex(encode(relaxed, { escapedBytes: true })), toHex(input), 'escapedBytes writes the same bytes back')
      }
    })
  }

  it('text that ends inside a sequence is invalid even when the next item starts with a continuation byte', () => {
    // the item after the text is an array or a map, whose initial byte (0x80..0xbf) would complete
    // the sequence were it read past the text's end
    for (const [lead, at] of /** @type {Array<[string, number]>} */ ([['c3', 2], ['e282', 2], ['f09f98', 2], ['61c3', 3], ['61e282', 3], ['61f09f98', 3]])) {
      for (const next of ['80', '81a0', 'a0', '9800']) {
        const n = lead.length / 2
        const input = fromHex('82' + (0x60 + n).toString(16) + lead + next)
        assert.throws(() => decode(input), (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === 'invalid-utf8' && e.offset === at, `${lead} then ${next}`)
        const [value] = decode(input, { relaxed: true })
        assert.equal(value.length, n, `${lead} then ${next}: every byte read on its own`)
      }
    }
  })

  it('long text with invalid bytes throughout (past 4096 units): relaxed reads every byte', function () {
    // builds a 1,000,000-character expected string a character at a time: seconds on a busy machine
    this.timeout(30_000)
    for (const n of [4095, 4096, 4097, 10000, 1000000]) {
      const content = new Uint8Array(n).map((_, i) => (i % 7 === 3 ? 0xff : i % 7 === 5 ? 0xc3 : 0x61 + (i % 26)))
      const input = concat(head(3, n), content)
      let expected = ''
      for (const b of content) expected += b >= 0x80 ? String.fromCharCode(0xdc00 + b) : String.fromCharCode(b)
      assert.throws(() => decode(input), (/** @type {any} */ e) => e.rule === 'invalid-utf8' && e.offset === head(3, n).length + 3)
      const value = decode(input, { relaxed: true })
      assert.equal(value.length, n)
      assert.ok(value === expected, `${n} bytes`)
      assert.equal(toHex(encode(value, { escapedBytes: true })), toHex(input))
    }
  })

  it('ASCII text of every length from 0 to 40 (each short length has a path of its own), every character in its place', () => {
    for (let n = 0; n <= 40; n++) {
      for (const first of [0x00, 0x21, 0x7f - n]) {
        // n different characters, so that a character read from the wrong place shows
        const s = String.fromCharCode(...Array.from({ length: n }, (_, i) => (first + i) & 0x7f))
        assert.equal(decode(text(s)), s, `${n} characters from ${first}`)
        assert.equal(decode(text(s), { relaxed: true }), s, `${n} characters from ${first}, relaxed`)
        assert.equal(toHex(encode(s)), toHex(text(s)))
      }
    }
  })

  it('shortAscii (text of up to SHORT_TEXT bytes, one case per length): every length, every character in its place, null for a byte over 0x7f at any place', () => {
    const bytes = Uint8Array.from({ length: SHORT_TEXT + 3 }, (_, i) => 0x20 + i)
    for (let n = 0; n <= SHORT_TEXT; n++) {
      for (const at of [0, 3]) {
        assert.ok(shortAscii(bytes, at, n) === String.fromCharCode(...bytes.subarray(at, at + n)), `${n} characters at ${at}`)
      }
      for (let where = 0; where < n; where++) {
        for (const high of [0x80, 0xc3, 0xff]) {
          const withHigh = bytes.slice(0, n)
          withHigh[where] = high
          assert.equal(shortAscii(withHigh, 0, n), null, `${n} bytes, ${high.toString(16)} at ${where}`)
        }
      }
    }
  })

  it('mediumAscii (the browsers\' JS path for ASCII text over SHORT_TEXT bytes): every length to 200, every character in its place, null for any byte over 0x7f', () => {
    const bytes = Uint8Array.from({ length: 260 }, (_, i) => 0x20 + (i % 0x5f))
    for (let n = SHORT_TEXT + 1; n <= 200; n++) {
      for (const at of [0, 3]) {
        const expected = String.fromCharCode(...bytes.subarray(at, at + n))
        // twice: the array a length's string is built in is reused
        assert.ok(mediumAscii(bytes, at, n) === expected, `${n} characters at ${at}`)
        assert.ok(mediumAscii(bytes, at, n) === expected, `${n} characters at ${at}, again`)
      }
      for (const where of [0, n >> 1, n - 1]) {
        const withHigh = bytes.slice(0, n)
        withHigh[where] = 0x80
        assert.equal(mediumAscii(withHigh, 0, n), null, `${n} bytes, 0x80 at ${where}`)
        withHigh[where] = 0xc3
        assert.equal(mediumAscii(withHigh, 0, n), null, `${n} bytes, 0xc3 at ${where}`)
      }
    }
  })

  it('long valid text of every byte length, with U+FFFD and a leading BOM kept', () => {
    for (const s of ['\ufeff' + 'x'.repeat(30) + '\ufffd', '\ufeff\ufffd'.repeat(20), 'é☺\u{1f600}\ufffd'.repeat(1000), '\ufeff'.repeat(30)]) {
      const input = text(s)
      assert.equal(decode(input), s)
      assert.equal(decode(input, { relaxed: true }), s)
      assert.equal(toHex(encode(s)), toHex(input))
    }
  })
})

describe('utf8: the replacing decoder of text past the short lengths, in Node and elsewhere', () => {
  const VALID = ['', 'plain ASCII text', '\ufeffa leading BOM', 'é☺\u{1f600} and a U+FFFD of its own: \ufffd', '\ufeff\ufeff']
  // each has an invalid sequence, some cut short by the range's end where the bytes after it would
  // complete them
  const INVALID = ['80', 'c080', 'c1bf', 'eda080', 'f4908080', 'f8', 'ff', '61e282', 'f09f98', 'c3']
  const AFTER = fromHex('80808041') // continuation bytes, then 'A'
  const fatal = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true })

  it('Node and Bun take Buffer\'s utf8Slice, Deno TextDecoder (package.json "imports")', () => {
    assert.equal(decodeReplacing, 'Deno' in globalThis ? decodeReplacingElsewhere : decodeReplacingNode)
  })

  for (const [where, decodeText] of /** @type {const} */ ([['Node', decodeReplacingNode], ['elsewhere', decodeReplacingElsewhere]])) {
    it(`${where}: valid text exactly, leading BOM kept, and only the range read`, () => {
      for (const s of VALID) {
        for (const pad of ['', PAD]) {
          const bytes = utf8.encode(s + pad)
          const src = concat([0xc3], bytes, AFTER) // a byte before that a lead byte would need
          assert.equal(decodeText(src, 1, 1 + bytes.length), s + pad, JSON.stringify(s + pad))
          assert.equal(decodeText(src, 1, 1 + bytes.length), fatal.decode(bytes))
        }
      }
    })

    it(`${where}: each invalid sequence gives a U+FFFD, within the range only`, () => {
      for (const hex of INVALID) {
        for (const pad of ['', PAD]) {
          const bytes = concat(utf8.encode(pad), fromHex(hex))
          const src = concat([0x41], bytes, AFTER)
          const s = decodeText(src, 1, 1 + bytes.length)
          assert.ok(s.startsWith(pad) && s.includes('\ufffd'), `${hex}: ${JSON.stringify(s)}`)
          assert.ok(!s.includes('A'), `${hex}: ${JSON.stringify(s)} reads past the range`)
        }
      }
    })
  }
})

describe('utf8: cached map keys', () => {
  it('a key read relaxed (escaped invalid bytes) is not served to a later strict decode', () => {
    for (const keyHex of ['ff', '61ff', 'c0af', 'eda080', '6162636465666768696a6b6c6d6e6f70717273747576ff']) {
      const key = fromHex(keyHex)
      const input = concat([0xa1], head(3, key.length), key, [0x01])
      for (let round = 0; round < 2; round++) {
        const relaxed = decode(input, { relaxed: true })
        assert.equal(toHex(encode(relaxed, { escapedBytes: true })), toHex(input))
        assert.throws(() => decode(input), (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === 'invalid-utf8', keyHex)
      }
    }
  })

  it('keys of 0 to 40 bytes, read again and again among others of their length, come back right', () => {
    // many keys of each length, so that keys share the cache's slots
    for (let length = 0; length <= 40; length++) {
      const keys = []
      for (let i = 0; keys.length < (length < 2 ? 1 + length * 68 : 300); i++) {
        let key = ''
        for (let j = 0; j < length; j++) key += String.fromCharCode(0x3a + ((i * 7 + j * 13 + (i >> 3) * j) % 69)) // no digits: '12' would be an array index
        if (!keys.includes(key)) keys.push(key)
      }
      keys.sort()
      for (let round = 0; round < 2; round++) {
        for (let start = 0; start < keys.length; start += 17) {
          const some = keys.slice(start, start + 17)
          const input = concat(head(5, some.length), ...some.flatMap((k, i) => [text(k), head(0, i)]))
          assert.deepEqual(Object.keys(decode(input)), some, `length ${length}`)
        }
      }
    }
  })
})
