// The bench prints its usage on --help, and starts nothing: no CAR is generated, nothing is timed.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const BENCH = fileURLToPath(new URL('../bench/car-tool.js', import.meta.url))

describe('car/bench/car-tool.js --help', function () {
  this.timeout(60000)

  it('prints the usage and exits 0 at once', () => {
    for (const flag of ['--help', '-h']) {
      const r = spawnSync(process.execPath, [BENCH, flag], { encoding: 'utf8', timeout: 20000 })
      assert.equal(r.error, undefined, 'it did not end within 20 s: it started a benchmark')
      assert.equal(r.status, 0, r.stderr)
      assert.match(r.stdout, /^usage: node car\/bench\/car-tool\.js /)
      assert.match(r.stdout, /--make-car FILE/)
      assert.doesNotMatch(r.stdout, /MB\/s/)
    }
  })
})
