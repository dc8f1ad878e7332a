// The encoder's chunked output: every write that ends just before, exactly at, or just past the end
// of a buffer, and writes larger than the next buffer would be, come out whole and in order.
// Expected bytes are built by hand here (head/text from test/fuzz/cbor.js, DataView for floats),
// never by the code under test.
//
// Where the buffers end: the writer keeps one scratch buffer between calls (64 KiB at first, grown
// by large values up to 1 MiB), so a top-level encode does not know its boundaries. An encode
// started from inside another (a getter) starts on a fresh 1 KiB buffer, then buffers of 2, 4, 8 …
// KiB: `encodeFresh` uses that to put writes exactly at known boundaries. Each sweep is wide enough
// to cross them at every alignment even if those sizes change.
import assert from 'node:assert/strict'
import { CID } from 'multiformats/cid'
import { encode, encodedLength, encodeInto, DagCborEncodeError } from '../index.js'
import { head, text, concat, concatAll, toHex } from './fuzz/cbor.js'
import { mulberry32 } from './helpers/prng.js'

/** @param {number} v */
const float = (v) => {
  const b = new Uint8Array(9)
  b[0] = 0xfb
  new DataView(b.buffer).setFloat64(1, v)
  return b
}
/** @param {Uint8Array} b */
const bytesItem = (b) => concat(head(2, b.length), b)
const CID_BYTES = CID.parse('bafyreidykglsfhoixmivffc5uwhcgshx4j465xwqntbmu2ztmxqzwzm7qu').bytes
const cidItem = () => concat([0xd8, 0x2a], head(2, CID_BYTES.length + 1), [0x00], CID_BYTES)

/**
 * encode(value) run from inside another encode (a getter), so that it starts on a fresh writer.
 * @param {unknown} value
 * @param {import('../index.js').EncodeOptions} [options]
 * @returns {Uint8Array}
 */
function encodeFresh (value, options) {
  /** @type {Uint8Array|undefined} */
  let out
  encode({ get x () { out = encode(value, options); return 0 } })
  assert.ok(out)
  return out
}

/**
 * encode, encodedLength and encodeInto of `value` all give `expected`, at top level and fresh.
 * @param {unknown} value
 * @param {Uint8Array} expected
 * @param {string} label
 */
function assertEncodes (value, expected, label) {
  for (const [where, bytes] of /** @type {Array<[string, Uint8Array]>} */ ([['fresh', encodeFresh(value)], ['top level', encode(value)]])) {
    assertBytes(bytes, expected, `${label} (${where})`)
  }
  assert.equal(encodedLength(value), expected.length, `${label}: encodedLength`)
  const target = new Uint8Array(expected.length + 3).fill(0xee)
  assert.equal(encodeInto(value, target).written, expected.length, `${label}: encodeInto`)
  assertBytes(target.subarray(0, expected.length), expected, `${label}: encodeInto`)
  assert.equal(toHex(target.subarray(expected.length)), 'eeeeee', `${label}: encodeInto wrote past its bytes`)
}

/**
 * @param {Uint8Array} actual
 * @param {Uint8Array} expected
 * @param {string} label
 */
function assertBytes (actual, expected, label) {
  assert.equal(actual.length, expected.length, `${label}: length`)
  for (let i = 0; i < expected.length; i++) {
    if (actual[i] !== expected[i]) assert.fail(`${label}: byte ${i} is ${actual[i]}, expected ${expected[i]}`)
  }
}

// Items whose writes reserve exactly what they write (so an off-by-one room check shows): a float
// (9 bytes), a short ASCII string (1 + n), null (1); and items reserving more than they write.
const ITEMS = [
  { label: 'a float', value: 1.5, bytes: float(1.5) },
  { label: 'null', value: null, bytes: Uint8Array.of(0xf6) },
  { label: 'true', value: true, bytes: Uint8Array.of(0xf5) },
  { label: 'the integer 7', value: 7, bytes: Uint8Array.of(0x07) },
  { label: 'the integer 2^40', value: 2 ** 40, bytes: Uint8Array.from(head(0, 2 ** 40)) },
  { label: 'the integer -2^60', value: -(2n ** 60n), bytes: Uint8Array.from(head(1, 2n ** 60n - 1n)) },
  { label: "'abc'", value: 'abc', bytes: text('abc') },
  { label: 'a 23-character ASCII string', value: 'x'.repeat(23), bytes: text('x'.repeat(23)) },
  { label: 'a 24-character ASCII string', value: 'y'.repeat(24), bytes: text('y'.repeat(24)) },
  { label: "'é'", value: 'é', bytes: text('é') },
  { label: 'a 5-byte byte string', value: Uint8Array.of(1, 2, 3, 4, 5), bytes: bytesItem(Uint8Array.of(1, 2, 3, 4, 5)) },
  { label: 'a 30-byte byte string', value: new Uint8Array(30).fill(9), bytes: bytesItem(new Uint8Array(30).fill(9)) },
  { label: 'a CID', value: CID.parse('bafyreidykglsfhoixmivffc5uwhcgshx4j465xwqntbmu2ztmxqzwzm7qu'), bytes: cidItem() },
  { label: 'an empty map', value: {}, bytes: Uint8Array.of(0xa0) },
  { label: 'an array head of 300 items', value: new Array(300).fill(0), bytes: concat(head(4, 300), new Uint8Array(300)) }
]

describe('writer: a write that ends around the end of a buffer', () => {
  for (const { label, value, bytes } of ITEMS) {
    it(`${label} after fillers of 990..1040 and 2990..3120 bytes`, () => {
      const lengths = []
      for (let n = 990; n <= 1040; n++) lengths.push(n)
      for (let n = 2990; n <= 3120; n++) lengths.push(n)
      for (const n of lengths) {
        const filler = new Uint8Array(n).fill(0x5a)
        assertEncodes([filler, value, 0], concatAll([[0x83], bytesItem(filler), bytes, [0x00]]), `${label} after ${n} bytes`)
        // a byte string's write leaves a spare byte (its room is reserved for the longest head); a
        // float's does not, so after one the item starts exactly at a buffer's end for some n
        assertEncodes([filler, 1.5, value, 0], concatAll([[0x84], bytesItem(filler), float(1.5), bytes, [0x00]]), `${label} after ${n} bytes and a float`)
      }
    })
  }

  it('runs of floats after fillers of 0..9 bytes: every alignment at the first buffers\' ends', () => {
    const floats = Array.from({ length: 2000 }, (_, i) => i + 0.5)
    for (let n = 0; n < 10; n++) {
      const filler = new Uint8Array(n).fill(1)
      assertEncodes([filler, ...floats], concatAll([head(4, 2001), bytesItem(filler), ...floats.map(float)]), `filler ${n}`)
    }
  })

  it('seeded sequences of mixed items (many buffer ends, at random alignments)', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const random = mulberry32(seed)
      const values = []
      const parts = []
      let size = 0
      const target = 500 + Math.floor(random() * 20000)
      while (size < target) {
        const { value, bytes } = ITEMS[Math.floor(random() * ITEMS.length)]
        values.push(value)
        parts.push(bytes)
        size += bytes.length
      }
      assertEncodes(values, concatAll([head(4, values.length), ...parts]), `seed ${seed}`)
    }
  })
})

describe('writer: writes larger than the next buffer', () => {
  // the rows' strings need more room than a fresh writer's next buffer (2 KiB), and the last ones
  // more than any buffer a top-level encode starts with (the scratch buffer is at most 1 MiB, the
  // next 2 MiB; a string reserves 3 bytes per UTF-16 unit)
  const rows = [
    { label: "'a' x 1000", value: 'a'.repeat(1000) },
    { label: "'é' x 1000", value: 'é'.repeat(1000) },
    { label: "'a' x 200000", value: 'a'.repeat(200000) },
    { label: "'☺' x 50000", value: '☺'.repeat(50000) },
    { label: "'a' x 1 Mi", value: 'a'.repeat(1 << 20) },
    { label: "'\u{1f600}' x 400000", value: '\u{1f600}'.repeat(400000) }
  ]
  for (const { label, value } of rows) {
    it(`${label}, alone and after 1000 bytes`, () => {
      assertEncodes(value, text(value), label)
      const filler = new Uint8Array(1000).fill(3)
      assertEncodes([filler, value], concatAll([[0x82], bytesItem(filler), text(value)]), `${label} after 1000 bytes`)
    })
  }

  it('byte strings of 2 KiB to 16 KiB - 1 (copied) and 16 KiB (referenced), after 1000 bytes', () => {
    for (const n of [2000, 2045, 2048, 4100, 16383, 16384, 100000]) {
      const content = new Uint8Array(n).map((_, i) => i * 7 + 1)
      const filler = new Uint8Array(1000).fill(3)
      assertEncodes([filler, content, 1.5], concatAll([[0x83], bytesItem(filler), bytesItem(content), float(1.5)]), `${n} bytes`)
    }
  })
})

describe('writer: byte strings written by reference (16 KiB and more) among other writes', () => {
  // each one ends the bytes pending in the current buffer, which continue after it
  const big = (/** @type {number} */ n, /** @type {number} */ seed) => new Uint8Array(n).map((_, i) => (i * seed + 3) & 0xff)
  const rows = [
    { label: 'two in a row', parts: [big(16384, 3), big(20000, 5)] },
    { label: 'two with a small write between', parts: [big(16384, 3), 'x', big(20000, 5), 'y'] },
    { label: 'small, large, small, large, small', parts: [1.5, big(17000, 7), 'ab', big(16384, 11), [null]] },
    { label: 'five, each after a string', parts: Array.from({ length: 10 }, (_, i) => (i % 2 ? big(16384 + i, i) : 's'.repeat(i * 100))) },
    { label: 'after a fresh buffer is full', parts: [new Uint8Array(1000).fill(1), 'z'.repeat(3000), big(40000, 13), 'tail'] }
  ]
  for (const { label, parts } of rows) {
    it(label, () => {
      const expected = concatAll([head(4, parts.length), ...parts.map((p) => p instanceof Uint8Array ? bytesItem(p) : typeof p === 'string' ? text(p) : typeof p === 'number' ? float(p) : Uint8Array.of(0x81, 0xf6))])
      assertEncodes(parts, expected, label)
      assertEncodes({ a: parts, b: parts }, concatAll([[0xa2], text('a'), expected, text('b'), expected]), `${label}, twice in a map`)
    })
  }
})

describe('writer: strings whose head grows once their UTF-8 length is known', () => {
  // the head is sized for one byte per UTF-16 unit and moved when the UTF-8 length needs a longer
  // one: sweep character counts around the head sizes' limits (24, 256, 65536 bytes) and the switch
  // from the JS writer to TextEncoder (40 units), for characters of 1 to 4 bytes
  const chars = ['a', 'é', '☺', '\u{1f600}']
  const counts = [0, 1, 7, 8, 11, 12, 13, 19, 20, 21, 22, 23, 24, 25, 39, 40, 41, 42, 63, 64, 84, 85, 86, 127, 128, 129, 255, 256, 257, 21845, 21846, 32767, 32768, 65535, 65536]
  for (const c of chars) {
    it(`${JSON.stringify(c)} repeated ${counts[1]}..${counts[counts.length - 1]} times, alone and after an ASCII prefix`, () => {
      for (const n of counts) {
        const s = c.repeat(n)
        assertEncodes(s, text(s), `${n} x ${JSON.stringify(c)}`)
        assertEncodes('ab' + s, text('ab' + s), `'ab' + ${n} x ${JSON.stringify(c)}`)
        assertEncodes([s, 1], concatAll([[0x82], text(s), [0x01]]), `[${n} x ${JSON.stringify(c)}, 1]`)
      }
    })
  }
})

describe('writer: results', () => {
  it('each result keeps exactly its bytes: a later encode does not change it', () => {
    const values = [{ a: 1 }, 'x'.repeat(100), new Uint8Array(20000).fill(2), ['y'.repeat(70000)], 1.5]
    const results = values.map((v) => encode(v))
    const copies = results.map((r) => toHex(r))
    for (const v of values) encode(v)
    encode(new Uint8Array(3 << 20))
    results.forEach((r, i) => {
      assert.equal(toHex(r), copies[i])
      // its own buffer, exactly (test/ownership.spec.js)
      assert.equal(r.buffer.byteLength, r.length)
      assert.equal(r.byteOffset, 0)
    })
  })

  it('a large byte string is copied into the result: changing it after encode changes nothing', () => {
    const big = new Uint8Array(50000).fill(4)
    const out = encode({ big })
    big.fill(5)
    assert.equal(out[out.length - 1], 4)
    assert.equal(out.findIndex((b, i) => i > 10 && b !== 4), -1)
  })

  it('a result made of chunks (in Node, of memory that is not zero-filled) is a plain Uint8Array that owns exactly its bytes, every one written', async () => {
    const { resultMemory } = await import('#result-memory')
    const node = await import('../lib/result-memory-node.js')
    assert.equal(resultMemory, node.resultMemory, "'#result-memory' resolves to lib/result-memory-node.js in Node")
    const garbage = new Uint8Array(4096).fill(0xee) // leave bytes behind in freed memory
    for (const size of [16 * 1024, 70_000, 1 << 20, (3 << 20) + 5]) {
      garbage.fill(0xee)
      const payload = new Uint8Array(size).map((_, i) => i * 7)
      const out = encode([payload, 'tail'])
      assert.equal(Object.getPrototypeOf(out), Uint8Array.prototype, `${size}: a plain Uint8Array, not a Buffer`)
      assert.equal(out.byteOffset, 0)
      assert.equal(out.buffer.byteLength, out.byteLength, `${size}: the result owns exactly its bytes`)
      assert.ok(Buffer.from(out).equals(concatAll([head(4, 2), head(2, size), payload, text('tail')])), `${size}: every byte written`)
    }
  })

  it('encodeInto: a target of exactly the size, one byte short, and larger', () => {
    for (const value of [[new Uint8Array(20000), 'x'], 'é'.repeat(5000), { a: new Uint8Array(70000) }, [1.5, 2.5]]) {
      const expected = encode(value)
      const exact = new Uint8Array(expected.length)
      assert.equal(encodeInto(value, exact).written, expected.length)
      assert.equal(toHex(exact), toHex(expected))
      assert.throws(() => encodeInto(value, new Uint8Array(expected.length - 1)), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'target-size')
      const larger = new Uint8Array(expected.length + 10).fill(7)
      assert.equal(encodeInto(value, larger).written, expected.length)
      assert.equal(toHex(larger.subarray(0, expected.length)), toHex(expected))
      assert.ok(larger.subarray(expected.length).every((b) => b === 7))
    }
  })

  it('an encode inside a getter, both crossing buffers, leaves the outer encode whole', () => {
    const inner = ['i'.repeat(5000), new Uint8Array(30000).fill(6), 'j'.repeat(3000)]
    const innerBytes = concatAll([[0x83], text(inner[0]), bytesItem(inner[1]), text(inner[2])])
    const outer = {
      a: 'o'.repeat(3000),
      get b () { return encode(inner) },
      c: new Uint8Array(2000).fill(8)
    }
    const expected = concatAll([[0xa3], text('a'), text(outer.a), text('b'), bytesItem(innerBytes), text('c'), bytesItem(new Uint8Array(2000).fill(8))])
    assert.equal(toHex(encode(outer)), toHex(expected))
    assert.equal(toHex(encodeFresh(outer)), toHex(expected))
  })
})
