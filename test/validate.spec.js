// validate (lib/validate.js): the strict checks of decode without building values. Each row is input
// bytes (hex) and what validate gives (a result, or a rule at a byte offset and path); every row is also
// run through strict decode, which must agree, to the words of the message. Then a differential over the fuzzer's random and mutated
// inputs, the codec fixtures and every DAG-CBOR block of the real CARs: validate and strict decode
// accept and reject the same inputs, with the same rule, offset, path and message; the integral floats and links
// validate reports are checked against an independent walk of the bytes (test/fuzz/cbor.js), and
// each accepted input decodes and re-encodes to itself exactly when validate counts no integral float.
import assert from 'node:assert/strict'
import v8 from 'node:v8'
import vm from 'node:vm'
import { decode, encode, DagCborDecodeError } from '../index.js'
import { validate, INTEGRAL_FLOAT_PATHS } from '../lib/validate.js'
import { fromHex, toHex, head, concat, walk } from './fuzz/cbor.js'
import { Rng } from './fuzz/prng.js'
import { mutate } from './fuzz/mutate.js'
import { randomBytes, randomCbor } from './fuzz/random-cbor.js'
import { seededGarbage } from './fuzz/values.js'
import { loadCorpus } from './fuzz/fuzzer.js'
import { loadFixtures, loadNegativeFixtures } from './helpers/fixtures.js'

/**
 * @typedef {{ rule: string, offset: number, path: string }} Rejection
 * @typedef {{ integralFloats?: number, integralFloatPaths?: string[], links?: number[] }} Accepted
 * @typedef {{ label: string, data: string, strict?: Rejection, accepted?: Accepted, options?: import('../lib/validate.js').ValidateOptions }} Row
 */

const DIGEST = '00112233445566778899aabbccddeeff'.repeat(2)
/** tag 42 over 0x00 and `content` (hex) @param {string} content */
const cid = (content) => toHex(concat([0xd8, 0x2a], head(2, content.length / 2 + 1), [0x00], fromHex(content)))
/** `n` nested one-item arrays around 0 @param {number} n */
const nested = (n) => '81'.repeat(n) + '00'

/** @type {Row[]} */
const ROWS = [
  // accepted: what the result says
  { label: 'a map of an array, text, bytes, null, true, false', data: 'a3616101616282f6f5' + '6163' + '83' + '4100' + '6178' + 'f4', accepted: {} },
  { label: 'float64 1.0 (an integral float)', data: 'fb3ff0000000000000', accepted: { integralFloats: 1, integralFloatPaths: [''] } },
  { label: 'integral floats in an array and a map', data: '82' + 'fb4000000000000000' + 'a2' + '6161' + 'fbc059000000000000' + '6162' + 'fb3ff8000000000000', accepted: { integralFloats: 2, integralFloatPaths: ['/0', '/1/a'] } },
  { label: 'float64 -0.0, 1.5, 2^53, 0.5: no integral float JS would write as an integer', data: '84fb8000000000000000fb3ff8000000000000fb4340000000000000fb3fe0000000000000', accepted: { integralFloats: 0 } },
  { label: 'float64 0.0 and 2^53-1 are integral floats', data: '82fb0000000000000000fb433fffffffffffff', accepted: { integralFloats: 2, integralFloatPaths: ['/0', '/1'] } },
  { label: 'float64 2^52+1, 2^52-0.5, -1.0, 2^32+0.5, the smallest subnormal: the first and third are integral', data: '85' + 'fb4330000000000001' + 'fb432fffffffffffff' + 'fbbff0000000000000' + 'fb41f0000000080000' + 'fb0000000000000001', accepted: { integralFloats: 2, integralFloatPaths: ['/0', '/2'] } },
  { label: 'seven integral floats: the paths of the first five', data: '87' + 'fb3ff0000000000000'.repeat(7), accepted: { integralFloats: 7, integralFloatPaths: ['/0', '/1', '/2', '/3', '/4'] } },
  { label: 'a key with / and ~ in the path of an integral float', data: 'a1' + '63612f7e' + 'fb3ff0000000000000', accepted: { integralFloats: 1, integralFloatPaths: ['/a~1~0'] } },
  { label: 'links: a CIDv1 and a CIDv0, their CID bytes', data: '82' + cid('01711220' + DIGEST) + cid('1220' + DIGEST), options: { links: true }, accepted: { links: [6, 42, 47, 81] } },
  { label: 'the 64-bit integers at both ends', data: '821bffffffffffffffff3bffffffffffffffff', accepted: {} },
  { label: 'non-ASCII text and keys in order (length, then bytes)', data: 'a2' + '62c3a9' + '00' + '63e298ba' + '64f09f9880', accepted: {} },
  // one row per rule
  { label: 'nothing', data: '', strict: { rule: 'truncated', offset: 0, path: '' } },
  { label: 'an array missing its second item', data: '828101', strict: { rule: 'truncated', offset: 3, path: '/1' } },
  { label: 'a length past the end', data: 'a1' + '6161' + '43' + '0102', strict: { rule: 'truncated', offset: 3, path: '/a' } },
  { label: 'a 2^64-1 text length', data: '7bffffffffffffffff', strict: { rule: 'truncated', offset: 0, path: '' } },
  { label: 'a float64 cut short', data: 'fb3ff00000', strict: { rule: 'truncated', offset: 0, path: '' } },
  { label: 'two items', data: '0102', strict: { rule: 'trailing-bytes', offset: 1, path: '' } },
  { label: 'additional information 28', data: '1c', strict: { rule: 'malformed', offset: 0, path: '' } },
  { label: 'an indefinite integer (31 is reserved there)', data: '811f', strict: { rule: 'malformed', offset: 1, path: '/0' } },
  { label: 'an indefinite array', data: '9fff', strict: { rule: 'indefinite-length', offset: 0, path: '' } },
  { label: 'a break', data: '8201ff', strict: { rule: 'indefinite-length', offset: 2, path: '/1' } },
  { label: '23 in a 1-byte argument', data: '1817', strict: { rule: 'non-shortest', offset: 0, path: '' } },
  { label: '2^32-1 in an 8-byte argument', data: '3b00000000ffffffff', strict: { rule: 'non-shortest', offset: 0, path: '' } },
  { label: 'a map key length in 2 bytes', data: 'a1' + '780161' + '00', strict: { rule: 'non-shortest', offset: 1, path: '' } },
  { label: 'tag 42 in 2 bytes', data: 'd9002a', strict: { rule: 'non-shortest', offset: 0, path: '' } },
  { label: 'tag 0', data: 'c000', strict: { rule: 'tag', offset: 0, path: '' } },
  { label: 'tag 2^64-1', data: 'dbffffffffffffffff00', strict: { rule: 'tag', offset: 0, path: '' } },
  { label: 'tag 42 around an integer', data: 'd82a00', strict: { rule: 'cid', offset: 2, path: '' } },
  { label: 'tag 42 bytes without the 0x00 prefix', data: 'd82a4101', strict: { rule: 'cid', offset: 3, path: '' } },
  { label: 'a CID with an explicit version 0', data: cid('00711220' + DIGEST), strict: { rule: 'cid', offset: 5, path: '' } },
  { label: 'a CIDv1 digest one byte short', data: cid('01711220' + DIGEST.slice(2)), strict: { rule: 'cid', offset: 5, path: '' } },
  { label: 'a CID whose codec varint has a trailing 0x00', data: cid('01f1001220' + DIGEST), strict: { rule: 'cid', offset: 5, path: '' } },
  { label: 'tag 42 at the end', data: '81d82a', strict: { rule: 'truncated', offset: 3, path: '/0' } },
  { label: 'simple value 19', data: 'f3', strict: { rule: 'simple-value', offset: 0, path: '' } },
  { label: 'simple value 24 cut short', data: 'f8', strict: { rule: 'simple-value', offset: 0, path: '' } },
  { label: 'undefined', data: 'a1' + '6161' + 'f7', strict: { rule: 'undefined', offset: 3, path: '/a' } },
  { label: 'float16 1.5', data: 'f93e00', strict: { rule: 'float-size', offset: 0, path: '' } },
  { label: 'float32 1.5', data: 'fa3fc00000', strict: { rule: 'float-size', offset: 0, path: '' } },
  { label: 'float64 NaN', data: 'fb7ff8000000000000', strict: { rule: 'non-finite-float', offset: 0, path: '' } },
  { label: 'float64 -Infinity', data: 'fbfff0000000000000', strict: { rule: 'non-finite-float', offset: 0, path: '' } },
  { label: 'float16 Infinity (non-finite before float size)', data: 'f97c00', strict: { rule: 'non-finite-float', offset: 0, path: '' } },
  { label: 'float32 NaN', data: 'fa7fc00000', strict: { rule: 'non-finite-float', offset: 0, path: '' } },
  { label: 'an integer key', data: 'a10102', strict: { rule: 'map-key-type', offset: 1, path: '' } },
  { label: 'a second key that is a byte string', data: 'a2' + '616101' + '416202', strict: { rule: 'map-key-type', offset: 4, path: '' } },
  { label: 'keys out of order', data: 'a2616201616102', strict: { rule: 'map-key-order', offset: 4, path: '/a' } },
  { label: 'a longer key first', data: 'a2' + '62616101' + '616202', strict: { rule: 'map-key-order', offset: 5, path: '/b' } },
  { label: 'a repeated key', data: 'a2616101616102', strict: { rule: 'duplicate-key', offset: 4, path: '/a' } },
  { label: 'a repeated empty key', data: 'a260006000', strict: { rule: 'duplicate-key', offset: 3, path: '/' } },
  { label: 'invalid UTF-8 in text', data: '82' + '00' + '6461c36262', strict: { rule: 'invalid-utf8', offset: 4, path: '/1' } },
  { label: 'a surrogate in long text', data: '78' + '1a' + '61'.repeat(23) + 'eda080', strict: { rule: 'invalid-utf8', offset: 25, path: '' } },
  { label: 'invalid UTF-8 in a key', data: 'a161ff01', strict: { rule: 'invalid-utf8', offset: 2, path: '' } },
  { label: 'nesting past maxDepth 1000', data: nested(1001), strict: { rule: 'depth', offset: 1000, path: '/0'.repeat(1000) } },
  { label: 'nesting past maxDepth 2', data: 'a1' + '6161' + '8181' + '00', options: { maxDepth: 2 }, strict: { rule: 'depth', offset: 4, path: '/a/0' } },
  { label: 'an error deep in maps and arrays names its path', data: 'a1616182' + '01' + 'a16162' + 'f7', strict: { rule: 'undefined', offset: 8, path: '/a/1/b' } }
]

/**
 * @param {() => unknown} fn
 * @returns {{ value?: any, error?: any }}
 */
function outcome (fn) {
  try {
    return { value: fn() }
  } catch (error) {
    return { error }
  }
}

describe('validate, row by row (and strict decode agrees)', () => {
  for (const row of ROWS) {
    const { label, data, strict, options } = row
    it(`${label} (${data.length > 24 ? data.slice(0, 24) + '…' : data || 'empty'}): ${strict ? `${strict.rule} at ${strict.offset}` : 'accepted'}`, () => {
      const input = fromHex(data)
      const decodeOptions = options?.maxDepth === undefined ? undefined : { maxDepth: options.maxDepth }
      if (strict === undefined) {
        decode(input, decodeOptions)
        const expected = /** @type {Accepted} */ (row.accepted)
        const result = validate(input, options)
        assert.equal(result.integralFloats, expected.integralFloats ?? 0, 'integralFloats')
        assert.deepEqual(result.integralFloatPaths, expected.integralFloatPaths ?? [], 'integralFloatPaths')
        assert.deepEqual(result.links, expected.links ?? (options?.links ? [] : null), 'links')
        return
      }
      for (const [name, fn] of /** @type {const} */ ([['validate', () => validate(input, options)], ['decode', () => decode(input, decodeOptions)]])) {
        assert.throws(fn, (/** @type {any} */ e) => {
          assert.ok(e instanceof DagCborDecodeError, `${name}: ${e}`)
          assert.equal(e.rule, strict.rule, `${name}: ${e.message}`)
          assert.equal(e.offset, strict.offset, `${name}: ${e.message}`)
          assert.equal(e.path, strict.path, `${name}: ${e.message}`)
          assert.ok(e.message.startsWith(`DAG-CBOR decode at byte ${strict.offset}`), e.message)
          return true
        })
      }
      // the same words too (validate's messages are written as decode's are; this keeps them in step)
      assert.equal(outcome(() => validate(input, options)).error.message, outcome(() => decode(input, decodeOptions)).error.message)
    })
  }
})

describe('validate: input and options', () => {
  it('every kind of bytes, as decode takes them; anything else is decode\'s TypeError', () => {
    const backing = new ArrayBuffer(8)
    new Uint8Array(backing).set([0xff, 0x82, 0x01, 0xfb, 0x3f, 0xf0, 0, 0], 0)
    const block = fromHex('8201fb3ff0000000000000')
    for (const input of [block, Buffer.from(block), block.slice().buffer, new DataView(block.buffer), new Int8Array(block.buffer)]) {
      assert.equal(validate(input).integralFloats, 1)
    }
    assert.throws(() => validate(new Uint8Array(backing, 1, 3)), (/** @type {any} */ e) => e.rule === 'truncated' && e.offset === 2)
    for (const input of [[1, 2], '8101', null, undefined, 1]) {
      const expected = outcome(() => decode(/** @type {any} */ (input))).error
      assert.ok(expected instanceof TypeError)
      assert.throws(() => validate(/** @type {any} */ (input)), (/** @type {any} */ e) => e instanceof TypeError && e.message === expected.message)
    }
  })

  it('links are null unless asked for, and listed in input order', () => {
    const block = encode({ a: [decode(fromHex(cid('1220' + DIGEST)))], b: decode(fromHex(cid('01551220' + DIGEST))) })
    assert.equal(validate(block).links, null)
    const links = /** @type {number[]} */ (validate(block, { links: true }).links)
    assert.equal(links.length, 4)
    assert.equal(toHex(block.subarray(links[0], links[1])), '1220' + DIGEST)
    assert.equal(toHex(block.subarray(links[2], links[3])), '01551220' + DIGEST)
  })

  it('maxDepth: the limit decode has, with the same default', () => {
    assert.equal(validate(fromHex(nested(1000))).integralFloats, 0)
    assert.equal(validate(fromHex(nested(5)), { maxDepth: 5 }).integralFloats, 0)
    assert.throws(() => validate(fromHex(nested(6)), { maxDepth: 5 }), (/** @type {any} */ e) => e.rule === 'depth' && e.offset === 5)
    assert.throws(() => validate(fromHex('a0'), { maxDepth: 0 }), (/** @type {any} */ e) => e.rule === 'depth' && e.offset === 0)
    assert.equal(validate(fromHex('00'), { maxDepth: 0 }).integralFloats, 0)
  })

  it('nesting past the JavaScript stack (maxDepth: Infinity) is rule depth, not a RangeError', () => {
    const input = new Uint8Array(1_000_001).fill(0x81)
    input[1_000_000] = 0
    assert.throws(() => validate(input, { maxDepth: Infinity }), (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === 'depth' && e.message.includes('nesting too deep for the JavaScript stack'))
    assert.equal(validate(fromHex('00')).integralFloats, 0, 'usable again after the overflow')
  })

  it('an options getter that validates another block does not disturb this one', () => {
    const options = { get maxDepth () { validate(fromHex('fb3ff0000000000000'), { links: true }); return 10 } }
    const result = validate(fromHex('82' + 'fb4000000000000000' + '81fb4008000000000000'), options)
    assert.equal(result.integralFloats, 2)
    assert.deepEqual(result.integralFloatPaths, ['/0', '/1/0'])
  })

  it('a rejection leaves no state behind for the next call', () => {
    assert.throws(() => validate(fromHex('82fb3ff0000000000000' + 'ff')), (/** @type {any} */ e) => e.rule === 'indefinite-length')
    assert.throws(() => validate(fromHex('81'.repeat(50) + 'f7')), (/** @type {any} */ e) => e.rule === 'undefined')
    const result = validate(fromHex('8100'), { links: true })
    assert.deepEqual(result, { integralFloats: 0, integralFloatPaths: [], links: [] })
  })

  it(`INTEGRAL_FLOAT_PATHS is ${INTEGRAL_FLOAT_PATHS}: paths are kept for that many, all are counted`, () => {
    const n = INTEGRAL_FLOAT_PATHS + 3
    assert.equal(validate(encode(Array.from({ length: n }, (_, i) => i + 0.5))).integralFloats, 0)
    const block = concat(head(4, n), ...Array.from({ length: n }, () => fromHex('fb3ff0000000000000')))
    const all = validate(block)
    assert.equal(all.integralFloats, n)
    assert.deepEqual(all.integralFloatPaths, Array.from({ length: INTEGRAL_FLOAT_PATHS }, (_, i) => `/${i}`))
  })
})

describe('validate: UTF-8 in text of 2-4 bytes and of 38-40 (decode: shortAscii, TextDecoder, invalidUtf8At)', () => {
  // every lead byte 0x80-0xff before interesting second and third bytes, cut short or not, in text
  // of 2-4 bytes and of 38-40 (ASCII before and after), and in a map key: the same rule and offset as decode
  const seconds = [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0]
  const tails = [[], [0x80], [0xc0], [0x80, 0x80], [0x80, 0xc0], [0xc0, 0x80]]
  it('every lead byte, at both text lengths, as a value and as a key', function () {
    this.timeout(20_000)
    const found = []
    let rejected = 0
    for (let lead = 0x80; lead <= 0xff; lead++) {
      for (const second of seconds) {
        for (const tail of tails) {
          const sequence = [lead, second, ...tail]
          const padded = [...new Array(18).fill(0x61), ...sequence, ...new Array(18).fill(0x62)]
          for (const bytes of [concat(head(3, sequence.length), sequence), concat(head(3, padded.length), padded), concat([0xa1], head(3, sequence.length), sequence, [0x00])]) {
            const d = outcome(() => decode(bytes)).error
            const v = outcome(() => validate(bytes)).error
            if (v) rejected++
            if ((d === undefined) !== (v === undefined) || (d && (d.rule !== v.rule || d.offset !== v.offset || d.path !== v.path))) {
              if (found.length < 5) found.push(`${toHex(bytes)}: decode ${d?.message}, validate ${v?.message}`)
            }
          }
        }
      }
    }
    assert.deepEqual(found, [])
    assert.ok(rejected > 5000, `${rejected} rejected`)
  })
})

// gc() at run time, as test/limits.spec.js does
v8.setFlagsFromString('--expose-gc')
const gc = /** @type {() => void} */ (vm.runInNewContext('gc'))

describe('validate keeps no reference to its input once it returns or throws', () => {
  for (const [label, hex] of [['a valid block', 'a2616101616282f6f5'], ['an invalid block', 'a2616101616282f6ff']]) {
    it(label, async () => {
      const ref = (() => {
        const input = fromHex(hex)
        try { validate(input) } catch {}
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

// --- the differential ------------------------------------------------------------------------

/**
 * The integral floats and links of `bytes` by test/fuzz/cbor.js's walk, which knows nothing of
 * validate: each float64 item whose value is a safe integer other than -0, and each tag 42's byte string content.
 *
 * @param {Uint8Array} bytes - accepted by strict decode
 * @returns {{ floats: number[], links: number[] }} offsets of the floats; links as [start, end) pairs
 */
function reference (bytes) {
  const items = walk(bytes, Infinity)
  if (items === null) throw new Error(`walk could not read accepted bytes ${toHex(bytes.subarray(0, 64))}`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const floats = []
  const links = []
  for (const item of items) {
    if (item.major === 7 && item.ai === 27) {
      const value = view.getFloat64(item.start + 1)
      if (Number.isSafeInteger(value) && !Object.is(value, -0)) floats.push(item.start)
    } else if (item.major === 6) {
      const content = items[item.children[0]]
      links.push(content.start + content.hdrLen + 1, content.end)
    }
  }
  return { floats, links }
}

/**
 * The value at a path ('' for the root) in a decoded value.
 *
 * @param {any} value
 * @param {string} path
 * @returns {any}
 */
function at (value, path) {
  if (path === '') return value
  for (const segment of path.slice(1).split('/')) value = value[segment.replace(/~1/g, '/').replace(/~0/g, '~')]
  return value
}

/**
 * Where validate and strict decode disagree on `bytes`, or null.
 *
 * @param {Uint8Array} bytes
 * @returns {string|null}
 */
function disagreement (bytes) {
  const d = outcome(() => decode(bytes))
  const v = outcome(() => validate(bytes, { links: true }))
  if (d.error !== undefined || v.error !== undefined) {
    const [de, ve] = [d.error, v.error]
    if (!(de instanceof DagCborDecodeError) || !(ve instanceof DagCborDecodeError)) return `decode ${de}, validate ${ve}`
    if (de.rule !== ve.rule || de.offset !== ve.offset || de.path !== ve.path || de.message !== ve.message) return `decode ${de.message}; validate ${ve.message}`
    return null
  }
  const { floats, links } = reference(bytes)
  const result = v.value
  // what validate accepts re-encodes to itself through decode and encode, unless it holds integral floats
  const same = toHex(encode(d.value)) === toHex(bytes)
  if (same !== (result.integralFloats === 0)) return `re-encoded ${same ? 'the same' : 'differently'} with ${result.integralFloats} integral floats`
  if (result.integralFloats !== floats.length) return `integralFloats ${result.integralFloats}, the walk found ${floats.length}`
  if (result.integralFloatPaths.length !== Math.min(floats.length, INTEGRAL_FLOAT_PATHS)) return `${result.integralFloatPaths.length} paths for ${floats.length} floats`
  for (const path of result.integralFloatPaths) {
    const value = at(d.value, path)
    if (!Number.isSafeInteger(value)) return `path ${path} leads to ${value} in the decoded value, not an integer`
  }
  if (result.links.length !== links.length || result.links.some((/** @type {number} */ x, /** @type {number} */ i) => x !== links[i])) {
    return `links ${result.links}, the walk found ${links}`
  }
  return null
}

describe('validate agrees with strict decode (differential)', function () {
  this.timeout(60_000)

  /**
   * @param {Iterable<{ name: string, bytes: Uint8Array }>} inputs
   * @returns {{ accepted: number, rejected: Record<string, number>, floats: number, links: number }}
   */
  function check (inputs) {
    const found = []
    const tally = { accepted: 0, rejected: /** @type {Record<string, number>} */ ({}), floats: 0, links: 0 }
    for (const { name, bytes } of inputs) {
      const why = disagreement(bytes)
      if (why !== null && found.length < 5) found.push(`${name} (${toHex(bytes.subarray(0, 48))}…): ${why}`)
      try {
        const result = validate(bytes, { links: true })
        tally.accepted++
        if (result.integralFloats > 0) tally.floats++
        if (/** @type {number[]} */ (result.links).length > 0) tally.links++
      } catch (e) {
        const rule = /** @type {any} */ (e).rule
        tally.rejected[rule] = (tally.rejected[rule] ?? 0) + 1
      }
    }
    assert.deepEqual(found, [])
    return tally
  }

  it('the codec fixtures and the negative fixtures', () => {
    const negative = loadNegativeFixtures()
    const tally = check([
      ...loadFixtures().map((f) => ({ name: f.name, bytes: f.cbor })),
      ...negative.map((f) => ({ name: `${f.file}: ${f.name}`, bytes: fromHex(f.hex) }))
    ])
    assert.ok(tally.accepted >= 100, `accepted ${tally.accepted}`)
    // every negative fixture is rejected (the fixtures that are not canonical are among the positive ones)
    assert.equal(Object.values(tally.rejected).reduce((a, b) => a + b, 0) >= negative.length, true, JSON.stringify(tally.rejected))
  })

  it('every DAG-CBOR block of the real CARs', async () => {
    const seeds = (await loadCorpus()).filter((s) => !s.name.startsWith('fixture:'))
    assert.ok(seeds.length > 2000, `${seeds.length} blocks`)
    const tally = check(seeds)
    // the Filecoin CARs hold links in most blocks, and some blocks strict decode rejects
    assert.ok(tally.links > 1000, `blocks with links ${tally.links}`)
    assert.ok(Object.keys(tally.rejected).length > 0, `rejected ${JSON.stringify(tally.rejected)}`)
  })

  it('20,000 seeded random, random-CBOR, mutated and encoded inputs', async () => {
    const corpus = await loadCorpus()
    const items = corpus.map((s) => walk(s.bytes))
    const inputs = function * () {
      for (let i = 0; i < 20_000; i++) {
        const r = new Rng(0x7a1d, i)
        const kind = i % 4
        if (kind === 0) yield { name: `random-bytes ${i}`, bytes: randomBytes(r) }
        else if (kind === 1) yield { name: `random-cbor ${i}`, bytes: randomCbor(r) }
        else if (kind === 2) {
          const s = r.int(corpus.length)
          const o = r.int(corpus.length)
          yield { name: `mutation ${i} of ${corpus[s].name}`, bytes: mutate(r, { bytes: corpus[s].bytes, items: items[s] }, { bytes: corpus[o].bytes, items: items[o] }).bytes }
        } else {
          // garbage values, encoded (canonical), then sometimes one byte flipped
          const bytes = encode(seededGarbage(r, 1 + r.size(100)))
          if (r.chance(0.5)) bytes[r.int(bytes.length)] ^= 1 << r.int(8)
          yield { name: `garbage ${i}`, bytes }
        }
      }
    }
    const tally = check(inputs())
    assert.ok(tally.accepted >= 5000, `accepted ${tally.accepted}`)
    assert.ok(tally.floats >= 10, `inputs with integral floats ${tally.floats}`)
    for (const rule of ['truncated', 'trailing-bytes', 'malformed', 'indefinite-length', 'non-shortest', 'tag', 'cid', 'simple-value', 'undefined',
      'float-size', 'non-finite-float', 'map-key-type', 'map-key-order', 'duplicate-key', 'invalid-utf8']) {
      assert.ok((tally.rejected[rule] ?? 0) > 0, `no input rejected for ${rule}: ${JSON.stringify(tally.rejected)}`)
    }
  })
})
