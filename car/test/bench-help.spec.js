// The bench prints its usage on --help, and starts nothing: no CAR is generated, nothing is timed.
// A quick run from the checkout goes through every row once, so a row that no longer runs fails here.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const BENCH = fileURLToPath(new URL('../bench/car-tool.js', import.meta.url))

describe('car/bench/car-tool.js --help', function () {
  this.timeout(120000)

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

  it('--startup prints the start-up figure alone: each command against node -e 0, and the target met or not', () => {
    const r = spawnSync(process.execPath, [BENCH, '--startup', '--checkout', '--runs', '1'], { encoding: 'utf8', timeout: 60000 })
    assert.equal(r.error, undefined, 'it did not end within 60 s')
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /^start-up: 1 round, /)
    assert.match(r.stdout, /node -e 0 +\d+ ms\n/)
    for (const row of ['the embedded sample', 'kB repo export', '--version']) assert.match(r.stdout, new RegExp(`${row}\\)? +\\d+ ms  \\([+-]\\d+ ms over node -e 0\\)`))
    assert.match(r.stdout, /checking a small CAR: at most [+-]\d+ ms over node -e 0 \(target: at most \+45 ms, for the packed command\) (met|NOT MET)\n$/)
    assert.doesNotMatch(r.stdout, /MB\/s/)
  })

  it('a quick run from the checkout times every row on a small generated CAR, then the codec\'s share', () => {
    const r = spawnSync(process.execPath, [BENCH, '--quick', '--checkout', '--kind', 'raw', '--size', '2M', '--runs', '1'], { encoding: 'utf8', timeout: 110000 })
    assert.equal(r.error, undefined, 'it did not end within 110 s')
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /dag-cbor-car from this checkout \(the source\)/)
    for (const row of ['ours, default settings', 'ours --workers 2', '@ipld/car iteration + hashing', 'library verifyCar (one thread)',
      'library CarBlockIterator, workers: 2', '@ipld/car + multiformats hashers', 'floor: read + hash + copy, 2 threads']) {
      assert.match(r.stdout, new RegExp(`  ${row.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +\\d+ MB/s +[\\d.]+ s wall`), row)
    }
    assert.match(r.stdout, /default settings used \d threads?/)
    assert.equal(r.stdout.match(/ratio \(this repo \/ @ipld\/dag-cbor\): pipeline [\d.]+x/g)?.length, 2)
  })
})
