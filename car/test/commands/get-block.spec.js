// dag-cbor-car get-block: a block's bytes or DAG-JSON, compared with @ipld/car, @ipld/dag-cbor and
// @ipld/dag-json reading the same CAR.
import assert from 'node:assert/strict'
import * as dagCbor from '@ipld/dag-cbor'
import * as dagJson from '@ipld/dag-json'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { tool, walk, block, SAMPLE, GENESIS } from './helpers.js'
import { carV1 } from '../helpers/car-oracle.js'

describe('dag-cbor-car get-block', function () {
  this.timeout(60000)

  it('bytes, DAG-JSON (compact and --pretty) and --json of blocks of filecoin-sample-v1.car', async () => {
    const w = await walk(SAMPLE)
    const cbor = w.blocks[1] // canonical DAG-CBOR
    const raw = /** @type {any} */ (w.blocks.find((b) => b.cid.code === 0x55))
    for (const b of [cbor, raw]) {
      const r = tool(['get-block', SAMPLE, b.cid.toString()])
      assert.equal(r.code, 0, r.stderr)
      assert.deepEqual(r.stdoutBytes, b.bytes)
    }
    const expected = new TextDecoder().decode(dagJson.encode(dagCbor.decode(cbor.bytes)))
    const compact = tool(['get-block', SAMPLE, cbor.cid.toString(), '--dag-json'])
    assert.equal(compact.stdout, expected + '\n')
    const pretty = tool(['get-block', SAMPLE, cbor.cid.toString(), '--dag-json', '--pretty'])
    assert.ok(pretty.stdout.split('\n').length > 5)
    assert.deepEqual(JSON.parse(pretty.stdout), JSON.parse(expected))
    // standard input (a small CAR: reading stops at the block, and a large input would then meet a closed pipe)
    const line = JSON.parse(tool(['get-block', '-', cbor.cid.toString(), '--json'], { input: carV1([cbor.cid], [raw, cbor]) }).stdout)
    assert.equal(line.cid, cbor.cid.toString())
    assert.equal(line.codec, 'dag-cbor')
    assert.deepEqual(line.value, JSON.parse(expected))
    assert.equal(line.offset, carV1([cbor.cid], [raw]).length)
  })

  it('a missing CID is exit 1; bad bytes are not written', () => {
    const absent = block({ absent: true }).cid.toString()
    const missing = tool(['get-block', GENESIS, absent])
    assert.equal(missing.code, 1)
    assert.match(missing.stderr, new RegExp(`${absent} is not in`))
    const good = block({ good: 1 })
    const bad = { cid: good.cid, bytes: dagCbor.encode({ good: 2 }) }
    const r = tool(['get-block', '-', good.cid.toString()], { input: carV1([good.cid], [bad]) })
    assert.equal(r.code, 1)
    assert.equal(r.stdout, '')
    assert.match(r.stderr, /do not hash to the CID/)
    const notCid = tool(['get-block', GENESIS, 'not-a-cid', '--dag-json'])
    assert.equal(notCid.code, 2)
    assert.match(notCid.stderr, /^dag-cbor-car: the CID argument is not a CID/)
  })

  it('the non-canonical genesis block: its bytes, and its relaxed-decode DAG-JSON, written with exit 0 and a word on stderr; 1 with --strict', () => {
    // the genesis block with keys out of order (test/fixtures/README.md)
    const nonCanonical = 'bafyreiaqpwbbyjo4a42saasj36kkrpv4tsherf2e7bvezkert2a7dhonoi'
    const bytes = tool(['get-block', GENESIS, nonCanonical])
    assert.equal(bytes.code, 0, bytes.stderr)
    assert.equal(bytes.stdoutBytes.length, 290)
    assert.deepEqual(CID.create(1, 0x71, sha256.digest(bytes.stdoutBytes)).toString(), nonCanonical, 'the bytes as stored')
    assert.match(bytes.stderr, /keys out of order at \/Network/)
    const asJson = tool(['get-block', GENESIS, nonCanonical, '--dag-json'])
    assert.equal(asJson.code, 0, asJson.stderr)
    assert.deepEqual(dagJson.decode(new TextEncoder().encode(asJson.stdout)), dagCbor.decode(bytes.stdoutBytes), 'an independent decoder reads the same value')
    assert.match(asJson.stdout, /"Network":"Filecoin"/)
    assert.match(asJson.stderr, /not canonical DAG-CBOR \(keys out of order at \/Network .*\); the DAG-JSON written is what relaxed decode reads/)
    const strict = tool(['get-block', GENESIS, nonCanonical, '--dag-json', '--strict'])
    assert.equal(strict.code, 1)
    assert.equal(strict.stdout, asJson.stdout, 'written either way')
    assert.equal(tool(['get-block', GENESIS, nonCanonical, '--strict']).code, 1)
  })
})
