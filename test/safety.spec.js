// Hostile map keys: '__proto__', 'constructor', 'prototype' and the other Object.prototype names decode as
// own data properties of plain objects and never reach any prototype; encoding writes such own keys as keys.
// Also: a throw in the middle of an encode or decode leaves no option behind for the next call.
import assert from 'node:assert/strict'
import { decode, encode, DagCborDecodeError, DagCborEncodeError } from '../index.js'
import { head, concatAll, toHex, text } from './fuzz/cbor.js'

/** a map from [key, encoded value] pairs, in the order given (callers give canonical order unless testing relaxed) */
const map = (/** @type {Array<[string, Uint8Array|number[]]>} */ entries) => concatAll([head(5, entries.length), ...entries.flatMap(([k, v]) => [text(k), v])])
const TRUE = [0xf5]
const polluter = () => map([['polluted', TRUE]])

const protoNames = () => Object.getOwnPropertyNames(Object.prototype).sort()
const arrayProtoNames = () => Object.getOwnPropertyNames(Array.prototype).sort()

describe('safety: prototype keys in decoded maps', () => {
  let before, arrayBefore
  beforeEach(() => { before = protoNames(); arrayBefore = arrayProtoNames() })
  afterEach(() => {
    assert.equal(/** @type {any} */ ({}).polluted, undefined, 'Object.prototype was polluted')
    assert.equal(/** @type {any} */ ([]).polluted, undefined, 'Array.prototype was polluted')
    assert.deepEqual(protoNames(), before)
    assert.deepEqual(arrayProtoNames(), arrayBefore)
  })

  /** @param {any} v @param {string} key */
  const assertOwnData = (v, key) => {
    assert.equal(Object.getPrototypeOf(v), Object.prototype, 'decoded map must be a plain object')
    const d = Object.getOwnPropertyDescriptor(v, key)
    assert.ok(d, `${key} must be an own property`)
    assert.ok('value' in d && d.enumerable && d.writable && d.configurable, `${key} must be a plain data property`)
    return d.value
  }

  // canonical key order is length-first, then bytewise: '__proto__' < 'prototype' (9 bytes) < 'constructor' (11)
  const hostile = () => map([['__proto__', polluter()], ['prototype', polluter()], ['constructor', map([['prototype', polluter()]])]])

  for (const opts of [undefined, { relaxed: true }, { viewBytes: true }]) {
    it(`'__proto__', 'prototype', 'constructor' keys are own data properties (options ${JSON.stringify(opts) ?? 'none'})`, () => {
      const v = decode(hostile(), opts)
      assert.equal(Object.getPrototypeOf(v), Object.prototype)
      assert.ok(Object.hasOwn(v, '__proto__'))
      assert.deepEqual(Object.keys(v), ['__proto__', 'prototype', 'constructor'])
      const proto = assertOwnData(v, '__proto__')
      assert.equal(Object.getPrototypeOf(proto), Object.prototype)
      assert.deepEqual({ ...proto }, { polluted: true })
      assert.equal(v.__proto__, proto, 'reading v.__proto__ gives the own value')
      assert.equal(v.polluted, undefined, 'the result did not inherit from the __proto__ value')
      assert.deepEqual({ ...assertOwnData(v, 'prototype') }, { polluted: true })
      const ctor = assertOwnData(v, 'constructor')
      assert.deepEqual({ ...assertOwnData(ctor, 'prototype') }, { polluted: true })
    })
  }

  it('nested maps (in maps and arrays) get the same treatment', () => {
    const bytes = concatAll([head(4, 2), map([['a', hostile()]]), concatAll([head(4, 1), hostile()])])
    for (const opts of [undefined, { relaxed: true }]) {
      const [first, [inner]] = decode(bytes, opts)
      for (const v of [assertOwnData(first, 'a'), inner]) {
        assert.deepEqual({ ...assertOwnData(v, '__proto__') }, { polluted: true })
        assert.equal(Object.getPrototypeOf(v), Object.prototype)
      }
    }
  })

  it('the value under __proto__ may be any kind (array, string, null, bytes) and is kept as is', () => {
    for (const [value, expected] of [[[0x80], []], [text('x'), 'x'], [[0xf6], null], [[0x41, 0x07], Uint8Array.of(7)], [[0x01], 1]]) {
      const v = decode(map([['__proto__', value]]))
      assert.deepEqual(assertOwnData(v, '__proto__'), expected)
      assert.equal(Object.getPrototypeOf(v), Object.prototype)
    }
  })

  it('other Object.prototype names are ordinary keys (no false duplicate, no inherited lookups)', () => {
    const names = ['valueOf', 'toString', '__proto__', 'constructor', 'isPrototypeOf', 'hasOwnProperty', '__defineGetter__', 'propertyIsEnumerable']
    // sorted length-first then bytewise, as canonical DAG-CBOR wants
    const sorted = [...names].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))
    const v = decode(map(sorted.map((k, i) => [k, head(0, i)])))
    assert.deepEqual(Object.keys(v), sorted)
    sorted.forEach((k, i) => assert.equal(assertOwnData(v, k), i))
  })

  it('relaxed mode with keys out of order still makes own properties, and still rejects a repeated __proto__', () => {
    const unsorted = map([['constructor', [0x01]], ['__proto__', polluter()], ['toString', [0x02]]])
    assert.throws(() => decode(unsorted), (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === 'map-key-order')
    const v = decode(unsorted, { relaxed: true })
    assert.equal(assertOwnData(v, 'constructor'), 1)
    assert.equal(assertOwnData(v, 'toString'), 2)
    assert.deepEqual({ ...assertOwnData(v, '__proto__') }, { polluted: true })
    const repeated = map([['__proto__', [0x01]], ['__proto__', [0x02]]])
    for (const opts of [undefined, { relaxed: true }]) {
      assert.throws(() => decode(repeated, opts), (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === 'duplicate-key')
    }
  })

  it('decoded maps and lists are plain objects and arrays, at every level', () => {
    const bytes = map([['a', concatAll([head(4, 2), map([['b', map([])]]), head(4, 0)])], ['c', map([['d', [0x80]]])]])
    const seen = []
    const visit = (/** @type {any} */ v) => {
      if (Array.isArray(v)) { assert.equal(Object.getPrototypeOf(v), Array.prototype); seen.push('list'); v.forEach(visit) } else if (v && typeof v === 'object') {
        assert.equal(Object.getPrototypeOf(v), Object.prototype); seen.push('map'); Object.values(v).forEach(visit)
      }
    }
    visit(decode(bytes))
    assert.deepEqual(seen, ['map', 'list', 'map', 'map', 'list', 'map', 'list'])
  })
})

describe('safety: encoding own prototype-named keys', () => {
  const expected = () => map([['__proto__', map([['x', [0x01]]])], ['prototype', [0x03]], ['constructor', [0x02]]])

  it("an own '__proto__' key from JSON.parse is written as a key", () => {
    const v = JSON.parse('{"constructor": 2, "__proto__": {"x": 1}, "prototype": 3}')
    assert.ok(Object.hasOwn(v, '__proto__'))
    assert.equal(toHex(encode(v)), toHex(expected()))
  })

  it("an own '__proto__' key from Object.defineProperty is written as a key", () => {
    const v = { constructor: 2, prototype: 3 }
    Object.defineProperty(v, '__proto__', { value: { x: 1 }, enumerable: true, writable: true, configurable: true })
    assert.equal(toHex(encode(v)), toHex(expected()))
  })

  it('an object literal __proto__ (which sets the prototype, not a key) is not written', () => {
    // the object's prototype is another plain object: it is encoded as a map of its own
    // enumerable properties (as @ipld/dag-cbor does), and nothing inherited is written
    const v = { __proto__: { inherited: 1 }, own: 2 }
    assert.ok(!Object.hasOwn(v, '__proto__'))
    assert.equal(/** @type {any} */ (v).inherited, 1)
    assert.equal(toHex(encode(v)), toHex(map([['own', [0x02]]])), 'only own properties are encoded')
    assert.equal(toHex(encode({ k: v })), toHex(map([['k', map([['own', [0x02]]])]])))
  })

  it('encode and decode round-trip the hostile keys', () => {
    const v = decode(expected())
    assert.equal(toHex(encode(v)), toHex(expected()))
  })
})

describe('safety: a throw mid-call leaves no state behind', () => {
  it('encode with escapedBytes that throws from a getter does not leave escapedBytes on', () => {
    const bad = {}
    Object.defineProperty(bad, 'a', { get () { throw new Error('boom') }, enumerable: true })
    assert.throws(() => encode({ s: '\udc80', z: bad }, { escapedBytes: true }), /boom/)
    assert.throws(() => encode('\udc80'), (/** @type {any} */ e) => e instanceof DagCborEncodeError)
  })

  it('a getter that encodes during an encode does not disturb the outer call', () => {
    const v = { a: 1 }
    Object.defineProperty(v, 'b', { get: () => encode({ x: '\udcff' }, { escapedBytes: true }).length, enumerable: true })
    assert.equal(toHex(encode(v)), toHex(map([['a', [0x01]], ['b', [0x05]]])))
    // the outer call was not in escapedBytes mode, and neither is the next one
    const w = { a: 1 }
    Object.defineProperty(w, 'b', { get: () => encode(1).length, enumerable: true })
    assert.throws(() => encode({ s: '\udc80', w }), (/** @type {any} */ e) => e instanceof DagCborEncodeError)
  })

  it('a relaxed decode that throws does not leave the next decode relaxed', () => {
    const unsortedThenTruncated = map([['b', [0x01]], ['a', [0x02]]]).subarray(0, 6)
    assert.throws(() => decode(unsortedThenTruncated, { relaxed: true }), (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === 'truncated')
    assert.throws(() => decode(map([['b', [0x01]], ['a', [0x02]]])), (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === 'map-key-order')
  })

  it('a viewBytes decode that throws does not leave the next decode returning views', () => {
    assert.throws(() => decode(Uint8Array.of(0x82, 0x41, 0x07), { viewBytes: true }), (/** @type {any} */ e) => e instanceof DagCborDecodeError)
    const input = Uint8Array.of(0x41, 0x07)
    const out = decode(input)
    input[1] = 0
    assert.deepEqual(out, Uint8Array.of(7))
  })
})
