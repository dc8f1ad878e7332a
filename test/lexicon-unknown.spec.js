// dag-cbor-fast/lexicon: what a Lexicon does not type (an `unknown` field, a property an object
// does not name, a member an open union does not list) is read as generic decode reads it
// (lib/lexicon/unknown.js). Each value of the data model, in each of the three places, decodes to
// generic decode's value (deep-equal, keys in the same order, byte strings and CIDs copied); each
// fault generic decode refuses is refused with its error (rule, detail, offset, path); and what the
// AT Protocol data model lacks (floats, integers outside 64 bits, a map with "$type": "blob" that is
// no blob) is refused with the Lexicon's rules, at the byte where it is.
import assert from 'node:assert/strict'
import { CID } from 'multiformats/cid'
import { compile } from '../lib/lexicon/index.js'
import { encode, decode, DagCborDecodeError } from '../index.js'

const hex = (/** @type {string} */ h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16))
const toHex = (/** @type {Uint8Array} */ bytes) => Buffer.from(bytes).toString('hex')
const link = CID.parse('bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm')
const rawLink = CID.parse('bafkreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm')
const v0Link = CID.parse('QmdfTbBqBPQ7VNxZEYEj14VmRuZBkqFbiwReogJgS1zR1n')

const codec = compile([{
  lexicon: 1,
  id: 'com.example.rec',
  defs: {
    main: {
      type: 'record',
      key: 'tid',
      record: {
        type: 'object',
        properties: {
          u: { type: 'unknown' },
          o: { type: 'object', properties: {} },
          n: { type: 'union', refs: ['#known'] }
        }
      }
    },
    known: { type: 'object', properties: {} }
  }
}]).record('com.example.rec')

/** @type {Array<[string, (value: unknown) => Record<string, unknown>, string]>} where a value is put, and its path */
const PLACES = [
  ['an unknown field', (value) => ({ u: { x: value } }), '/u/x'],
  ['a property the object does not name', (value) => ({ o: { x: value } }), '/o/x'],
  ['a member the open union does not list', (value) => ({ n: { $type: 'com.example.future', x: value } }), '/n/x']
]
const record = (/** @type {Record<string, unknown>} */ fields) => ({ $type: 'com.example.rec', ...fields })

/**
 * A value as text, keys in their order, bigints, byte strings and CIDs told apart.
 *
 * @param {unknown} value
 * @returns {string}
 */
function show (value) {
  return JSON.stringify(value, function (key, v) {
    const raw = this[key]
    if (typeof raw === 'bigint') return `${raw}n`
    if (raw instanceof Uint8Array) return `bytes ${toHex(raw)}`
    if (CID.asCID(raw) !== null) return `CID ${raw}`
    return v
  })
}

/**
 * Every byte string in a value, and every CID's bytes.
 *
 * @param {unknown} value
 * @param {Uint8Array[]} found
 * @returns {Uint8Array[]}
 */
function byteStrings (value, found = []) {
  if (value instanceof Uint8Array) found.push(value)
  else if (CID.asCID(value) !== null) found.push(/** @type {CID} */ (value).bytes)
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) byteStrings(v, found)
  return found
}

/** a map of more keys than generic decode makes with PlainObject (LARGE_MAP) */
const wide = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i]))

/** @type {Array<[string, unknown]>} */
const VALUES = [
  ['nested maps and lists', { a: [1, [2, [3, {}]], { b: { c: [] } }], d: {} }],
  ['keys of one length, ordered bytewise, after shorter ones', { ba: 1, ab: 2, b: 3, aaa: 4 }],
  ['integers at each head size', [0, 23, 24, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1]],
  ['negative integers at each head size', [-1, -24, -25, -256, -257, -65536, -65537, -(2 ** 32), -(2 ** 32) - 1, -(2 ** 53) + 1]],
  ['big integers: 2^53 and up to 2^63-1, as bigints', [2n ** 53n, 2n ** 60n, 2n ** 63n - 1n]],
  ['big negative integers: -2^53 and down to -2^63, as bigints', [-(2n ** 53n), -(2n ** 60n), -(2n ** 63n)]],
  ['byte strings', [new Uint8Array(0), new Uint8Array([1, 2, 3]), new Uint8Array(300).fill(7)]],
  ['CIDs: v1 dag-cbor, v1 raw, v0', [link, rawLink, v0Link]],
  ['text: empty, ASCII, not ASCII, long', ['', 'plain', 'é and 🙂', 'x'.repeat(30), 'y'.repeat(200), 'ü'.repeat(90)]],
  ['true, false and null', [true, false, null]],
  ['a key __proto__, an own property', JSON.parse('{"__proto__": {"a": 1}, "b": 2}')],
  ['a map of 200 keys', wide],
  ['a list of 1,100 items', Array.from({ length: 1100 }, (_, i) => i % 3 === 0 ? { i } : i)],
  ['a valid blob inside', { image: { $type: 'blob', ref: rawLink, mimeType: 'image/png', size: 1000 } }]
]

describe('dag-cbor-fast/lexicon: values a Lexicon does not type are generic decode\'s', () => {
  for (const [name, value] of VALUES) {
    for (const [where, put] of PLACES) {
      it(`${name}, in ${where}`, () => {
        const bytes = encode(record(put(value)))
        const generic = decode(bytes)
        const got = codec.decode(bytes)
        assert.deepStrictEqual(got, generic)
        assert.equal(show(got), show(generic), 'keys in the same order, the same kinds of value')
        for (const b of byteStrings(got)) assert.notEqual(b.buffer, bytes.buffer, 'a byte string is a copy, not a view of the input')
        codec.validate(bytes)
      })
    }
  }
})

/** the value that a fault's bytes replace in the record: a byte string, 44 deadbeef */
const PLACEHOLDER = new Uint8Array([0xde, 0xad, 0xbe, 0xef])

/**
 * The record with the bytes `faultHex` where the value goes.
 *
 * @param {(value: unknown) => Record<string, unknown>} put
 * @param {string} faultHex
 * @returns {Uint8Array}
 */
function recordWith (put, faultHex) {
  const h = toHex(encode(record(put(PLACEHOLDER))))
  assert.equal(h.split('44deadbeef').length, 2)
  return hex(h.replace('44deadbeef', faultHex))
}

/**
 * @param {() => unknown} run
 * @returns {any} the DagCborDecodeError it throws
 */
function fault (run) {
  try {
    run()
  } catch (e) {
    if (e instanceof DagCborDecodeError) return e
    throw e
  }
  assert.fail('accepted')
}

const where = (/** @type {any} */ e) => ({ rule: e.rule, detail: e.detail, offset: e.offset, path: e.path })

/** @type {Array<[string, string]>} faults of DAG-CBOR: [what, the value's bytes] */
const DAG_CBOR_FAULTS = [
  ['keys out of order', 'a2' + '6162' + '01' + '6161' + '02'],
  ['a longer key before a shorter one', 'a2' + '626161' + '01' + '6162' + '02'],
  ['a key twice', 'a2' + '6161' + '01' + '6161' + '02'],
  ['a key twice, deeper', '81' + 'a2' + '6161' + '01' + '6161' + '02'],
  ['a map key that is not text', 'a1' + '01' + '02'],
  ['a key that is not UTF-8', 'a1' + '62c328' + '01'],
  ['text that is not UTF-8', '82' + '01' + '62c328'],
  ['an integer not in shortest form', '1817'],
  ['a negative integer not in shortest form', '390017'],
  ['a length not in shortest form', '780161'],
  ['a byte string longer than the bytes left', '5a00010000' + '00'],
  ['a list whose 8-byte length is past 2^53', '9b0020000000000000'],
  ['a map of more entries than the bytes left hold, two bytes each', '82' + 'b864' + '5864' + '07'.repeat(100)],
  ['an indefinite-length list', '9f01ff'],
  ['an integer with additional information 31', '1f'],
  ['a reserved additional information', '1c'],
  ['a tag other than 42', 'c1' + '01'],
  ['a tag past 2^53', 'db0020000000000001' + '01'],
  ['tag 42 over text', 'd82a' + '6161'],
  ['tag 42 over no CID', 'd82a' + '43' + '000201'],
  ['tag 42 without the 0x00 prefix', 'd82a' + '42' + '0155'],
  ['undefined', 'f7'],
  ['a simple value', 'e0'],
  ['a two-byte simple value', 'f820'],
  ['a reserved simple form', 'fc'],
  ['a break code', 'ff'],
  ['a 16-bit float', 'f93c00'],
  ['a 32-bit float', 'fa3fc00000'],
  ['a 16-bit NaN', 'f97e00'],
  ['a 16-bit -Infinity', 'f9fc00'],
  ['a 32-bit Infinity', 'fa7f800000'],
  ['a 64-bit NaN', 'fb7ff8000000000001'],
  ['a 64-bit -Infinity', 'fbfff0000000000000']
]

describe('dag-cbor-fast/lexicon: what generic decode refuses there, refused with its error', () => {
  for (const [name, faultHex] of DAG_CBOR_FAULTS) {
    for (const [place, put] of PLACES) {
      it(`${name}, in ${place}`, () => {
        const bytes = recordWith(put, faultHex)
        const expected = where(fault(() => decode(bytes)))
        assert.deepEqual(where(fault(() => codec.decode(bytes))), expected)
        assert.deepEqual(where(fault(() => codec.validate(bytes))), expected)
      })
    }
  }

  it('a float cut short by the end of the input', () => {
    for (const [, put] of PLACES) {
      const whole = recordWith(put, 'fb3ff8')
      const bytes = whole.subarray(0, toHex(whole).indexOf('fb3ff8') / 2 + 3)
      const expected = where(fault(() => decode(bytes)))
      assert.equal(expected.rule, 'truncated')
      assert.deepEqual(where(fault(() => codec.decode(bytes))), expected)
      assert.deepEqual(where(fault(() => codec.validate(bytes))), expected)
    }
  })

  it('the depth limit: its detail names the maxDepth given, at the offset and path generic decode names', () => {
    for (const [, put] of PLACES) {
      // the record, then the map or union member holding x, then a list of an empty map, an
      // empty list and two lists: 5 levels, each left as the next is read
      const bytes = encode(record(put([{}, [], [[1]]])))
      assert.deepStrictEqual(codec.decode(bytes, { maxDepth: 5 }), decode(bytes, { maxDepth: 5 }))
      for (const maxDepth of [3, 4]) {
        const expected = where(fault(() => decode(bytes, { maxDepth })))
        assert.equal(expected.detail, `nesting deeper than maxDepth (${maxDepth} levels)`)
        assert.deepEqual(where(fault(() => codec.decode(bytes, { maxDepth }))), expected)
        assert.deepEqual(where(fault(() => codec.validate(bytes, { maxDepth }))), expected)
      }
    }
  })
})

/** @type {Array<[string, string, string, string, number]>} [what, the value's bytes, rule, path below x, offset in the value] */
const DATA_MODEL_FAULTS = [
  ['a 64-bit float', 'fb3ff8000000000000', 'lexicon-float', '', 0],
  ['a float inside a list inside a map', 'a1' + '6161' + '82' + '01' + 'fb3ff8000000000000', 'lexicon-float', '/a/1', 5],
  ['2^63', '1b8000000000000000', 'lexicon-kind', '', 0],
  ['2^64-1', '1bffffffffffffffff', 'lexicon-kind', '', 0],
  ['-2^63-1', '3b8000000000000000', 'lexicon-kind', '', 0],
  ['a blob without size', toHex(encode({ a: 1, b: { $type: 'blob', ref: rawLink, mimeType: 'image/png' } })), 'lexicon-blob', '/b', 6],
  ['a blob whose ref is text', toHex(encode([{ $type: 'blob', ref: 'x', mimeType: 'image/png', size: 1 }])), 'lexicon-blob', '/0', 1],
  // the first fault in the bytes is the one named, though generic decode would name the later one
  ['a float before text that is not UTF-8', '82' + 'fb3ff8000000000000' + '62c328', 'lexicon-float', '/0', 1]
]

describe('dag-cbor-fast/lexicon: what the AT Protocol data model lacks, refused there where it is', () => {
  for (const [name, faultHex, rule, below, at] of DATA_MODEL_FAULTS) {
    for (const [place, put, path] of PLACES) {
      it(`${name}, in ${place}: ${rule}`, () => {
        const bytes = recordWith(put, faultHex)
        const offset = toHex(bytes).indexOf(faultHex) / 2 + at
        for (const run of [() => codec.decode(bytes), () => codec.validate(bytes)]) {
          const e = fault(run)
          assert.deepEqual([e.rule, e.path, e.offset], [rule, path + below, offset])
          assert.match(e.message, new RegExp(`^Lexicon decode of com\\.example\\.rec at byte ${offset}, `))
        }
      })
    }
  }
})
