// The bench prints its usage on --help, and starts nothing: no CAR is generated, nothing is timed.
// Nothing here runs a benchmark: whether the bench itself still runs (the start-up figure, every row
// of a quick run) is bench/smoke.js's to check, outside the test suite.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const BENCH = fileURLToPath(new URL('../bench/car-tool.js', import.meta.url))

describe('car/bench/car-tool.js --help', function () {
  this.timeout(120000)

  for (const flag of ['--help', '-h']) {
    it(`${flag} prints the usage, every mode and option, and exits 0 having generated and timed nothing`, () => {
      // the cap only stops a bench that started instead (it would block this thread for minutes);
      // the help itself takes a second or two even on a loaded machine
      const r = spawnSync(process.execPath, [BENCH, flag], { encoding: 'utf8', timeout: 60000 })
      assert.equal(r.error, undefined, 'no exit within 60 s: it started a benchmark instead of printing the help')
      assert.equal(r.status, 0, r.stderr)
      assert.equal(r.stderr, '')
      assert.match(r.stdout, /^usage: node car\/bench\/car-tool\.js /)
      for (const mode of ['--startup [--runs 15] [--checkout]', '--api [--runs 3]', '--make-car FILE [--size 1G] [--claim BYTES --at FRACTION] [--plant FRACTION]']) {
        assert.ok(r.stdout.includes(`node car/bench/car-tool.js ${mode}\n`), mode)
      }
      for (const option of ['--startup', '--api', '--kind KIND', '--size SIZE', '--runs N', '--car FILE', '--gocar PATH', '--quick', '--checkout', '--make-car FILE', '--plant FRACTION', '-h, --help']) {
        assert.match(r.stdout, new RegExp(`\\n  ${option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `), option)
      }
      for (const kind of ['small', 'large', 'raw']) assert.match(r.stdout, new RegExp(`\\n {21}${kind}: `), kind)
      // what the bench prints once it generates or times anything: none of it here
      assert.doesNotMatch(r.stdout, /MB\/s|start-up: |\.car: \d+ bytes/)
    })
  }
})
