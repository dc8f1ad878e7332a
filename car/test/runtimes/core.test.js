// The CAR core in Deno, Bun and Node 26 (run.js runs this file with mocha in each): every part of
// observe.js on every case equals what Node answered (run.js computes that first and names its
// file in CAR_RUNTIMES_EXPECTED), and so does the package's entry as this runtime resolves it. A
// corrupted CAR must fail here on its own terms too, and the hashes must run on the backend this
// runtime is expected to use.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import process from 'node:process'
import * as core from '../../lib/core/index.js'
import { PARTS, comparable } from './observe.js'

/** @typedef {{ name: string, file: string, corrupted?: boolean, repo?: import('./observe.js').RepoOptions, parts: Record<string, unknown> }} Case */

const file = process.env.CAR_RUNTIMES_EXPECTED
if (!file) throw new Error('CAR_RUNTIMES_EXPECTED is not set: run this file through car/test/runtimes/run.js, which computes Node\'s answers first')
/** @type {{ node: string, runtime: string, backends: Record<string, string>, cases: Case[] }} */
const expected = JSON.parse(fs.readFileSync(file, 'utf8'))

describe(`the CAR core in ${expected.runtime}: the same answers as ${expected.node}`, function () {
  this.timeout(120_000)

  for (const c of expected.cases) {
    describe(c.name, () => {
      /** @type {Uint8Array} */
      let bytes
      before(() => { bytes = new Uint8Array(fs.readFileSync(c.file)) })
      // what `import 'dag-cbor-car'` gives a user in Deno and Bun is the Node entry (worker threads,
      // file paths), so it is checked here too: both match the package's "node" export condition
      // (lib/node/node-library.js); its #hashers import gives Deno the core's own hashers, not node:crypto's
      it('the package as this runtime resolves it (its Node entry), on the file path with 2 worker threads: the summary equals Node\'s', async () => {
        const entry = /** @type {any} */ (await import('dag-cbor-car'))
        const summary = await entry.verifyCar(c.file, { workers: 2 })
        assert.equal(summary.workers, 2)
        assert.deepEqual(comparable(summary), c.parts.summary)
      })
      for (const [part, want] of Object.entries(c.parts)) {
        it(`${part} equals Node's`, async () => {
          assert.deepEqual(await PARTS[part](core, bytes, { repo: c.repo }), want)
        })
      }
      if (c.corrupted) {
        it('fails: verifyCar reports the hash mismatch, and CarBlockIterator throws a CarBlockError at it', async () => {
          const summary = /** @type {any} */ (await PARTS.summary(core, bytes, {}))
          assert.notEqual(summary.result, 'ok')
          assert.equal(summary.hashMismatches, 1)
          const blocks = /** @type {any} */ (await PARTS.blocks(core, bytes, {}))
          assert.equal(blocks.error?.name, 'CarBlockError', JSON.stringify(blocks.error))
          assert.match(blocks.error.message, /byte offset \d+/)
        })
      }
    })
  }

  // a hasher is loaded when first needed: verify every good CAR, which between them use every hash
  it(`hashes with the backends expected here (${JSON.stringify(expected.backends)})`, async () => {
    for (const c of expected.cases.filter((c) => !c.corrupted)) await core.verifyCar(new Uint8Array(fs.readFileSync(c.file)))
    assert.deepEqual(core.hashBackends(), expected.backends)
  })
})
