// dag-cbor-car diff: blocks only in a, only in b, roots; compared with set differences computed from
// an independent read of both CARs.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { tool, tempDir, walk, shapesCar, block, SAMPLE, GENESIS } from './helpers.js'
import { carV1 } from '../helpers/car-oracle.js'

describe('dag-cbor-car diff', function () {
  this.timeout(60000)
  /** @type {string} */ let tmp
  before(() => { tmp = tempDir() })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it('the two fixture CARs: the lists match the set differences; a CAR against itself is the same', async () => {
    const r = tool(['diff', SAMPLE, GENESIS, '--json'])
    assert.equal(r.code, 1)
    const d = JSON.parse(r.stdout)
    const a = await walk(SAMPLE)
    const b = await walk(GENESIS)
    assert.deepEqual(d.onlyInA, [...a.byCid.keys()].filter((c) => !b.byCid.has(c)))
    assert.deepEqual(d.onlyInB, [...b.byCid.keys()].filter((c) => !a.byCid.has(c)))
    assert.equal(d.both, [...a.byCid.keys()].filter((c) => b.byCid.has(c)).length)
    assert.deepEqual(d.roots, { a: a.roots, b: b.roots })
    assert.equal(d.same, false)
    const self = tool(['diff', SAMPLE, '-'], { input: fs.readFileSync(SAMPLE) })
    assert.equal(self.code, 0)
    assert.match(self.stdout, /^roots: the same \(.*\)\nsame: 1049 blocks in both, 0 only in .*, 0 only in standard input/)
  })

  it('generated CARs: order and duplicates do not count; an added block and a changed root do', () => {
    const car = shapesCar()
    const file = path.join(tmp, 'shapes.car')
    fs.writeFileSync(file, car.bytes)
    const unique = [car.root, car.mid, car.leaf, car.raw, car.orphan]
    const reordered = path.join(tmp, 'reordered.car')
    fs.writeFileSync(reordered, carV1([car.root.cid, car.missingRoot.cid], [...unique].reverse()))
    assert.equal(tool(['diff', file, reordered]).code, 0)

    const extra = block({ extra: true })
    const changed = path.join(tmp, 'changed.car')
    fs.writeFileSync(changed, carV1([car.root.cid], [...unique.slice(1), extra]))
    const r = tool(['diff', file, changed])
    assert.equal(r.code, 1)
    const lines = r.stdout.trim().split('\n')
    assert.deepEqual(lines.filter((l) => /^[+-] /.test(l)), [`+ ${extra.cid}`, `- ${car.root.cid}`])
    assert.match(lines[lines.length - 2], /^roots: .* has .*, .*; .* has .*/)
    assert.match(lines[lines.length - 1], /^different: 4 blocks in both, 1 only in .*shapes\.car \(-\), 1 only in .*changed\.car \(\+\)$/)
  })
})
