// Conformance over the IPLD codec-fixtures suite (copied into test/fixtures/):
// every positive fixture decodes strictly, re-encodes byte-identically, hashes to the CID in
// its file name and equals its DAG-JSON twin; every negative fixture is rejected.
import assert from 'node:assert/strict'
import * as dagCbor from '@ipld/dag-cbor'
import * as dagJson from '@ipld/dag-json'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { encode, decode, code, DagCborDecodeError } from '../index.js'
import { bytesEqual, dataModelDiff, fromHex, toHex } from './helpers/ipld-equal.js'
import { loadFixtures, loadNegativeFixtures } from './helpers/fixtures.js'

const fixtures = loadFixtures()

describe('conformance: codec-fixtures (positive)', () => {
  it('has all 128 fixture directories, each with a DAG-JSON twin', () => {
    assert.equal(fixtures.length, 128)
    assert.deepEqual(fixtures.filter((f) => !f.json).map((f) => f.name), [])
  })

  for (const fixture of fixtures) {
    it(fixture.name, async () => {
      const value = decode(fixture.cbor) // strict by default

      const reencoded = encode(value)
      assert.ok(reencoded instanceof Uint8Array)
      assert.ok(bytesEqual(reencoded, fixture.cbor),
        `re-encode differs:\n  fixture ${toHex(fixture.cbor, 64)}\n  ours    ${toHex(reencoded, 64)}`)

      const cid = CID.create(1, code, await sha256.digest(reencoded))
      assert.equal(cid.toString(), fixture.cidString)

      assert.ok(fixture.json)
      const fromJson = dagJson.decode(fixture.json)
      // DAG-JSON and DAG-CBOR decoders may pick Number vs BigInt differently for the same
      // integer, so integers compare by BigInt value; everything else compares exactly.
      const diff = dataModelDiff(value, fromJson, { intLoose: true })
      assert.equal(diff, null, `DAG-CBOR vs DAG-JSON data model: ${diff}`)

      // and exactly what @ipld/dag-cbor decodes (same Number/BigInt choice, same key order)
      const oracleDiff = dataModelDiff(value, dagCbor.decode(fixture.cbor), { keyOrder: true })
      assert.equal(oracleDiff, null, `vs @ipld/dag-cbor: ${oracleDiff}`)
    })
  }
})

describe('conformance: codec-fixtures-negative (dag-cbor decode)', () => {
  const cases = loadNegativeFixtures()

  it('found the negative fixtures', () => {
    assert.ok(cases.length > 0)
    for (const c of cases) assert.match(c.hex, /^([0-9a-f]{2})+$/, `${c.file}: ${c.name}`)
  })

  for (const c of cases) {
    it(`${c.file}: ${c.name} (expected error: ${c.error})`, () => {
      const bytes = fromHex(c.hex)
      /** @type {any} */
      let caught
      assert.throws(() => decode(bytes), (err) => {
        caught = err
        assert.ok(err instanceof DagCborDecodeError, `not a DagCborDecodeError: ${err}`)
        assert.equal(typeof err.rule, 'string')
        assert.ok(err.rule.length > 0)
        assert.equal(typeof err.offset, 'number')
        assert.ok(err.offset >= 0 && err.offset <= bytes.length, `offset ${err.offset} outside the input`)
        assert.equal(typeof err.relaxable, 'boolean')
        return true
      })
      // `.relaxable` must tell the truth about `{ relaxed: true }`
      if (caught.relaxable) {
        decode(bytes, { relaxed: true })
      } else {
        assert.throws(() => decode(bytes, { relaxed: true }), DagCborDecodeError)
      }
    })
  }
})
