// Every command over every fixture CAR says exactly what it said when expected.json was recorded
// (stdout, stderr, exit status, the bytes it wrote), times aside: moving code must not change
// what a user sees. test/golden/cases.js has the cases.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { prepare, cases, runAll, recorded } from './golden/cases.js'

const expected = recorded()

describe('golden: what every command says on every fixture CAR', function () {
  /** @type {string} */
  let dir
  /** @type {Record<string, unknown>} */
  let results
  before(async function () {
    this.timeout(300_000)
    dir = prepare()
    results = await runAll(dir, cases())
  })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('has a recording for every case, and no recording without a case', () => {
    assert.deepEqual(cases().map((c) => c.name).sort(), Object.keys(expected).sort())
  })
  for (const c of cases()) {
    it(c.name, () => {
      assert.deepEqual(results[c.name], expected[c.name])
    })
  }
})
