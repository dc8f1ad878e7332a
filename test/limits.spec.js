// Resource limits on hostile input: huge length claims fail without allocating, decode work stays
// linear in the input size, and deep nesting ends in a clean error instead of a stack overflow.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { decode, decodeFirst, encode, encodedLength, encodeInto, DagCborDecodeError, DagCborEncodeError } from '../index.js'
import { head, concat, concatAll, fromHex, text } from './fuzz/cbor.js'
import { SHAPES } from './helpers/hostile-shapes.js'
import { validate } from '../lib/validate.js'

const memNow = () => { const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers }

/**
 * @param {() => unknown} fn
 * @param {(e: any) => boolean} check
 */
function throwsClean (fn, check) {
  let thrown
  try { fn() } catch (e) { thrown = e }
  assert.ok(thrown, 'expected a throw')
  assert.ok(check(thrown), `unexpected error: ${thrown?.name}: ${thrown?.message}`)
  return thrown
}

describe('limits: length claims larger than the input', () => {
  const cases = {
    'byte string of 4 GiB - 1 (32-bit length)': '5affffffff0102',
    'byte string of 4 GiB (64-bit length)': '5b00000001000000000102',
    'byte string of 2^64 - 1 bytes': '5bffffffffffffffff00',
    'text string of 4 GiB - 1': '7affffffff6161',
    'text string of 2^53 bytes': '7b00200000000000006161',
    'array of 2^32 - 1 items': '9affffffff00',
    'array of 2^32 items': '9b000000010000000000',
    'array of 2^64 - 1 items': '9bffffffffffffffff00',
    'map of 2^32 - 1 entries': 'baffffffff616100',
    'map of 2^32 entries': 'bb00000001000000006161',
    'array of 2^32 - 1 arrays of 2^32 - 1': '9affffffff9affffffff00',
    'CID tag around a 4 GiB byte string': 'd82a5affffffff00'
  }
  for (const [label, hex] of Object.entries(cases)) {
    it(`${label} (${hex.length / 2} bytes) is rejected as truncated without allocating`, () => {
      const bytes = fromHex(hex)
      for (const opts of [undefined, { relaxed: true }, { viewBytes: true }]) {
        const before = memNow()
        const e = throwsClean(() => decode(bytes, opts), (e) => e instanceof DagCborDecodeError)
        const grew = memNow() - before
        assert.equal(e.rule, 'truncated')
        assert.ok(e.offset >= 0 && e.offset < bytes.length, `offset ${e.offset}`)
        assert.ok(grew < 4 * 1024 * 1024, `heap+arrayBuffers grew by ${grew} bytes`)
      }
      throwsClean(() => decodeFirst(bytes), (e) => e instanceof DagCborDecodeError && e.rule === 'truncated')
    })
  }
})

/**
 * Linear work, counted rather than timed: test/helpers/work-count.js decodes each hostile shape at a
 * small size and at SCALE (16) times it in a child process, and counts the work done (each run of a
 * block of lib/ code, from V8's precise coverage, plus the elements handed to builtins that loop
 * inside the engine). The counts are exact, so the bound is tight: work per input byte may grow by
 * at most MAX_GROWTH from the small input to the large one. A linear decoder stays near 1; one that
 * is quadratic for even a tenth of its work grows by about 2.5 (a decoder made quadratic with an
 * `indexOf` over the array read so far grows by over 100). Times live in bench/linear.js.
 */
const MAX_GROWTH = 1.5

describe('limits: decode and encode work is linear in input size', function () {
  this.timeout(120_000)
  /** @type {Record<string, { small: number, large: number, smallBytes: number, largeBytes: number }>} */
  let counts
  before(() => {
    const script = fileURLToPath(new URL('./helpers/work-count.js', import.meta.url))
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 100_000 })
    assert.equal(r.error, undefined, 'the work counter did not finish within 100 s')
    assert.equal(r.status, 0, r.stderr)
    counts = JSON.parse(r.stdout)
  })
  for (const label of [...Object.keys(SHAPES).map((s) => `decode ${s}`), 'encode map of many keys']) {
    it(`${label}: 16x the input takes at most ${MAX_GROWTH}x the work per byte`, () => {
      const c = counts[label]
      assert.ok(c, `no count for ${label}`)
      assert.ok(c.small > c.smallBytes / 16, `too little work counted (${c.small} for ${c.smallBytes} bytes): the counter missed the code`)
      const growth = (c.large / c.largeBytes) / (c.small / c.smallBytes)
      assert.ok(growth <= MAX_GROWTH, `work ${c.small} for ${c.smallBytes} and ${c.large} for ${c.largeBytes}: ${growth.toFixed(2)}x the work per byte`)
    })
  }
})

describe('limits: deep nesting', function () {
  this.timeout(30_000)
  const isStackOverflow = (/** @type {any} */ e) => e instanceof RangeError || /call stack/i.test(String(e?.message))

  /** @param {number} depth @param {number[]} open @param {number[]} close */
  const nested = (depth, open, close) => {
    const out = new Uint8Array(depth * open.length + close.length)
    for (let i = 0; i < depth; i++) out.set(open, i * open.length)
    out.set(close, depth * open.length)
    return out
  }

  const inputs = {
    '1,000,000 nested arrays (0x81 ... 0x00)': nested(1_000_000, [0x81], [0x00]),
    '1,000,000 nested maps {"a": ...}': nested(1_000_000, [0xa1, 0x61, 0x61], [0x00]),
    '1,000,000 nested arrays, truncated': nested(1_000_000, [0x81], [])
  }
  for (const [label, bytes] of Object.entries(inputs)) {
    for (const opts of [undefined, { relaxed: true }, { maxDepth: 10_000_000 }, { maxDepth: Infinity }]) {
      it(`${label}, options ${JSON.stringify(opts) ?? 'none'}: a clean DagCborDecodeError, never a stack overflow`, () => {
        const e = throwsClean(() => decode(bytes, opts), (e) => !isStackOverflow(e))
        assert.ok(e instanceof DagCborDecodeError, `${e.name}: ${e.message}`)
        assert.equal(e.rule, 'depth')
      })
    }
    it(`${label}: decodeFirst likewise`, () => {
      const e = throwsClean(() => decodeFirst(bytes), (e) => !isStackOverflow(e))
      assert.ok(e instanceof DagCborDecodeError && e.rule === 'depth', e.message)
    })
  }

  // The limit is exact: 1000 nested containers (the default maxDepth) decode and encode, 1001 are
  // rejected with rule 'depth', at the byte of the 1001st container's head. Each row gives the bytes
  // of one level, the bytes closing the innermost, and the value one level wraps.
  const LEVELS = [
    { label: 'arrays', open: [0x81], close: [0x00], wrap: (/** @type {any} */ v) => [v], inner: 0 },
    { label: 'maps {"a": ...}', open: [0xa1, 0x61, 0x61], close: [0x00], wrap: (/** @type {any} */ v) => ({ a: v }), inner: 0 },
    { label: 'arrays around an empty map', open: [0x81], close: [0xa0], wrap: (/** @type {any} */ v) => [v], inner: {} },
    { label: 'maps around an empty array', open: [0xa1, 0x61, 0x61], close: [0x80], wrap: (/** @type {any} */ v) => ({ a: v }), inner: [] }
  ]
  for (const { label, open, close, wrap, inner } of LEVELS) {
    /** the value of `levels` containers, counting the innermost of `close` when it is one @param {number} levels */
    const valueOf = (levels) => {
      let v = /** @type {any} */ (inner)
      const wrappers = typeof inner === 'object' ? levels - 1 : levels
      for (let i = 0; i < wrappers; i++) v = wrap(v)
      return v
    }
    /** @param {number} levels */
    const bytesOf = (levels) => nested(typeof inner === 'object' ? levels - 1 : levels, open, close)
    for (const [levels, maxDepth] of [[1000, undefined], [1001, undefined], [999, undefined], [5, 5], [6, 5], [1, 1], [2, 1], [1201, 1200], [1200, 1200]]) {
      const limit = maxDepth ?? 1000
      const fits = levels <= limit
      const opts = maxDepth === undefined ? undefined : { maxDepth }
      it(`${levels} nested ${label}, maxDepth ${maxDepth ?? '1000 (default)'}: ${fits ? 'decoded and encoded' : "rejected (rule 'depth') by both"}`, () => {
        const bytes = bytesOf(levels)
        const value = valueOf(levels)
        if (fits) {
          assert.deepEqual(decode(bytes, opts), value)
          assert.deepEqual(encode(value, opts), bytes)
          assert.equal(encodedLength(value, opts), bytes.length)
        } else {
          const d = throwsClean(() => decode(bytes, opts), (e) => e instanceof DagCborDecodeError)
          assert.equal(d.rule, 'depth', d.message)
          assert.equal(d.offset, limit * open.length, 'offset of the first container too deep')
          const e = throwsClean(() => encode(value, opts), (e) => e instanceof DagCborEncodeError)
          assert.equal(e.rule, 'depth', e.message)
        }
      })
    }
  }

  // Depth counts ancestors, not containers seen: a container's level is given back when it ends.
  // Each row is a block holding more sibling containers than maxDepth allows nested ones.
  /** @param {number} n @param {number[]} item */
  const arrayOf = (n, item) => concatAll([head(4, n), ...Array(n).fill(item)])
  const SIBLINGS = [
    { label: '2000 empty maps in an array', bytes: () => arrayOf(2000, [0xa0]), value: () => Array.from({ length: 2000 }, () => ({})) },
    { label: '1001 maps {"a": 1} in an array', bytes: () => arrayOf(1001, [0xa1, 0x61, 0x61, 0x01]), value: () => Array.from({ length: 1001 }, () => ({ a: 1 })) },
    { label: '2000 empty arrays in an array', bytes: () => arrayOf(2000, [0x80]), value: () => Array.from({ length: 2000 }, () => []) },
    { label: '1001 arrays [{}] in an array', bytes: () => arrayOf(1001, [0x81, 0xa0]), value: () => Array.from({ length: 1001 }, () => [{}]) },
    {
      label: 'a map of 1500 keys, each holding an empty map',
      bytes: () => concatAll([head(5, 1500), ...Array.from({ length: 1500 }, (_, i) => concat(text('k' + String(i).padStart(4, '0')), [0xa0]))]),
      value: () => Object.fromEntries(Array.from({ length: 1500 }, (_, i) => ['k' + String(i).padStart(4, '0'), {}]))
    },
    {
      // siblings at the deepest level allowed: 998 arrays, then one holding 1001 maps (level 1000)
      label: '1001 sibling maps at depth 1000',
      bytes: () => concat(new Uint8Array(998).fill(0x81), arrayOf(1001, [0xa0])),
      value: () => { let v = /** @type {any} */ (Array.from({ length: 1001 }, () => ({}))); for (let i = 0; i < 998; i++) v = [v]; return v }
    }
  ]
  for (const { label, bytes, value } of SIBLINGS) {
    it(`${label}: decoded and encoded (depth is given back after each container)`, () => {
      const b = bytes()
      const v = value()
      assert.deepEqual(decode(b), v)
      assert.deepEqual(decodeFirst(b)[0], v)
      assert.deepEqual(encode(v), b)
      // twice in a row: nothing is left counted from the first call
      assert.deepEqual(decode(b), v)
      assert.deepEqual(encode(v), b)
    })
  }

  /** @param {number} depth @param {boolean} objects */
  const deepValue = (depth, objects) => {
    let v = /** @type {any} */ (1)
    for (let i = 0; i < depth; i++) v = objects ? { x: v } : [v]
    return v
  }
  for (const [label, value] of [['100,000 nested arrays', deepValue(100_000, false)], ['100,000 nested objects', deepValue(100_000, true)],
    ['1,000,000 nested arrays', deepValue(1_000_000, false)]]) {
    for (const [fn, call] of [['encode', (/** @type {any} */ v) => encode(v)], ['encode maxDepth 1e9', (/** @type {any} */ v) => encode(v, { maxDepth: 1e9 })],
      ['encodedLength', (/** @type {any} */ v) => encodedLength(v)], ['encodeInto', (/** @type {any} */ v) => encodeInto(v, new Uint8Array(1 << 20))]]) {
      it(`${fn} of ${label}: a clean DagCborEncodeError (rule depth), never a stack overflow`, () => {
        const e = throwsClean(() => call(value), (e) => !isStackOverflow(e))
        assert.ok(e instanceof DagCborEncodeError, `${e.name}: ${e.message}`)
        assert.equal(e.rule, 'depth')
      })
    }
  }

  it('after a depth error, the next encode and decode work normally', () => {
    throwsClean(() => encode(deepValue(100_000, false)), (e) => e instanceof DagCborEncodeError)
    assert.deepEqual(encode({ a: [1] }), fromHex('a1616181' + '01'))
    throwsClean(() => decode(nested(1_000_000, [0x81], [0x00]), { maxDepth: Infinity }), (e) => e instanceof DagCborDecodeError)
    assert.deepEqual(decode(fromHex('a161618101')), { a: [1] })
  })
})

describe('limits: a maxDepth that is not a number never turns the limit off', () => {
  // NaN (or a word, which converts to NaN) compared false with every depth: the limit was off. The
  // check is now written to fail on it: the first container is over the limit, rule depth.
  const nestedBytes = fromHex('8181818100')
  const nestedValue = [[[[0]]]]
  const calls = /** @type {[string, (options: any) => unknown][]} */ ([
    ['decode', (options) => decode(nestedBytes, options)],
    ['decodeFirst', (options) => decodeFirst(nestedBytes, options)],
    ['validate', (options) => validate(nestedBytes, options)],
    ['encode', (options) => encode(nestedValue, options)],
    ['encodedLength', (options) => encodedLength(nestedValue, options)],
    ['encodeInto', (options) => encodeInto(nestedValue, new Uint8Array(64), options)]
  ])
  for (const [name, call] of calls) {
    it(`${name}: maxDepth NaN, 'x' or {} is an error of rule depth at the first container, naming maxDepth`, () => {
      for (const bad of [NaN, 'x', {}]) {
        assert.throws(() => call({ maxDepth: bad }), (/** @type {any} */ e) => e.rule === 'depth' && /maxDepth \(NaN levels\)|maxDepth \(x levels\)|maxDepth \(\[object Object\] levels\)/.test(e.message) && (e.path === '' || e.path === '/'), String(bad))
      }
    })
    it(`${name}: a number still limits where it did`, () => {
      assert.throws(() => call({ maxDepth: 3 }), (/** @type {any} */ e) => e.rule === 'depth')
      assert.doesNotThrow(() => call({ maxDepth: 4 }))
      assert.doesNotThrow(() => call({ maxDepth: Infinity }))
    })
  }
  it('a scalar needs no depth: NaN does not refuse it', () => {
    assert.equal(decode(fromHex('01'), { maxDepth: NaN }), 1)
  })
})
