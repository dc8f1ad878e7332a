// dag-cbor-car import: what it does with edited lines and with lines that are not what export
// writes; the expected CARs are built with @ipld/dag-cbor (helpers.js), not by the tool.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { tool, tempDir, block } from './helpers.js'
import { carV1 } from '../helpers/car-oracle.js'

describe('dag-cbor-car import', function () {
  this.timeout(60000)
  /** @type {string} */ let tmp
  before(() => { tmp = tempDir() })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it('import after an edit: a line without "cid" gets one computed; a "cid" that no longer matches is exit 1', async () => {
    const leaf = block({ v: 1 })
    const file = path.join(tmp, 'edit.car')
    fs.writeFileSync(file, carV1([leaf.cid], [leaf]))
    const [header, line] = tool(['export', file]).stdout.trim().split('\n')
    const edited = JSON.parse(line)
    edited.value.v = 2
    const out = path.join(tmp, 'edited.car')
    const stale = tool(['import', '-', '--out', out], { input: `${header}\n${JSON.stringify(edited)}\n` })
    assert.equal(stale.code, 1)
    assert.match(stale.stderr, new RegExp(`line 2: the block's bytes have the CID ${block({ v: 2 }).cid}, not ${leaf.cid}`))
    assert.ok(!fs.existsSync(out))
    delete edited.cid
    const fresh = tool(['import', '-', '--out', out, '--json'], { input: `${header}\n${JSON.stringify(edited)}\n` })
    assert.equal(fresh.code, 0, fresh.stderr)
    assert.deepEqual(fs.readFileSync(out), carV1([leaf.cid], [block({ v: 2 })]))
  })

  it('import: a line that is not what export writes is exit 2 with its line number, and nothing is written', () => {
    const out = path.join(tmp, 'bad.car')
    const header = '{"roots":[],"version":1}'
    for (const [input, message] of [
      [`${header}\n{"cid": oops}\n`, /line 2 is not DAG-JSON/],
      ['{"cid":"bafyreigbtj4x7ip5legnfznufuopl4sg4knzc2cof6duas4b3q2fy6swua","codec":"dag-cbor","value":1}\n', /line 1 should be the CAR header/],
      [`${header}\n\n{"codec":"raw","value":"text"}\n`, /line 3: a raw block must be given as "bytes"/],
      ['', /holds no JSON lines/]
    ]) {
      const r = tool(['import', '-', '--out', out], { input })
      assert.equal(r.code, 2, String(input))
      assert.match(r.stderr, /** @type {RegExp} */ (message))
      assert.equal(r.stderr.trim().split('\n').length, 1)
    }
    assert.ok(!fs.existsSync(out))
  })

  it('import with no file reads standard input; its errors say JSON lines', () => {
    const good = block({ from: 'stdin' })
    const file = path.join(tmp, 'stdin-source.car')
    fs.writeFileSync(file, carV1([good.cid], [good]))
    const lines = tool(['export', file]).stdout
    const out = path.join(tmp, 'from-stdin.car')
    const r = tool(['import', '--out', out], { input: lines })
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(fs.readFileSync(out), fs.readFileSync(file))
    const empty = tool(['import', '--out', path.join(tmp, 'empty.car')], { input: '' })
    assert.equal(empty.code, 2)
    assert.match(empty.stderr, /JSON lines/)
    assert.doesNotMatch(empty.stderr, /not a CAR/)
    const emptyFile = path.join(tmp, 'empty.jsonl')
    fs.writeFileSync(emptyFile, '')
    assert.match(tool(['import', emptyFile, '--out', path.join(tmp, 'empty.car')]).stderr, /^dag-cbor-car: cannot read .*empty\.jsonl: the file is empty, not JSON lines as export writes them/)
    const junk = tool(['import', '--out', path.join(tmp, 'junk.car')], { input: 'hello\n' })
    assert.equal(junk.code, 2)
    assert.match(junk.stderr, /^dag-cbor-car: standard input is not JSON lines as export writes them: line 1/)
    assert.ok(!fs.existsSync(path.join(tmp, 'junk.car')))
  })
})
