// dag-cbor-fast/lexicon's reader against generic strict decode on damaged bytes: the records of
// the real repo CARs, each with bytes changed, dropped or inserted at seeded random places. The
// reader re-implements DAG-CBOR's checks, so whatever generic decode refuses it must refuse too;
// what it accepts must be what generic decode gives; and validate must answer exactly as decode
// (the same rule, offset and path, or both accept).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { CarReader } from '@ipld/car'
import { compile } from '../lib/lexicon/index.js'
import { decode } from '../index.js'
import { publishedDocuments } from './helpers/lexicons.js'
import { mulberry32 } from './helpers/prng.js'
import { outcome } from './helpers/lexicon-outcome.js'

const PER_RECORD = 400

describe('dag-cbor-fast/lexicon: damaged records, against generic strict decode', function () {
  this.timeout(60_000)
  it(`${PER_RECORD} damaged copies of each real record: never looser than generic decode, validate as decode`, async () => {
    const lexicons = compile(publishedDocuments())
    /** @type {Uint8Array[]} */
    const records = []
    for (const car of ['repo-small-v2.car', 'repo-slice-v2.car']) {
      const reader = await CarReader.fromBytes(fs.readFileSync(new URL(`../car/test/fixtures/atproto/${car}`, import.meta.url)))
      for await (const block of reader.blocks()) {
        const value = block.cid.code === 0x71 ? decode(block.bytes) : null
        if (typeof value?.$type === 'string') records.push(new Uint8Array(block.bytes))
      }
    }
    assert.equal(records.length, 7)
    const random = mulberry32(64)
    const counts = { accepted: 0, refused: 0 }
    for (const original of records) {
      const codec = lexicons.record(decode(original).$type)
      for (let i = 0; i < PER_RECORD; i++) {
        const bytes = Array.from(original)
        const edits = 1 + Math.floor(random() * 3)
        for (let e = 0; e < edits; e++) {
          const at = Math.floor(random() * bytes.length)
          const what = random()
          if (what < 0.6) bytes[at] = Math.floor(random() * 256)
          else if (what < 0.8) bytes.splice(at, 1)
          else bytes.splice(at, 0, Math.floor(random() * 256))
        }
        const input = Uint8Array.from(bytes)
        let generic
        let genericError = null
        try {
          generic = decode(input)
        } catch (e) {
          genericError = e
        }
        const decoded = outcome(() => codec.decode(input), { offset: true })
        assert.equal(outcome(() => codec.validate(input), { offset: true }), decoded, `validate agrees with decode on ${Buffer.from(input).toString('hex')}`)
        if (decoded === 'accepted') {
          assert.equal(genericError, null, `lexicon decode accepted what generic decode refuses (${genericError}): ${Buffer.from(input).toString('hex')}`)
          assert.deepStrictEqual(codec.decode(input), generic)
          counts.accepted++
        } else {
          counts.refused++
        }
      }
    }
    // both verdicts happen, so the comparison is not vacuous
    assert.ok(counts.accepted > 100 && counts.refused > 1000, JSON.stringify(counts))
  })
})
