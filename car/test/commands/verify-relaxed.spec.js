// verify --relaxed: non-canonical DAG-CBOR that relaxed decode reads losslessly passes, still counted
// and listed; every other problem still fails. On the real Filecoin calibnet genesis CAR, and on CARs
// built here around hand-written non-canonical blocks.
import assert from 'node:assert/strict'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import * as dagCbor from '@ipld/dag-cbor'
import fs from 'node:fs'
import path from 'node:path'
import { tool, block, tempDir, GENESIS, SAMPLE } from './helpers.js'
import { carV1 } from '../helpers/car-oracle.js'

// the genesis block with keys out of order at /Network (test/fixtures/README.md)
const GENESIS_NON_CANONICAL = 'bafyreiaqpwbbyjo4a42saasj36kkrpv4tsherf2e7bvezkert2a7dhonoi'

/** A DAG-CBOR block from hand-written bytes, under the CID of those bytes. @param {number[]} bytes */
function rawDagCbor (bytes) {
  const b = new Uint8Array(bytes)
  return { cid: CID.create(1, 0x71, sha256.digest(b)), bytes: b }
}
// {"b": 1, "a": 2}: keys out of order; relaxed decode reads {a: 2, b: 1} exactly
const outOfOrder = rawDagCbor([0xa2, 0x61, 0x62, 0x01, 0x61, 0x61, 0x02])
// {"a": 1} with 1 written in two bytes (0x18 0x01): not the shortest form
const longInteger = rawDagCbor([0xa1, 0x61, 0x61, 0x18, 0x01])
// {"a": undefined}: relaxed decode reads undefined as null, so not exactly
const withUndefined = rawDagCbor([0xa1, 0x61, 0x61, 0xf7])
// {"a": "\xff"}: text that is not valid UTF-8, which has no canonical form
const invalidUtf8 = rawDagCbor([0xa1, 0x61, 0x61, 0x61, 0xff])

describe('dag-cbor-car verify --relaxed', function () {
  this.timeout(60000)

  it('the calibnet genesis CAR: FAIL without it (naming --relaxed and --canonicalize), OK with it, the block still listed', () => {
    const strict = tool(['verify', GENESIS])
    assert.equal(strict.code, 1)
    const failLine = strict.stdout.split('\n').find((l) => l.includes('result'))
    assert.match(failLine ?? '', /FAIL: 1 non-canonical; --relaxed accepts it .*--canonicalize/)
    const relaxed = tool(['verify', GENESIS, '--relaxed'])
    assert.equal(relaxed.code, 0, relaxed.stdout + relaxed.stderr)
    assert.match(relaxed.stdout, /dag-cbor {4}1196 canonical, 1 non-canonical, 0 invalid/)
    assert.match(relaxed.stdout, new RegExp(`${GENESIS_NON_CANONICAL} {2}non-canonical: .*keys out of order at /Network`))
    assert.match(relaxed.stdout, /result {6}OK \(--relaxed\): every block verified, 1 non-canonical DAG-CBOR block accepted/)
    const json = JSON.parse(tool(['verify', GENESIS, '--relaxed', '--json']).stdout)
    assert.equal(json.result, 'ok')
    assert.equal(json.relaxed, true)
    assert.deepEqual([json.dagCbor.nonCanonical, json.dagCbor.lossless], [1, 1])
    assert.deepEqual(json.problems.map((/** @type {any} */ p) => [p.cid, p.kind, p.lossless]), [[GENESIS_NON_CANONICAL, 'non-canonical', true]])
  })

  it('the same with worker threads, and for several files at once', () => {
    assert.equal(tool(['verify', GENESIS, '--relaxed', '--workers', '2']).code, 0)
    const many = tool(['verify', GENESIS, GENESIS, '--relaxed'])
    assert.equal(many.code, 0, many.stdout)
    assert.match(many.stdout, /2 files: 2 OK/)
  })

  it('keys out of order and a longer-than-needed integer pass; undefined and invalid UTF-8 still fail', () => {
    const good = block({ root: [outOfOrder.cid, longInteger.cid] })
    const car = carV1([good.cid], [good, outOfOrder, longInteger])
    const r = tool(['verify', '-', '--relaxed'], { input: car })
    assert.equal(r.code, 0, r.stdout)
    assert.match(r.stdout, /2 non-canonical DAG-CBOR blocks accepted/)
    assert.equal(tool(['verify', '-'], { input: car }).code, 1)

    const undef = block({ root: withUndefined.cid })
    const u = tool(['verify', '-', '--relaxed'], { input: carV1([undef.cid], [undef, withUndefined]) })
    assert.equal(u.code, 1)
    assert.match(u.stdout, /--relaxed does not accept it/)
    assert.match(u.stdout, /FAIL: 1 non-canonical that relaxed decode does not read exactly/)
    // filecoin-sample-v1.car: 140 blocks of invalid UTF-8 text
    const sample = tool(['verify', SAMPLE, '--relaxed'])
    assert.equal(sample.code, 1)
    assert.match(sample.stdout, /FAIL: 140 non-canonical that relaxed decode does not read exactly/)
  })

  it('the FAIL line offers --canonicalize only where it fixes: not for text that is not valid UTF-8, which it says it cannot fix', () => {
    const dir = tempDir()
    try {
      /** verify's result line and JSON on a CAR of `blocks`, and what --out --canonicalize then does @param {{ cid: CID, bytes: Uint8Array }[]} blocks */
      const verdicts = (blocks) => {
        const root = block({ root: blocks.map((b) => b.cid) })
        const file = path.join(dir, 'in.car')
        fs.writeFileSync(file, carV1([root.cid], [root, ...blocks]))
        const plain = tool(['verify', file])
        const json = JSON.parse(tool(['verify', file, '--json']).stdout)
        const out = path.join(dir, 'out.car')
        const fixed = tool(['verify', file, '--out', out, '--canonicalize'])
        const written = fs.existsSync(out)
        fs.rmSync(out, { force: true })
        return { line: plain.stdout.split('\n').find((l) => l.includes('result')) ?? '', noCanonicalForm: json.dagCbor.noCanonicalForm, fixed: fixed.code, written }
      }
      const alone = verdicts([invalidUtf8])
      assert.equal(alone.line, '  result      FAIL: 1 non-canonical; --canonicalize cannot fix it: it holds text that is not valid UTF-8, which has no canonical form')
      assert.deepEqual([alone.noCanonicalForm, alone.fixed, alone.written], [1, 1, false]) // and indeed it cannot
      const mixed = verdicts([invalidUtf8, outOfOrder])
      assert.equal(mixed.line, '  result      FAIL: 2 non-canonical; --relaxed accepts the 1 of them that relaxed decode reads losslessly; --canonicalize cannot fix the 1 of them that holds text that is not valid UTF-8, which has no canonical form')
      assert.deepEqual([mixed.noCanonicalForm, mixed.fixed, mixed.written], [1, 1, false])
      // undefined has a canonical form (null): the offer stands, and --canonicalize fixes the CAR
      const fixable = verdicts([withUndefined, longInteger])
      assert.match(fixable.line, /; --out FILE --canonicalize writes a copy with them in canonical form$/)
      assert.deepEqual([fixable.noCanonicalForm, fixable.fixed, fixable.written], [0, 0, true])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('hash mismatches, invalid blocks and missing roots still fail', () => {
    const good = block({ root: outOfOrder.cid })
    const mismatched = { cid: good.cid, bytes: dagCbor.encode({ root: outOfOrder.cid, changed: true }) }
    const m = tool(['verify', '-', '--relaxed'], { input: carV1([good.cid], [mismatched, outOfOrder]) })
    assert.equal(m.code, 1)
    assert.match(m.stdout, /FAIL: 1 hash mismatch/)

    const invalid = rawDagCbor([0xa1, 0x61, 0x61]) // a map whose value is missing: not CBOR at all
    const i = tool(['verify', '-', '--relaxed'], { input: carV1([invalid.cid], [invalid, outOfOrder]) })
    assert.equal(i.code, 1)
    assert.match(i.stdout, /FAIL: 1 invalid/)

    const absent = block({ absent: true })
    const r = tool(['verify', '-', '--relaxed'], { input: carV1([absent.cid], [outOfOrder]) })
    assert.equal(r.code, 1)
    assert.match(r.stdout, /FAIL: 1 root not present as a block/)
  })
})
