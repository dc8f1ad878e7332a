// The bench's floor rows (bench/hash-floor.js) hash each block's own bytes: the layout they read
// places every block where its bytes are in the file, and the floor hashes what an iterator would.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import crypto from 'node:crypto'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { CarBlockIterator } from '../lib/node/node-library.js'
import { writeLayout } from '../bench/hash-floor.js'

const FLOOR = fileURLToPath(new URL('../bench/hash-floor.js', import.meta.url))
const CARS = ['filecoin-calibnet-genesis.car', 'filecoin-sample-v1.car'].map((name) => fileURLToPath(new URL(`../../test/fixtures/cars/${name}`, import.meta.url)))

describe('bench/hash-floor.js', function () {
  this.timeout(60000)
  /** @type {string} */
  let dir
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hash-floor-')) })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  for (const car of CARS) {
    it(`places every block of ${path.basename(car)} where its bytes are, and hashes them on 1 and 2 threads, with and without copies`, async () => {
      const layout = path.join(dir, path.basename(car) + '.layout')
      await writeLayout(await CarBlockIterator.fromIterable(car, { verifyHashes: false, viewBytes: true }), layout)
      const file = fs.readFileSync(car)
      const raw = fs.readFileSync(layout)
      const places = new Uint32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4)
      let expected = 0
      let blockBytes = 0
      let i = 0
      for await (const { bytes } of await CarBlockIterator.fromIterable(car, { verifyHashes: false })) {
        assert.ok(file.subarray(places[2 * i], places[2 * i + 1]).equals(bytes), `block ${i} is not at [${places[2 * i]}, ${places[2 * i + 1]})`)
        expected += crypto.hash('sha256', bytes, 'binary').charCodeAt(0)
        blockBytes += bytes.length
        i++
      }
      assert.equal(places.length, 2 * i)
      for (const args of [['1'], ['2'], ['2', 'copy']]) {
        const r = spawnSync(process.execPath, [FLOOR, car, layout, ...args], { encoding: 'utf8' })
        assert.equal(r.status, 0, r.stderr)
        const { sum } = JSON.parse(r.stdout)
        // the sum of each block's first digest byte (and, with copies, each block's length)
        assert.equal(sum, expected + (args[1] === 'copy' ? blockBytes : 0), `threads ${args.join(' ')}`)
      }
    })
  }
})
