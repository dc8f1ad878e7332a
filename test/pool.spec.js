// lib/pool.js: `encode(value, { pool: true })` writes the same bytes as `encode(value)`; a result
// of MIN_POOLED..MAX_POOLED bytes is a view of a slab shared with other results, any other result
// owns exactly its bytes; a result is never overwritten or overlapped by a later one (kept
// results, nested encodes, encodes that throw, a slab's buffer transferred away); and the option
// changes nothing for encodedLength, encodeInto and the default encode.
import assert from 'node:assert/strict'
import { garbage } from 'ipld-garbage'
import { encode, encodedLength, encodeInto, decode, DagCborEncodeError } from '../index.js'
import { MAX_POOLED, MIN_POOLED, SLAB_SIZE } from '../lib/pool.js'
import { loadFixtures } from './helpers/fixtures.js'
import { ownsExactly } from './helpers/ownership.js'
import { mulberry32, withMathRandom } from './helpers/prng.js'
import { head } from './fuzz/cbor.js'

const POOL = { pool: true }

/**
 * A byte string whose encoding is `length` bytes (length >= 1), or, for the few lengths no byte
 * string encodes to (25, 258, ...), one byte less; its bytes from `seed`.
 *
 * @param {number} length
 * @param {number} seed
 * @returns {{ value: Uint8Array, bytes: Uint8Array }}
 */
function ofLength (length, seed) {
  let n = length - 1
  while (n > 0 && head(2, n).length + n > length) n--
  const value = new Uint8Array(n).map((_, i) => (i * 13 + seed * 7 + 1) & 0xff)
  const bytes = Uint8Array.from([...head(2, n), ...value])
  assert.ok(bytes.length >= length - 1, `test setup: ${bytes.length} bytes for ${length}`)
  return { value, bytes }
}

/**
 * @param {Uint8Array} bytes
 * @returns {boolean}
 */
const isPooled = (bytes) => !ownsExactly(bytes) && bytes.buffer.byteLength === SLAB_SIZE

describe('pool: the same bytes as without it', () => {
  it('every codec-fixture re-encodes to its bytes, pooled', () => {
    const fixtures = loadFixtures()
    assert.equal(fixtures.length, 128)
    for (const { name, cbor } of fixtures) {
      const pooled = encode(decode(cbor), POOL)
      assert.deepEqual(new Uint8Array(pooled), cbor, name)
    }
  })

  const profiles = [
    { label: '1000 ipld-garbage values of about 300 bytes', seed: 0x7001, count: 1000, size: 300 },
    { label: '1000 ipld-garbage values of about 40 bytes', seed: 0x7002, count: 1000, size: 40 },
    { label: '100 ipld-garbage values of about 5 KB (some over MAX_POOLED)', seed: 0x7003, count: 100, size: 5000 }
  ]
  for (const { label, seed, count, size } of profiles) {
    it(`${label}: pooled bytes equal default bytes`, () => {
      const values = withMathRandom(mulberry32(seed), () => Array.from({ length: count }, () => garbage(size)))
      let pooled = 0
      for (let i = 0; i < values.length; i++) {
        const expected = encode(values[i])
        const got = encode(values[i], POOL)
        assert.deepEqual(new Uint8Array(got), expected, `value ${i}`)
        if (isPooled(got)) pooled++
      }
      if (MAX_POOLED > 0) assert.ok(pooled > 0, 'test setup: no result was pooled')
    })
  }
})

describe('pool: which results are views of a slab', () => {
  // around both ends of the pooled range, and across a slab's end
  const lengths = [1, 2, 24, 63, 64, 65, 66, 100, 1000, 4095, 4096, 4097, 4100, 8192, 70000]
  const rows = lengths.map((length) => ({
    length,
    pooled: length >= MIN_POOLED && length <= MAX_POOLED
  }))

  for (const { length, pooled } of rows) {
    it(`a ${length}-byte result is ${pooled ? 'a view of a shared slab' : 'an array of its own'}`, () => {
      const { value, bytes } = ofLength(length, length)
      assert.equal(bytes.length, length, 'test setup')
      const results = [encode(value, POOL), encode(value, POOL)]
      for (const r of results) {
        assert.deepEqual(new Uint8Array(r), bytes)
        if (pooled) {
          assert.ok(isPooled(r), `${r.byteOffset}+${r.length} of ${r.buffer.byteLength}`)
          assert.equal(r.byteOffset % 8, 0, 'pooled results start 8-aligned')
        } else {
          assert.ok(ownsExactly(r), `${r.byteOffset}+${r.length} of ${r.buffer.byteLength}`)
        }
      }
      if (pooled && 2 * (length + 8) <= SLAB_SIZE) {
        // the second follows the first in the same slab, unless the first took a slab's end
        const [a, b] = results
        if (a.buffer === b.buffer) assert.ok(b.byteOffset >= a.byteOffset + a.length, 'the second overlaps the first')
      }
    })
  }

  it('in Node (V8), results of 65 bytes to 4 KiB are pooled', () => {
    assert.ok(typeof process.versions.v8 === 'string')
    assert.equal(MIN_POOLED, 65)
    assert.equal(MAX_POOLED, 4096)
    assert.ok(MAX_POOLED * 16 <= SLAB_SIZE, 'a slab leaves at most 1/16 of itself unused')
  })

  it('consecutive pooled results share one buffer, at increasing offsets, until it is full', () => {
    const { value } = ofLength(200, 1)
    const results = Array.from({ length: 10 }, () => encode(value, POOL))
    const buffers = new Set(results.map((r) => r.buffer))
    assert.ok(buffers.size <= 2, `${buffers.size} buffers for 10 results of 200 bytes`)
    for (let i = 1; i < results.length; i++) {
      if (results[i].buffer === results[i - 1].buffer) assert.equal(results[i].byteOffset, results[i - 1].byteOffset + 200, `result ${i}`)
      else assert.equal(results[i].byteOffset, 0, `result ${i} starts a new slab`)
    }
  })
})

describe('pool: no result is ever overwritten', () => {
  /**
   * Keep every result; check them all at the end against the bytes each value must encode to.
   *
   * @param {Array<{ value: unknown, bytes: Uint8Array }>} kept
   * @param {Uint8Array[]} results
   */
  function assertAllIntact (kept, results) {
    for (let i = 0; i < kept.length; i++) {
      const r = results[i]
      assert.equal(r.length, kept[i].bytes.length, `result ${i}: length`)
      for (let j = 0; j < r.length; j++) {
        if (r[j] !== kept[i].bytes[j]) assert.fail(`result ${i} (${r.length} bytes at ${r.byteOffset}) changed at byte ${j}`)
      }
    }
  }

  it('5000 kept results of 1 byte to 5 KiB, over many slabs, all still hold their bytes', () => {
    const random = mulberry32(0x9001)
    const kept = Array.from({ length: 5000 }, (_, i) => ofLength(1 + Math.floor(random() ** 3 * 5000), i))
    const results = kept.map(({ value }) => encode(value, POOL))
    assert.ok(new Set(results.map((r) => r.buffer)).size > 20, 'test setup: the results span many slabs')
    // more encodes after them, pooled and not
    for (let i = 0; i < 2000; i++) encode(kept[i].value, i % 2 ? POOL : undefined)
    assertAllIntact(kept, results)
  })

  it('an encode nested in a getter (pooled, of 100 B to 3 KiB) and the outer one keep apart', () => {
    /** @type {Array<{ value: unknown, bytes: Uint8Array }>} */
    const kept = []
    /** @type {Uint8Array[]} */
    const results = []
    for (const [outerLength, innerLength] of [[100, 100], [300, 2000], [3000, 3000], [4000, 70], [90, 4096]]) {
      const inner = ofLength(innerLength, innerLength)
      /** @type {Uint8Array | undefined} */
      let nested
      const filler = ofLength(outerLength, outerLength).value
      const outer = [filler, { get x () { nested = encode(inner.value, POOL); return 1 } }]
      const expected = encode([filler, { x: 1 }])
      const result = encode(outer, POOL)
      assert.ok(nested)
      assert.deepEqual(new Uint8Array(nested), inner.bytes, `${outerLength}/${innerLength}: the nested result`)
      assert.deepEqual(new Uint8Array(result), expected, `${outerLength}/${innerLength}: the outer result`)
      if (nested.buffer === result.buffer) {
        assert.ok(result.byteOffset >= nested.byteOffset + nested.length || nested.byteOffset >= result.byteOffset + result.length, 'they overlap')
      }
      kept.push(inner, { value: null, bytes: expected })
      results.push(nested, result)
    }
    assertAllIntact(kept, results)
  })

  it('an encode that throws (at the end of a value, from a getter, nested) takes no bytes of anyone\'s', () => {
    /** @type {Array<{ value: unknown, bytes: Uint8Array }>} */
    const kept = []
    /** @type {Uint8Array[]} */
    const results = []
    const nestedValue = ofLength(200, 99)
    // the result of an encode nested in one that then throws is the getter's to keep
    const keepNested = () => {
      const r = encode(nestedValue.value, POOL)
      kept.push(nestedValue)
      results.push(r)
      return r
    }
    const failing = [
      { label: 'undefined after 3000 bytes', value: () => [new Uint8Array(3000).fill(1), undefined], rule: 'undefined' },
      { label: 'a getter that throws', value: () => ({ a: new Uint8Array(500), get b () { throw new Error('from a getter') } }), rule: null },
      { label: 'a nested pooled encode, then a cycle', value: () => { const o = /** @type {any} */ ({ get n () { return keepNested() } }); o.self = o; return o }, rule: 'circular' }
    ]
    for (let round = 0; round < 30; round++) {
      const good = ofLength(70 + round * 130, round)
      results.push(encode(good.value, POOL))
      kept.push(good)
      const { label, value, rule } = failing[round % failing.length]
      assert.throws(() => encode(value(), POOL), (/** @type {any} */ e) => rule === null ? e.message === 'from a getter' : e instanceof DagCborEncodeError && e.rule === rule, label)
    }
    assert.equal(results.length, 40, 'test setup: 30 results and 10 nested ones kept')
    // what the next encodes write lands after the kept results, not over them
    for (let i = 0; i < 200; i++) encode(ofLength(1000, i).value, POOL)
    assertAllIntact(kept, results)
  })

  it('after a pooled result\'s buffer is transferred away, pooled encodes go on in a new slab', () => {
    const first = ofLength(300, 1)
    const second = ofLength(300, 2)
    const a = encode(first.value, POOL)
    const b = encode(second.value, POOL)
    assert.equal(a.buffer, b.buffer, 'test setup: both in one slab')
    structuredClone(a.buffer, { transfer: [a.buffer] })
    assert.equal(b.length, 0, 'the transfer detached every result of the slab (the hazard docs/memory.md states)')
    const c = encode(first.value, POOL)
    assert.deepEqual(new Uint8Array(c), first.bytes)
    assert.notEqual(c.buffer.byteLength, 0)
    assert.equal(c.byteOffset, 0, 'a new slab')
  })
})

describe('pool: what it leaves alone', () => {
  it('encodedLength and encodeInto take the option and ignore it', () => {
    const { value, bytes } = ofLength(500, 3)
    assert.equal(encodedLength(value, POOL), bytes.length)
    const target = new Uint8Array(600)
    assert.equal(encodeInto(value, target, POOL).written, bytes.length)
    assert.deepEqual(target.subarray(0, bytes.length), bytes)
  })

  it('the default encode, between pooled ones, still returns arrays that own exactly their bytes', () => {
    for (const length of [10, 65, 300, 4096, 5000]) {
      const { value, bytes } = ofLength(length, length)
      encode(value, POOL)
      const own = encode(value)
      encode(value, POOL)
      assert.deepEqual(own, bytes)
      assert.ok(ownsExactly(own), `${length}: ${own.byteOffset}+${own.length} of ${own.buffer.byteLength}`)
      assert.ok(ownsExactly(encode(value, { pool: false })), `${length}: { pool: false }`)
    }
  })
})
