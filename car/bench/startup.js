// Start-up: what checking a small CAR costs on top of starting Node. Each command is a fresh
// process, run back to back with the others, the order rotated every round, so that machine noise
// falls on all of them alike; each figure is the median wall time over the rounds minus the median
// of `node -e 0` measured in the same run (issue 44's target: the packed command checking the repo
// export at most 45 ms more). The command timed is the packed one, as a user installs it
// (bench/packed.js: npm pack of both packages, installed into an empty project in the OS temp dir,
// removed afterwards), which runs its bundle (scripts/bundle.js) with the code cache the unmeasured
// first round's check writes; with --checkout, this checkout's bin, which runs the source. Run it
// with another Node (`/path/to/node car/bench/startup.js`) for that Node's figures.
//   the embedded sample        dag-cbor-car (no file: verify of lib/node/sample.car)
//   a repo export              dag-cbor-car repo.car: about 100 KB, a signed AT Protocol repo
//                              (340 posts under their MST), written to the OS temp dir and removed
//   --version                  the dispatcher alone
//   import / require           the library: `import 'dag-cbor-car'` and `require('dag-cbor-car')` in a
//                              project that has it installed (issue 62: at most 45 ms more, as the command)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { buildRepo, keyPair, post } from '../test/core/check/atproto/helpers/repo-builder.js'
import { installPacked } from './packed.js'

const CHECKOUT_BIN = fileURLToPath(new URL('../bin/dag-cbor-car.js', import.meta.url))
/** a difference in ms with its sign, as `+3 ms` or `-2 ms` @param {number} ms */
const signedMs = (ms) => `${ms >= 0 ? '+' : '-'}${Math.abs(ms).toFixed(0)} ms`
/** the start-up target: at most this many ms over `node -e 0` */
export const TARGET_MS = 45

/**
 * The environment timed commands run in. NODE_EXTRA_CA_CERTS makes every Node process parse that
 * file of certificates as it starts, and again when node:crypto loads (tens of ms on a machine that
 * sets it): a cost of the machine's set-up, not of the command, so the runs go without it and the
 * output says so (`unset`, empty when it was not set).
 */
export function timedEnv () {
  const env = { ...process.env }
  const unset = env.NODE_EXTRA_CA_CERTS !== undefined ? ' (NODE_EXTRA_CA_CERTS unset for the runs)' : ''
  delete env.NODE_EXTRA_CA_CERTS
  return { env, unset }
}

/** @param {number[]} xs */
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/** A signed repo export of about 100 KB, the same bytes on every run (a fixed key; k256 signatures are deterministic). */
async function repoExport () {
  const records = Array.from({ length: 340 }, (_, i) => ({
    key: `app.bsky.feed.post/3k${i.toString(36).padStart(11, '0')}`,
    value: post(`post number ${i}: ${'lorem ipsum dolor sit amet '.repeat(1 + i % 5)}`)
  }))
  const { car } = await buildRepo(records, { signer: keyPair('k256', new Uint8Array(32).fill(7)) })
  return car
}

/**
 * Time the commands, print their medians and the differences, and say whether the target is met.
 *
 * @param {{ runs?: number, checkout?: boolean, installed?: { bin: string }, log?: (line: string) => void }} [options]
 *   checkout: time this checkout's bin (the source) rather than the packed one; installed: the packed
 *   package already installed by the caller (bench/packed.js's installPacked), who removes it
 * @returns {Promise<{ label: string, median: number, overNode: number }[]>} medians in ms
 */
export async function startup ({ runs = 15, checkout = false, installed, log = console.log } = {}) {
  const packed = checkout ? null : installed ?? installPacked()
  const BIN = packed ? packed.bin : CHECKOUT_BIN
  // where `dag-cbor-car` resolves: the consumer project, or this checkout's package (its own name)
  const project = packed ? packed.dir : fileURLToPath(new URL('..', import.meta.url))
  const file = path.join(os.tmpdir(), `dag-cbor-car-startup-${process.pid}.car`)
  fs.writeFileSync(file, await repoExport())
  try {
    const size = fs.statSync(file).size
    const rows = /** @type {[string, string[], number][]} */ ([
      ['node -e 0', ['-e', '0'], 0],
      ['dag-cbor-car (the embedded sample)', [BIN], 0],
      [`dag-cbor-car repo.car (${(size / 1e3).toFixed(0)} kB repo export)`, [BIN, file], 0],
      ['dag-cbor-car --version', [BIN, '--version'], 0],
      ["import 'dag-cbor-car' (the library)", ['--input-type=module', '-e', "import 'dag-cbor-car'"], 0],
      ["require('dag-cbor-car') (the library)", ['-e', "require('dag-cbor-car')"], 0]
    ])
    const { env, unset } = timedEnv()
    /** @type {number[][]} */
    const times = rows.map(() => [])
    // one unmeasured round first: the files are in the page cache for every measured one
    for (let r = -1; r < runs; r++) {
      for (let k = 0; k < rows.length; k++) {
        const i = (k + Math.max(r, 0)) % rows.length
        const [label, argv, status] = rows[i]
        const t = performance.now()
        const out = spawnSync(process.execPath, argv, { cwd: project, encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] }) // no stdin: the bin checks its sample
        const ms = performance.now() - t
        if (out.status !== status) throw new Error(`${label}: exit status ${out.status}, expected ${status}: ${out.stderr}`)
        if (r >= 0) times[i].push(ms)
      }
    }
    const node = median(times[0])
    log(`start-up: ${runs} round${runs === 1 ? '' : 's'}, each command a fresh process, in rotating order; medians of wall time (Node ${process.version}, load average ${os.loadavg()[0].toFixed(2)}, ${os.availableParallelism()} cores); dag-cbor-car ${packed ? 'packed and installed (its bundle)' : 'from this checkout (the source)'}${unset}`)
    const results = rows.map(([label], i) => ({ label, median: median(times[i]), overNode: median(times[i]) - node }))
    for (const { label, median: m, overNode } of results) {
      log(`  ${label.padEnd(44)} ${m.toFixed(0).padStart(5)} ms${label === 'node -e 0' ? '' : `  (${signedMs(overNode)} over node -e 0)`}`)
    }
    const repo = results[2].overNode
    log(`  checking a small CAR: at most ${signedMs(repo)} over node -e 0 (target: at most +${TARGET_MS} ms${packed ? '' : ', for the packed command'}) ${repo <= TARGET_MS ? 'met' : 'NOT MET'}`)
    const library = Math.max(results[4].overNode, results[5].overNode)
    log(`  importing the library: at most ${signedMs(library)} over node -e 0 (target: at most +${TARGET_MS} ms${packed ? '' : ', for the packed library'}) ${library <= TARGET_MS ? 'met' : 'NOT MET'}`)
    return results
  } finally {
    fs.rmSync(file, { force: true })
    if (!installed) packed?.remove()
  }
}

// run directly: node car/bench/startup.js [rounds] [--checkout]
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const rounds = process.argv.slice(2).find((a) => /^\d+$/.test(a))
  await startup({ runs: Number(rounds ?? 15), checkout: process.argv.includes('--checkout') })
}
