// lib/cborg-options.js: cborg's own encode/decode with our encodeOptions/decodeOptions. Valid values are
// compared byte for byte with our codec in test/differential.spec.js; this file holds the values and inputs
// the options must refuse, each with the rule our own codec names for the same thing, and the -0 rule.
import assert from 'node:assert/strict'
import * as cborg from 'cborg'
import { CID } from 'multiformats/cid'
import { encode, decode, encodeOptions, decodeOptions, DagCborEncodeError, DagCborDecodeError } from '../index.js'
import { TAG_TYPE, BYTES_TYPE, FLOAT_TYPE } from '../lib/cborg-options.js'

const hex = (/** @type {Uint8Array} */ b) => Buffer.from(b).toString('hex')
const bytes = (/** @type {string} */ h) => Uint8Array.from(Buffer.from(h.replace(/ /g, ''), 'hex'))
const CID_HEX = '01711220' + '00'.repeat(32)

describe('cborg-options: encodeOptions', () => {
  // [label, value, rule]: each must fail in cborg with encodeOptions and in our encode, with the same rule
  // and the detail in cborg's error says what the value was, as ours does
  /** @type {Array<[string, () => unknown, string, string]>} */
  const refused = [
    ['NaN', () => NaN, 'non-finite-float', 'NaN is not in the IPLD data model'],
    ['Infinity', () => Infinity, 'non-finite-float', 'Infinity is not in the IPLD data model'],
    ['-Infinity', () => -Infinity, 'non-finite-float', '-Infinity is not in the IPLD data model'],
    ['-Infinity inside a list', () => [1, -Infinity], 'non-finite-float', '-Infinity is not'],
    ['a lone high surrogate', () => 'a\ud800', 'utf8', 'lone surrogate at index 1'],
    ['a lone low surrogate in a map key', () => ({ '\udc00': 1 }), 'utf8', 'lone surrogate at index 0'],
    ['a Map with a number key', () => new Map([[1, 'a']]), 'map-key-type', 'Map key of type number'],
    ['a Map with a string and an object key', () => new Map(/** @type {any} */ ([['a', 1], [{}, 2]])), 'map-key-type', 'Map key of type object'],
    ['undefined', () => undefined, 'undefined', 'undefined is not in the IPLD data model'],
    ['undefined in a map', () => ({ a: undefined }), 'undefined', 'undefined is not'],
    ['an Int8Array', () => new Int8Array(2), 'type', 'Int8Array is not in the IPLD data model'],
    ['a Uint8ClampedArray', () => new Uint8ClampedArray(2), 'type', 'Uint8ClampedArray is not'],
    ['a Float64Array', () => new Float64Array(1), 'type', 'Float64Array is not'],
    ['a DataView', () => new DataView(new ArrayBuffer(2)), 'type', 'DataView is not']
  ]
  for (const [label, make, rule, detail] of refused) {
    it(`refuses ${label} (rule ${rule}), as encode does`, () => {
      const ours = /** @type {DagCborEncodeError} */ (assertThrows(() => encode(make()), DagCborEncodeError))
      assert.equal(ours.rule, rule)
      const theirs = /** @type {DagCborEncodeError} */ (assertThrows(() => cborg.encode(make(), encodeOptions), DagCborEncodeError))
      assert.equal(theirs.rule, rule)
      assert.ok(theirs.message.includes(detail), `${JSON.stringify(theirs.message)} lacks ${JSON.stringify(detail)}`)
      assert.match(theirs.message, new RegExp(`\\[rule: ${rule}\\]`))
      assert.match(theirs.message, /in cborg, no value path/)
    })
  }

  // [label, value, hex]: cborg with encodeOptions writes exactly these bytes, as our encoder does
  /** @type {Array<[string, unknown, string]>} */
  const written = [
    ['-0 as float64 -0.0 (cborg alone writes the integer 0)', -0, 'fb8000000000000000'],
    ['+0 as the integer 0', 0, '00'],
    ['1.5 as float64', 1.5, 'fb3ff8000000000000'],
    ['a CID as tag 42 over 0x00 and its bytes', CID.decode(bytes(CID_HEX)), 'd82a5825' + '00' + CID_HEX],
    ['a Map with string keys, sorted', new Map([['bb', 1], ['a', 2]]), 'a2616102626262' + '01']
  ]
  for (const [label, value, expected] of written) {
    it(`writes ${label}`, () => {
      assert.equal(hex(cborg.encode(value, encodeOptions)), expected)
      assert.equal(hex(encode(value)), expected)
    })
  }
})

describe('cborg-options: decodeOptions', () => {
  // [label, hex]: cborg with decodeOptions rejects these (cborg's own errors: it names no rule), as decode does
  /** @type {Array<[string, string]>} */
  const refusedByCborg = [
    ['duplicate keys', 'a2 6161 01 6161 02'],
    ['an indefinite-length list', '9f 01 ff'],
    ['a non-shortest integer', '18 01'],
    ['undefined', 'f7'],
    ['NaN', 'fb 7ff8000000000000'],
    ['-Infinity', 'fb fff0000000000000'],
    ['a tag other than 42', 'c1 01']
  ]
  for (const [label, input] of refusedByCborg) {
    it(`rejects ${label}, as decode does`, () => {
      assert.throws(() => decode(bytes(input)), DagCborDecodeError)
      assert.throws(() => cborg.decode(bytes(input), decodeOptions))
    })
  }

  // [label, hex]: malformed CIDs are caught by our tag decoder: DagCborDecodeError, rule 'cid'
  // [label, hex, what the detail says]
  /** @type {Array<[string, string, string]>} */
  const badCids = [
    ['tag 42 over a text string', 'd82a 6161', 'must hold a byte string'],
    ['tag 42 without the 0x00 prefix', 'd82a 5824' + CID_HEX, 'must start with the 0x00 prefix'],
    ['tag 42 over a CIDv0 one byte short', 'd82a 5822 00 1220' + '00'.repeat(31), 'a CIDv0 must be a 34-byte'],
    ['tag 42 over a CIDv0 one byte long', 'd82a 5824 00 1220' + '00'.repeat(33), 'a CIDv0 must be a 34-byte']
  ]
  for (const [label, input, detail] of badCids) {
    it(`rejects ${label} with rule 'cid', as decode does`, () => {
      const ours = /** @type {DagCborDecodeError} */ (assertThrows(() => decode(bytes(input)), DagCborDecodeError))
      assert.equal(ours.rule, 'cid')
      const theirs = /** @type {DagCborDecodeError} */ (assertThrows(() => cborg.decode(bytes(input), decodeOptions), DagCborDecodeError))
      assert.equal(theirs.rule, 'cid')
      assert.equal(theirs.offset, -1)
      assert.match(theirs.message, /in cborg, no byte offset/)
      assert.ok(theirs.detail.includes(detail) && theirs.message.includes(theirs.detail), theirs.message)
    })
  }

  it('decodes integers beyond 2^53 - 1 to BigInt, as decode does', () => {
    for (const input of ['1b 0020000000000000', '3b 0020000000000000']) {
      assert.equal(cborg.decode(bytes(input), decodeOptions), decode(bytes(input)))
      assert.equal(typeof decode(bytes(input)), 'bigint')
    }
  })

  it('decodes a CID to a multiformats CID', () => {
    const value = cborg.decode(bytes('d82a5825' + '00' + CID_HEX), decodeOptions)
    assert.ok(CID.asCID(value))
    assert.equal(hex(value.bytes), CID_HEX)
  })
})

describe('cborg-options: the exported objects are frozen', () => {
  it('encodeOptions and its typeEncoders cannot be changed', () => {
    assert.ok(Object.isFrozen(encodeOptions) && Object.isFrozen(encodeOptions.typeEncoders))
    assert.throws(() => { /** @type {any} */ (encodeOptions).float64 = false }, TypeError)
    assert.throws(() => { /** @type {any} */ (encodeOptions.typeEncoders).number = () => null }, TypeError)
    assert.equal(hex(cborg.encode(-0, encodeOptions)), 'fb8000000000000000')
  })
  it('decodeOptions and its tags cannot be changed', () => {
    assert.ok(Object.isFrozen(decodeOptions) && Object.isFrozen(decodeOptions.tags))
    assert.throws(() => { /** @type {any} */ (decodeOptions).allowUndefined = true }, TypeError)
    assert.throws(() => { decodeOptions.tags[42] = () => 'hijacked' }, TypeError)
    assert.throws(() => cborg.decode(bytes('f7'), decodeOptions))
  })
  it('a spread copy can be changed for one caller', () => {
    const mine = { ...decodeOptions, allowUndefined: true, coerceUndefinedToNull: true }
    assert.equal(cborg.decode(bytes('f7'), mine), null)
    assert.throws(() => cborg.decode(bytes('f7'), decodeOptions))
  })
})

/**
 * @param {() => unknown} fn
 * @param {Function} type
 * @returns {Error}
 */
function assertThrows (fn, type) {
  try {
    fn()
  } catch (error) {
    assert.ok(error instanceof type, `expected ${type.name}, got ${/** @type {any} */ (error)?.name}: ${/** @type {any} */ (error)?.message}`)
    return /** @type {Error} */ (error)
  }
  assert.fail(`expected ${type.name}, nothing was thrown`)
}

describe('cborg options: the tokens our hooks return are cborg\'s, field for field', () => {
  it('the three types equal cborg\'s own (Type.equals, and every field)', () => {
    for (const [ours, theirs] of [[TAG_TYPE, cborg.Type.tag], [BYTES_TYPE, cborg.Type.bytes], [FLOAT_TYPE, cborg.Type.float]]) {
      assert.ok(cborg.Type.equals(/** @type {any} */ (ours), theirs), `${theirs}`)
      assert.deepEqual({ ...ours }, { ...theirs })
    }
  })

  it('a token has the own properties of one cborg\'s Token constructor makes, in the same order', () => {
    const cid = CID.parse('bafyreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku')
    const tokens = /** @type {any} */ (encodeOptions.typeEncoders)?.Object(cid, 'Object', encodeOptions)
    assert.equal(tokens.length, 2)
    const made = new cborg.Token(cborg.Type.tag, 42)
    for (const t of [...tokens, /** @type {any} */ (encodeOptions.typeEncoders)?.number(-0, 'number', encodeOptions)[0]]) {
      assert.deepEqual(Object.keys(t), Object.keys(made))
    }
    assert.deepEqual(cborg.decode(cborg.encode({ l: cid }, encodeOptions), decodeOptions), { l: cid })
  })
})
