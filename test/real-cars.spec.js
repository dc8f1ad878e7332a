// Real CAR files written by Filecoin's Go stack (copies in test/fixtures/cars/).
// Every DAG-CBOR block either decodes strictly and re-encodes to its own bytes (so its CID
// holds), or is rejected with a DagCborDecodeError naming the rule it breaks. In relaxed mode
// every block decodes, and the known non-canonical blocks come back as documented.
import assert from 'node:assert/strict'
import * as dagCbor from '@ipld/dag-cbor'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import { CID } from 'multiformats/cid'
import { identity } from 'multiformats/hashes/identity'
import { sha256 } from 'multiformats/hashes/sha2'
import { encode, decode, DagCborDecodeError, DagCborEncodeError } from '../index.js'
import { bytesEqual, dataModelDiff, toHex } from './helpers/ipld-equal.js'
import { loadCar } from './helpers/fixtures.js'

const DAG_CBOR = 0x71
const RAW = 0x55

/** @type {Record<number, { name: string, digest: (bytes: Uint8Array) => any }>} */
const hashers = {
  [sha256.code]: sha256,
  [blake2b256.code]: blake2b256,
  [identity.code]: identity
}

/** @typedef {import('./helpers/fixtures.js').Block} Block */

/**
 * @param {CID} cid
 * @param {Uint8Array} bytes
 * @returns {Promise<boolean>} whether `bytes` hash to `cid`'s multihash
 */
async function cidHolds (cid, bytes) {
  const hasher = hashers[cid.multihash.code]
  if (!hasher) throw new Error(`no hasher for multihash code 0x${cid.multihash.code.toString(16)} (${cid})`)
  const digest = await hasher.digest(bytes)
  return bytesEqual(digest.bytes, cid.multihash.bytes)
}

/**
 * @param {unknown} value
 * @returns {boolean} whether some string (key or value) holds an escaped byte U+DC80..U+DCFF
 */
function hasEscapedByte (value) {
  const escaped = /[\uDC80-\uDCFF]/u // u: a lone surrogate, not half of a pair
  if (typeof value === 'string') return escaped.test(value)
  if (Array.isArray(value)) return value.some(hasEscapedByte)
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array) && !CID.asCID(value)) {
    return Object.entries(value).some(([k, v]) => escaped.test(k) || hasEscapedByte(v))
  }
  return false
}

/**
 * Per-CAR facts measured independently of the codec under test (block counts by codec and
 * hash from @ipld/car; the non-canonical blocks are those whose @ipld/dag-cbor round trip
 * changes the bytes).
 */
const cars = [
  {
    file: 'filecoin-calibnet-genesis.car',
    blocks: 1207,
    dagCbor: 1197,
    raw: 10,
    hashes: { 'sha2-256': 1, 'blake2b-256': 1196, identity: 10 },
    rejected: { 'map-key-order': 1 },
    unsortedCids: ['bafyreiaqpwbbyjo4a42saasj36kkrpv4tsherf2e7bvezkert2a7dhonoi']
  },
  {
    file: 'filecoin-sample-v1.car',
    blocks: 1049,
    dagCbor: 1043,
    raw: 6,
    hashes: { 'blake2b-256': 1043, identity: 6 },
    rejected: { 'invalid-utf8': 140 },
    unsortedCids: []
  }
]

for (const car of cars) {
  describe(`real CAR: ${car.file}`, function () {
    this.timeout(30000)

    /** @type {Block[]} */
    let blocks
    /** @type {Block[]} */
    let cborBlocks
    /** @type {Array<Block & { value?: unknown, err?: any }>} each DAG-CBOR block's strict decode outcome */
    let strict
    /**
     * @param {string} rule
     * @returns {Block[]} the blocks strict decode rejected with `rule`
     */
    const rejectedFor = (rule) => strict.filter((b) => b.err?.rule === rule)

    before(async () => {
      blocks = await loadCar(car.file)
      cborBlocks = blocks.filter((b) => b.cid.code === DAG_CBOR)
      strict = cborBlocks.map((block) => {
        try {
          return { ...block, value: decode(block.bytes) }
        } catch (err) {
          return { ...block, err }
        }
      })
    })

    it(`has ${car.blocks} blocks (${car.dagCbor} DAG-CBOR, ${car.raw} raw), every block hash verified`, async () => {
      assert.equal(blocks.length, car.blocks)
      assert.equal(cborBlocks.length, car.dagCbor)
      assert.equal(blocks.filter((b) => b.cid.code === RAW).length, car.raw)
      /** @type {Record<string, number>} */
      const byHash = {}
      for (const { cid, bytes } of blocks) {
        assert.ok(await cidHolds(cid, bytes), `block ${cid} does not match its hash`)
        const name = hashers[cid.multihash.code].name
        byHash[name] = (byHash[name] ?? 0) + 1
      }
      assert.deepEqual(byHash, car.hashes)
    })

    it(`strict: rejects exactly ${JSON.stringify(car.rejected)} with a relaxable DagCborDecodeError naming the rule`, () => {
      /** @type {Record<string, number>} */
      const rules = {}
      for (const { cid, bytes, err } of strict) {
        if (!err) continue
        assert.ok(err instanceof DagCborDecodeError, `${cid}: not a DagCborDecodeError: ${err}`)
        assert.ok(err.relaxable, `${cid}: rejected with non-relaxable rule ${err.rule}: ${err.message}`)
        assert.equal(typeof err.offset, 'number')
        assert.ok(err.offset >= 0 && err.offset < bytes.length, `${cid}: offset ${err.offset} outside the block`)
        assert.ok(err.message.includes(err.rule), `${cid}: message does not name the rule: ${err.message}`)
        rules[err.rule] = (rules[err.rule] ?? 0) + 1
      }
      assert.deepEqual(rules, car.rejected)
    })

    it('strict: every accepted block re-encodes byte-identically and its CID holds', async () => {
      const accepted = strict.filter((b) => !b.err)
      const rejectedCount = Object.values(car.rejected).reduce((a, b) => a + b, 0)
      assert.equal(accepted.length, car.dagCbor - rejectedCount)
      for (const { cid, bytes, value } of accepted) {
        const reencoded = encode(value)
        assert.ok(bytesEqual(reencoded, bytes), `${cid}: re-encode differs\n  block ${toHex(bytes, 64)}\n  ours  ${toHex(reencoded, 64)}`)
        assert.ok(await cidHolds(cid, reencoded), `${cid}: CID does not hold for the re-encoded bytes`)
      }
    })

    it('strict: the rejected blocks are exactly those @ipld/dag-cbor cannot round-trip', () => {
      const oracleNonCanonical = cborBlocks
        .filter(({ bytes }) => !bytesEqual(dagCbor.encode(dagCbor.decode(bytes)), bytes))
        .map(({ cid }) => cid.toString())
      assert.deepEqual(strict.filter((b) => b.err).map(({ cid }) => cid.toString()), oracleNonCanonical)
    })

    it(`relaxed: all ${car.dagCbor} DAG-CBOR blocks decode; the strictly accepted ones to the same value`, () => {
      let decoded = 0
      for (const { cid, bytes, value, err } of strict) {
        const relaxed = decode(bytes, { relaxed: true })
        decoded++
        if (err) continue
        const diff = dataModelDiff(relaxed, value, { keyOrder: true })
        assert.equal(diff, null, `${cid}: relaxed and strict decode differ: ${diff}`)
      }
      assert.equal(decoded, car.dagCbor)
    })

    if (car.rejected['invalid-utf8']) {
      it(`relaxed: the ${car.rejected['invalid-utf8']} blocks with non-UTF-8 text re-encode with { escapedBytes: true } to their original bytes`, async () => {
        let count = 0
        for (const { cid, bytes } of rejectedFor('invalid-utf8')) {
          const value = decode(bytes, { relaxed: true })
          assert.ok(hasEscapedByte(value), `${cid}: no U+DC80..U+DCFF escape in the relaxed value`)
          const reencoded = encode(value, { escapedBytes: true })
          assert.ok(bytesEqual(reencoded, bytes), `${cid}: escapedBytes re-encode differs\n  block ${toHex(bytes, 64)}\n  ours  ${toHex(reencoded, 64)}`)
          assert.ok(await cidHolds(cid, reencoded), `${cid}: CID does not hold for the re-encoded bytes`)
          // without escapedBytes the lone surrogates are not valid text: a clean encode error
          assert.throws(() => encode(value), DagCborEncodeError)
          count++
        }
        assert.equal(count, car.rejected['invalid-utf8'])
      })
    }

    if (car.rejected['map-key-order']) {
      it(`relaxed: the ${car.rejected['map-key-order']} block with unsorted keys re-encodes to its canonical form`, () => {
        /** @type {string[]} */
        const seen = []
        for (const { cid, bytes } of rejectedFor('map-key-order')) {
          seen.push(cid.toString())
          const value = decode(bytes, { relaxed: true })
          const canonical = encode(value)
          assert.ok(!bytesEqual(canonical, bytes), 'canonical form must differ from the unsorted original')
          assert.equal(canonical.length, bytes.length, 'reordering map entries keeps the length')
          // a permutation of map entries permutes byte runs: the multiset of bytes is unchanged
          assert.deepEqual([...canonical].sort((a, b) => a - b), [...bytes].sort((a, b) => a - b))
          // same bytes as the reference codec's canonical form, and the same data model
          assert.ok(bytesEqual(canonical, dagCbor.encode(dagCbor.decode(bytes))), 'differs from @ipld/dag-cbor canonical form')
          const diff = dataModelDiff(dagCbor.decode(canonical), dagCbor.decode(bytes))
          assert.equal(diff, null, `data model changed: ${diff}`)
          // and the canonical form is accepted strictly
          assert.equal(dataModelDiff(decode(canonical), value), null)
        }
        assert.deepEqual(seen, car.unsortedCids)
      })
    }
  })
}
