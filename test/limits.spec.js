// Resource limits on hostile input: huge length claims fail fast without allocating, decode time stays
// linear in the input size, and deep nesting ends in a clean error instead of a stack overflow.
import assert from 'node:assert/strict'
import v8 from 'node:v8'
import vm from 'node:vm'
import { decode, decodeFirst, encode, encodedLength, encodeInto, DagCborDecodeError, DagCborEncodeError } from '../index.js'
import { head, concat, concatAll, fromHex, text } from './fuzz/cbor.js'

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
    it(`${label} (${hex.length / 2} bytes) is rejected as truncated, at once and without allocating`, () => {
      const bytes = fromHex(hex)
      for (const opts of [undefined, { relaxed: true }, { viewBytes: true }]) {
        const before = memNow()
        const t0 = performance.now()
        const e = throwsClean(() => decode(bytes, opts), e => e instanceof DagCborDecodeError)
        const ms = performance.now() - t0
        const grew = memNow() - before
        assert.equal(e.rule, 'truncated')
        assert.ok(e.offset >= 0 && e.offset < bytes.length, `offset ${e.offset}`)
        assert.ok(grew < 4 * 1024 * 1024, `heap+arrayBuffers grew by ${grew} bytes`)
        assert.ok(ms < 50, `took ${ms.toFixed(1)} ms`)
      }
      throwsClean(() => decodeFirst(bytes), e => e instanceof DagCborDecodeError && e.rule === 'truncated')
    })
  }
})

// Timing with a clean heap: V8's young-generation GC makes allocation-heavy decodes superlinear by
// itself (a plain JS loop building 100k small objects shows it too), so collect garbage before each
// timed call; exposing gc at run time keeps this file runnable with plain `mocha`.
v8.setFlagsFromString('--expose-gc')
const gc = /** @type {() => void} */ (vm.runInNewContext('gc'))

/**
 * CPU time of this process in ms (user + system). Unlike wall time it leaves out the time other
 * processes on a loaded machine take from us; V8's GC threads count, as they work for us.
 */
function cpuMs () {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/**
 * Per-call time of each function: the best of several batches after a full GC, each batch long
 * enough to time (20 ms), the functions' batches interleaved so that a busy spell of the machine
 * falls on all of them.
 * @param {Array<() => unknown>} fns
 * @returns {number[]} ms per call
 */
function timePerCall (...fns) {
  const reps = fns.map((fn) => {
    fn() // warm up
    let n = 1
    for (;;) {
      gc()
      const t0 = cpuMs()
      for (let i = 0; i < n; i++) fn()
      if (cpuMs() - t0 >= 20 || n >= 1 << 16) return n
      n *= 2
    }
  })
  const best = fns.map(() => Infinity)
  for (let round = 0; round < 7; round++) {
    fns.forEach((fn, f) => {
      gc()
      const t0 = cpuMs()
      for (let i = 0; i < reps[f]; i++) fn()
      best[f] = Math.min(best[f], (cpuMs() - t0) / reps[f])
    })
  }
  return best
}

/**
 * Inputs of about `size` bytes in shapes where a careless decoder goes quadratic.
 * @type {Record<string, (size: number) => Uint8Array>}
 */
const SHAPES = {
  // one map with many keys, in canonical order (equal-length keys, so bytewise order)
  'map of many keys': size => {
    const n = Math.floor(size / 10)
    const parts = [head(5, n)]
    for (let i = 0; i < n; i++) parts.push(text('k' + String(i).padStart(7, '0')), [0x01])
    return concatAll(parts)
  },
  // one long ASCII text string, one long multi-byte text string, one long byte string
  'long ASCII string': size => text('a'.repeat(size)),
  'long multi-byte string': size => text('é☺\u{1f600}'.repeat(Math.floor(size / 9))),
  // byte strings are copied out of the input; one 1 MiB copy lands on fresh pages from the OS (so its
  // time is not comparable with a 256 KiB one), hence 4 KiB pieces
  'byte strings of 4 KiB': size => {
    const piece = concat(head(2, 4096), new Uint8Array(4096).fill(7))
    const n = Math.floor(size / piece.length)
    return concatAll([head(4, n), ...Array(n).fill(piece)])
  },
}

/**
 * Shapes where every item is a separate small allocation (a string, or a CID with its own copy of the
 * CID bytes): at 1 MiB these are dominated by V8's GC cost per live object, so they run at 16/256 KiB.
 * @type {Record<string, (size: number) => Uint8Array>}
 */
const ITEM_SHAPES = {
  // an array of many 100-deep nested arrays (the whole input is nested arrays, within the depth limit):
  // one array per input byte, so 1 MiB makes a million live arrays. Measured: our decode 5-10 ms at
  // 256 KiB and 125-145 ms at 1 MiB, building the same arrays in plain JS 38 ms and 60-85 ms, and
  // @ipld/dag-cbor 100-127 ms and 280-325 ms: V8's GC, not the decoder. So it runs at 16/256 KiB.
  'nested arrays': size => {
    const one = concat(new Uint8Array(99).fill(0x81), [0x80])
    const n = Math.floor(size / one.length)
    return concatAll([head(4, n), ...Array(n).fill(one)])
  },
  'array of short strings': size => {
    const n = Math.floor(size / 6)
    return concatAll([head(4, n), ...Array.from({ length: n }, (_, i) => text(String(i % 100000).padStart(5, '0')))])
  },
  'array of CIDs': size => {
    const cid = fromHex('d82a58250001711220e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    const n = Math.floor(size / cid.length)
    return concatAll([head(4, n), ...Array(n).fill(cid)])
  }
}

/**
 * Linear time, by ratio: the large input is SCALE (16) times the small one, so a linear decoder takes
 * about 16x the time and a quadratic one 256x. A ratio under MAX_RATIO (64) passes: that is 4x above
 * linear, room for cache effects (a small input fits in cache, a large one does not) and a loaded
 * machine, and 4x below quadratic, so a step that is quadratic for even half of the small input's time
 * fails ((16 + 256) / 2 = 136). A shared 2-core VM still shows single ratios of 5-7x linear (one seen
 * at 115 for a linear decode), so a ratio over the limit is measured again, up to ATTEMPTS times in
 * all: a linear decoder passes on its first quiet try, a quadratic one fails every try.
 */
const SCALE = 16
const MAX_RATIO = 64
const ATTEMPTS = 5
/**
 * @param {string} label
 * @param {() => number[]} measure - [ms for the small input, ms for the large one]
 * @param {number} small - the small input's size
 * @param {number} large - the large input's size
 */
function assertLinear (label, measure, small, large) {
  const seen = []
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const [ts, tl] = measure()
    seen.push(`${tl.toFixed(3)} / ${ts.toFixed(3)} ms = ${(tl / ts).toFixed(1)}`)
    if (tl / ts < MAX_RATIO) return
  }
  assert.fail(`${label}: ${large} against ${small} (${(large / small).toFixed(1)}x), time ratios ${seen.join(', ')}: all over ${MAX_RATIO}`)
}

// Wall-clock tests do not run under StrykerJS (npm run test:mutation sets STRYKER_MUTATOR_WORKER in
// its test processes): a mutant's result must not depend on the machine's load, and these take
// seconds for each mutant they cover.
const describeTimed = process.env.STRYKER_MUTATOR_WORKER === undefined ? describe : describe.skip

describeTimed('limits: decode time is linear in input size', function () {
  this.timeout(120_000)
  /** @param {string} label @param {(size: number) => Uint8Array} make @param {number} n */
  const linear = (label, make, n) => {
    it(`${label}: ${SCALE * n >> 10} KiB takes less than ${MAX_RATIO}x the time of ${n >> 10} KiB`, () => {
      const small = make(n)
      const large = make(SCALE * n)
      const sizes = large.length / small.length
      assert.ok(sizes > 0.95 * SCALE && sizes < 1.1 * SCALE && large.length >= 0.99 * SCALE * n, `sizes ${small.length} ${large.length}`)
      assert.deepEqual(encode(decode(large)), large, 'the input is canonical DAG-CBOR')
      assertLinear(label, () => timePerCall(() => decode(small), () => decode(large)), small.length, large.length)
    })
  }
  // strings and byte strings decode at memory speed: at 64 KiB a call takes microseconds, so they
  // start at 256 KiB
  /** @type {Record<string, number>} */
  const small = { 'long ASCII string': 256 * 1024, 'byte strings of 4 KiB': 256 * 1024 }
  for (const [label, make] of Object.entries(SHAPES)) linear(label, make, small[label] ?? 64 * 1024)
  for (const [label, make] of Object.entries(ITEM_SHAPES)) linear(label, make, 16 * 1024)

  it('nested arrays: 1 MiB (a million arrays) decodes in less than 5x the time plain JS takes to build them', () => {
    const input = ITEM_SHAPES['nested arrays'](1024 * 1024)
    const items = Math.floor((1024 * 1024) / 100)
    const build = () => {
      const out = new Array(items)
      for (let i = 0; i < items; i++) {
        let a = [[]]
        for (let d = 0; d < 98; d++) a = [a]
        out[i] = a
      }
      return out
    }
    assert.deepEqual(decode(input), build())
    const [ours, plain] = timePerCall(() => decode(input), build)
    assert.ok(ours < 5 * plain, `decode ${ours.toFixed(1)} ms, plain JS ${plain.toFixed(1)} ms`)
  })

  it(`map of many keys: encode of ${SCALE}x the keys takes less than ${MAX_RATIO}x the time`, () => {
    const small = decode(SHAPES['map of many keys'](64 * 1024))
    const large = decode(SHAPES['map of many keys'](1024 * 1024))
    assertLinear('encode map of many keys', () => timePerCall(() => encode(small), () => encode(large)), Object.keys(small).length, Object.keys(large).length)
  })
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
        const e = throwsClean(() => decode(bytes, opts), e => !isStackOverflow(e))
        assert.ok(e instanceof DagCborDecodeError, `${e.name}: ${e.message}`)
        assert.equal(e.rule, 'depth')
      })
    }
    it(`${label}: decodeFirst likewise`, () => {
      const e = throwsClean(() => decodeFirst(bytes), e => !isStackOverflow(e))
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
          const d = throwsClean(() => decode(bytes, opts), e => e instanceof DagCborDecodeError)
          assert.equal(d.rule, 'depth', d.message)
          assert.equal(d.offset, limit * open.length, 'offset of the first container too deep')
          const e = throwsClean(() => encode(value, opts), e => e instanceof DagCborEncodeError)
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
        const e = throwsClean(() => call(value), e => !isStackOverflow(e))
        assert.ok(e instanceof DagCborEncodeError, `${e.name}: ${e.message}`)
        assert.equal(e.rule, 'depth')
      })
    }
  }

  it('after a depth error, the next encode and decode work normally', () => {
    throwsClean(() => encode(deepValue(100_000, false)), e => e instanceof DagCborEncodeError)
    assert.deepEqual(encode({ a: [1] }), fromHex('a1616181' + '01'))
    throwsClean(() => decode(nested(1_000_000, [0x81], [0x00]), { maxDepth: Infinity }), e => e instanceof DagCborDecodeError)
    assert.deepEqual(decode(fromHex('a161618101')), { a: [1] })
  })
})
