// Decode rules as one table, in cborg's style: each row is input bytes (hex) and what strict decode
// gives (a value, or a rule at a byte offset with the detail its message must carry) and what relaxed
// decode gives (the same, or a value where the rule is one relaxed mode lifts). Accepted rows must
// also re-encode to their own bytes (or, read relaxed, to `reencoded`).
import assert from 'node:assert/strict'
import v8 from 'node:v8'
import vm from 'node:vm'
import { decode, decodeFirst, encode, toByteView, DagCborDecodeError, DagCborEncodeError } from '../index.js'
import { fromHex, toHex } from './fuzz/cbor.js'
import { RULES } from '../lib/errors.js'
import { shortKeyMap, spoiledCopies } from './helpers/short-key-maps.js'

/**
 * @typedef {{ rule: string, offset: number, detail: string, path?: string }} Rejection
 * @typedef {{ data: string, label: string, value?: unknown, strict?: Rejection, relaxed?: unknown, reencoded?: string }} Row
 */

const same = Symbol('the strict rejection')

/** @type {Row[]} */
const ROWS = [
  // truncated input
  { label: 'nothing', data: '', strict: { rule: 'truncated', offset: 0, detail: 'unexpected end of input' } },
  { label: 'a 1-byte argument missing', data: '18', strict: { rule: 'truncated', offset: 0, detail: 'unexpected end of input' } },
  { label: 'an 8-byte argument cut short', data: '1b00000000000001', strict: { rule: 'truncated', offset: 0, detail: 'unexpected end of input' } },
  { label: 'a float64 cut short', data: 'fb3ff00000', strict: { rule: 'truncated', offset: 0, detail: 'unexpected end of input' } },
  { label: 'a float16 cut short', data: 'f93e', strict: { rule: 'truncated', offset: 0, detail: 'unexpected end of input' } },
  { label: 'an array missing its second item', data: '828101', strict: { rule: 'truncated', offset: 3, detail: 'unexpected end of input', path: '/1' } },
  { label: 'an array of 2 items in 1 byte', data: '8201', strict: { rule: 'truncated', offset: 0, detail: 'array of 2 items (at least 1 byte each), only 1 byte left' } },
  { label: 'a map missing a value', data: 'a16161', strict: { rule: 'truncated', offset: 3, detail: 'unexpected end of input', path: '/a' } },
  { label: 'a map missing its key', data: 'a1', strict: { rule: 'truncated', offset: 0, detail: 'map of 1 entry (at least 2 bytes each), only 0 bytes left' } },
  { label: 'a map missing its last value', data: 'a26161016162', strict: { rule: 'truncated', offset: 6, detail: 'unexpected end of input', path: '/b' } },
  { label: 'a map key cut short', data: 'a2616101636162', strict: { rule: 'truncated', offset: 4, detail: 'text string of 3 bytes, only 2 bytes left', path: '' } },
  { label: 'a 4 GiB byte string in 6 bytes', data: '5affffffff00', strict: { rule: 'truncated', offset: 0, detail: 'byte string of 4294967295 bytes, only 1 byte left' } },
  { label: 'a 2^64-1 text string', data: '7bffffffffffffffff', strict: { rule: 'truncated', offset: 0, detail: 'text string of 18446744073709551615 bytes, only 0 bytes left' } },
  { label: 'a 2^53 array', data: '9b002000000000000000', strict: { rule: 'truncated', offset: 0, detail: 'array of 9007199254740992 items (at least 1 byte each), only 1 byte left' } },
  { label: 'a 2^53-1 array', data: '9b001fffffffffffff00', strict: { rule: 'truncated', offset: 0, detail: 'array of 9007199254740991 items (at least 1 byte each), only 1 byte left' } },
  { label: 'a byte string one byte short', data: '43010203'.slice(0, 6), strict: { rule: 'truncated', offset: 0, detail: 'byte string of 3 bytes, only 2 bytes left' } },
  { label: 'a byte string that just fits', data: '43010203', value: Uint8Array.of(1, 2, 3) },
  { label: 'a map of 2 entries in 3 bytes', data: 'a2616101', strict: { rule: 'truncated', offset: 0, detail: 'map of 2 entries (at least 2 bytes each), only 3 bytes left', path: '' } },
  { label: 'a map of 1 entry in exactly 2 bytes', data: 'a16000', value: { '': 0 } },
  { label: 'an array of 3 items in 2 bytes', data: '830102', strict: { rule: 'truncated', offset: 0, detail: 'array of 3 items (at least 1 byte each), only 2 bytes left' } },
  // trailing bytes
  { label: 'two items', data: '0102', strict: { rule: 'trailing-bytes', offset: 1, detail: '1 byte left over after the first item' } },
  { label: 'an empty map then 3 bytes', data: 'a0000000', strict: { rule: 'trailing-bytes', offset: 1, detail: '3 bytes left over after the first item' } },
  // reserved and indefinite additional information, for every major type
  ...['1c', '3c', '5c', '7c', '9c', 'bc', 'dc', 'fc'].map((data) => ({ label: `${data}: additional information 28`, data, strict: { rule: 'malformed', offset: 0, detail: 'additional information 28 is reserved' } })),
  ...['1d', '3d', '5e', '7e', '9d', 'be', 'dd', 'fe'].map((data) => ({ label: `${data}: additional information ${parseInt(data, 16) & 31}`, data, strict: { rule: 'malformed', offset: 0, detail: `additional information ${parseInt(data, 16) & 31} is reserved` } })),
  // an integer, a negative integer or a tag cannot be indefinite: 31 is as reserved there as 28
  ...['1f', '3f', 'df'].map((data) => ({ label: `${data}: additional information 31 on a major type without lengths`, data, strict: { rule: 'malformed', offset: 0, detail: 'additional information 28 is reserved' } })),
  ...['5f40ff', '7f60ff', '9fff', 'bfff'].map((data) => ({ label: `${data}: indefinite length`, data, strict: { rule: 'indefinite-length', offset: 0, detail: 'indefinite-length item; DAG-CBOR has only definite lengths' } })),
  { label: 'a break', data: 'ff', strict: { rule: 'indefinite-length', offset: 0, detail: 'break code (0xff); DAG-CBOR has no indefinite lengths' } },
  { label: 'a break inside an array', data: '8201ff', strict: { rule: 'indefinite-length', offset: 2, detail: 'break code (0xff); DAG-CBOR has no indefinite lengths', path: '/1' } },
  // shortest form, relaxable
  { label: '23 in a 1-byte argument', data: '1817', strict: { rule: 'non-shortest', offset: 0, detail: '23 is not in shortest form' }, relaxed: 23, reencoded: '17' },
  { label: '255 in a 2-byte argument', data: '1900ff', strict: { rule: 'non-shortest', offset: 0, detail: '255 is not in shortest form' }, relaxed: 255, reencoded: '18ff' },
  { label: '65535 in a 4-byte argument', data: '1a0000ffff', strict: { rule: 'non-shortest', offset: 0, detail: '65535 is not in shortest form' }, relaxed: 65535, reencoded: '19ffff' },
  { label: '2^32-1 in an 8-byte argument', data: '1b00000000ffffffff', strict: { rule: 'non-shortest', offset: 0, detail: '4294967295 is not in shortest form' }, relaxed: 4294967295, reencoded: '1affffffff' },
  { label: '0 in an 8-byte argument', data: '1b0000000000000000', strict: { rule: 'non-shortest', offset: 0, detail: '0 is not in shortest form' }, relaxed: 0, reencoded: '00' },
  { label: '-1 in a 1-byte argument', data: '3800', strict: { rule: 'non-shortest', offset: 0, detail: '0 is not in shortest form' }, relaxed: -1, reencoded: '20' },
  { label: 'a 1-byte text length in 2 bytes', data: '79000161', strict: { rule: 'non-shortest', offset: 0, detail: '1 is not in shortest form' }, relaxed: 'a', reencoded: '6161' },
  { label: 'smallest 1-byte argument', data: '1818', value: 24 },
  { label: 'smallest 2-byte argument', data: '190100', value: 256 },
  { label: 'smallest 4-byte argument', data: '1a00010000', value: 65536 },
  { label: 'smallest 8-byte argument', data: '1b0000000100000000', value: 2 ** 32 },
  { label: 'the largest safe integer', data: '1b001fffffffffffff', value: Number.MAX_SAFE_INTEGER },
  { label: '2^53, a BigInt', data: '1b0020000000000000', value: 2n ** 53n },
  { label: '2^64-1, a BigInt', data: '1bffffffffffffffff', value: 2n ** 64n - 1n },
  { label: '-2^53+1, a Number', data: '3b001ffffffffffffe', value: -(2 ** 53) + 1 },
  { label: '-2^53, a BigInt', data: '3b001fffffffffffff', value: -(2n ** 53n) },
  { label: '-2^64, a BigInt', data: '3bffffffffffffffff', value: -(2n ** 64n) },
  { label: '-2^32-1', data: '3b0000000100000000', value: -(2 ** 32) - 1 },
  // tags
  { label: 'tag 0', data: 'c000', strict: { rule: 'tag', offset: 0, detail: 'tag 0 is not allowed; DAG-CBOR has only tag 42 (CID)' } },
  { label: 'tag 0 after a 64-bit integer', data: '821bffffffffffffffffc000', strict: { rule: 'tag', offset: 10, detail: 'tag 0 is not allowed; DAG-CBOR has only tag 42 (CID)', path: '/1' } },
  { label: 'a length after a 64-bit integer', data: '821bffffffffffffffff5a00010000', strict: { rule: 'truncated', offset: 10, detail: 'byte string of 65536 bytes, only 0 bytes left', path: '/1' } },
  { label: 'tag 41', data: 'd82900', strict: { rule: 'tag', offset: 0, detail: 'tag 41 is not allowed;' } },
  { label: 'tag 43', data: 'd82b00', strict: { rule: 'tag', offset: 0, detail: 'tag 43 is not allowed;' } },
  { label: 'tag 2^64-1', data: 'dbffffffffffffffff00', strict: { rule: 'tag', offset: 0, detail: 'tag 18446744073709551615 is not allowed;' } },
  { label: 'tag 42 in 2 bytes', data: 'd9002a', strict: { rule: 'non-shortest', offset: 0, detail: '42 is not in shortest form' }, relaxed: { rule: 'truncated', offset: 3, detail: 'unexpected end of input' } },
  // simple values
  { label: 'false, true, null', data: '83f4f5f6', value: [false, true, null] },
  { label: 'undefined', data: 'f7', strict: { rule: 'undefined', offset: 0, detail: 'undefined (0xf7)' }, relaxed: null, reencoded: 'f6' },
  { label: 'simple value 0', data: 'e0', strict: { rule: 'simple-value', offset: 0, detail: 'simple value 0 is not in the IPLD data model' } },
  { label: 'simple value 19', data: 'f3', strict: { rule: 'simple-value', offset: 0, detail: 'simple value 19' } },
  { label: 'simple value 24 in 2 bytes', data: 'f818', strict: { rule: 'simple-value', offset: 0, detail: 'simple value 24' } },
  { label: 'simple value 255', data: 'f8ff', strict: { rule: 'simple-value', offset: 0, detail: 'simple value 255' } },
  // floats
  { label: 'float64 1.5', data: 'fb3ff8000000000000', value: 1.5 },
  { label: 'float64 1.0 (an integer value)', data: 'fb3ff0000000000000', value: 1, reencoded: '01' },
  { label: 'float64 -0.0', data: 'fb8000000000000000', value: -0 },
  { label: 'float64 0.0', data: 'fb0000000000000000', value: 0, reencoded: '00' },
  { label: 'float64 2^53', data: 'fb4340000000000000', value: 2 ** 53 },
  { label: 'float64 smallest subnormal', data: 'fb0000000000000001', value: 5e-324 },
  { label: 'float64 largest', data: 'fb7fefffffffffffff', value: Number.MAX_VALUE },
  { label: 'float64 +Infinity', data: 'fb7ff0000000000000', strict: { rule: 'non-finite-float', offset: 0, detail: 'Infinity is not in the IPLD data model' } },
  { label: 'float64 -Infinity', data: 'fbfff0000000000000', strict: { rule: 'non-finite-float', offset: 0, detail: '-Infinity is not in the IPLD data model' } },
  { label: 'float64 NaN', data: 'fb7ff8000000000000', strict: { rule: 'non-finite-float', offset: 0, detail: 'NaN is not in the IPLD data model' } },
  { label: 'float64 NaN with a payload', data: 'fb7ff0000000000001', strict: { rule: 'non-finite-float', offset: 0, detail: 'NaN is not in the IPLD data model' } },
  { label: 'float32 1.5', data: 'fa3fc00000', strict: { rule: 'float-size', offset: 0, detail: '32-bit float; DAG-CBOR floats are 64-bit' }, relaxed: 1.5, reencoded: 'fb3ff8000000000000' },
  { label: 'float32 -2.5', data: 'fac0200000', strict: { rule: 'float-size', offset: 0, detail: '32-bit float; DAG-CBOR floats are 64-bit' }, relaxed: -2.5, reencoded: 'fbc004000000000000' },
  { label: 'float32 Infinity', data: 'fa7f800000', strict: { rule: 'non-finite-float', offset: 0, detail: 'Infinity is not in the IPLD data model' }, relaxed: same },
  { label: 'float32 NaN', data: 'fa7fc00000', strict: { rule: 'non-finite-float', offset: 0, detail: 'NaN is not in the IPLD data model' }, relaxed: same },
  { label: 'float16 1.5', data: 'f93e00', strict: { rule: 'float-size', offset: 0, detail: '16-bit float; DAG-CBOR floats are 64-bit' }, relaxed: 1.5, reencoded: 'fb3ff8000000000000' },
  { label: 'float16 -2', data: 'f9c000', strict: { rule: 'float-size', offset: 0, detail: '16-bit float; DAG-CBOR floats are 64-bit' }, relaxed: -2, reencoded: '21' },
  { label: 'float16 smallest subnormal', data: 'f90001', strict: { rule: 'float-size', offset: 0, detail: '16-bit float; DAG-CBOR floats are 64-bit' }, relaxed: 2 ** -24, reencoded: 'fb3e70000000000000' },
  { label: 'float16 largest subnormal', data: 'f903ff', strict: { rule: 'float-size', offset: 0, detail: '16-bit float; DAG-CBOR floats are 64-bit' }, relaxed: 1023 * 2 ** -24, reencoded: 'fb3f0ff80000000000' },
  { label: 'float16 smallest normal', data: 'f90400', strict: { rule: 'float-size', offset: 0, detail: '16-bit float; DAG-CBOR floats are 64-bit' }, relaxed: 2 ** -14, reencoded: 'fb3f10000000000000' },
  { label: 'float16 largest', data: 'f97bff', strict: { rule: 'float-size', offset: 0, detail: '16-bit float; DAG-CBOR floats are 64-bit' }, relaxed: 65504, reencoded: '19ffe0' },
  { label: 'float16 -0', data: 'f98000', strict: { rule: 'float-size', offset: 0, detail: '16-bit float; DAG-CBOR floats are 64-bit' }, relaxed: -0, reencoded: 'fb8000000000000000' },
  { label: 'float16 negative subnormal', data: 'f98001', strict: { rule: 'float-size', offset: 0, detail: '16-bit float; DAG-CBOR floats are 64-bit' }, relaxed: -(2 ** -24), reencoded: 'fbbe70000000000000' },
  { label: 'float16 +Infinity', data: 'f97c00', strict: { rule: 'non-finite-float', offset: 0, detail: 'Infinity is not in the IPLD data model' }, relaxed: same },
  { label: 'float16 -Infinity', data: 'f9fc00', strict: { rule: 'non-finite-float', offset: 0, detail: '-Infinity is not in the IPLD data model' }, relaxed: same },
  { label: 'float16 NaN (mantissa 1)', data: 'f97c01', strict: { rule: 'non-finite-float', offset: 0, detail: 'NaN is not in the IPLD data model' }, relaxed: same },
  { label: 'float16 NaN (mantissa 0x200)', data: 'f97e00', strict: { rule: 'non-finite-float', offset: 0, detail: 'NaN is not in the IPLD data model' }, relaxed: same },
  // maps
  { label: 'keys in order', data: 'a3616101616202626161' + '03', value: { a: 1, b: 2, aa: 3 } },
  { label: 'keys out of order', data: 'a2616201616102', strict: { rule: 'map-key-order', offset: 4, detail: 'map key "a" is out of order (keys sort by length, then bytewise)', path: '/a' }, relaxed: { b: 1, a: 2 }, reencoded: 'a2616102616201' },
  { label: 'a longer key first', data: 'a2626161016162' + '02', strict: { rule: 'map-key-order', offset: 5, detail: 'map key "b" is out of order', path: '/b' }, relaxed: { aa: 1, b: 2 }, reencoded: 'a2616202626161' + '01' },
  { label: 'a repeated key', data: 'a2616101616102', strict: { rule: 'duplicate-key', offset: 4, detail: 'duplicate map key "a"', path: '/a' }, relaxed: same },
  { label: 'a key repeated after another', data: 'a3616101616202616103', strict: { rule: 'map-key-order', offset: 7, detail: 'map key "a" is out of order', path: '/a' }, relaxed: { rule: 'duplicate-key', offset: 7, detail: 'duplicate map key "a"', path: '/a' } },
  { label: 'an empty key then a repeated empty key', data: 'a260006000', strict: { rule: 'duplicate-key', offset: 3, detail: 'duplicate map key ""', path: '/' }, relaxed: same },
  { label: 'an integer key', data: 'a10102', strict: { rule: 'map-key-type', offset: 1, detail: 'map key is not a string', path: '' } },
  { label: 'a byte string key', data: 'a1410102', strict: { rule: 'map-key-type', offset: 1, detail: 'map key is not a string', path: '' } },
  { label: 'a second key that is not a string', data: 'a261610101' + '02', strict: { rule: 'map-key-type', offset: 4, detail: 'map key is not a string', path: '' } },
  { label: 'a key with invalid UTF-8', data: 'a161ff01', strict: { rule: 'invalid-utf8', offset: 2, detail: 'text is not valid UTF-8', path: '' }, relaxed: { '\udcff': 1 } },
  { label: 'an error in a nested value names its path', data: 'a1616182' + '01' + 'a16162' + 'f7', strict: { rule: 'undefined', offset: 8, detail: 'undefined (0xf7)', path: '/a/1/b' }, relaxed: { a: [1, { b: null }] }, reencoded: 'a1616182' + '01' + 'a16162' + 'f6' },
  // CIDs are in test/cid-decode.spec.js; nesting depth in test/limits.spec.js
  { label: 'a tag 42 around an integer', data: 'd82a00', strict: { rule: 'cid', offset: 2, detail: 'tag 42 (CID) must hold a byte string' } }
]

/**
 * @param {unknown} actual
 * @param {unknown} expected
 * @param {string} label
 */
function assertValue (actual, expected, label) {
  if (typeof expected === 'number') assert.ok(Object.is(actual, expected), `${label}: ${String(actual)} is not ${String(expected)}`)
  else assert.deepEqual(actual, expected, label)
}

/**
 * @param {() => unknown} fn
 * @param {Rejection} expected
 * @param {string} label
 */
function assertRejects (fn, expected, label) {
  assert.throws(fn, (/** @type {any} */ e) => {
    assert.ok(e instanceof DagCborDecodeError, `${label}: ${e}`)
    assert.equal(e.rule, expected.rule, `${label}: ${e.message}`)
    assert.equal(e.offset, expected.offset, `${label}: ${e.message}`)
    assert.ok(e.detail.includes(expected.detail), `${label}: detail ${JSON.stringify(e.detail)}`)
    assert.ok(e.message.includes(expected.detail), `${label}: message ${JSON.stringify(e.message)}`)
    if (expected.path !== undefined) assert.equal(e.path, expected.path, label)
    const where = `DAG-CBOR decode at byte ${expected.offset}${e.path ? ` (${e.path})` : ''}`
    const lifted = ['undefined', 'invalid-utf8'].includes(expected.rule) ? 'not in the IPLD data model' : 'not canonical'
    const relaxable = e.relaxable ? `, ${lifted} (decode(bytes, { relaxed: true }) reads it)` : ''
    assert.equal(e.message, `${where}${relaxable}: ${e.detail} [rule: ${expected.rule}]`, label)
    assert.equal(e.name, 'DagCborDecodeError')
    return true
  })
}

describe('decode rules, row by row: strict, relaxed, and re-encoded', () => {
  for (const row of ROWS) {
    const { label, data, strict } = row
    it(`${label} (${data || 'empty'}): ${strict ? `${strict.rule} at ${strict.offset}` : 'accepted'}`, () => {
      const input = fromHex(data)
      if (strict === undefined) {
        assertValue(decode(input), row.value, `${label}, strict`)
        assertValue(decodeFirst(input)[0], row.value, `${label}, decodeFirst`)
        assertValue(decode(input, { relaxed: true }), row.value, `${label}, relaxed`)
        assert.equal(toHex(encode(decode(input))), row.reencoded ?? data, `${label}: re-encoded`)
        return
      }
      assertRejects(() => decode(input), strict, `${label}, strict`)
      const relaxed = row.relaxed === same ? strict : row.relaxed
      if (relaxed === undefined || (typeof relaxed === 'object' && relaxed !== null && 'rule' in relaxed)) {
        assertRejects(() => decode(input, { relaxed: true }), /** @type {Rejection} */ (relaxed ?? strict), `${label}, relaxed`)
      } else {
        const value = decode(input, { relaxed: true })
        assertValue(value, relaxed, `${label}, relaxed`)
        assert.equal(toHex(encode(value, { escapedBytes: true })), row.reencoded ?? data, `${label}: re-encoded`)
      }
    })
  }

  it('trailing bytes: decodeFirst returns the first item and the rest', () => {
    for (const [data, first, rest] of /** @type {Array<[string, unknown, string]>} */ ([['0102', 1, '02'], ['a0000000', {}, '000000'], ['f6', null, ''], ['8101ff', [1], 'ff']])) {
      const [value, remainder] = decodeFirst(fromHex(data))
      assert.deepEqual(value, first)
      assert.equal(toHex(remainder), rest)
    }
  })
})

describe('decode: errors that are not DAG-CBOR rules pass through unchanged', () => {
  // a decode calls no user code, but it does call built-ins that a program may have replaced
  it('a RangeError or an Error mentioning the call stack, thrown inside decode, is not reported as rule depth', () => {
    const define = Object.defineProperty
    for (const error of [new RangeError('boom'), new Error('Maximum call stack size exceeded'), new TypeError('x')]) {
      Object.defineProperty = /** @type {any} */ (() => { throw error })
      try {
        assert.throws(() => decode(fromHex('a1695f5f70726f746f5f5f01')), (/** @type {any} */ e) => e === error)
      } finally {
        Object.defineProperty = define
      }
    }
    assert.deepEqual(Object.keys(decode(fromHex('a1695f5f70726f746f5f5f01'))), ['__proto__'])
  })

  it('a real stack overflow is rule depth, with its own message', () => {
    const input = new Uint8Array(1_000_001).fill(0x81)
    input[1_000_000] = 0
    assert.throws(() => decode(input, { maxDepth: Infinity }), (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === 'depth' && e.message.includes('nesting too deep for the JavaScript stack'))
    assert.throws(() => decode(input), (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === 'depth' && e.offset === 1000 && e.message.includes('nesting deeper than maxDepth (1000 levels)'))
  })
})

describe('decode: input that is not bytes', () => {
  for (const [label, input, got] of /** @type {Array<[string, unknown, string]>} */ ([['an array of numbers', [1, 2], 'an Array'], ['a hex string', '8101', 'a string'],
    ['a plain object', { buffer: new ArrayBuffer(1) }, 'an Object'], ['a number', 1, 'a number'], ['null', null, 'null'], ['undefined', undefined, 'undefined'],
    ['a Map', new Map(), 'a Map'], ['a boolean', true, 'a boolean']])) {
    it(`${label}: a TypeError naming what it got, from decode, decodeFirst and toByteView`, () => {
      for (const fn of [() => decode(/** @type {any} */ (input)), () => decodeFirst(/** @type {any} */ (input)), () => toByteView(input)]) {
        assert.throws(fn, (/** @type {any} */ e) => e instanceof TypeError &&
          e.message === `DAG-CBOR decode: expected bytes (a Uint8Array, ArrayBuffer or ArrayBufferView), got ${got}`)
      }
    })
  }
  it('every kind of bytes: a Uint8Array, a Buffer, an ArrayBuffer, other views at an offset', () => {
    const backing = new ArrayBuffer(8)
    new Uint8Array(backing).set([0xff, 0x82, 0x01, 0x02, 0xff], 0)
    for (const input of [Uint8Array.of(0x82, 1, 2), Buffer.from([0x82, 1, 2]), Uint8Array.of(0x82, 1, 2).buffer, new Uint8Array(backing, 1, 3),
      new DataView(backing, 1, 3), new Int8Array(backing, 1, 3), new Uint8ClampedArray(backing, 1, 3)]) {
      assert.deepEqual(decode(input), [1, 2])
      const view = toByteView(input)
      assert.equal(Object.getPrototypeOf(view), Uint8Array.prototype)
      assert.deepEqual([...view], [0x82, 1, 2])
    }
  })
})

describe('errors: paths and messages', () => {
  /** a value nested in maps whose keys make a path of `n` characters ending in a bad value */
  const nestedPath = (/** @type {number} */ n) => {
    // each level adds '/' and a 9-character key
    const levels = Math.floor(n / 10)
    let v = /** @type {any} */ (undefined)
    for (let i = levels - 1; i >= 0; i--) v = { [`k${String(i).padStart(8, '0')}`]: v }
    return { value: v, path: Array.from({ length: levels }, (_, i) => `/k${String(i).padStart(8, '0')}`).join('') }
  }
  for (const length of [150, 160, 170, 1000]) {
    it(`a path of ${length} characters is kept whole in .path and ${length > 160 ? 'shortened to its ends' : 'shown whole'} in the message`, () => {
      const { value, path } = nestedPath(length)
      assert.equal(path.length, length)
      assert.throws(() => encode(value), (/** @type {any} */ e) => {
        assert.equal(e.path, path)
        const shown = length > 160 ? `${path.slice(0, 60)}…${path.slice(-60)}` : path
        assert.equal(e.message, `DAG-CBOR encode at ${shown}: undefined is not in the IPLD data model [rule: undefined]`)
        assert.equal(e.name, 'DagCborEncodeError')
        return true
      })
    })
  }
  it('relaxed mode is a decode option: no rule enforced only by encode is relaxable', () => {
    const encodeOnly = Object.keys(RULES).filter((rule) => RULES[rule].side === 'encode')
    assert.deepEqual(encodeOnly, ['utf8', 'circular', 'type', 'integer-range', 'target-size'])
    for (const rule of encodeOnly) assert.equal(RULES[rule].relaxable, false, rule)
  })
  it('a decode error with a rule the table does not know is not relaxable', () => {
    assert.equal(new DagCborDecodeError('no-such-rule', 'd', 0).relaxable, false)
    assert.equal(new DagCborDecodeError('map-key-order', 'd', 0).relaxable, true)
  })
  it('a new error, before it is thrown: no path yet, no segments', () => {
    for (const e of [new DagCborEncodeError('type', 'd'), new DagCborDecodeError('truncated', 'd', 3)]) {
      assert.equal(e.path, '')
      assert.deepEqual(e.segments, [])
      assert.equal(e.detail, 'd')
    }
  })
  it("path segments escape '~' and '/' (JSON pointer)", () => {
    assert.throws(() => decode(Uint8Array.from([0xa1, 0x64, 0x61, 0x2f, 0x7e, 0x62, 0xf7])), (/** @type {any} */ e) => e.path === '/a~1~0b' && e.message.includes('(/a~1~0b)'))
  })
})

// gc() at run time, as test/limits.spec.js does
v8.setFlagsFromString('--expose-gc')
const gc = /** @type {() => void} */ (vm.runInNewContext('gc'))

describe('decode: the decoder keeps no reference to its input once it returns or throws', () => {
  for (const [label, hex] of [['a valid block', 'a2616101616282f6f5'], ['an invalid block', 'a2616101616282f6ff']]) {
    it(label, async () => {
      const ref = (() => {
        const input = fromHex(hex)
        try { decode(input) } catch {}
        return new WeakRef(input)
      })()
      for (let i = 0; i < 20 && ref.deref() !== undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 0))
        gc()
      }
      assert.equal(ref.deref(), undefined, 'the input is still referenced')
    })
  }
})

describe('decode: maps of more than 128 keys (read without the key cache), key by key', () => {
  // Two keys, `first` then `second`, open a map of 142 keys; the 140 after them are longer than
  // either (41 bytes), so only these two can be out of order. Each key's value is its index. The
  // rows put the two keys' first difference in every place the large-map comparison and the
  // ASCII check look at: inside the first four bytes, in a later four, in the bytes after the last
  // full four, keys shorter than four bytes, and bytes of 0x80 and up (an unsigned comparison).
  const utf8 = new TextEncoder()
  const FILLER = Array.from({ length: 140 }, (_, i) => 'f'.repeat(38) + String(100 + i))
  /** @param {Uint8Array|string} first @param {Uint8Array|string} second */
  function largeMap (first, second) {
    const keys = [first, second, ...FILLER].map((k) => typeof k === 'string' ? utf8.encode(k) : k)
    const parts = [[0xb8, keys.length]]
    const offsets = []
    let at = 2
    keys.forEach((key, i) => {
      const head = key.length < 24 ? [0x60 + key.length] : [0x78, key.length]
      offsets.push(at)
      parts.push(head, [...key], i < 24 ? [i] : [0x18, i])
      at += head.length + key.length + (i < 24 ? 1 : 2)
    })
    return { bytes: Uint8Array.from(parts.flat()), secondAt: offsets[1] }
  }
  /** @param {string} a @param {string} b */
  const inOrder = (a, b) => {
    const x = utf8.encode(a)
    const y = utf8.encode(b)
    if (x.length !== y.length) return x.length < y.length
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i]
    return false
  }

  const pairs = [
    ['abcd', 'abce', 'the fourth byte'], ['abcd', 'bbcd', 'the first byte'],
    ['abcdefgh', 'abcdefgi', 'the eighth byte'], ['abcdefgh', 'abcdffgh', 'the fifth byte'],
    ['abcdefghi', 'abcdefghj', 'the byte after two fours'], ['abcdefghijklmnopqrstuvwxyz12', 'abcdefghijklmnopqrstuvwxyz13', 'a key longer than 24 bytes'],
    ['ab', 'ac', 'keys of two bytes'], ['a', 'b', 'keys of one byte'], ['', 'a', 'the empty key'],
    ['zzz', 'aaaa', 'a shorter key'], ['zzzz', '\u00e9zz', 'a byte of 0xc3 against 0x7a'],
    ['\u007f\u007f\u007f\u007f', '\u0080aa', 'a byte of 0xc2 against 0x7f'], ['a\u00e9bcd', 'a\u00e9bce', 'two-byte characters in the first four'],
    ['\u{1f600}\u{1f600}', '\u{1f601}\u{1f600}', 'four-byte characters']
  ]
  for (const [low, high, where] of pairs) {
    it(`${JSON.stringify(low)} then ${JSON.stringify(high)} (${where}): accepted; the other way round, map-key-order at the second key`, () => {
      assert.ok(inOrder(low, high), 'the row is in order')
      const ordered = largeMap(low, high)
      const value = /** @type {Record<string, number>} */ (decode(ordered.bytes))
      assert.deepEqual(Object.keys(value).slice(0, 2), [low, high])
      assert.equal(value[low], 0)
      assert.equal(value[high], 1)
      assert.equal(toHex(encode(value)), toHex(ordered.bytes))
      const swapped = largeMap(high, low)
      assertRejects(() => decode(swapped.bytes), { rule: 'map-key-order', offset: swapped.secondAt, detail: `map key ${JSON.stringify(low)} is out of order`, path: '/' + low.replace(/~/g, '~0').replace(/\//g, '~1') }, 'strict')
      const relaxed = /** @type {Record<string, number>} */ (decode(swapped.bytes, { relaxed: true }))
      assert.equal(relaxed[high], 0)
      assert.equal(relaxed[low], 1)
    })
  }

  for (const key of ['abcd', 'abcdefgh', 'abcdefghijk', 'ab', '', '\u00e9\u00e9', 'abcdefghijklmnopqrstuvwxyz123']) {
    it(`${JSON.stringify(key)} twice: duplicate-key at the second`, () => {
      const { bytes, secondAt } = largeMap(key, key)
      assertRejects(() => decode(bytes), { rule: 'duplicate-key', offset: secondAt, detail: `duplicate map key ${JSON.stringify(key)}` }, 'strict')
      assertRejects(() => decode(bytes, { relaxed: true }), { rule: 'duplicate-key', offset: secondAt, detail: `duplicate map key ${JSON.stringify(key)}` }, 'relaxed')
    })
  }

  // the smoke test runs the same maps in the other engines, JavaScriptCore's own key path among them
  for (const [label, map] of /** @type {const} */ ([
    ['3,000 short keys, small values', shortKeyMap(3000, 7, 0, 0)],
    ['3,000 short keys, every 50th value 3,000 bytes', shortKeyMap(3000, 8, 50, 3000)]
  ])) {
    it(`${label}: read back exactly; an invalid byte, a duplicate or a key out of order in every 97th key, each at its offset`, () => {
      const value = /** @type {Record<string, unknown>} */ (decode(map.bytes))
      assert.deepEqual(Object.keys(value), map.keys)
      map.keys.forEach((key, i) => assert.deepEqual(value[key], map.values[i], key))
      assert.equal(toHex(encode(value)), toHex(map.bytes))
      const rows = spoiledCopies(map, 97)
      assert.ok(rows.length > 60, `${rows.length} rows`)
      for (const row of rows) {
        assert.throws(() => decode(row.bytes), (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === row.rule && e.offset === row.offset, row.label)
      }
    })
  }

  for (let lane = 0; lane < 9; lane++) {
    it(`a non-ASCII character, and then an invalid byte, at byte ${lane} of a 10-byte key`, () => {
      const chars = [...'abcdefghi']
      chars[lane] = '\u00e9'
      const key = chars.join('')
      assert.equal(utf8.encode(key).length, 10)
      const value = /** @type {Record<string, number>} */ (decode(largeMap('a', key).bytes))
      assert.equal(value[key], 1)
      const invalid = utf8.encode('abcdefghij')
      invalid[lane] = 0xff
      const { bytes, secondAt } = largeMap('a', invalid)
      assertRejects(() => decode(bytes), { rule: 'invalid-utf8', offset: secondAt + 1 + lane, detail: 'text is not valid UTF-8' }, 'strict')
    })
  }
})
