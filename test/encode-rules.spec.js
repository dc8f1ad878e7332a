// Encode rules as one table: each row is a value and either the bytes it must encode to (hex, written
// out by hand) or the rule, value path and message detail of its rejection. Accepted rows also decode
// back to the value (strictly), so a row checks encode and decode at once.
import assert from 'node:assert/strict'
import v8 from 'node:v8'
import vm from 'node:vm'
import { encode, encodedLength, encodeInto, decode, DagCborEncodeError } from '../index.js'
import { toHex } from './fuzz/cbor.js'

/**
 * @typedef {{ rule: string, path: string, detail: string }} Rejection
 * @typedef {{ label: string, value: () => unknown, hex?: string, reject?: Rejection, decoded?: unknown }} Row
 */

/** a class instance whose Object.prototype.toString kind is `tag` @param {string} tag */
const tagged = (tag) => new (class { get [Symbol.toStringTag] () { return tag } })()

/** @type {Row[]} */
const ROWS = [
  // numbers
  { label: 'NaN', value: () => NaN, reject: { rule: 'non-finite-float', path: '', detail: 'NaN is not in the IPLD data model' } },
  { label: 'Infinity in a map', value: () => ({ a: Infinity }), reject: { rule: 'non-finite-float', path: '/a', detail: 'Infinity is not in the IPLD data model' } },
  { label: '-Infinity in a list', value: () => [0, -Infinity], reject: { rule: 'non-finite-float', path: '/1', detail: '-Infinity is not in the IPLD data model' } },
  { label: '2^64 as a BigInt', value: () => 2n ** 64n, reject: { rule: 'integer-range', path: '', detail: '18446744073709551616 is outside -2^64..2^64-1' } },
  { label: '-2^64-1 as a BigInt', value: () => ({ n: -(2n ** 64n) - 1n }), reject: { rule: 'integer-range', path: '/n', detail: '-18446744073709551617 is outside -2^64..2^64-1' } },
  { label: '2^64-1 as a BigInt', value: () => 2n ** 64n - 1n, hex: '1bffffffffffffffff' },
  { label: '-2^64 as a BigInt', value: () => -(2n ** 64n), hex: '3bffffffffffffffff' },
  { label: '2^53 as a BigInt', value: () => 2n ** 53n, hex: '1b0020000000000000' },
  { label: '2^53-1 as a BigInt (a Number when decoded)', value: () => 2n ** 53n - 1n, hex: '1b001fffffffffffff', decoded: 2 ** 53 - 1 },
  { label: '-2^53 as a BigInt', value: () => -(2n ** 53n), hex: '3b001fffffffffffff' },
  { label: '-2^53-1 as a BigInt', value: () => -(2n ** 53n) - 1n, hex: '3b0020000000000000' },
  { label: '-2^53+1 as a BigInt (a Number when decoded)', value: () => -(2n ** 53n) + 1n, hex: '3b001ffffffffffffe', decoded: -(2 ** 53) + 1 },
  { label: '-1n', value: () => -1n, hex: '20', decoded: -1 },
  { label: '0n', value: () => 0n, hex: '00', decoded: 0 },
  { label: '-0', value: () => -0, hex: 'fb8000000000000000' },
  { label: '0', value: () => 0, hex: '00' },
  { label: '2^53 as a Number (a float)', value: () => 2 ** 53, hex: 'fb4340000000000000' },
  { label: '-(2^53) as a Number (a float)', value: () => -(2 ** 53), hex: 'fbc340000000000000' },
  { label: '2^53-1 as a Number', value: () => 2 ** 53 - 1, hex: '1b001fffffffffffff' },
  { label: '-(2^53-1) as a Number', value: () => -(2 ** 53 - 1), hex: '3b001ffffffffffffe' },
  { label: '0.1', value: () => 0.1, hex: 'fb3fb999999999999a' },
  // strings
  { label: 'a lone surrogate', value: () => ({ s: 'ab\ud800' }), reject: { rule: 'utf8', path: '/s', detail: 'the lone surrogate at index 2 has no UTF-8 form' } },
  // values outside the data model
  { label: 'undefined', value: () => undefined, reject: { rule: 'undefined', path: '', detail: 'undefined is not in the IPLD data model' } },
  { label: 'a function', value: () => [() => 1], reject: { rule: 'type', path: '/0', detail: 'a function is not in the IPLD data model' } },
  { label: 'a symbol', value: () => ({ s: Symbol('x') }), reject: { rule: 'type', path: '/s', detail: 'a symbol is not in the IPLD data model' } },
  { label: 'a Map with a number key', value: () => new Map([[1, 2]]), reject: { rule: 'map-key-type', path: '', detail: 'a Map key of type number; IPLD map keys are strings' } },
  { label: 'a Map with a string, then a symbol key', value: () => ({ m: new Map(/** @type {any} */ ([['a', 1], [Symbol('s'), 2]])) }), reject: { rule: 'map-key-type', path: '/m', detail: 'a Map key of type symbol; IPLD map keys are strings' } },
  { label: 'a Date', value: () => new Date(0), reject: { rule: 'type', path: '', detail: 'a Date is not in the IPLD data model' } },
  { label: 'an array iterator', value: () => [].values(), reject: { rule: 'type', path: '', detail: 'an Array Iterator is not in the IPLD data model' } },
  { label: "an object tagged 'ArrayLike'", value: () => tagged('ArrayLike'), reject: { rule: 'type', path: '', detail: 'an ArrayLike is not in the IPLD data model' } },
  { label: "an object tagged 'MyDataView'", value: () => tagged('MyDataView'), reject: { rule: 'type', path: '', detail: 'a MyDataView is not in the IPLD data model' } },
  { label: "an object tagged 'DataViews'", value: () => tagged('DataViews'), reject: { rule: 'type', path: '', detail: 'a DataViews is not in the IPLD data model' } },
  { label: "an object tagged 'ArrayBuffers'", value: () => tagged('ArrayBuffers'), reject: { rule: 'type', path: '', detail: 'an ArrayBuffers is not in the IPLD data model' } },
  { label: "an object tagged 'FooArray'", value: () => tagged('FooArray'), reject: { rule: 'type', path: '', detail: 'a FooArray is not in the IPLD data model; bytes must be a Uint8Array' } },
  { label: "an object tagged 'MyNumber'", value: () => tagged('MyNumber'), reject: { rule: 'type', path: '', detail: 'a MyNumber is not in the IPLD data model' } },
  { label: "an object tagged 'Numbers'", value: () => tagged('Numbers'), reject: { rule: 'type', path: '', detail: 'a Numbers is not in the IPLD data model' } },
  { label: 'a boxed Symbol', value: () => Object(Symbol('s')), reject: { rule: 'type', path: '', detail: 'a boxed Symbol is not in the IPLD data model; use the primitive' } },
  { label: 'a DataView', value: () => new DataView(new ArrayBuffer(1)), reject: { rule: 'type', path: '', detail: 'a DataView is not in the IPLD data model; bytes must be a Uint8Array' } },
  { label: 'an ArrayBuffer', value: () => new ArrayBuffer(1), reject: { rule: 'type', path: '', detail: 'an ArrayBuffer is not in the IPLD data model; bytes must be a Uint8Array' } },
  // keys: when two keys have no UTF-8 form, the error names the first in key order
  { label: 'two keys without a UTF-8 form', value: () => ({ '\ud800a': 1, '\udc80': 2 }), reject: { rule: 'utf8', path: '/\udc80', detail: 'the lone surrogate at index 0 has no UTF-8 form (U+DC80 is how decode(bytes, { relaxed: true }) keeps a byte of invalid UTF-8: encode(value, { escapedBytes: true }) writes it back as that byte)' } },
  { label: 'two keys without a UTF-8 form, the other way round', value: () => ({ '\udc80': 2, '\ud800a': 1 }), reject: { rule: 'utf8', path: '/\udc80', detail: 'the lone surrogate at index 0 has no UTF-8 form (U+DC80 is how decode(bytes, { relaxed: true }) keeps a byte of invalid UTF-8: encode(value, { escapedBytes: true }) writes it back as that byte)' } },
  // an object with a null prototype is a map, even when it looks like a CID
  { label: 'a null-prototype object with CID-like fields', value: () => { const b = Uint8Array.of(1); return Object.assign(Object.create(null), { '/': b, bytes: b }) }, hex: 'a2612f4101656279746573' + '4101', decoded: { '/': Uint8Array.of(1), bytes: Uint8Array.of(1) } },
  // circular references and depth
  { label: 'a circular map', value: () => { const a = /** @type {any} */ ({ b: [] }); a.b.push(a); return a }, reject: { rule: 'circular', path: '/b/0', detail: 'circular reference' } },
  { label: 'a list that holds itself', value: () => { const a = /** @type {any[]} */ ([]); a.push(1, a); return a }, reject: { rule: 'circular', path: '/1', detail: 'circular reference' } },
  { label: 'one map twice, side by side', value: () => { const m = { x: 1 }; return [m, m, [m]] }, hex: '83a1617801a1617801' + '81a1617801' },
  { label: 'one list under two keys', value: () => { const l = [1]; return { a: l, b: { c: l } } }, hex: 'a2616181016162a161638101' }
]

/**
 * @param {() => unknown} fn
 * @param {Rejection} expected
 * @param {string} label
 */
function assertRejects (fn, expected, label) {
  assert.throws(fn, (/** @type {any} */ e) => {
    assert.ok(e instanceof DagCborEncodeError, `${label}: ${e}`)
    assert.equal(e.rule, expected.rule, `${label}: ${e.message}`)
    assert.equal(e.path, expected.path, `${label}: ${e.message}`)
    assert.equal(e.detail, expected.detail, label)
    assert.equal(e.message, `DAG-CBOR encode at ${expected.path || 'the top level'}: ${expected.detail} [rule: ${expected.rule}]`)
    return true
  })
}

describe('encode rules, row by row', () => {
  for (const { label, value, hex, reject, decoded } of ROWS) {
    it(`${label}: ${hex ?? `${reject?.rule} at ${reject?.path || '/'}`}`, () => {
      if (reject !== undefined) {
        assertRejects(() => encode(value()), reject, label)
        assertRejects(() => encodedLength(value()), reject, `${label}, encodedLength`)
        assertRejects(() => encodeInto(value(), new Uint8Array(100)), reject, `${label}, encodeInto`)
        return
      }
      assert.equal(toHex(encode(value())), hex, label)
      assert.equal(encodedLength(value()), /** @type {string} */ (hex).length / 2)
      const back = decode(encode(value()))
      const expected = decoded === undefined ? value() : decoded
      if (typeof expected === 'number') assert.ok(Object.is(back, expected), `${label}: decoded ${back}`)
      else assert.deepEqual(back, expected)
    })
  }

  it("encodeInto a target too small: rule 'target-size', the message gives both sizes", () => {
    assertRejects(() => encodeInto({ a: 'xyz' }, new Uint8Array(6)), { rule: 'target-size', path: '', detail: 'the encoding takes 7 bytes, the target has 6 bytes' }, 'target-size')
  })

  it("deep nesting: rule 'depth', the message names maxDepth", () => {
    let deep = /** @type {any} */ (1)
    for (let i = 0; i < 6; i++) deep = [deep]
    assertRejects(() => encode(deep, { maxDepth: 5 }), { rule: 'depth', path: '/0/0/0/0/0', detail: 'nesting deeper than maxDepth (5 levels)' }, 'maxDepth 5')
    for (let i = 0; i < 200_000; i++) deep = [deep]
    assert.throws(() => encode(deep, { maxDepth: Infinity }), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'depth' &&
      e.detail === 'nesting too deep for the JavaScript stack, which ran out before maxDepth (Infinity levels)')
  })
})

describe('encode: errors that are not DAG-CBOR rules pass through unchanged', () => {
  for (const error of [new RangeError('boom'), new Error('Maximum call stack size exceeded'), new TypeError('x'), 'a string']) {
    it(`${String(error)} thrown by a getter reaches the caller as it was`, () => {
      const value = { a: 1, get b () { throw error } }
      assert.throws(() => encode(value), (/** @type {any} */ e) => e === error)
      assert.throws(() => encode([[value]]), (/** @type {any} */ e) => e === error)
      // and the encoder is left clean
      assert.equal(toHex(encode({ a: [1] })), 'a16161' + '8101')
    })
  }
})

describe('encode: an encode started inside another (from a getter)', () => {
  it('encodes a value that the outer encode is inside of: it is not circular there', () => {
    let inside = false
    const root = /** @type {any} */ ({ list: [1, 2] })
    root.obj = { get x () { if (inside) return 0; inside = true; try { return toHex(encode(root)) } finally { inside = false } } }
    const innerHex = 'a2636f626aa16178' + '00' + '646c697374820102'
    assert.equal(toHex(encode(root)), 'a2636f626aa16178' + '78' + innerHex.length.toString(16) + Buffer.from(innerHex).toString('hex') + '646c697374820102')
  })

  it('starts at depth 0 whatever the outer depth', () => {
    let deep = /** @type {any} */ ({ get x () { let v = /** @type {any} */ (0); for (let i = 0; i < 4; i++) v = [v]; return encode(v, { maxDepth: 4 }).length } })
    for (let i = 0; i < 3; i++) deep = [deep]
    assert.equal(toHex(encode(deep, { maxDepth: 4 })), '818181a1617805')
  })

  it('two encodes from one getter, then the outer goes on with its own options', () => {
    const value = {
      a: '\udcff',
      get b () { return encode({ x: 1 }).length + encode([1, 2]).length },
      c: '\udcfe'
    }
    assert.equal(toHex(encode(value, { escapedBytes: true })), 'a3' + '6161' + '61ff' + '6162' + '07' + '6163' + '61fe')
    assert.throws(() => encode(value), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'utf8' && e.path === '/a')
  })

  it('an error inside the nested encode leaves the outer one whole', () => {
    const value = {
      a: 'x'.repeat(100),
      get b () { try { encode({ bad: undefined }) } catch (e) { return /** @type {any} */ (e).rule } }, // eslint-disable-line getter-return -- the try always throws
      c: [1, 2, 3]
    }
    assert.equal(toHex(encode(value)), toHex(encode({ a: 'x'.repeat(100), b: 'undefined', c: [1, 2, 3] })))
  })
})

// gc() at run time, as test/limits.spec.js does
v8.setFlagsFromString('--expose-gc')
const gc = /** @type {() => void} */ (vm.runInNewContext('gc'))

/**
 * Whether the object behind `ref` is collected once nothing but the codec could hold it.
 * @param {WeakRef<object>} ref
 */
async function collected (ref) {
  for (let i = 0; i < 20 && ref.deref() !== undefined; i++) {
    await new Promise((resolve) => setTimeout(resolve, 0))
    gc()
  }
  return ref.deref() === undefined
}

describe('encode: the encoder keeps no reference to a value once it returns or throws', () => {
  it('a value that was encoded, and one whose encode failed deep inside', async () => {
    const control = new WeakRef({ x: [1] })
    assert.ok(await collected(control), 'the check itself works')
    const ok = (() => { const v = { a: { b: [new Uint8Array(20000)] } }; encode(v); return new WeakRef(v) })()
    assert.ok(await collected(ok))
    const failed = (() => {
      const v = { a: { b: { c: [undefined] } } }
      assert.throws(() => encode(v), DagCborEncodeError)
      return new WeakRef(v.a.b)
    })()
    assert.ok(await collected(failed), 'the failed value is still referenced')
  })
})
