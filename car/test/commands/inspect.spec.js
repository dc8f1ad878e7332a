// dag-cbor-car inspect: every figure compared with an independent walk of the same CAR (helpers.js).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { tool, tempDir, walk, shapesCar, block, GENESIS, SAMPLE } from './helpers.js'
import { carV1, carV2, withLongVarints } from '../helpers/car-oracle.js'

describe('dag-cbor-car inspect', function () {
  this.timeout(60000)
  /** @type {string} */ let tmp
  before(() => { tmp = tempDir() })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  // non-canonical counts: test/fixtures/README.md (140 blocks with non-UTF-8 keys; one with keys out of order)
  for (const [file, nonCanonical] of /** @type {const} */ ([[SAMPLE, 140], [GENESIS, 1]])) {
    it(`${path.basename(file)}: counts, reachability, missing links and depth match an independent walk`, async () => {
      const r = tool(['inspect', file, '--json'])
      const report = JSON.parse(r.stdout)
      const w = await walk(file)
      assert.equal(r.code, 0, 'a report: the non-canonical blocks are in it, not in the exit status')
      assert.match(r.stderr, new RegExp(`${nonCanonical} problems? in the data`))
      assert.equal(tool(['inspect', file, '--strict']).code, 1, 'with --strict they are exit 1')
      assert.equal(report.version, 1)
      assert.deepEqual(report.roots, w.roots.map((cid) => ({ cid, present: w.byCid.has(cid) })))
      assert.equal(report.blocks, w.blocks.length)
      assert.equal(report.duplicates, w.duplicates)
      assert.deepEqual(report.codecs, w.codecs)
      assert.equal(report.bytes, fs.statSync(file).size)
      assert.equal(report.blockBytes, w.blocks.reduce((n, b) => n + b.bytes.length, 0))
      const sizes = w.blocks.map((b) => b.bytes.length).sort((a, b) => a - b)
      assert.equal(report.blockSizes.min, sizes[0])
      assert.equal(report.blockSizes.max, sizes[sizes.length - 1])
      assert.equal(report.hashCheck.verified, w.blocks.length - w.badHashes)
      assert.equal(report.dagCbor.nonCanonical, nonCanonical)
      assert.equal(report.dagCbor.canonical + report.dagCbor.nonCanonical + report.dagCbor.invalid, w.codecs['dag-cbor'])
      assert.equal(report.dag.links, w.links)
      assert.equal(report.dag.reachable, w.reachable.length)
      assert.equal(report.dag.unreachable, w.orphans.length)
      assert.equal(report.dag.missing.cids, w.missing.size)
      for (const c of report.dag.missing.first) assert.ok(w.missing.has(c), c)
      assert.equal(report.dag.deepest.links, w.depth)
      assert.equal(report.problemCount, nonCanonical)
    })
  }

  it('a generated CAR: missing root, dangling link, orphan and duplicate are each found', async () => {
    const car = shapesCar()
    const file = path.join(tmp, 'shapes.car')
    fs.writeFileSync(file, car.bytes)
    const w = await walk(file)
    const r = tool(['inspect', file, '--json'])
    const report = JSON.parse(r.stdout)
    assert.equal(r.code, 0, 'a root is missing: in the report, exit 0')
    assert.equal(tool(['inspect', file, '--strict']).code, 1, 'a root is missing: exit 1 with --strict')
    assert.equal(tool(['inspect', file, '--strict', '--partial']).code, 0, '--partial accepts it')
    assert.deepEqual(report.roots, [{ cid: car.root.cid.toString(), present: true }, { cid: car.missingRoot.cid.toString(), present: false }])
    assert.deepEqual(report.problems.map((/** @type {any} */ p) => p.kind), ['missing-root'])
    assert.equal(report.duplicates, 1)
    assert.equal(report.dag.unreachable, 1)
    assert.deepEqual(w.orphans, [car.orphan.cid.toString()])
    assert.deepEqual(report.dag.missing, { links: 1, cids: 1, first: [car.absent.cid.toString()] })
    assert.deepEqual([...w.missing], [car.absent.cid.toString()])
    assert.equal(report.dag.reachable, w.reachable.length)
    assert.equal(report.dag.deepest.links, 2)
    assert.equal(report.dag.deepest.links, w.depth)
    assert.equal(report.dag.deepest.to, car.leaf.cid.toString())

    // --partial: roots stored elsewhere are not a problem; the text form says what is missing
    const partial = tool(['inspect', file, '--partial'])
    assert.equal(partial.code, 0, partial.stdout)
    assert.match(partial.stdout, new RegExp(`${car.missingRoot.cid} \\(MISSING\\)`))
    assert.match(partial.stdout, /1 to 1 block not in the CAR/)
  })

  it('length varints written longer than their shortest form: verify\'s varint problems, at its offsets, all counted; exit 1 with --strict', () => {
    const leaves = Array.from({ length: 12 }, (_, i) => block({ leaf: i }))
    const root = block({ leaves: leaves.map((b) => b.cid) })
    const minimal = carV1([root.cid], [root, ...leaves])
    // every varint long: the header's and 13 sections', more than the 10 problems a report lists
    const { bytes, offsets } = withLongVarints(minimal, Array.from({ length: 14 }, (_, i) => i))
    const file = path.join(tmp, 'long-varints.car')
    fs.writeFileSync(file, bytes)
    const verify = JSON.parse(tool(['verify', file, '--json']).stdout)
    const report = JSON.parse(tool(['inspect', file, '--json']).stdout)
    assert.deepEqual([report.ok, report.problemCount, verify.problemCount], [false, 14, 14])
    assert.deepEqual(report.problems.map((/** @type {any} */ p) => [p.kind, p.offset, p.message]), verify.problems.map((/** @type {any} */ p) => [p.kind, p.at, p.message]))
    assert.deepEqual(report.problems.map((/** @type {any} */ p) => p.offset), offsets.slice(0, 10))
    assert.equal(tool(['inspect', file, '--strict']).code, 1)
    fs.writeFileSync(file, minimal)
    assert.equal(tool(['inspect', file, '--strict']).code, 0, 'the same CAR in shortest form')
  })

  it("a CARv2 header's problems (characteristics, bytes after a payload with no index) are verify's, at its offsets; exit 1 with --strict", () => {
    const root = block({ a: 1 })
    const v2 = carV2(carV1([root.cid], [root]), { trailer: Buffer.from([1, 2, 3]) })
    v2[11] = 0x01 // a characteristic the CARv2 spec does not define
    const file = path.join(tmp, 'carv2-header.car')
    fs.writeFileSync(file, v2)
    const verify = JSON.parse(tool(['verify', file, '--json']).stdout)
    assert.deepEqual(verify.problems.map((/** @type {any} */ p) => p.kind), ['car-v2', 'car-v2'])
    const report = JSON.parse(tool(['inspect', file, '--json']).stdout)
    assert.deepEqual(report.problems.map((/** @type {any} */ p) => [p.kind, p.offset, p.message]), verify.problems.map((/** @type {any} */ p) => [p.kind, p.at, p.message]))
    assert.equal(tool(['inspect', file, '--strict']).code, 1)
  })

  it('reads standard input; a cut-short CAR is exit 2 with the byte offset; our own message for a bad flag', () => {
    const bytes = fs.readFileSync(GENESIS)
    const fromFile = JSON.parse(tool(['inspect', GENESIS, '--json']).stdout)
    const fromStdin = tool(['inspect', '-', '--json'], { input: bytes })
    assert.deepEqual({ ...JSON.parse(fromStdin.stdout), input: '' }, { ...fromFile, input: '' })
    const cut = tool(['inspect', '-'], { input: bytes.subarray(0, 5000) })
    assert.equal(cut.code, 2)
    assert.match(cut.stderr, /^dag-cbor-car: .*byte offset \d+/)
    assert.equal(cut.stderr.trim().split('\n').length, 1)
    const bad = tool(['inspect', GENESIS, '--frobnicate'])
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /^dag-cbor-car: unknown option --frobnicate\n/)
  })
})
