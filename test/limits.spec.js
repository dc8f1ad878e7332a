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
 * Per-call time of fn: the best of several batches after a full GC, each batch long enough to time.
 * @param {() => unknown} fn
 */
function timePerCall (fn) {
  fn() // warm up
  let reps = 1
  for (;;) {
    gc()
    const t0 = performance.now()
    for (let i = 0; i < reps; i++) fn()
    const ms = performance.now() - t0
    if (ms >= 10 || reps >= 1 << 16) break
    reps *= 2
  }
  let best = Infinity
  for (let round = 0; round < 5; round++) {
    gc()
    const t0 = performance.now()
    for (let i = 0; i < reps; i++) fn()
    best = Math.min(best, (performance.now() - t0) / reps)
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
 * CID bytes): at 1 MiB these are dominated by V8's GC cost per live object, so they run at 64/256 KiB.
 * @type {Record<string, (size: number) => Uint8Array>}
 */
const ITEM_SHAPES = {
  // an array of many 100-deep nested arrays (the whole input is nested arrays, within the depth limit):
  // one array per input byte, so 1 MiB makes a million live arrays. Measured: our decode 5-10 ms at
  // 256 KiB and 125-145 ms at 1 MiB, building the same arrays in plain JS 38 ms and 60-85 ms, and
  // @ipld/dag-cbor 100-127 ms and 280-325 ms: V8's GC, not the decoder. So it runs at 64/256 KiB.
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
 * The time ratio for 4x the input must stay under 12 (linear is 4, quadratic 16). Below FLOOR_MS the large
 * input is too fast to time by ratio (256 KiB fits in cache, 1 MiB does not; sub-millisecond timings move
 * with the machine's load), and far below what any quadratic step costs at 1 MiB, so that passes as well.
 */
const FLOOR_MS = 25
function assertLinear (label, ts, small, tl, large) {
  const ratio = tl / ts
  assert.ok(ratio < 12 || tl < FLOOR_MS, `${label}: ${ts.toFixed(3)} ms for ${small} B, ${tl.toFixed(3)} ms for ${large} B, ratio ${ratio.toFixed(1)}`)
}

// Wall-clock tests do not run under StrykerJS (npm run test:mutation sets STRYKER_MUTATOR_WORKER in
// its test processes): a mutant's result must not depend on the machine's load, and these take
// seconds for each mutant they cover.
const describeTimed = process.env.STRYKER_MUTATOR_WORKER === undefined ? describe : describe.skip

describeTimed('limits: decode time is linear in input size', function () {
  this.timeout(120_000)
  /** @param {string} label @param {(size: number) => Uint8Array} make @param {number} n */
  const linear = (label, make, n) => {
    it(`${label}: ${4 * n >> 10} KiB takes less than 12x the time of ${n >> 10} KiB (or under ${FLOOR_MS} ms)`, () => {
      const small = make(n)
      const large = make(4 * n)
      assert.ok(large.length > 3.9 * small.length && large.length >= 0.99 * 4 * n, `sizes ${small.length} ${large.length}`)
      assert.deepEqual(encode(decode(large)), large, 'the input is canonical DAG-CBOR')
      const ts = timePerCall(() => decode(small))
      const tl = timePerCall(() => decode(large))
      assertLinear(label, ts, small.length, tl, large.length)
    })
  }
  for (const [label, make] of Object.entries(SHAPES)) linear(label, make, 256 * 1024)
  for (const [label, make] of Object.entries(ITEM_SHAPES)) linear(label, make, 64 * 1024)

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
    const ours = timePerCall(() => decode(input))
    const plain = timePerCall(build)
    assert.ok(ours < 5 * plain, `decode ${ours.toFixed(1)} ms, plain JS ${plain.toFixed(1)} ms`)
  })

  it('map of many keys: encode of 4x the keys takes less than 12x the time', () => {
    const small = decode(SHAPES['map of many keys'](256 * 1024))
    const large = decode(SHAPES['map of many keys'](1024 * 1024))
    const ts = timePerCall(() => encode(small))
    const tl = timePerCall(() => encode(large))
    assertLinear('encode map of many keys', ts, Object.keys(small).length, tl, Object.keys(large).length)
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

  it('nesting right at the default limit decodes correctly; one more level is rejected', () => {
    // find the limit from behaviour: the deepest array nesting that decodes
    let ok = 0
    for (const d of [10, 100, 999, 1000, 1001, 1002]) {
      try { decode(nested(d, [0x81], [0x00])); ok = d } catch (e) { assert.ok(e instanceof DagCborDecodeError && e.rule === 'depth', e.message) }
    }
    assert.ok(ok >= 999 && ok < 1002, `deepest decodable nesting ${ok}`)
    const bytes = nested(ok, [0x81], [0x00])
    let v = decode(bytes)
    for (let i = 0; i < ok; i++) { assert.ok(Array.isArray(v) && v.length === 1); v = v[0] }
    assert.equal(v, 0)
    assert.deepEqual(encode(decode(bytes)), bytes, 'encode accepts what decode produced at the limit')
  })

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
