// dag-cbor-car get-dag: the blocks reachable from a CID, depth-first, compared with an independent
// walk (helpers.js) and read back with @ipld/car.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import * as dagCbor from '@ipld/dag-cbor'
import { tool, tempDir, walk, dfsOrder, shapesCar, dagPbCar, block, SAMPLE } from './helpers.js'
import { readAll, carV1 } from '../helpers/car-oracle.js'

describe('dag-cbor-car get-dag', function () {
  this.timeout(60000)
  /** @type {string} */ let tmp
  before(() => { tmp = tempDir() })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it('filecoin-sample-v1.car: a sub-DAG in depth-first order, each block once, with its CID as root', async () => {
    const w = await walk(SAMPLE)
    const from = w.blocks[1].cid.toString()
    const out = path.join(tmp, 'sub.car')
    const r = tool(['get-dag', SAMPLE, from, '--out', out, '--json'])
    assert.equal(r.code, 0, r.stderr)
    const got = await readAll(out)
    const order = dfsOrder(w, from)
    assert.ok(order.length > 100 && order.length < w.byCid.size)
    assert.deepEqual(got.roots, [from])
    assert.deepEqual(got.blocks.map((b) => b.cid.toString()), order)
    for (const b of got.blocks) assert.deepEqual(b.bytes, w.byCid.get(b.cid.toString())?.bytes)
    assert.deepEqual(JSON.parse(r.stdout).missing, { cids: 0, first: [] })
  })

  it('a generated CAR with a dangling link: what is present is written, the missing block named, exit 0; --strict: exit 1, nothing written', async () => {
    const car = shapesCar()
    const file = path.join(tmp, 'shapes.car')
    fs.writeFileSync(file, car.bytes)
    const out = path.join(tmp, 'shapes-sub.car')
    const strict = tool(['get-dag', file, car.root.cid.toString(), '--out', out, '--strict', '--json'])
    assert.equal(strict.code, 1)
    assert.ok(!fs.existsSync(out))
    assert.match(strict.stderr, new RegExp(`1 linked block is not in .*${car.absent.cid}.*--strict: nothing written`))
    assert.deepEqual(JSON.parse(strict.stdout).missing, { cids: 1, first: [car.absent.cid.toString()] })
    const partial = tool(['get-dag', '-', car.root.cid.toString(), '--out', out, '--json'], { input: car.bytes })
    assert.equal(partial.code, 0, partial.stderr)
    assert.match(partial.stderr, new RegExp(`1 linked block is not in .*${car.absent.cid}.*the DAG was written without them`))
    assert.deepEqual(JSON.parse(partial.stdout).missing, { cids: 1, first: [car.absent.cid.toString()] })
    const w = await walk(file)
    const got = await readAll(out)
    assert.deepEqual(got.blocks.map((b) => b.cid.toString()), dfsOrder(w, car.root.cid.toString()))
    assert.deepEqual(got.blocks.map((b) => b.cid.toString()), [car.root, car.mid, car.leaf, car.raw].map((b) => b.cid.toString()))
    assert.equal(fs.readdirSync(tmp).filter((f) => f.endsWith('.tmp')).length, 0)
  })

  it('dag-pb (UnixFS) links are followed, from a CIDv0 root; inspect sees them too', async () => {
    const car = dagPbCar()
    const file = path.join(tmp, 'unixfs.car')
    fs.writeFileSync(file, car.bytes)
    const out = path.join(tmp, 'unixfs-sub.car')
    const r = tool(['get-dag', file, car.root.cid.toString(), '--out', out])
    assert.equal(r.code, 0, r.stderr)
    const w = await walk(file)
    const got = await readAll(out)
    assert.deepEqual(got.blocks.map((b) => b.cid.toString()), dfsOrder(w, car.root.cid.toString()))
    assert.deepEqual(got.blocks.map((b) => b.cid.toString()), [car.root, car.leaves[0], car.dir, car.leaves[1], car.leaves[2]].map((b) => b.cid.toString()))
    const report = JSON.parse(tool(['inspect', file, '--json']).stdout)
    assert.equal(report.dag.reachable, 5)
    assert.equal(report.dag.links, w.links)
    assert.equal(report.dag.deepest.links, w.depth)
    assert.deepEqual(report.cidVersions, { v1: 4, v0: 1 })
  })

  it('a CID not in the CAR, and a block failing its hash check, are exit 1 with nothing written', () => {
    const out = path.join(tmp, 'none.car')
    const absent = block({ absent: 1 }).cid.toString()
    const r = tool(['get-dag', SAMPLE, absent, '--out', out])
    assert.equal(r.code, 1)
    assert.match(r.stderr, new RegExp(`${absent} is not in`))
    const leaf = block({ leaf: 1 })
    const root = block({ l: leaf.cid })
    const bad = tool(['get-dag', '-', root.cid.toString(), '--out', out], { input: carV1([root.cid], [root, { cid: leaf.cid, bytes: dagCbor.encode({ leaf: 2 }) }]) })
    assert.equal(bad.code, 1)
    assert.match(bad.stderr, new RegExp(`${leaf.cid} at byte offset \\d+: its bytes do not hash to the CID`))
    assert.ok(!fs.existsSync(out))
    const usage = tool(['get-dag', SAMPLE, absent])
    assert.equal(usage.code, 2)
    assert.match(usage.stderr, /^dag-cbor-car: get-dag needs --out FILE/)
  })

  it('a real Bluesky repo CAR, whose records link to blobs it never holds: written, the blobs listed, exit 0 (as go-car)', async () => {
    const repo = fileURLToPath(new URL('../fixtures/atproto/repo-small-v2.car', import.meta.url))
    const commit = 'bafyreieovfuizojpw3zresz7sx3nk4trm2by23pt5rxbey3jme4uo5ogiu' // its root (docs/atproto.md: what repo verify prints)
    const out = path.join(tmp, 'repo-sub.car')
    const r = tool(['get-dag', repo, commit, '--out', out, '--json'])
    assert.equal(r.code, 0, r.stderr)
    const summary = JSON.parse(r.stdout)
    assert.equal(summary.written, true)
    const w = await walk(repo)
    const got = await readAll(out)
    assert.deepEqual(got.blocks.map((b) => b.cid.toString()), dfsOrder(w, commit))
    assert.deepEqual(new Set(summary.missing.first), w.missing)
    assert.ok(summary.missing.first.some((/** @type {string} */ c) => c.startsWith('bafkrei')), 'a blob (raw) among the missing')
    assert.match(r.stderr, /linked blocks are not in .*the DAG was written without them/)
  })
})
