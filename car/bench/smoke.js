// The bench's smoke check: the start-up figure and a quick run from the checkout, each once, and
// their output's shape checked (every row of the throughput table ran and printed a rate). It runs
// the bench, so it is not in `npm test` (test/bench-help.spec.js checks the help alone, starting
// nothing); run it after changing a bench file: `node bench/smoke.js` (a minute or two; nothing in
// it depends on how long anything takes, and no figure is judged).
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const BENCH = fileURLToPath(new URL('./car-tool.js', import.meta.url))

/** @param {string[]} args @returns {string} the bench's standard output, after it exited 0 */
function bench (args) {
  console.log(`node bench/car-tool.js ${args.join(' ')}`)
  const r = spawnSync(process.execPath, [BENCH, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  assert.equal(r.error, undefined)
  assert.equal(r.status, 0, `node bench/car-tool.js ${args.join(' ')}: exit status ${r.status}`)
  process.stdout.write(r.stdout)
  return r.stdout
}

/** @param {string} text */
const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

// --startup: the start-up figure alone, each command against node -e 0, and the target met or not
{
  const out = bench(['--startup', '--checkout', '--runs', '1'])
  assert.match(out, /^start-up: 1 round, /)
  assert.match(out, /node -e 0 +\d+ ms\n/)
  for (const row of ['the embedded sample', 'kB repo export', '--version']) assert.match(out, new RegExp(`${escaped(row)}\\)? +\\d+ ms  \\([+-]\\d+ ms over node -e 0\\)`), row)
  assert.match(out, /checking a small CAR: at most [+-]\d+ ms over node -e 0 \(target: at most \+45 ms, for the packed command\) (met|NOT MET)\n$/)
  assert.doesNotMatch(out, /MB\/s/)
}

// a quick run from the checkout: every row of the table once on a small generated CAR, then the codec's share
{
  const out = bench(['--quick', '--checkout', '--kind', 'raw', '--size', '2M', '--runs', '1'])
  assert.match(out, /dag-cbor-car from this checkout \(the source\)/)
  for (const row of ['ours, default settings', 'ours --workers 1', 'ours --workers 2', '@ipld/car iteration', '@ipld/car iteration + hashing',
    'library verifyCar (one thread)', 'library CarBlockIterator', 'library CarBlockIterator, workers: 2', '@ipld/car + multiformats hashers',
    'floor: read + hash, 2 threads', 'floor: read + hash + copy, 2 threads']) {
    assert.match(out, new RegExp(`  ${escaped(row)} +\\d+ MB/s +[\\d.]+ s wall`), row)
  }
  assert.match(out, /default settings used \d threads?/)
  assert.equal(out.match(/ratio \(this repo \/ @ipld\/dag-cbor\): pipeline [\d.]+x/g)?.length, 2)
}

console.log('bench smoke check: the start-up figure and every row of a quick run printed as expected')
