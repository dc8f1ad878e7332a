// lib/copy-bytes.js: both ways of copying give an exact, owned copy; the engine's choice.
import assert from 'node:assert/strict'
import { COPY_BY_SET, copyBySet, copyBySlice } from '../lib/copy-bytes.js'
import { ownsExactly } from './helpers/ownership.js'

describe('copy-bytes', () => {
  const src = new Uint8Array(70000).map((_, i) => (i * 31 + 7) & 0xff)

  for (const [name, copy] of /** @type {const} */ ([['copyBySlice', copyBySlice], ['copyBySet', copyBySet]])) {
    it(`${name}: the range's bytes, in an array of their own, for sizes around the engines' inline limits`, () => {
      for (const [start, end] of [[0, 0], [5, 5], [3, 4], [1, 41], [100, 164], [100, 165], [7, 103], [64, 1000], [0, 70000], [69000, 70000]]) {
        const c = copy(src, start, end)
        assert.equal(c.constructor, Uint8Array)
        assert.ok(ownsExactly(c), `${start}..${end}: ${c.byteOffset}+${c.length} of ${c.buffer.byteLength}`)
        assert.deepEqual(c, src.subarray(start, end))
        if (c.length > 0) {
          const before = src[start]
          c[0] ^= 0xff
          assert.equal(src[start], before, 'writing the copy changed the source')
        }
      }
    })
  }

  it('COPY_BY_SET holds exactly in SpiderMonkey (which defines InternalError)', () => {
    assert.equal(COPY_BY_SET, typeof (/** @type {any} */ (globalThis)).InternalError === 'function')
  })
})
