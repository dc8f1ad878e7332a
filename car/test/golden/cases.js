// The golden test's cases: every command over every fixture CAR (and damaged copies of one), run
// in a folder of copies so that no output holds a machine's path. What a run prints about time is
// masked; everything else (stdout, stderr, exit status, the bytes of any file written) must stay
// exactly as recorded in expected.json (`node test/golden/record.js` writes it).
import { spawn, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const car = new URL('../../', import.meta.url).pathname
/** the checkout's command (its source); package.test.js passes the packed one */
const SOURCE_BIN = path.join(car, 'bin/dag-cbor-car.js')

/** Where the recording is: what every case printed when it was made (record.js writes it). */
export const RECORDING = new URL('./expected.json', import.meta.url)

/** @returns {Record<string, unknown>} the recording, by case name */
export function recorded () {
  return JSON.parse(fs.readFileSync(RECORDING, 'utf8'))
}

/** Fixture CARs, by the name each gets in the run's folder. */
const fixtures = {
  'calibnet.car': '../test/fixtures/cars/filecoin-calibnet-genesis.car',
  'sample-v1.car': '../test/fixtures/cars/filecoin-sample-v1.car',
  'slice-v2.car': 'test/fixtures/genesis-slice-v2.car',
  'slice-v2-sorted.car': 'test/fixtures/genesis-slice-v2-index-sorted.car',
  'repo-slice.car': 'test/fixtures/atproto/repo-slice-v2.car',
  'repo-small.car': 'test/fixtures/atproto/repo-small-v2.car'
}

/**
 * Damaged copies of slice-v2.car, made the same way every run: a block byte flipped, the file
 * cut inside a section, and a header length that claims more than the file holds.
 *
 * @param {Uint8Array} bytes
 */
function damaged (bytes) {
  const flipped = Uint8Array.from(bytes)
  flipped[600] ^= 0x01
  const v1 = Uint8Array.from(fixturesV1)
  return {
    'flipped.car': flipped,
    'cut.car': bytes.subarray(0, 5000),
    'v1-cut.car': v1.subarray(0, 200_000)
  }
}
let fixturesV1 = new Uint8Array(0)

/**
 * Make the run's folder: the fixtures, the damaged copies, and the inputs some commands need.
 *
 * @param {string} [bin] the command that exports the JSON lines import reads
 */
export function prepare (bin = SOURCE_BIN) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'car-golden-'))
  for (const [name, from] of Object.entries(fixtures)) fs.copyFileSync(path.join(car, from), path.join(dir, name))
  fixturesV1 = fs.readFileSync(path.join(dir, 'sample-v1.car'))
  for (const [name, bytes] of Object.entries(damaged(fs.readFileSync(path.join(dir, 'slice-v2.car'))))) fs.writeFileSync(path.join(dir, name), bytes)
  for (const name of ['repo-small', 'calibnet']) fs.writeFileSync(path.join(dir, `${name}.jsonl`), execFileSync(process.execPath, [bin, 'export', `${name}.car`], { cwd: dir, maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'ignore'] }))
  // a line whose bytes no longer match its CID
  fs.writeFileSync(path.join(dir, 'bad.jsonl'), fs.readFileSync(path.join(dir, 'repo-small.jsonl'), 'utf8').replace(/"text":"(.)/, '"text":"!'))
  fs.writeFileSync(path.join(dir, 'keep.txt'), '# two blocks of calibnet\nbafyreiaqpwbbyjo4a42saasj36kkrpv4tsherf2e7bvezkert2a7dhonoi\nbafy2bzacecnamqgqmifpluoeldx7zzglxcljo6oja4vrmtj7432rphldpdmm2\n')
  return dir
}

const cars = Object.keys(fixtures).concat(['flipped.car', 'cut.car', 'v1-cut.car'])
const calibnetRoot = 'bafy2bzacecnamqgqmifpluoeldx7zzglxcljo6oja4vrmtj7432rphldpdmm2'
const sampleRoot = 'bafy2bzaced4ueelaegfs5fqu4tzsh6ywbbpfk3cxppupmxfdhbpbhzawfw5oy'

/** @returns {{ name: string, args: string[], stdin?: string, out?: string }[]} */
export function cases () {
  /** @type {{ name: string, args: string[], stdin?: string, out?: string }[]} */
  const list = []
  const add = (/** @type {string[]} */ args, /** @type {{ stdin?: string, out?: string }} */ more = {}) => list.push({ name: args.join(' ') + (more.stdin ? ` < ${more.stdin}` : ''), args, ...more })
  for (const f of cars) {
    add(['verify', f])
    add(['inspect', f])
    add(['ls', f, '--links'])
    add(['export', f])
    // the cut CARv2 fails at its header, the same for every command: these four say so
    if (f === 'cut.car') continue
    add(['verify', f, '--json'])
    add(['verify', f, '--relaxed'])
    add(['verify', f, '--partial', '--json'])
    add(['verify', f, '--out', 'out.car'], { out: 'out.car' })
    add(['verify', f, '--out', 'out.car', '--canonicalize', '--map', 'map.txt'], { out: 'out.car' })
    add(['verify', f, '--workers', '2', '--json'])
    add(['inspect', f, '--json', '--strict'])
    add(['ls', f, '--json'])
    add(['roots', f])
    add(['get-block', f, calibnetRoot, '--json'])
    add(['get-block', f, sampleRoot, '--dag-json', '--pretty'])
    add(['get-dag', f, sampleRoot, '--out', 'out.car', '--json'], { out: 'out.car' })
    add(['filter', f, '--out', 'out.car', '--codec', 'raw'], { out: 'out.car' })
    add(['filter', f, '--out', 'out.car', '--cids', 'keep.txt', '--json'], { out: 'out.car' })
    add(['diff', f, 'slice-v2.car'])
    add(['repo', 'verify', f, '--json'])
    add(['repo', 'ls', f])
  }
  add(['verify'], { stdin: 'calibnet.car' })
  add(['-'], { stdin: 'flipped.car' })
  add([])
  add(['inspect', 'calibnet.car', 'sample-v1.car', 'slice-v2.car', '--json'])
  add(['diff', 'slice-v2.car', 'slice-v2-sorted.car', '--json'])
  add(['import', 'repo-small.jsonl', '--out', 'out.car'], { out: 'out.car' })
  add(['import', 'calibnet.jsonl', '--out', 'out.car', '--json'], { out: 'out.car' })
  add(['import', '--out', 'out.car'], { stdin: 'bad.jsonl', out: 'out.car' })
  add(['nonsense'])
  add(['verify', 'no-such.car'])
  add(['verify', 'calibnet.car', '--max-block-size', '100'])
  return list
}

/**
 * Run one case in `dir`; what it printed, masked where it tells time, and the hash of its output.
 *
 * @param {string} dir
 * @param {{ args: string[], stdin?: string, out?: string }} c
 * @param {string} [bin] the command run
 */
export function run (dir, c, bin = SOURCE_BIN) {
  if (c.out) for (const f of ['out.car', 'map.txt']) fs.rmSync(path.join(dir, f), { force: true })
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...c.args], { cwd: dir, stdio: [c.stdin ? fs.openSync(path.join(dir, c.stdin), 'r') : 'ignore', 'pipe', 'pipe'] })
    /** @type {Buffer[]} */ const out = []
    /** @type {Buffer[]} */ const err = []
    child.stdout.on('data', (d) => out.push(d))
    child.stderr.on('data', (d) => err.push(d))
    child.on('error', reject)
    child.on('close', (status) => {
      const stdout = Buffer.concat(out)
      const result = { status, stdout: brief(mask(stdout.toString('latin1'))), stderr: brief(mask(Buffer.concat(err).toString('utf8'))) }
      if (c.out) {
        const file = path.join(dir, c.out)
        const written = fs.existsSync(file) ? fs.readFileSync(file) : null
        Object.assign(result, { output: written && createHash('sha256').update(written).digest('hex') })
        if (fs.existsSync(path.join(dir, 'map.txt'))) Object.assign(result, { map: fs.readFileSync(path.join(dir, 'map.txt'), 'utf8') })
      }
      resolve(result)
    })
  })
}

/**
 * Long output (a whole export) is kept as its start and the hash of all of it.
 *
 * @param {string} text
 */
function brief (text) {
  if (text.length <= 4000) return text
  return { start: text.slice(0, 1000), length: text.length, sha256: createHash('sha256').update(text, 'latin1').digest('hex') }
}

/**
 * Run every case, two at a time.
 *
 * @param {string} dir
 * @param {{ name: string, args: string[], stdin?: string, out?: string }[]} list
 * @param {string} [bin] the command run
 */
export async function runAll (dir, list, bin = SOURCE_BIN) {
  /** @type {Record<string, unknown>} */
  const results = {}
  // cases that write out.car and map.txt run one after another
  const shared = list.filter((c) => c.out)
  const alone = list.filter((c) => !shared.includes(c))
  const lane = async (/** @type {typeof list} */ queue) => { for (const c of queue) results[c.name] = await run(dir, c, bin) }
  await Promise.all([lane(shared), lane(alone)])
  return results
}

/** @param {string} text */
function mask (text) {
  return text
    .replace(/time {8}[^\n]*/g, 'time        <masked>')
    .replace(/"seconds":[0-9.e-]+,"mbPerSec":[0-9.e+-]+/g, '"seconds":0,"mbPerSec":0')
    .replace(/[0-9.]+ (ms|s)\b(?=[^\n]*(MB\/s|kB\/s|GB\/s|B\/s))/g, '<t>')
}
