// dag-cbor-car filter: the kept blocks and roots, compared with what an independent read of the input
// says should be kept.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { tool, tempDir, walk, shapesCar, SAMPLE } from './helpers.js'
import { readAll } from '../helpers/car-oracle.js'

describe('dag-cbor-car filter', function () {
  this.timeout(60000)
  /** @type {string} */ let tmp
  before(() => { tmp = tempDir() })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it('filecoin-sample-v1.car --codec raw: the raw blocks in CAR order; the DAG-CBOR root is dropped', async () => {
    const out = path.join(tmp, 'raw.car')
    const r = tool(['filter', SAMPLE, '--out', out, '--codec', 'raw', '--json'])
    assert.equal(r.code, 0, r.stderr)
    const w = await walk(SAMPLE)
    const got = await readAll(out)
    const raw = w.blocks.filter((b) => b.cid.code === 0x55)
    assert.ok(raw.length > 0)
    assert.deepEqual(got.blocks.map((b) => b.cid.toString()), raw.map((b) => b.cid.toString()))
    assert.deepEqual(got.roots, [])
    assert.deepEqual(JSON.parse(r.stdout), { input: SAMPLE, out, blocks: w.blocks.length, kept: raw.length, dropped: w.blocks.length - raw.length, roots: [], droppedRoots: w.roots })
    assert.match(r.stderr, /no root .* is kept/)
  })

  it('a generated CAR: --reachable-from (from standard input), and --cids with --drop', async () => {
    const car = shapesCar()
    const ids = (/** @type {{ cid: any }[]} */ list) => list.map((b) => b.cid.toString())
    const out = path.join(tmp, 'reach.car')
    const r = tool(['filter', '-', '--out', out, '--reachable-from', car.mid.cid.toString()], { input: car.bytes })
    assert.equal(r.code, 0, r.stderr)
    let got = await readAll(out)
    // CAR order, the duplicate kept; neither root is kept (one is not reachable, one is not there)
    assert.deepEqual(got.blocks.map((b) => b.cid.toString()), ids([car.mid, car.leaf, car.raw, car.leaf]))
    assert.deepEqual(got.roots, [])

    const keep = path.join(tmp, 'keep.txt')
    const drop = path.join(tmp, 'drop.txt')
    fs.writeFileSync(keep, `# kept\n${ids([car.root, car.orphan, car.leaf, car.missingRoot]).join('\n')}\n\n`)
    fs.writeFileSync(drop, `${car.orphan.cid}  # not this one\n`)
    const file = path.join(tmp, 'shapes.car')
    fs.writeFileSync(file, car.bytes)
    const both = tool(['filter', file, '--out', out, '--cids', keep, '--drop', drop])
    assert.equal(both.code, 0, both.stderr)
    got = await readAll(out)
    assert.deepEqual(got.blocks.map((b) => b.cid.toString()), ids([car.root, car.leaf, car.leaf]))
    assert.deepEqual(got.roots, ids([car.root]), 'the missing root stays out: its block is not there')
    assert.match(both.stdout, /kept 3 of 6 blocks/)
  })

  it('a bad CID list line, an unknown codec, no filter: exit 2 with one line', () => {
    const list = path.join(tmp, 'bad.txt')
    fs.writeFileSync(list, 'bafyreigood\nnot a cid\n')
    const cases = [
      [['filter', SAMPLE, '--out', path.join(tmp, 'x.car'), '--cids', list], /^dag-cbor-car: line 1 of .*bad.txt is not a CID/],
      [['filter', SAMPLE, '--out', path.join(tmp, 'x.car'), '--codec', 'dag-foo'], /^dag-cbor-car: unknown codec "dag-foo"/],
      [['filter', SAMPLE, '--out', path.join(tmp, 'x.car')], /^dag-cbor-car: give at least one filter/]
    ]
    for (const [args, message] of /** @type {[string[], RegExp][]} */ (cases)) {
      const r = tool(args)
      assert.equal(r.code, 2, args.join(' '))
      assert.match(r.stderr, message)
    }
    assert.ok(!fs.existsSync(path.join(tmp, 'x.car')))
  })

  it('--reachable-from a CID not in the input: a note and exit 0; with --strict, exit 1 and nothing written', () => {
    const car = shapesCar()
    const file = path.join(tmp, 'strict.car')
    fs.writeFileSync(file, car.bytes)
    const out = path.join(tmp, 'strict-out.car')
    const args = ['filter', file, '--out', out, '--reachable-from', car.mid.cid.toString(), '--reachable-from', car.absent.cid.toString()]
    const lenient = tool(args)
    assert.equal(lenient.code, 0, lenient.stderr)
    assert.match(lenient.stderr, new RegExp(`note: --reachable-from ${car.absent.cid} is not in`))
    assert.ok(fs.existsSync(out))
    fs.rmSync(out)
    const strict = tool([...args, '--strict'])
    assert.equal(strict.code, 1)
    assert.match(strict.stderr, new RegExp(`--reachable-from ${car.absent.cid} is not in .*--strict: .*was not written`))
    assert.ok(!fs.existsSync(out))
  })
})
