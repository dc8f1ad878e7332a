// lib/copy-bytes.js: copyBySet gives an exact, owned copy; set() is chosen in Firefox only.
import assert from 'node:assert/strict'
import { COPY_BY_SET, copyBySet } from '../lib/copy-bytes.js'
import { ownsExactly } from './helpers/ownership.js'

describe('copy-bytes', () => {
  const src = new Uint8Array(70000).map((_, i) => (i * 31 + 7) & 0xff)

  {
    const copy = copyBySet
    it(`copyBySet: the range's bytes, in an array of their own, for sizes around the engines' inline limits`, () => {
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

  it('COPY_BY_SET is true in Firefox only (told by its user agent, not by the global the code tests)', () => {
    const nav = /** @type {any} */ (globalThis).navigator
    const firefox = typeof nav?.userAgent === 'string' && /\bFirefox\//.test(nav.userAgent)
    assert.equal(COPY_BY_SET, firefox)
  })
})
