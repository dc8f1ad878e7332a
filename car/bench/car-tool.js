// Bench: the CAR tool against its floors and go-car. On a generated CAR (in the OS temp dir, removed
// afterwards; never committed), each row a separate process, run back to back, each printed with MB/s
// (file size over the process's wall time), CPU seconds (user + system, all threads) and peak RSS,
// and the load average at the time:
//   ours, default settings                    the command as a user runs it (start-up included)
//   ours --workers 1, ours --workers 2        the same with one thread, and with two
//   @ipld/car iteration                       CarBlockIterator over the file: the JS floor
//   @ipld/car iteration + hashing             the same, plus hashing every block as the tool does
//   library verifyCar (one thread)            the package's verifyCar on the file's path (issue 32: within 10% of --workers 1)
//   library CarBlockIterator                  its block iterator, hashes verified (issue 32: at least 2x the @ipld/car row)
//   library CarBlockIterator, workers: 2      the same, hashing on a worker thread too
//   @ipld/car + multiformats hashers          what scripts do today: @ipld/car's CarBlockIterator, each block hashed
//                                             with the multiformats hasher its CID names and compared
//   go-car car verify                         with --gocar PATH (build it from github.com/ipld/go-car, cmd/car)
//   floor: read + hash, 2 threads             the blocks read by position and hashed on two threads that share
//                                             the batches, nothing else (bench/hash-floor.js): what no iterator
//                                             that hashes every block can beat here
//   floor: read + hash + copy, 2 threads      the same, each block also copied into an array of its own
// The rows other than the command's run bench/car-rows.js, which imports only what each row uses.
// The command's rows and the library's time them as a user installs them (bench/packed.js: both
// packages packed and installed into an empty project: the command runs its bundle in every
// thread, the library its source modules), as the start-up figure does; with --checkout, this
// checkout's bin and entry, which load the source's ES modules one by one in each thread.
// Then the codec's share: the same pipeline on the real CARs, with this repo's codec and with @ipld/dag-cbor.
// Last, small records (bench/small-records.js, issue 63; alone with --only small-records).
// First of all, the start-up figure (startup.js): the packed command checking a small CAR, over `node -e 0`.
//
// Usage: node bench/car-tool.js [--size 300M] [--runs 3] [--car FILE] [--gocar PATH] [--quick] [--checkout]
//        node bench/car-tool.js --startup [--runs 15] [--checkout]   the start-up figure alone (a minute: it packs first)
//
// Also makes large CARs for memory measurements (never committed; write them under the temp dir):
//   node bench/car-tool.js --make-car /tmp/big.car [--size 1G] [--claim BYTES --at FRACTION] [--plant FRACTION]
// --claim plants one section whose length varint claims BYTES, at FRACTION of the file (e.g. 0.5);
// --plant makes the header at FRACTION of the file non-canonical (an integer in 9 bytes), so that
// --canonicalize rewrites it and every later header, which links to it through the chain.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { CarReader } from '@ipld/car'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import * as ours from 'dag-cbor-fast'
import { roundTrip, defaultCodecUrl } from '../lib/node/run.js'
import { openInput } from '../lib/node/input-source.js'
import { parseSize } from '../lib/core/report/units.js'
import { startup, timedEnv, TARGET_MS } from './startup.js'
import { installPacked } from './packed.js'
import { writeLayout } from './hash-floor.js'
import { smallRecords } from './small-records.js'

/** the environment every timed row runs in, and what the table's header says of it (startup.js) */
const TIMED = timedEnv()

/** @param {number} n */
const varint = (n) => {
  const out = []
  while (n >= 0x80) { out.push((n % 0x80) | 0x80); n = Math.floor(n / 0x80) }
  out.push(n)
  return Uint8Array.from(out)
}

/** The kinds of CAR the bench generates (--kind): what each is made of. */
const KINDS = {
  small: 'small blocks: AT-Protocol-like posts (sha2-256), a raw blob of 1-17 KB in 16, and every 64th block a Filecoin-like header (blake2b-256) linking the previous header and the posts since',
  large: 'larger blocks: DAG-CBOR records of 100 B to 25 KB (a byte string of random length, sha2-256), every 64th an index linking the 63 before it',
  raw: 'mostly raw blocks: 64-256 KB file chunks (sha2-256), every 64th block a DAG-CBOR node linking the 63 chunks before it'
}

/**
 * A deterministic CAR of about `size` bytes, of one of the KINDS.
 *
 * @param {string} file
 * @param {{ size: number, kind?: keyof typeof KINDS, claim?: number, at?: number, plant?: number }} options
 */
async function makeCar (file, { size, kind = 'small', claim, at = 0.5, plant }) {
  let seed = 0x9e3779b9
  const rnd = () => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) / 2 ** 32 }
  const bytesOf = (/** @type {number} */ n) => { const b = new Uint8Array(n); for (let i = 0; i < n; i++) b[i] = rnd() * 256; return b }
  const out = fs.createWriteStream(file, { highWaterMark: 1 << 20 })
  let written = 0
  const put = async (/** @type {Uint8Array} */ chunk) => {
    written += chunk.length
    if (!out.write(chunk)) await once(out, 'drain')
  }
  const block = async (/** @type {CID} */ cid, /** @type {Uint8Array} */ bytes) => {
    await put(varint(cid.bytes.length + bytes.length))
    await put(cid.bytes)
    await put(bytes)
  }
  const rootBytes = ours.encode({ note: 'bench/car-tool.js --make-car' })
  const root = CID.create(1, 0x71, sha256.digest(rootBytes))
  const header = ours.encode({ roots: [root], version: 1 })
  await put(varint(header.length))
  await put(header)
  await block(root, rootBytes)
  /** @type {CID[]} */
  let recent = []
  /** @type {CID | null} */
  let parent = null
  let planted = claim === undefined
  for (let n = 0; written < size; n++) {
    if (kind !== 'small') {
      if (n % 64 === 63) {
        const bytes = ours.encode({ index: n, links: recent })
        await block(CID.create(1, 0x71, sha256.digest(bytes)), bytes)
        recent = []
      } else if (kind === 'large') {
        const bytes = ours.encode({ $type: 'record', n, data: bytesOf(80 + Math.floor(rnd() * 24900)) })
        const cid = CID.create(1, 0x71, sha256.digest(bytes))
        recent.push(cid)
        await block(cid, bytes)
      } else {
        const bytes = bytesOf(65536 + Math.floor(rnd() * 196608))
        const cid = CID.create(1, 0x55, sha256.digest(bytes))
        recent.push(cid)
        await block(cid, bytes)
      }
      continue
    }
    if (!planted && written >= size * at) {
      await put(varint(claim ?? 0))
      await put(bytesOf(64)) // what follows the claim: far fewer bytes than claimed
      planted = true
    }
    if (n % 64 === 63) {
      const marker = 0x7e57ab1e
      let bytes = ours.encode([parent ? [parent] : [], recent, plant !== undefined && written >= size * plant ? marker : n, bytesOf(96), [2, bytesOf(96)], 1700000000 + n])
      if (plant !== undefined && written >= size * plant) {
        // the marker as a 64-bit integer (1b 00000000 7e57ab1e): the same value, not in shortest form
        const i = Buffer.from(bytes).indexOf(Buffer.from('1a7e57ab1e', 'hex'))
        bytes = Buffer.concat([bytes.subarray(0, i), Buffer.from('1b000000007e57ab1e', 'hex'), bytes.subarray(i + 5)])
        plant = undefined
      }
      parent = CID.create(1, 0x71, blake2b256.digest(bytes))
      await block(parent, bytes)
      recent = []
    } else if (n % 16 === 7) {
      const bytes = bytesOf(1024 + Math.floor(rnd() * 16384))
      await block(CID.create(1, 0x55, sha256.digest(bytes)), bytes)
    } else {
      const words = Array.from({ length: 5 + Math.floor(rnd() * 60) }, () => Math.floor(rnd() * 1e6).toString(36))
      const bytes = ours.encode({ $type: 'app.bsky.feed.post', text: words.join(' '), createdAt: new Date(1.7e12 + n * 1000).toISOString(), langs: ['en'], reply: recent.length ? { parent: recent[recent.length - 1] } : null })
      const cid = CID.create(1, 0x71, sha256.digest(bytes))
      recent.push(cid)
      await block(cid, bytes)
    }
  }
  out.end()
  await once(out, 'finish')
  console.log(`${file}: ${written} bytes, ${kind} blocks${claim !== undefined ? `, a section claiming ${claim} bytes at about ${Math.round(at * 100)}%` : ''}${args.plant ? `, a non-canonical header at about ${Math.round(Number(args.plant) * 100)}%` : ''}`)
}

const { values: args } = parseArgs({
  strict: false, // imported by bench/run.js, whose own flags are in process.argv
  options: {
    'make-car': { type: 'string' },
    size: { type: 'string' },
    claim: { type: 'string' },
    at: { type: 'string' },
    plant: { type: 'string' },
    kind: { type: 'string' },
    runs: { type: 'string' },
    car: { type: 'string' },
    gocar: { type: 'string' },
    quick: { type: 'boolean' },
    startup: { type: 'boolean' },
    api: { type: 'boolean' },
    only: { type: 'string' },
    checkout: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' }
  }
})

const USAGE = `usage: node car/bench/car-tool.js [--size 300M] [--runs 3] [--car FILE] [--gocar PATH] [--quick] [--checkout]
       node car/bench/car-tool.js --startup [--runs 15] [--checkout]
       node car/bench/car-tool.js --api [--runs 3]
       node car/bench/car-tool.js --only small-records [--runs 3]
       node car/bench/car-tool.js --make-car FILE [--size 1G] [--claim BYTES --at FRACTION] [--plant FRACTION]

  (first)            the start-up figure: checking the embedded sample and a 100 KB repo export,
                     median wall time over node -e 0's, measured in the same run (target: the repo export within +${TARGET_MS} ms)
  --startup          print only the start-up figure (--runs N rounds, default 15), then stop
  --api              only the @ipld/car drop-in against @ipld/car (bench/api.js: CarReader.fromBytes
                     + get, CarIndexedReader + get, CarIndexer; 100 MB of larger blocks, 10 MB of
                     small ones; seconds, ratios and peak RSS), then stop
  --only small-records  only the small-records section (bench/small-records.js: 200,000 post-like
                     records, every hashed reader against @atcute/car, @ipld/car and the floor;
                     also printed last by a whole run), then stop

  (no --car)         generates a CAR of --size of each kind in the OS temp dir (removed afterwards)
                     and times the tool's verify against @ipld/car and, with --gocar, go-car's car verify
  --kind KIND        only this kind of generated CAR (and with --make-car): small, large or raw
${Object.entries(KINDS).map(([k, what]) => `                     ${k}: ${what}`).join('\n')}
  --size SIZE        the generated CAR's size, e.g. 300M or 1G (default 300M; with --quick 64M;
                     with --make-car 1G)
  --runs N           runs per row (default 3)
  --car FILE         time this CAR instead of a generated one
  --gocar PATH       also time go-car's car verify (built from github.com/ipld/go-car, cmd/car)
  --quick            a 64M CAR and one run: a smoke test of the bench itself
  --checkout         time this checkout's command (the source) rather than the package packed and
                     installed into an empty project (its bundle), as a user runs it
  --make-car FILE    only write a generated CAR to FILE (for memory measurements), then stop
  --claim BYTES --at FRACTION   with --make-car: a section claiming BYTES at FRACTION of the file
  --plant FRACTION   with --make-car: make the header at FRACTION of the file non-canonical
  -h, --help         this help (nothing is generated or timed)`

// run directly (bench/run.js imports this file with its own flags, and prints its own help)
if (args.help && process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.stdout.write(USAGE + '\n')
  process.exit(0)
}

/** @returns {keyof typeof KINDS | undefined} */
function kindOption () {
  if (args.kind === undefined) return undefined
  if (!Object.hasOwn(KINDS, String(args.kind))) throw new Error(`--kind ${args.kind}: expected one of ${Object.keys(KINDS).join(', ')}`)
  return /** @type {keyof typeof KINDS} */ (String(args.kind))
}

/** @param {string} text e.g. 300M, 1G */
function sizeOption (text) {
  const size = parseSize(text)
  if (!(size > 0)) throw new Error(`--size ${text}: expected e.g. 300M or 1G`)
  return size
}

if (args.api) {
  const { execFileSync } = await import('node:child_process')
  execFileSync(process.execPath, [fileURLToPath(new URL('./api.js', import.meta.url)), '--runs', String(args.runs ?? 3)], { stdio: 'inherit' })
  process.exit(0)
}

if (args.only !== undefined) {
  if (args.only !== 'small-records') throw new Error(`--only ${args.only}: expected small-records`)
  smallRecords({ runs: Number(args.runs ?? 3) })
  process.exit(0)
}

if (typeof args['make-car'] === 'string') {
  await makeCar(args['make-car'], { size: sizeOption(String(args.size ?? '1G')), kind: kindOption(), claim: args.claim === undefined ? undefined : Number(args.claim), at: args.at === undefined ? undefined : Number(args.at), plant: args.plant === undefined ? undefined : Number(args.plant) })
  process.exit(0)
}

if (args.startup) {
  await startup({ runs: args.runs === undefined ? undefined : Number(args.runs), checkout: !!args.checkout })
  process.exit(0)
}

/**
 * Run one row as a child process; its wall time from here, its CPU and peak RSS from itself (or,
 * for go-car, from /usr/bin/time when it is there).
 *
 * @param {string[]} argv
 * @param {boolean} timed by /usr/bin/time
 * @returns {{ seconds: number, cpu: number | null, rss: number | null, stdout: string }}
 */
function measure (argv, timed) {
  const useTime = timed && fs.existsSync('/usr/bin/time')
  const command = useTime ? ['/usr/bin/time', '-f', '@@time %U %S %M', ...argv] : argv
  const t = performance.now()
  const r = spawnSync(command[0], command.slice(1), { encoding: 'utf8', maxBuffer: 1 << 26, env: TIMED.env })
  const seconds = (performance.now() - t) / 1000
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (${r.status}): ${r.stderr}`)
  if (timed) {
    const m = /@@time (\S+) (\S+) (\d+)/.exec(r.stderr)
    return { seconds, cpu: m ? Number(m[1]) + Number(m[2]) : null, rss: m ? Number(m[3]) * 1024 : null, stdout: r.stdout }
  }
  const last = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}')
  return { seconds, cpu: last.cpu, rss: last.rss, stdout: r.stdout }
}

/**
 * Issue 24's speed targets, as ratios of the medians measured above in the same run.
 *
 * @param {number} size
 * @param {Map<string, number[]>} walls
 * @param {number | null} defaultThreads the threads the default run said it used
 */
function targets (size, walls, defaultThreads) {
  const mid = (/** @type {string} */ label) => {
    const xs = [...(walls.get(label) ?? [])].sort((a, b) => a - b)
    return xs.length ? xs[xs.length >> 1] : NaN
  }
  const one = mid('ours --workers 1')
  const two = mid('ours --workers 2')
  const byDefault = mid('ours, default settings')
  const gocar = mid('go-car car verify')
  const verdict = (/** @type {boolean} */ met) => met ? 'met' : 'NOT MET'
  if (!Number.isNaN(gocar)) console.log(`  default settings / go-car car verify: ${(gocar / byDefault).toFixed(2)}x (issue 34: at least 1x) ${verdict(gocar / byDefault >= 1)}`)
  console.log(`  medians: default ${(size / 1e6 / byDefault).toFixed(0)} MB/s, --workers 1 ${(size / 1e6 / one).toFixed(0)} MB/s, --workers 2 ${(size / 1e6 / two).toFixed(0)} MB/s${Number.isNaN(gocar) ? '' : `, go-car ${(size / 1e6 / gocar).toFixed(0)} MB/s`}`)
  if (defaultThreads !== null) {
    // issue 34: more workers only where they are faster (the default's choice against the faster of the two, 3% for noise)
    const faster = two < one ? 2 : 1
    const met = defaultThreads === faster || Math.abs(one - two) <= 0.03 * Math.min(one, two)
    console.log(`  default settings used ${defaultThreads} thread${defaultThreads === 1 ? '' : 's'}; the faster here: --workers ${faster} (${one.toFixed(2)} s vs ${two.toFixed(2)} s) (issue 34: more workers only where faster) ${verdict(met)}`)
  }
  console.log(`  --workers 1: ${(size / 1e6 / one).toFixed(0)} MB/s (target: at least 120 MB/s) ${verdict(size / 1e6 / one >= 120)}`)
  // issue 24 asked for 1.6x here and ended blocked on two cores; issue 34's rule above (the default
  // takes the faster) replaced it, so this ratio is printed without a verdict
  console.log(`  --workers 2 / --workers 1: ${(one / two).toFixed(2)}x`)
  // issue 32's library targets
  const libraryVerify = mid('library verifyCar (one thread)')
  const libraryIterate = mid('library CarBlockIterator')
  const libraryIterate2 = mid('library CarBlockIterator, workers: 2')
  const scripts = mid('@ipld/car + multiformats hashers')
  console.log(`  library CarBlockIterator (hashes verified) / @ipld/car + multiformats hashers: ${(scripts / libraryIterate).toFixed(2)}x faster (issue 32: at least 2x) ${verdict(scripts / libraryIterate >= 2)}`)
  console.log(`  the same with workers: 2: ${(scripts / libraryIterate2).toFixed(2)}x faster ${verdict(scripts / libraryIterate2 >= 2)}`)
  console.log(`  library verifyCar (one thread) / --workers 1: ${(libraryVerify / one).toFixed(2)}x the time (issue 32: at most 1.10x) ${verdict(libraryVerify / one <= 1.1)}`)
  // how far 2x can go on this machine: the floors against the same peer
  const floor = mid('floor: read + hash, 2 threads')
  const floorCopy = mid('floor: read + hash + copy, 2 threads')
  console.log(`  @ipld/car + multiformats hashers / floors: ${(scripts / floor).toFixed(2)}x (read + hash, 2 threads), ${(scripts / floorCopy).toFixed(2)}x (read + hash + copy, 2 threads)`)
  // an iterator handing out owned blocks does at least the second floor's work, and more
  console.log(`  2x @ipld/car + multiformats hashers leaves ${((scripts / 2 - floorCopy) * 1000).toFixed(0)} ms beyond the read + hash + copy floor for the rest (the library's imports, sections, CIDs, handing blocks between threads)`)
}

/**
 * The throughput table on the given CAR, or on a generated one of each kind in turn.
 *
 * @param {{ bin: string } | undefined} installed the packed package's install (bench/packed.js),
 *   whose command the rows time; undefined: this checkout's
 */
async function throughput (installed) {
  if (typeof args.car === 'string') return throughputOf(args.car, installed)
  const quick = !!args.quick || process.argv.includes('--quick')
  const size = sizeOption(String(args.size ?? (quick ? '64M' : '300M')))
  const only = kindOption()
  for (const kind of only ? [only] : /** @type {(keyof typeof KINDS)[]} */ (Object.keys(KINDS))) {
    const file = path.join(os.tmpdir(), `dag-cbor-car-bench-${process.pid}-${kind}.car`)
    await makeCar(file, { size, kind })
    try {
      await throughputOf(file, installed)
    } finally {
      fs.rmSync(file, { force: true })
    }
  }
}

/**
 * @param {string} file
 * @param {{ bin: string } | undefined} installed as throughput's
 */
async function throughputOf (file, installed) {
  const quick = !!args.quick || process.argv.includes('--quick')
  const runs = Number(args.runs ?? (quick ? 1 : 3))
  {
    const size = fs.statSync(file).size
    const row = fileURLToPath(new URL('car-rows.js', import.meta.url))
    const bin = installed?.bin ?? fileURLToPath(new URL('../bin/dag-cbor-car.js', import.meta.url))
    const rows = /** @type {[string, string[], boolean][]} */ ([
      // the command as a user runs it, start-up included: default settings, then one and two threads
      ['ours, default settings', [process.execPath, bin, 'verify', file], true],
      ['ours --workers 1', [process.execPath, bin, 'verify', '--workers', '1', file], true],
      ['ours --workers 2', [process.execPath, bin, 'verify', '--workers', '2', file], true],
      ['@ipld/car iteration', [process.execPath, row, 'iterate', file], false],
      ['@ipld/car iteration + hashing', [process.execPath, row, 'iterate-hash', file], false],
      // issue 32: the library, as a script calls it, beside what scripts do today
      ['library verifyCar (one thread)', [process.execPath, row, 'library-verify', file], false],
      ['library CarBlockIterator', [process.execPath, row, 'library-iterate', file], false],
      ['library CarBlockIterator, workers: 2', [process.execPath, row, 'library-iterate', file, '2'], false],
      ['@ipld/car + multiformats hashers', [process.execPath, row, 'ipld-verify', file], false]
    ])
    if (typeof args.gocar === 'string') rows.push(['go-car car verify', [args.gocar, 'verify', file], true])
    // the floors read the blocks' places from a layout written now, outside any timed row
    const layout = `${file}.layout`
    const { CarBlockIterator } = await import('../lib/node/node-library.js')
    await writeLayout(await CarBlockIterator.fromIterable(file, { verifyHashes: false, viewBytes: true }), layout)
    const floorScript = fileURLToPath(new URL('hash-floor.js', import.meta.url))
    rows.push(['floor: read + hash, 2 threads', [process.execPath, floorScript, file, layout, '2'], false])
    rows.push(['floor: read + hash + copy, 2 threads', [process.execPath, floorScript, file, layout, '2', 'copy'], false])
    console.log(`${path.basename(file)}: ${(size / 1e6).toFixed(0)} MB, ${runs} run${runs === 1 ? '' : 's'} of each row, back to back; ${os.availableParallelism()} cores; dag-cbor-car ${installed ? 'packed and installed (its bundle)' : 'from this checkout (the source)'}${TIMED.unset}`)
    /** @type {Map<string, number[]>} wall seconds of each row's runs */
    const walls = new Map(rows.map(([label]) => [label, []]))
    /** @type {number | null} */
    let defaultThreads = null
    try {
      for (let r = 0; r < runs; r++) {
        for (const [label, argv, timed] of rows) {
          const load = os.loadavg()[0].toFixed(2)
          const m = measure(argv, timed)
          walls.get(label)?.push(m.seconds)
          const threads = label === 'ours, default settings' ? /, (\d+) workers?\n/.exec(m.stdout) : null
          if (threads) defaultThreads = Number(threads[1])
          console.log(`  ${label.padEnd(36)} ${(size / 1e6 / m.seconds).toFixed(0).padStart(5)} MB/s  ${m.seconds.toFixed(2).padStart(6)} s wall  ` +
            `${m.cpu === null ? '     ?' : m.cpu.toFixed(2).padStart(6)} s CPU  ${m.rss === null ? '    ?' : (m.rss / 1e6).toFixed(0).padStart(5)} MB peak RSS  (load ${load})`)
        }
      }
    } finally {
      fs.rmSync(layout, { force: true })
    }
    targets(size, walls, defaultThreads)
  }
}

const installed = args.checkout ? undefined : installPacked()
// the library rows import the installed package too (car-rows.js)
if (installed) TIMED.env.DAG_CBOR_CAR_FROM = installed.dir
try {
  await startup({ installed, checkout: !installed })
  await throughput(installed)
} finally {
  installed?.remove()
}

const carDir = new URL('../../test/fixtures/cars/', import.meta.url)
const cars = ['filecoin-calibnet-genesis.car', 'filecoin-sample-v1.car'].map((name) => {
  const file = fileURLToPath(new URL(name, carDir))
  if (!fs.existsSync(file)) throw new Error(`missing test data: ${file} (see test/fixtures/README.md)`)
  return file
})
const codecs = [['this repo', defaultCodecUrl()], ['@ipld/dag-cbor', import.meta.resolve('@ipld/dag-cbor')]]
const RUNS = 9

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

/**
 * The codec's share of the pipeline, over the DAG-CBOR blocks in memory: strict decode + re-encode,
 * and a relaxed decode where the strict one throws (what the tool does to classify a block). The
 * codecs alternate pass by pass (order flipped each round) after three warm-up passes each.
 * Returns MB/s per codec.
 */
async function codecOnly (/** @type {string} */ file, /** @type {any[]} */ mods) {
  const reader = await CarReader.fromBytes(new Uint8Array(fs.readFileSync(file)))
  const blocks = []
  for await (const b of reader.blocks()) if (b.cid.code === 0x71) blocks.push(b.bytes)
  const bytes = blocks.reduce((n, b) => n + b.length, 0)
  const pass = (/** @type {any} */ codec) => {
    const t = performance.now()
    for (const b of blocks) {
      try { codec.encode(codec.decode(b)) } catch { codec.decode(b, { relaxed: true }) }
    }
    return (performance.now() - t) / 1000
  }
  for (let w = 0; w < 3; w++) for (const m of mods) pass(m)
  const times = mods.map(() => /** @type {number[]} */ ([]))
  for (let r = 0; r < RUNS; r++) {
    const order = r & 1 ? [...mods.keys()].reverse() : [...mods.keys()]
    for (const k of order) times[k].push(pass(mods[k]))
  }
  return times.map((ts) => bytes / 1e6 / median(ts))
}

for (const file of cars) {
  const size = fs.statSync(file).size
  console.log(`${file.split('/').pop()} (${(size / 1e6).toFixed(2)} MB)`)
  // interleave the codecs run by run so machine noise hits both alike; run 0 is the warm-up
  /** @type {number[][]} */
  const secs = codecs.map(() => [])
  const classes = codecs.map(() => '')
  for (let r = 0; r <= RUNS; r++) {
    for (const [k, [, url]] of codecs.entries()) {
      const source = await openInput(file)
      const s = await roundTrip({ source, workers: 1, codecUrl: url })
      await source.close()
      if (r > 0) secs[k].push(s.seconds)
      classes[k] = `${s.dagCbor.canonical}/${s.dagCbor.nonCanonical}/${s.dagCbor.invalid}`
    }
  }
  const rates = []
  const codecRates = await codecOnly(file, await Promise.all(codecs.map(([, url]) => import(url))))
  for (const [k, [label]] of codecs.entries()) {
    const pipeline = size / 1e6 / median(secs[k])
    const codecRate = codecRates[k]
    rates.push([pipeline, codecRate])
    console.log(`  ${label.padEnd(15)} pipeline ${pipeline.toFixed(1).padStart(6)} MB/s   decode+encode only ${codecRate.toFixed(1).padStart(6)} MB/s   (canonical/non-canonical/invalid ${classes[k]})`)
  }
  console.log(`  ratio (this repo / @ipld/dag-cbor): pipeline ${(rates[0][0] / rates[1][0]).toFixed(2)}x, decode+encode only ${(rates[0][1] / rates[1][1]).toFixed(2)}x`)
}

// issue 63: small records, every hashed reader against the fastest JS reader and the floor
console.log('')
smallRecords({ runs: Number(args.runs ?? (args.quick ? 1 : 3)) })
