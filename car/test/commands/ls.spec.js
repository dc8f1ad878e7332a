// dag-cbor-car ls: one line per block, compared with an independent read of the same CAR.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { tool, tempDir, walk, shapesCar, SAMPLE, TOOL } from './helpers.js'
import { linksOf, carV1, withLongVarints } from '../helpers/car-oracle.js'

describe('dag-cbor-car ls', function () {
  this.timeout(60000)
  /** @type {string} */ let tmp
  before(() => { tmp = tempDir() })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it('filecoin-sample-v1.car --json --links: every block in CAR order, with its codec, size and links', async () => {
    const r = tool(['ls', SAMPLE, '--json', '--links'])
    const w = await walk(SAMPLE)
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l))
    assert.equal(r.code, 0) // 140 non-canonical blocks (test/fixtures/README.md): in the listing and on stderr
    assert.match(r.stderr, /140 blocks have problems/)
    assert.equal(tool(['ls', SAMPLE, '--strict']).code, 1)
    assert.equal(lines.length, w.blocks.length)
    lines.forEach((line, i) => {
      const b = w.blocks[i]
      assert.equal(line.cid, b.cid.toString())
      assert.equal(line.size, b.bytes.length)
      assert.equal(line.codec, b.cid.code === 0x71 ? 'dag-cbor' : 'raw')
      assert.equal(line.hash, 'ok')
      assert.deepEqual(line.links, b.cid.code === 0x71 ? linksOf(b.bytes).map(String) : [])
    })
    assert.equal(lines.filter((l) => l.dagCbor === 'non-canonical').length, 140)
    assert.ok(lines.filter((l) => l.dagCbor === 'non-canonical').every((l) => /invalid UTF-8/.test(l.problem)))
    // offsets: each block's section starts where the previous one ended
    for (let i = 1; i < lines.length; i++) assert.ok(lines[i].offset > lines[i - 1].offset + lines[i - 1].size)
  })

  it('a generated CAR (text): duplicates marked, a missing root is named on stderr (exit 1 with --strict)', () => {
    const car = shapesCar()
    const file = path.join(tmp, 'shapes.car')
    fs.writeFileSync(file, car.bytes)
    const r = tool(['ls', file])
    const rows = r.stdout.trim().split('\n').map((l) => l.split('\t'))
    assert.deepEqual(rows.map((c) => c[0]), car.blocks.map((b) => b.cid.toString()))
    assert.deepEqual(rows.map((c) => c[2]), car.blocks.map((b) => String(b.bytes.length)))
    assert.deepEqual(rows.map((c) => c[4]), ['canonical', 'canonical', 'canonical', '-', 'canonical', 'canonical'])
    assert.deepEqual(rows.map((c) => c[5] ?? ''), ['', '', '', '', '', 'duplicate'])
    assert.equal(r.code, 0)
    assert.match(r.stderr, new RegExp(`root ${car.missingRoot.cid} is listed in the CAR header but not present`))
    assert.equal(tool(['ls', file, '--strict']).code, 1)
    assert.equal(tool(['ls', file, '--partial', '--strict']).code, 0)
    assert.equal(tool(['ls', '-', '--partial'], { input: car.bytes }).stdout, r.stdout)
  })

  it('length varints written longer than their shortest form: verify\'s messages on stderr, exit 1 with --strict', () => {
    const car = shapesCar()
    const minimal = carV1([car.root.cid], car.blocks)
    const { bytes, offsets } = withLongVarints(minimal, [0, 2])
    const file = path.join(tmp, 'long-varints.car')
    fs.writeFileSync(file, bytes)
    const r = tool(['ls', file])
    assert.equal(r.code, 0, 'a listing: the problem on stderr')
    assert.equal(r.stdout.trim().split('\n').length, car.blocks.length)
    const verify = JSON.parse(tool(['verify', file, '--json']).stdout)
    assert.deepEqual(verify.problems.map((/** @type {any} */ p) => p.at), offsets)
    assert.deepEqual(r.stderr.trim().split('\n'), verify.problems.map((/** @type {any} */ p) => `dag-cbor-car: ${p.message}`))
    assert.equal(tool(['ls', file, '--strict']).code, 1)
    fs.writeFileSync(file, minimal)
    assert.equal(tool(['ls', file, '--strict']).code, 0, 'the same CAR in shortest form')
  })

  it('a reader that stops early (| head -1) ends it quietly, status 141 as SIGPIPE', () => {
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${TOOL}" ls "${SAMPLE}" | head -1; echo "status \${PIPESTATUS[0]}"`], { encoding: 'utf8' })
    assert.match(r.stdout, /^bafy\S+\tdag-cbor\t\d+\tok\tcanonical\nstatus 141\n$/)
    assert.equal(r.stderr, '')
  })
})
