/* global describe, it */
// Encode/decode rule tests that run in the browser bundle. Expected bytes are written by hand from
// RFC 8949 / the DAG-CBOR spec, never computed by the codec under test.
import { CID } from 'multiformats/cid'
// eslint-disable-next-line local/declared-imports -- run.js's esbuild plugin resolves it to ipld-garbage's multiformats 9
import { CID as ForeignCID } from 'foreign-multiformats/cid'
import * as dagCbor from '../../index.js'
import { ok, is, bytesEqual, deepEqual, throws, fromHex, toHex } from './assert.js'

const { encode, decode, DagCborDecodeError, DagCborEncodeError } = dagCbor
const CID_STR = 'bafyreihdb57fdysx5h35urvxz64ros7zvywshber7id6t6c6fek37jgyfe'

describe('codec basics (browser)', () => {
  it('is a BlockCodec named dag-cbor with code 0x71', () => {
    is(dagCbor.name, 'dag-cbor')
    is(dagCbor.code, 0x71)
  })

  it('sorts map keys length-first, then bytewise; Maps with string keys are maps', () => {
    bytesEqual(encode({ bb: 1, a: 2, c: 3 }), fromHex('a3 6161 02 6163 03 626262 01'))
    bytesEqual(encode(new Map([['b', 1], ['a', 2]])), fromHex('a2 6161 02 6162 01'))
  })

  it('decodes from a Uint8Array view at an offset and from an ArrayBuffer', () => {
    is(decode(new Uint8Array([0xff, 0x18, 0x64, 0xff]).subarray(1, 3)), 100)
    is(decode(new Uint8Array([0x18, 0x64]).buffer), 100)
  })

  it('decodeFirst, encodedLength, encodeInto, toByteView', () => {
    const [first, rest] = dagCbor.decodeFirst(fromHex('01 6161'))
    is(first, 1)
    bytesEqual(rest, fromHex('6161'))
    const value = { hello: [1, 'world', new Uint8Array([1, 2])] }
    const expected = fromHex('a1 6568656c6c6f 83 01 65776f726c64 42 0102')
    bytesEqual(encode(value), expected)
    is(dagCbor.encodedLength(value), expected.length, 'encodedLength')
    const target = new Uint8Array(64)
    const { written } = dagCbor.encodeInto(value, target)
    is(written, expected.length, 'encodeInto written')
    bytesEqual(target.subarray(0, written), expected)
    const view = dagCbor.toByteView(new Uint8Array([7, 8]).buffer)
    ok(view instanceof Uint8Array, 'toByteView returns a Uint8Array')
    bytesEqual(view, fromHex('0708'))
  })

  it('copies byte strings by default; viewBytes returns views of the input', () => {
    const input = fromHex('43 010203')
    const copied = decode(input)
    bytesEqual(copied, fromHex('010203'))
    ok(copied.buffer !== input.buffer, 'default decode should copy')
    const viewed = decode(input, { viewBytes: true })
    bytesEqual(viewed, fromHex('010203'))
    ok(viewed.buffer === input.buffer, 'viewBytes should return a view of the input')
  })
})

describe('numbers: ints, floats, bigints, -0 (browser)', () => {
  it('encodes safe whole Numbers as ints and other Numbers as float64', () => {
    bytesEqual(encode(0), fromHex('00'))
    bytesEqual(encode(-1), fromHex('20'))
    bytesEqual(encode(Number.MAX_SAFE_INTEGER), fromHex('1b 001fffffffffffff'))
    bytesEqual(encode(-Number.MAX_SAFE_INTEGER), fromHex('3b 001ffffffffffffe'))
    bytesEqual(encode(2 ** 53), fromHex('fb 4340000000000000'))
    bytesEqual(encode(1.5), fromHex('fb 3ff8000000000000'))
  })

  it('encodes -0 as float64 -0.0 and decodes it back to -0', () => {
    bytesEqual(encode(-0), fromHex('fb 8000000000000000'))
    is(decode(fromHex('fb 8000000000000000')), -0)
    is(decode(encode([-0]))[0], -0)
  })

  it('encodes BigInts as ints over the full 64-bit range and rejects beyond it', () => {
    bytesEqual(encode(5n), fromHex('05'))
    bytesEqual(encode(-5n), fromHex('24'))
    bytesEqual(encode(2n ** 64n - 1n), fromHex('1b ffffffffffffffff'))
    bytesEqual(encode(-(2n ** 64n)), fromHex('3b ffffffffffffffff'))
    throws(() => encode(2n ** 64n), DagCborEncodeError, '2^64')
    throws(() => encode(-(2n ** 64n) - 1n), DagCborEncodeError, '-2^64-1')
  })

  it('decodes ints beyond the safe range as BigInt, within it as Number', () => {
    is(decode(fromHex('1b 001fffffffffffff')), Number.MAX_SAFE_INTEGER)
    is(decode(fromHex('1b 0020000000000000')), 2n ** 53n)
    is(decode(fromHex('1b ffffffffffffffff')), 2n ** 64n - 1n)
    is(decode(fromHex('3b ffffffffffffffff')), -(2n ** 64n))
  })
})

describe('CIDs as tag 42 (browser)', () => {
  const cid = CID.parse(CID_STR)
  const tagged = fromHex('a1 646c696e6b d82a 5825 00' + toHex(cid.bytes))

  it('encodes a CID as tag 42 over 0x00 + CID bytes', () => {
    is(cid.bytes.length, 36)
    bytesEqual(encode({ link: cid }), tagged)
  })

  it('encodes a foreign CID copy (multiformats 9) identically', () => {
    const foreign = ForeignCID.parse(CID_STR)
    ok(!(foreign instanceof CID), 'test setup: the foreign CID must be another class')
    bytesEqual(encode({ link: foreign }), tagged)
  })

  it('decodes tag 42 to a multiformats CID', () => {
    const { link } = decode(tagged)
    ok(link instanceof CID, 'decoded link is a CID')
    ok(link.equals(cid), 'decoded CID equals the original')
    is(link.toString(), CID_STR)
  })
})

describe('strict decode rejects, relaxed accepts what it should (browser)', () => {
  // [hex, rule, relaxed value (undefined: relaxed must reject too)]
  const cases = [
    ['a2 6162 01 6161 02', 'map-key-order', { b: 1, a: 2 }],
    ['a2 626161 01 6162 02', 'map-key-order', { aa: 1, b: 2 }],
    ['1801', 'non-shortest', 1],
    ['78 01 61', 'non-shortest', 'a'],
    ['fa 3fc00000', 'float-size', 1.5],
    ['f9 3e00', 'float-size', 1.5],
    ['f7', 'undefined', null],
    ['61 ff', 'invalid-utf8', '\udcff'],
    ['a2 6161 01 6161 02', 'duplicate-key'],
    ['9f ff', 'indefinite-length'],
    ['01 01', 'trailing-bytes'],
    ['62 61', 'truncated'],
    ['c1 01', 'tag'],
    ['d82a 41 01', 'cid'],
    ['fb 7ff8000000000000', 'non-finite-float'],
    ['f0', 'simple-value'],
    ['a1 01 01', 'map-key-type']
  ]
  for (const [hex, rule, relaxedValue] of cases) {
    it(`${hex}: rule '${rule}'${relaxedValue === undefined ? ', not relaxable' : ', relaxed accepts'}`, () => {
      const bytes = fromHex(hex)
      const error = throws(() => decode(bytes), DagCborDecodeError, hex)
      ok(error instanceof Error, 'DagCborDecodeError extends Error')
      is(error.rule, rule, `rule for ${hex} (message: ${error.message})`)
      ok(Number.isInteger(error.offset) && error.offset >= 0 && error.offset <= bytes.length,
        `offset ${error.offset} within the input`)
      is(typeof error.path, 'string', 'path')
      is(error.relaxable, relaxedValue !== undefined, 'relaxable')
      if (relaxedValue === undefined) {
        throws(() => decode(bytes, { relaxed: true }), DagCborDecodeError, `relaxed ${hex}`)
      } else {
        deepEqual(decode(bytes, { relaxed: true }), relaxedValue, `relaxed ${hex}`)
      }
    })
  }

  it('accepts a float64 holding an integer (valid DAG-CBOR), as a Number that re-encodes as an integer', () => {
    is(decode(fromHex('fb 3ff0000000000000')), 1)
    bytesEqual(encode(decode(fromHex('fb 3ff0000000000000'))), fromHex('01'))
  })

  it('reports the offset of trailing bytes and the path of a nested error', () => {
    is(throws(() => decode(fromHex('01 01')), DagCborDecodeError).offset, 1, 'trailing-bytes offset')
    const e = throws(() => decode(fromHex('a1 6161 82 01 f7')), DagCborDecodeError)
    is(e.rule, 'undefined')
    is(e.path, '/a/1', 'path of the undefined value')
    is(e.offset, 5, 'offset of the 0xf7 byte')
  })

  it('enforces maxDepth with a clean error, including very deep input', () => {
    const six = fromHex('81'.repeat(6) + '00')
    is(throws(() => decode(six, { maxDepth: 5 }), DagCborDecodeError).rule, 'depth')
    deepEqual(decode(six, { maxDepth: 10 }), [[[[[[0]]]]]])
    const deep = new Uint8Array(100001).fill(0x81)
    deep[100000] = 0
    is(throws(() => decode(deep), DagCborDecodeError).rule, 'depth')
  })

  it('messages name the offset, path, units and what relaxed mode would read, as in node', () => {
    const relaxed = '(decode(bytes, { relaxed: true }) reads it)'
    is(throws(() => decode(fromHex('a2 6161 01')), DagCborDecodeError).message,
      'DAG-CBOR decode at byte 0: map of 2 entries (at least 2 bytes each), only 3 bytes left [rule: truncated]')
    is(throws(() => decode(fromHex('01 02')), DagCborDecodeError).message,
      'DAG-CBOR decode at byte 1: 1 byte left over after the first item (decodeFirst(bytes) returns the first item and the bytes after it) [rule: trailing-bytes]')
    is(throws(() => decode(fromHex('a1 6161 f7')), DagCborDecodeError).message,
      `DAG-CBOR decode at byte 3 (/a), not in the IPLD data model ${relaxed}: undefined (0xf7) [rule: undefined]`)
    is(throws(() => decode(fromHex('18 01')), DagCborDecodeError).message,
      `DAG-CBOR decode at byte 0, not canonical ${relaxed}: 1 is not in shortest form [rule: non-shortest]`)
    is(throws(() => encode({ a: [undefined] }), DagCborEncodeError).message,
      'DAG-CBOR encode at /a/0: undefined is not in the IPLD data model [rule: undefined]')
    is(throws(() => decode(/** @type {any} */ ('a16161')), TypeError).message,
      'DAG-CBOR decode: expected bytes (a Uint8Array, ArrayBuffer or ArrayBufferView), got a string')
  })

  it('relaxed invalid UTF-8 round-trips with escapedBytes', () => {
    const bytes = fromHex('a1 63 61ff62 01') // { "a\xffb": 1 }
    throws(() => decode(bytes), DagCborDecodeError)
    const value = decode(bytes, { relaxed: true })
    deepEqual(Object.keys(value), ['a\udcffb'])
    bytesEqual(encode(value, { escapedBytes: true }), bytes)
    throws(() => encode(value), DagCborEncodeError, 'lone surrogate without escapedBytes')
  })
})

describe('encode rejects what DAG-CBOR cannot hold (browser)', () => {
  const circular = { a: [] }
  circular.a.push(circular)
  const deep = []
  let cursor = deep
  for (let i = 0; i < 100000; i++) { const next = []; cursor.push(next); cursor = next }
  const cases = [
    ['undefined', { a: [1, undefined] }, '/a/1'],
    ['NaN', { x: NaN }, '/x'],
    ['Infinity', [Infinity], '/0'],
    ['circular ref', circular, '/a/0'],
    ['lone surrogate', { s: 'a\ud800' }, '/s'],
    ['a function', { f () {} }, '/f'],
    ['a Symbol', [Symbol('x')], '/0'],
    ['too-deep nesting', deep, null]
  ]
  for (const [what, value, path] of cases) {
    it(`throws DagCborEncodeError for ${what}`, () => {
      const error = throws(() => encode(value), DagCborEncodeError, what)
      ok(error instanceof Error, 'DagCborEncodeError extends Error')
      ok(typeof error.rule === 'string' && error.rule.length > 0, `.rule set (got ${error.rule})`)
      if (path !== null) is(error.path, path, 'path')
    })
  }
})
