// One group per encoding rule, each with the exact bytes expected (written out by hand from
// the DAG-CBOR spec, not produced by the code under test).
import assert from 'node:assert/strict'
import { CID } from 'multiformats/cid'
import { identity } from 'multiformats/hashes/identity'
// multiformats 9, the copy ipld-garbage depends on: a CID class other than ours
import { CID as CID9 } from '../node_modules/ipld-garbage/node_modules/multiformats/esm/src/cid.js'
import { encode, encodedLength, encodeInto, decode, DagCborEncodeError } from '../index.js'

const hex = (/** @type {Uint8Array} */ b) => Buffer.from(b).toString('hex')

/**
 * @param {unknown} value
 * @param {string} rule
 * @param {string} path
 */
function rejects (value, rule, path) {
  assert.throws(() => encode(value), (/** @type {any} */ e) => {
    assert.ok(e instanceof DagCborEncodeError, `expected DagCborEncodeError, got ${e}`)
    assert.equal(e.rule, rule)
    assert.equal(e.path, path)
    assert.ok(e.message.includes(path || 'at the top level'), e.message)
    return true
  })
}

describe('encode', () => {
  describe('integers in shortest form', () => {
    const cases = [
      [0, '00'], [23, '17'], [24, '1818'], [255, '18ff'], [256, '190100'], [65535, '19ffff'],
      [65536, '1a00010000'], [4294967295, '1affffffff'], [4294967296, '1b0000000100000000'],
      [Number.MAX_SAFE_INTEGER, '1b001fffffffffffff'], [-1, '20'], [-24, '37'], [-25, '3818'],
      [-256, '38ff'], [-257, '390100'], [-(2 ** 32), '3affffffff'], [-(2 ** 32) - 1, '3b0000000100000000'],
      [Number.MIN_SAFE_INTEGER, '3b001ffffffffffffe']
    ]
    for (const [value, expected] of cases) {
      it(`${value} -> ${expected}`, () => assert.equal(hex(encode(value)), expected))
    }
  })

  describe('BigInt', () => {
    it('in the safe range writes the same bytes as a Number', () => {
      assert.equal(hex(encode(5n)), '05')
      assert.equal(hex(encode(-500n)), '3901f3')
    })
    it('up to 2^64-1 and down to -2^64 as 64-bit integers', () => {
      assert.equal(hex(encode(2n ** 64n - 1n)), '1bffffffffffffffff')
      assert.equal(hex(encode(-(2n ** 64n))), '3bffffffffffffffff')
      assert.equal(hex(encode(2n ** 53n)), '1b0020000000000000')
    })
    it('outside -2^64..2^64-1 is an error', () => {
      rejects(2n ** 64n, 'integer-range', '')
      rejects({ big: [-(2n ** 64n) - 1n] }, 'integer-range', '/big/0')
    })
  })

  describe('floats always as float64', () => {
    it('non-integral Numbers', () => {
      assert.equal(hex(encode(1.5)), 'fb3ff8000000000000')
      assert.equal(hex(encode(-0.5)), 'fbbfe0000000000000')
      assert.equal(hex(encode(5e-324)), 'fb0000000000000001')
    })
    it('whole Numbers outside the safe-integer range', () => {
      assert.equal(hex(encode(2 ** 53)), 'fb4340000000000000')
      assert.equal(hex(encode(-(2 ** 53))), 'fbc340000000000000')
      assert.equal(hex(encode(1e300)), 'fb7e37e43c8800759c')
    })
    it('-0 as float64 -0.0, so it decodes back as -0', () => {
      assert.equal(hex(encode(-0)), 'fb8000000000000000')
      assert.ok(Object.is(decode(encode(-0)), -0))
    })
    it('NaN and ±Infinity are errors', () => {
      rejects(NaN, 'non-finite-float', '')
      rejects({ a: Infinity }, 'non-finite-float', '/a')
      rejects([1, [-Infinity]], 'non-finite-float', '/1/0')
    })
  })

  describe('strings', () => {
    it('UTF-8 with shortest lengths', () => {
      assert.equal(hex(encode('')), '60')
      assert.equal(hex(encode('a')), '6161')
      assert.equal(hex(encode('水')), '63e6b0b4')
      assert.equal(hex(encode('𐅑')), '64f0908591')
      assert.equal(hex(encode('x'.repeat(24))), '7818' + '78'.repeat(24))
      assert.equal(hex(encode('é'.repeat(200))), '790190' + 'c3a9'.repeat(200))
    })
    it('a leading U+FEFF is data', () => {
      assert.equal(hex(encode('\ufeffa')), '64efbbbf61')
    })
    it('lone surrogates are errors (no UTF-8 form)', () => {
      rejects('a\ud800', 'utf8', '')
      rejects({ s: ['\udc00b'] }, 'utf8', '/s/0')
      rejects('x'.repeat(100) + '\ud800', 'utf8', '')
    })
    it('escapedBytes writes U+DC80..U+DCFF back as raw bytes', () => {
      assert.equal(hex(encode('a\udcff', { escapedBytes: true })), '6261ff')
      assert.throws(() => encode('a\udcff'), DagCborEncodeError)
      assert.throws(() => encode('\udc7f', { escapedBytes: true }), DagCborEncodeError)
    })
  })

  describe('bytes', () => {
    it('Uint8Array (and views of larger buffers) as byte strings', () => {
      assert.equal(hex(encode(new Uint8Array([1, 2, 3]))), '43010203')
      assert.equal(hex(encode(new Uint8Array([9, 1, 2, 9]).subarray(1, 3))), '420102')
      assert.equal(hex(encode(new Uint8Array(0))), '40')
    })
    it('byte string heads in shortest form at every length boundary', () => {
      const heads = [[11, '4b'], [12, '4c'], [23, '57'], [24, '5818'], [255, '58ff'], [256, '590100'],
        [16383, '593fff'], [16384, '594000'], [65535, '59ffff'], [65536, '5a00010000']]
      for (const [length, head] of heads) {
        const content = new Uint8Array(length).map((_, i) => i * 13 + 1)
        const out = encode(content)
        assert.equal(hex(out.subarray(0, head.length / 2)), head, `length ${length}`)
        assert.deepEqual(out.subarray(head.length / 2), content, `length ${length}`)
      }
    })
    it('large byte strings are written whole', () => {
      const big = new Uint8Array(1 << 20).map((_, i) => i * 7)
      const out = encode({ big })
      assert.equal(hex(out.subarray(0, 10)), 'a1636269675a00100000')
      assert.deepEqual(out.subarray(10), big)
    })
    it('other typed arrays, DataView and ArrayBuffer are rejected (their bytes depend on the platform)', () => {
      rejects(new Uint16Array(2), 'type', '')
      rejects({ a: new Float64Array(1) }, 'type', '/a')
      rejects(new ArrayBuffer(2), 'type', '')
      rejects(new DataView(new ArrayBuffer(2)), 'type', '')
    })
  })

  describe('maps', () => {
    it('keys sorted by UTF-8 length, then bytewise, at every level', () => {
      assert.equal(hex(encode({ b: 1, aa: 2, a: 3 })), 'a3616103616201626161' + '02')
      assert.equal(hex(encode({ z: { bb: 1, c: 2 } })), 'a1617aa2616302626262' + '01')
    })
    it('non-ASCII keys sort by their UTF-8 bytes, not JS string order', () => {
      // U+FF61 (efbda1, 3 bytes) vs U+10000 (f0908080, 4 bytes): JS orders '\ud800..' first
      assert.equal(hex(encode({ '\u{10000}': 1, '\uff61': 2 })), 'a263efbda10264f090808001')
      // 'é' (2 bytes) sorts after 'aa' (2 bytes, smaller first byte) and after 'z' (1 byte)
      assert.equal(hex(encode({ é: 1, z: 2, aa: 3 })), 'a3617a02626161' + '0362c3a901')
    })
    it('key order equals a sort of the UTF-8 bytes, for small and large maps of mixed keys', () => {
      const utf8 = new TextEncoder()
      const pool = ['a', 'z', 'é', 'aa', '\uff61', '\u{10000}', '\u{10ffff}', '\ud7ff', '\ue000', 'ß', 'zz', '\u0800', '\u07ff', 'b\u{1f600}']
      for (const size of [3, 16, 17, 40]) {
        const keys = []
        for (let i = 0; keys.length < size; i++) {
          const key = pool[(i * 7) % pool.length] + pool[(i * 5 + 3) % pool.length] + (i >= pool.length ? String(i) : '')
          if (!keys.includes(key)) keys.push(key)
        }
        const expected = keys.map((k) => utf8.encode(k)).sort((x, y) => x.length - y.length || Buffer.compare(x, y))
        const value = Object.fromEntries(keys.map((k) => [k, null]))
        const bytes = encode(value)
        // decode strictly (it checks the order) and compare the key bytes in written order
        assert.deepEqual(Object.keys(decode(bytes)).map((k) => hex(utf8.encode(k))), expected.map(hex))
      }
    })
    it('large maps of ASCII keys (sorted by packed numbers) are in length-then-bytewise order', () => {
      /** keys in written order, from a map whose values are all null */
      const writtenKeys = (/** @type {Uint8Array} */ b) => {
        const info = b[0] & 31
        let p = info < 24 ? 1 : 1 + (1 << (info - 24))
        const keys = []
        while (p < b.length) {
          const i = b[p] & 31
          const n = i < 24 ? i : i === 24 ? b[p + 1] : (b[p + 1] << 8) | b[p + 2]
          p += i < 24 ? 1 : i === 24 ? 2 : 3
          keys.push(String.fromCharCode(...b.subarray(p, p + n)))
          p += n + 1 // the null value
        }
        return keys
      }
      let seed = 7
      const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32
      const word = (/** @type {number} */ length) => Array.from({ length }, () => String.fromCharCode(32 + Math.floor(random() * 95))).join('')
      const sets = {
        random: Array.from({ length: 1000 }, () => word(Math.floor(random() * 20))),
        'shared prefix': Array.from({ length: 500 }, () => 'bafyreib' + word(10 + Math.floor(random() * 3))),
        // no shared prefix, and keys of one length share their first four characters: only
        // later characters order them
        ties: Array.from({ length: 300 }, (_, i) => 'ab'[i % 2] + 'xyz' + word(2 + (i % 3))),
        'with the empty key': ['', ...Array.from({ length: 100 }, () => word(3))],
        'keys of 512 or more characters': [...Array.from({ length: 7 }, (_, i) => word(600 + 2000 * i)), ...Array.from({ length: 100 }, () => word(5))]
      }
      for (const [name, list] of Object.entries(sets)) {
        const keys = [...new Set(list)]
        assert.ok(keys.length > 64, name)
        const expected = [...keys].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
        const value = Object.fromEntries(keys.map((k) => [k, null]))
        assert.deepEqual(writtenKeys(encode(value)), expected, name)
        assert.deepEqual(writtenKeys(encode(new Map(keys.map((k) => [k, null])))), expected, name + ' (Map)')
      }
    })
    it('__proto__ as an own key is written like any other', () => {
      const value = JSON.parse('{"__proto__": 1}')
      assert.equal(hex(encode(value)), 'a1695f5f70726f746f5f5f01')
    })
    it('Map with string keys is a map; other keys are errors', () => {
      assert.equal(hex(encode(new Map([['b', 1], ['a', 2]]))), 'a2616102616201')
      rejects(new Map([[1, 2]]), 'map-key-type', '')
      rejects({ m: new Map([[Symbol('s'), 2]]) }, 'map-key-type', '/m')
    })
    it('the empty string is a key like any other, in a Map as in an object (@ipld/dag-cbor 10 refuses it in a Map)', () => {
      assert.equal(hex(encode(new Map([['', 1]]))), 'a16001')
      assert.equal(hex(encode({ '': 1 })), 'a16001')
      assert.equal(hex(encode(new Map([['a', 2], ['', 1]]))), 'a260016161' + '02')
      assert.deepEqual(decode(encode(new Map([['', 1]]))), { '': 1 })
    })
    it('objects with a null prototype and class instances are maps of own enumerable keys', () => {
      const bare = Object.create(null)
      bare.a = 1
      assert.equal(hex(encode(bare)), 'a1616101')
      class Point { constructor () { this.x = 1 } }
      assert.equal(hex(encode(new Point())), 'a1617801')
    })
  })

  describe('arrays', () => {
    it('with shortest lengths', () => {
      assert.equal(hex(encode([])), '80')
      assert.equal(hex(encode([1, [2]])), '82018102')
      assert.equal(hex(encode(new Array(24).fill(0))), '9818' + '00'.repeat(24))
    })
  })

  describe('CIDs as tag 42', () => {
    const v1 = 'bafyreidykglsfhoixmivffc5uwhcgshx4j465xwqntbmu2ztmxqzwzm7qu'
    const v0 = 'QmQg1v4o9xdT3Q14wh4S7dxZkDjyZ9ssFzFzyep1YrVJBY'
    it('CIDv1: d82a, byte string of 0x00 then the CID bytes', () => {
      const cid = CID.parse(v1)
      assert.equal(hex(encode(cid)), 'd82a5825' + '00' + hex(cid.bytes))
    })
    it('CIDv0: the bare multihash after 0x00', () => {
      const cid = CID.parse(v0)
      assert.equal(hex(encode(cid)), 'd82a5823' + '00' + hex(cid.bytes))
    })
    it('the byte string head counts the 0x00 prefix, also for short and very large CIDs', () => {
      // CIDv1, raw (0x55), identity multihash (0x00) of n bytes: 0x01 0x55 0x00 varint(n) digest
      // the cases: heads of 1, 2 and 3 bytes, the last small CID (16383 bytes) and the first
      // one written by reference (16384), and one whose head takes 5 bytes
      const cases = [[18, 'd82a57'], [19, 'd82a5818'], [16378, 'd82a594000'], [16379, 'd82a594001'], [70000, 'd82a5a00011177']]
      for (const [n, head] of cases) {
        const cid = CID.create(1, 0x55, identity.digest(new Uint8Array(n).map((_, i) => i * 31 + 7)))
        const out = encode({ l: cid })
        const at = 3 + head.length / 2 // after the map head, the key "l" and the tag and string heads
        assert.equal(hex(out.subarray(3, at)), head, `digest of ${n} bytes`)
        assert.equal(out[at], 0, `digest of ${n} bytes: the 0x00 prefix`)
        assert.deepEqual(out.subarray(at + 1), cid.bytes, `digest of ${n} bytes`)
      }
    })
    it('a CID from another copy of multiformats', () => {
      const foreign = CID9.parse(v1)
      assert.ok(!(foreign instanceof CID))
      assert.equal(hex(encode({ l: foreign })), hex(encode({ l: CID.parse(v1) })))
    })
  })

  describe('simple values', () => {
    it('true, false, null', () => {
      assert.equal(hex(encode([true, false, null])), '83f5f4f6')
    })
    it('undefined anywhere is an error naming where', () => {
      rejects(undefined, 'undefined', '')
      rejects({ a: undefined }, 'undefined', '/a')
      rejects([1, undefined], 'undefined', '/1')
      rejects({ links: [0, 1, 2, { name: undefined }] }, 'undefined', '/links/3/name')
      // eslint-disable-next-line no-sparse-arrays
      rejects([1, , 3], 'undefined', '/1')
    })
  })

  describe('values outside the data model', () => {
    const cases = [
      ['Date', new Date(0)], ['RegExp', /x/], ['Set', new Set()], ['Symbol', Symbol('x')],
      ['function', () => 1], ['boxed Number', Object(1)], ['boxed String', Object('s')],
      ['boxed Boolean', Object(true)], ['Promise', Promise.resolve()], ['Error', new Error('x')],
      ['WeakMap', new WeakMap()]
    ]
    for (const [label, value] of cases) {
      it(`${label} is rejected, with its path`, () => rejects({ k: [value] }, 'type', '/k/0'))
    }
    it('a boxed Number is not mistaken for a map', () => {
      assert.throws(() => encode(Object(1)), /boxed Number/)
    })
    it('paths escape / and ~ in keys (JSON pointer)', () => rejects({ 'a/b~': NaN }, 'non-finite-float', '/a~1b~0'))
  })

  describe('circular references', () => {
    it('an object containing itself', () => {
      const a = { b: { c: [] } }
      a.b.c.push(a)
      rejects(a, 'circular', '/b/c/0')
    })
    it('an array containing itself', () => {
      const a = [1]
      a.push(a)
      rejects(a, 'circular', '/1')
    })
    it('the same object twice side by side is not circular', () => {
      const shared = { x: 1 }
      assert.equal(hex(encode([shared, shared])), '82a1617801a1617801')
    })
  })

  describe('depth', () => {
    it('100,000 nested arrays: a clean error, not a stack overflow', () => {
      let deep = []
      for (let i = 0; i < 100000; i++) deep = [deep]
      assert.throws(() => encode(deep), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'depth')
    })
    it('100,000 nested objects: a clean error', () => {
      let deep = {}
      for (let i = 0; i < 100000; i++) deep = { a: deep }
      assert.throws(() => encode(deep), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'depth')
    })
    it('up to maxDepth works, and maxDepth can be raised', () => {
      let deep = []
      for (let i = 0; i < 999; i++) deep = [deep]
      assert.equal(encode(deep).length, 1000)
      deep = [deep]
      assert.throws(() => encode(deep), DagCborEncodeError)
      assert.equal(encode(deep, { maxDepth: 1001 }).length, 1001)
    })
  })

  describe('encodedLength and encodeInto', () => {
    const value = { a: [1, 'two', new Uint8Array(40000)], b: 1.5 }
    it('encodedLength equals encode().length', () => {
      assert.equal(encodedLength(value), encode(value).length)
    })
    it('encodeInto writes the same bytes at the target start and returns written', () => {
      const target = new Uint8Array(50000)
      const { written } = encodeInto(value, target)
      assert.equal(written, encode(value).length)
      assert.deepEqual(target.subarray(0, written), encode(value))
    })
    it('encodeInto fits a target of exactly the encoded size', () => {
      for (const v of [{}, [], { a: 1 }, 'x'.repeat(30), new Uint8Array(20000)]) {
        const target = new Uint8Array(encode(v).length)
        assert.equal(encodeInto(v, target).written, target.length)
        assert.deepEqual(target, encode(v))
      }
    })
    it('encodeInto into a too-small target throws a clean error, and the encoder still works', () => {
      assert.throws(() => encodeInto(value, new Uint8Array(10)), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'target-size')
      assert.equal(hex(encode([1])), '8101')
    })
  })

  describe('re-entrancy', () => {
    it('a getter that encodes during an encode does not corrupt either', () => {
      const inner = { get x () { return hex(encode({ y: 2 })) } }
      assert.equal(hex(encode({ a: inner })), hex(encode({ a: { x: 'a16179' + '02' } })))
    })
  })
})

// Issue 17: typed arrays other than Uint8Array, one row each, rejected with rule 'type' wherever they
// appear (1-byte ones too: Int8Array and Uint8ClampedArray are not byte strings), while Uint8Array
// and its subclasses (Node's Buffer) are bytes.
describe('encode: typed arrays and buffers, row by row', () => {
  const rejected = [
    ['Int8Array', new Int8Array([1, -1])], ['Uint8ClampedArray', new Uint8ClampedArray([1, 255])],
    ['Int16Array', new Int16Array(2)], ['Uint16Array', new Uint16Array(2)], ['Int32Array', new Int32Array(1)],
    ['Uint32Array', new Uint32Array(1)], ['Float32Array', new Float32Array(1)], ['Float64Array', new Float64Array(1)],
    ['BigInt64Array', new BigInt64Array(1)], ['BigUint64Array', new BigUint64Array(1)],
    ['DataView', new DataView(new ArrayBuffer(2))], ['ArrayBuffer', new ArrayBuffer(2)],
    ['SharedArrayBuffer', new SharedArrayBuffer(2)], ['Int8Array (empty)', new Int8Array(0)],
    ['Uint8ClampedArray (empty)', new Uint8ClampedArray(0)]
  ]
  for (const [label, value] of rejected) {
    it(`${label}: rule 'type', alone, in a map and in a list; the message says to use a Uint8Array`, () => {
      rejects(value, 'type', '')
      rejects({ a: value }, 'type', '/a')
      rejects([0, [value]], 'type', '/1/0')
      assert.throws(() => encode(value), /is not in the IPLD data model; bytes must be a Uint8Array/)
    })
  }
  const accepted = [
    ['Uint8Array', new Uint8Array([1, 2, 255])], ['Buffer', Buffer.from([1, 2, 255])],
    ['a Uint8Array subclass', new (class Bytes extends Uint8Array {})([1, 2, 255])],
    ['a view into a larger buffer', new Uint8Array([9, 1, 2, 255, 9]).subarray(1, 4)]
  ]
  for (const [label, value] of accepted) {
    it(`${label}: a byte string`, () => {
      assert.equal(hex(encode(value)), '430102ff')
      assert.equal(hex(encode({ b: value })), 'a16162430102ff')
    })
  }
  it('boxed primitives and other objects name their kind', () => {
    for (const [value, message] of [[Object(1), 'a boxed Number is not in the IPLD data model; use the primitive'],
      [Object('s'), 'a boxed String is not in the IPLD data model; use the primitive'], [Object(true), 'a boxed Boolean'],
      [Object(1n), 'a boxed BigInt'], [Object(Symbol('s')), 'a boxed Symbol'], [new Date(0), 'Date is not in the IPLD data model'],
      [new Set(), 'Set is not in the IPLD data model'], [/x/, 'RegExp is not in the IPLD data model']]) {
      assert.throws(() => encode(value), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'type' && e.message.includes(message), String(message))
    }
  })
})
