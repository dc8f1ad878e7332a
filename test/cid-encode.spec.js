// Which values encode as CIDs (tag 42), row by row: a value is a CID when it signals itself the way
// multiformats CIDs do (`value['/'] === value.bytes`, or before multiformats 10 `value.asCID === value`),
// whatever its class; anything else with a `bytes` field is a map like any other object.
import assert from 'node:assert/strict'
import { CID } from 'multiformats/cid'
import { encode } from '../index.js'
import { head, text, concat, toHex } from './fuzz/cbor.js'

const cid = CID.parse('bafyreidykglsfhoixmivffc5uwhcgshx4j465xwqntbmu2ztmxqzwzm7qu')
const tagged = (/** @type {Uint8Array} */ bytes) => toHex(concat([0xd8, 0x2a], head(2, bytes.length + 1), [0x00], bytes))
const B = Uint8Array.of(1, 0x71, 0x12, 0)

/** an instance of a class of its own (not a plain object, which is always a map) */
class Thing {
  /** @param {Record<string, unknown>} fields */
  constructor (fields) { Object.assign(this, fields) }
}

describe('cid-encode: what counts as a CID', () => {
  it('a multiformats CID, and a frozen one', () => {
    assert.equal(toHex(encode(cid)), tagged(cid.bytes))
    assert.equal(toHex(encode(Object.freeze(CID.decode(cid.bytes)))), tagged(cid.bytes))
  })

  const rows = [
    { label: "'/' is its bytes", value: () => new Thing({ '/': B, bytes: B }), cid: true },
    { label: 'asCID is itself', value: () => { const t = new Thing({ bytes: B }); /** @type {any} */ (t).asCID = t; return t }, cid: true },
    { label: "'/' is an equal copy of its bytes, not the same array", value: () => new Thing({ '/': B.slice(), bytes: B }), cid: false },
    { label: 'asCID is another object', value: () => new Thing({ bytes: B, asCID: {} }), cid: false },
    { label: 'only a bytes field', value: () => new Thing({ bytes: B }), cid: false },
    { label: "only a '/' field", value: () => new Thing({ '/': B }), cid: false },
    { label: "'/' is its bytes but bytes is not a Uint8Array", value: () => { const a = [1, 2]; return new Thing({ '/': a, bytes: a }) }, cid: false }
  ]
  for (const { label, value, cid: isCid } of rows) {
    it(`an object whose ${label}: ${isCid ? 'a CID' : 'a map of its fields'}`, () => {
      const v = value()
      if (isCid) {
        assert.equal(toHex(encode(v)), tagged(B))
        assert.equal(toHex(encode({ l: v })), toHex(concat([0xa1], text('l'))) + tagged(B))
      } else {
        const out = toHex(encode(v))
        assert.notEqual(out.slice(0, 4), 'd82a', out)
        assert.equal(out[0], 'a', `a map: ${out}`)
      }
    })
  }

  it('a plain object is a map even when it signals a CID', () => {
    const plain = { '/': B, bytes: B }
    assert.equal(toHex(encode(plain)), toHex(concat([0xa2], text('/'), head(2, 4), B, text('bytes'), head(2, 4), B)))
  })
})
