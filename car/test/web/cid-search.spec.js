// The web page's CID text search (web/cid-search.js) against multiformats' toString, on every
// block of the fixture CARs: whole CIDs, pieces, upper case, and text no CID holds.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { CarBlockIterator } from '../../lib/core/index.js'
import { CidSearch } from '../../web/cid-search.js'

const FILES = ['../fixtures/genesis-slice-v2.car', '../fixtures/atproto/repo-small-v2.car', '../../../test/fixtures/cars/filecoin-sample-v1.car']

describe('web page: CID text search', () => {
  for (const name of FILES) {
    it(`finds each CID of ${name.split('/').pop()} by its text and pieces of it, and nothing else`, async () => {
      const iterator = await CarBlockIterator.fromBytes(fs.readFileSync(new URL(name, import.meta.url)), { allowUnverified: true })
      let checked = 0
      for await (const { cid } of iterator) {
        const text = cid.toString()
        for (const piece of [text, text.slice(1, 12), text.slice(-9), text.slice(-9).toUpperCase(), text.slice(20, 21)]) {
          assert.ok(new CidSearch(piece).matches(cid.bytes), `${text} contains ${piece}`)
        }
        assert.equal(new CidSearch('zzzzzzzz').matches(cid.bytes), text.includes('zzzzzzzz'))
        assert.equal(new CidSearch(text + 'a').matches(cid.bytes), false)
        checked++
      }
      assert.ok(checked > 0)
    })
  }

  it('reads a CIDv0 (base58btc) through multiformats', async () => {
    const { CID } = await import('multiformats/cid')
    const v0 = CID.parse('QmdfTbBqBPQ7VNxZEYEj14VmRuZBkqFbiwReogJgS1zR1n')
    assert.ok(new CidSearch('QmdfTb').matches(v0.bytes))
    assert.equal(new CidSearch('qmdftb').matches(v0.bytes), false, 'base58 is case-sensitive')
  })
})
