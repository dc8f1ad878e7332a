// lib/pool.js: encode results and decoded byte strings of POOLED_MIN..POOLED_MAX bytes are views of a shared
// pool of POOL_SIZE bytes; smaller and larger ones own their memory. What a kept value can keep alive is
// therefore bounded by POOL_SIZE, and no two live values share a byte.
import assert from 'node:assert/strict'
import { encode, decode, encodeInto } from '../index.js'
import { POOL_SIZE, POOLED_MIN, POOLED_MAX } from '../lib/pool.js'

/**
 * A byte string whose encoding is exactly `total` bytes long (head included).
 * @param {number} total
 * @returns {Uint8Array}
 */
function bytesEncodingTo (total) {
  const head = total - 1 <= 23 ? 1 : total - 2 <= 255 ? 2 : 3
  return new Uint8Array(total - head).map((_, i) => (i * 7 + total) & 0xff)
}

/**
 * @param {Uint8Array} x
 * @param {Uint8Array} y
 * @returns {boolean} whether the two views share a byte
 */
function overlaps (x, y) {
  return x.buffer === y.buffer && x.length > 0 && y.length > 0 &&
    x.byteOffset < y.byteOffset + y.length && y.byteOffset < x.byteOffset + x.length
}

describe('pool: encode results', () => {
  // [encoded length, pooled?]: the boundaries of the pooled range
  /** @type {Array<[number, boolean]>} */
  const rows = [[1, false], [64, false], [POOLED_MIN, true], [66, true], [300, true], [POOLED_MAX - 1, true], [POOLED_MAX, true], [POOLED_MAX + 1, false], [2 * POOLED_MAX, false]]
  for (const [total, pooled] of rows) {
    it(`a ${total}-byte result ${pooled ? 'is a view of the pool' : 'owns its memory'}`, () => {
      const value = bytesEncodingTo(total)
      const result = encode(value)
      assert.equal(result.length, total)
      assert.equal(result.buffer.byteLength, pooled ? POOL_SIZE : total)
      assert.deepEqual(decode(result), value)
    })
  }

  it('results kept from many encodes never overlap: each still holds its own bytes', () => {
    const values = Array.from({ length: 200 }, (_, i) => ({ i, pad: 'x'.repeat(60 + (i * 37) % 700) }))
    const results = values.map((v) => encode(v))
    const pools = new Set(results.map((r) => r.buffer))
    assert.ok(pools.size > 1 && pools.size < results.length, `results spread over ${pools.size} pools`)
    results.forEach((r, i) => assert.deepEqual(decode(r), values[i]))
    for (const r of results) assert.ok(r.buffer.byteLength <= POOL_SIZE)
  })

  it('a pool is used up to its last byte before another is started', () => {
    const value = bytesEncodingTo(POOLED_MAX)
    // encode until a result starts a new pool: it then sits at the pool's start
    let first = encode(value)
    for (let i = 0; i < POOL_SIZE / POOLED_MAX + 1 && first.byteOffset !== 0; i++) first = encode(value)
    assert.equal(first.byteOffset, 0, 'test setup: a fresh pool')
    const rest = Array.from({ length: POOL_SIZE / POOLED_MAX - 1 }, () => encode(value))
    assert.ok(rest.every((r) => r.buffer === first.buffer), 'the results that fill the pool exactly all share it')
    assert.equal(rest[rest.length - 1].byteOffset + POOLED_MAX, POOL_SIZE)
    assert.notEqual(encode(value).buffer, first.buffer, 'the next one starts another pool')
  })

  it('encodeInto and a failing encode take nothing from the pool', () => {
    const before = encode(bytesEncodingTo(100))
    encodeInto(bytesEncodingTo(100), new Uint8Array(200))
    assert.throws(() => encode([bytesEncodingTo(100), undefined]))
    const after = encode(bytesEncodingTo(100))
    if (after.buffer === before.buffer) assert.equal(after.byteOffset, before.byteOffset + 100)
  })

  it('a pool whose buffer a caller transferred away is replaced', () => {
    const first = encode(bytesEncodingTo(100))
    structuredClone(first.buffer, { transfer: [first.buffer] })
    assert.equal(first.length, 0, 'test setup: the transfer detached the pool')
    const value = bytesEncodingTo(200)
    const next = encode(value)
    assert.equal(next.length, 200)
    assert.deepEqual(decode(next), value)
  })
})

describe('pool: decoded byte strings', () => {
  /** @type {Array<[number, boolean]>} */
  const rows = [[0, false], [64, false], [POOLED_MIN, true], [POOLED_MAX, true], [POOLED_MAX + 1, false], [70000, false]]
  for (const [length, pooled] of rows) {
    it(`a ${length}-byte byte string ${pooled ? 'is a view of the pool' : 'owns its memory'}, never of the input`, () => {
      const value = new Uint8Array(length).map((_, i) => i & 0xff)
      const input = encode([value, value])
      const [a, b] = decode(input)
      assert.deepEqual(a, value)
      assert.ok(!overlaps(a, input) && !overlaps(b, input) && !overlaps(a, b), 'no shared bytes')
      assert.equal(a.buffer.byteLength, pooled ? POOL_SIZE : length)
      // copies: overwriting the input or one of them changes nothing else
      input.fill(0)
      if (length > 0) a[0] = 0xff
      assert.deepEqual(b, value)
    })
  }

  it('viewBytes still returns views of the input', () => {
    const input = encode(new Uint8Array(100).fill(7))
    assert.equal(decode(input, { viewBytes: true }).buffer, input.buffer)
  })
})
