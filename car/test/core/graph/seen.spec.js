// SeenCids: the duplicate counter's table, from its small first size through many doublings.
import assert from 'node:assert/strict'
import { SeenCids } from '../../../lib/core/graph/seen.js'

/** @param {number} i a distinct 36-byte CID-like key per i */
function key (i) {
  const b = new Uint8Array(36).fill(0x12)
  new DataView(b.buffer).setUint32(4, i)
  return b
}

describe('SeenCids', () => {
  it('starts small and grows: 100,000 distinct keys are new once, and seen again after every doubling', () => {
    const seen = new SeenCids()
    const first = seen.slots.length
    for (let i = 0; i < 100_000; i++) assert.equal(seen.add(key(i)), false, `key ${i} reported as seen before`)
    assert.equal(seen.size, 100_000)
    assert.ok(seen.slots.length >= first * 128, 'the table grew')
    for (let i = 0; i < 100_000; i += 97) assert.equal(seen.add(key(i)), true, `key ${i} not found after growing`)
    assert.equal(seen.size, 100_000)
  })
})
