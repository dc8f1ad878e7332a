// Errors in the tool's own words: what was wrong, the byte offset where there is one, and the
// input; never a library's message passed on ("multibase decoder must be provided", "CBOR decode
// error: too many terminals"), and with --json a failed run still prints its JSON line.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { verifyCar, CarReadError } from '../../lib/node/node-library.js'
import { smallCarV1 } from '../helpers/small-cars.js'

const TOOL = fileURLToPath(new URL('../../bin/dag-cbor-car.js', import.meta.url))
const NOT_A_CAR = 'These are notes, not a CAR.\n'.repeat(20)

/** @param {string[]} args */
function tool (args) {
  const r = spawnSync(process.execPath, [TOOL, ...args], { encoding: 'utf8', timeout: 60000, stdio: ['ignore', 'pipe', 'pipe'] })
  if (r.error) throw r.error
  assert.doesNotMatch(r.stderr, /\n\s+at .+:\d+:\d+/)
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('errors in the tool\'s words', function () {
  this.timeout(60000)
  let dir = ''
  let notCar = ''
  let car = ''
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-words-'))
    notCar = path.join(dir, 'notes.txt')
    fs.writeFileSync(notCar, NOT_A_CAR)
    car = path.join(dir, 'small.car')
    fs.writeFileSync(car, await smallCarV1())
  })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('a file that is not a CAR: one line naming it, the header\'s offset, what a CAR starts with', () => {
    const r = tool(['verify', notCar])
    assert.equal(r.code, 2)
    assert.equal(r.stderr, `dag-cbor-car: ${notCar}: not a CAR file: bad header (the header at byte offset 0 does not decode as DAG-CBOR; a CAR starts with a length varint and a DAG-CBOR map { roots, version })\n`)
  })

  it('the library: a CarReadError with the offset, in the same words', async () => {
    const err = await verifyCar(new TextEncoder().encode(NOT_A_CAR)).catch((e) => e)
    assert.ok(err instanceof CarReadError, String(err))
    assert.equal(err.offset, 0)
    assert.doesNotMatch(err.message, /CBOR decode error|terminals/)
  })

  it('get-block with a word that is not a CID: says how a CID is written', () => {
    const r = tool(['get-block', car, 'notacid'])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /^dag-cbor-car: the CID argument is not a CID: "notacid" \(a CID is written in base32 \(b\.\.\.\), base58btc \(z\.\.\., or Qm\.\.\. for a CIDv0\) or base36 \(k\.\.\.\)\)\n/)
    assert.doesNotMatch(r.stderr, /multibase decoder/)
    assert.match(tool(['get-block', car, 'bafyfoo']).stderr, /"bafyfoo" \(it starts as base32 text, but does not decode to a whole, valid CID\)/)
  })

  it('verify --json on a file it cannot open: the JSON line still, with the error; exit 2', () => {
    const missing = path.join(dir, 'missing.car')
    const r = tool(['verify', '--json', missing])
    assert.equal(r.code, 2)
    const summary = JSON.parse(r.stdout)
    assert.equal(summary.result, 'incomplete')
    assert.equal(summary.input, missing)
    assert.equal(summary.error.message, `cannot read ${missing}: no such file or directory`)
    assert.equal(r.stderr, `dag-cbor-car: cannot read ${missing}: no such file or directory\n`)
  })
})
