// One build per process (bin/dag-cbor-car.js, scripts/bundle.js): a checkout runs its source,
// edited or not, and never a bundle; the packed package's command runs its bundle in the main
// thread, in the worker threads and in the children of a many-file run alike, with the code cache
// its first check writes, and a cache for another build is not used.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import crypto from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { encode } from 'dag-cbor-fast'
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import { buildBundle, checkAscii } from '../scripts/bundle.js'
import { assertBuiltTogether, assertCacheTaken, BUNDLE_NAME } from './helpers/code-cache.js'

const car = fileURLToPath(new URL('../', import.meta.url))
const REPO_CAR = path.join(car, 'test/fixtures/atproto/repo-small-v2.car')
const GENESIS = path.join(car, '../test/fixtures/cars/filecoin-calibnet-genesis.car')

/** @param {string} bin @param {string[]} args */
const run = (bin, args) => {
  const { NODE_OPTIONS, ...env } = process.env
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] })
}

/** @param {string} stdout a --json summary, without its timings */
const counts = (stdout) => {
  const { seconds, mbPerSec, input, ...rest } = JSON.parse(stdout)
  return rest
}

/**
 * A CARv1 of `n` small DAG-CBOR blocks (sha2-256), each about 300 bytes.
 *
 * @param {number} n
 */
function largeCar (n) {
  const varint = (/** @type {number} */ x) => { const o = []; while (x >= 0x80) { o.push((x & 0x7f) | 0x80); x >>>= 7 } o.push(x); return Uint8Array.from(o) }
  /** @type {Uint8Array[]} */
  const parts = []
  /** @type {CID | null} */
  let root = null
  for (let i = 0; i < n; i++) {
    const bytes = encode({ i, data: crypto.randomBytes(200), text: 'block '.repeat(8) })
    const cid = CID.create(1, 0x71, createDigest(0x12, crypto.createHash('sha256').update(bytes).digest()))
    root ??= cid
    parts.push(varint(cid.bytes.length + bytes.length), cid.bytes, bytes)
  }
  const header = encode({ roots: [root], version: 1 })
  return Buffer.concat([varint(header.length), header, ...parts])
}

/**
 * A directory of its own under car/.scratch (git-ignored), where node_modules resolves as here.
 *
 * @param {string} prefix
 */
function scratchDir (prefix) {
  fs.mkdirSync(path.join(car, '.scratch'), { recursive: true })
  return fs.mkdtempSync(path.join(car, '.scratch', prefix))
}

/** @param {string} dir removed, and .scratch too when nothing else is in it */
function removeScratch (dir) {
  fs.rmSync(dir, { recursive: true, force: true })
  try { fs.rmdirSync(path.join(car, '.scratch')) } catch {}
}

describe('one build per process: the checkout\'s source, or the packed package\'s bundle', function () {
  this.timeout(120_000)

  it('this checkout has no bundle in git, and its bin does not run one', () => {
    // nothing in build/, and no file anywhere that starts as a bundle does (its build id)
    const tracked = spawnSync('git', ['ls-files'], { cwd: car, encoding: 'utf8' })
    assert.equal(tracked.status, 0, tracked.stderr)
    const files = tracked.stdout.split('\n').filter(Boolean)
    assert.ok(files.length > 100, `git ls-files listed ${files.length} files`)
    assert.deepEqual(files.filter((f) => f.startsWith('build/') || /^\/\/ build [0-9a-f]{32}\n/.test(fs.readFileSync(path.join(car, f), 'latin1').slice(0, 42))), [])
    const r = spawnSync(process.execPath, ['-e', "console.log(require('./bin/dag-cbor-car.js').bundled())"], { cwd: car, encoding: 'utf8' })
    assert.equal(r.stdout.trim(), 'false', r.stderr)
  })

  it('the build refuses a bundle with a character past ASCII (V8 would keep it two bytes a character), naming where', () => {
    checkAscii('const a = /[\\u00b9]/; const b = "\\u00e9"')
    assert.throws(() => checkAscii('const WINDOWS_DEVICE = /^(com[0-9\u00b9])$/i'), /past ASCII, near "const WINDOWS_DEVICE = \/\^\(com\[0-9\u00b9\]\)\$\/i"/)
  })

  it('in a checkout the bin runs the source as it is now, and a bundle left in build/ is not run', () => {
    const dir = scratchDir('checkout-')
    try {
      for (const d of ['bin', 'lib', 'scripts']) fs.cpSync(path.join(car, d), path.join(dir, d), { recursive: true })
      fs.copyFileSync(path.join(car, 'package.json'), path.join(dir, 'package.json'))
      // a stale bundle, as an interrupted npm pack would leave it, with a launcher's worth of files
      fs.mkdirSync(path.join(dir, 'build/cli'), { recursive: true })
      fs.writeFileSync(path.join(dir, 'build/package.json'), '{ "type": "commonjs" }\n')
      fs.writeFileSync(path.join(dir, 'build/cli/dag-cbor-car.cjs'), '// build 0\nprocess.stdout.write("stale bundle ran\\n"); process.exit(0)\n')
      const bin = path.join(dir, 'bin/dag-cbor-car.js')
      const before = run(bin, ['--version'])
      assert.equal(before.status, 0, before.stderr)
      assert.equal(before.stdout, `dag-cbor-car ${JSON.parse(fs.readFileSync(path.join(car, 'package.json'), 'utf8')).version}\n`)
      // an edit to the source runs at once: nothing to rebuild
      const version = path.join(dir, 'lib/commands/version.js')
      fs.writeFileSync(version, fs.readFileSync(version, 'utf8').replace('process.stdout.write(`${manifest.name} ${manifest.version}\\n`)', "process.stdout.write('edited source ran\\n')"))
      const after = run(bin, ['--version'])
      assert.equal(after.status, 0, after.stderr)
      assert.equal(after.stdout, 'edited source ran\n')
    } finally {
      removeScratch(dir)
    }
  })

  describe('the packed layout (scripts/bundle.js, as npm pack runs it)', () => {
    /** @type {string} */
    let dir
    /** @type {Awaited<ReturnType<typeof buildBundle>>} */
    let built
    /** @type {string} */
    let bin
    /** @type {string} the code cache the first check writes: for this V8, no options */
    let cacheFile
    /** @type {string[]} what the pack wrote in build/cli/ */
    let packed

    before(async () => {
      // the package as packed, without the modules the bundle holds: a thread or a child that
      // loaded the source would fail to find it; with the embedded sample's files, which the
      // bundle reads where the source does
      dir = scratchDir('packed-')
      fs.cpSync(path.join(car, 'bin'), path.join(dir, 'bin'), { recursive: true })
      fs.copyFileSync(path.join(car, 'package.json'), path.join(dir, 'package.json'))
      fs.mkdirSync(path.join(dir, 'lib/node'), { recursive: true })
      for (const file of ['sample.car', 'sample.json']) fs.copyFileSync(path.join(car, 'lib/node', file), path.join(dir, 'lib/node', file))
      built = await buildBundle({ into: dir })
      bin = path.join(dir, 'bin/dag-cbor-car.js')
      cacheFile = path.join(dir, `build/cli/dag-cbor-car.v8-${process.versions.v8}.cache`)
      packed = fs.readdirSync(path.join(dir, 'build/cli')).sort()
      // a user's first check, which writes the code cache (of the embedded sample, read from lib/node/)
      const first = run(bin, [])
      assert.equal(first.status, 0, first.stderr)
      assert.match(first.stdout, /OK for the sample/)
    })
    after(() => { if (!process.env.KEEP_SCRATCH) removeScratch(dir) })

    it('holds the bundle and a launcher for each file its code starts as a thread or a process (worker.js, many-child.js): no code cache, no copy of the sample', () => {
      assert.deepEqual(built.launchers.map((f) => path.basename(f)), ['many-child.js', 'worker.js'])
      assert.deepEqual(packed, ['dag-cbor-car.cjs', 'many-child.js', 'worker.js'])
    })

    it('the main thread, its worker threads and the children of a many-file run all run the bundle, with the source\'s answers', () => {
      // a preload in every thread and process (worker threads and forked children inherit it) notes
      // each run of the bundle's script; the main thread's exit waits for its worker threads' notes,
      // as a small CAR is checked before a worker thread has loaded
      const log = path.join(dir, 'bundle-runs.log')
      const preload = path.join(dir, 'note-bundle-runs.cjs')
      fs.writeFileSync(preload, `
        const fs = require('node:fs'), vm = require('node:vm'), { isMainThread } = require('node:worker_threads')
        const log = ${JSON.stringify(log)}
        const run = vm.Script.prototype.runInThisContext
        vm.Script.prototype.runInThisContext = function (...args) {
          fs.appendFileSync(log, (isMainThread ? 'main ' : 'worker ') + process.pid + '\\n')
          return run.apply(this, args)
        }
        if (isMainThread && process.env.WAIT_FOR_WORKERS) {
          const exit = process.exit
          process.exit = function (code) {
            const until = Date.now() + 30000
            const workers = () => (fs.readFileSync(log, 'utf8').match(/^worker /gm) || []).length
            while (Date.now() < until && workers() < Number(process.env.WAIT_FOR_WORKERS)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20)
            return exit.call(process, code)
          }
        }`)
      const { NODE_OPTIONS, ...env } = process.env
      /** @param {string[]} args @param {number} workers */
      const noted = (args, workers) => {
        fs.writeFileSync(log, '')
        const r = spawnSync(process.execPath, ['--require', preload, bin, ...args], { encoding: 'utf8', env: { ...env, WAIT_FOR_WORKERS: String(workers) }, stdio: ['ignore', 'pipe', 'pipe'] })
        return { ...r, runs: fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => line.split(' ')) }
      }
      // --workers 2: this thread and a worker thread (on a machine of 2 cores or more), on a CAR
      // large enough (18 MB) that the worker pool is started before the check ends
      const threads = Math.min(2, os.availableParallelism())
      const big = path.join(dir, 'big.car')
      fs.writeFileSync(big, largeCar(60_000))
      const source = run(path.join(car, 'bin/dag-cbor-car.js'), [big, '--json', '--workers', '2'])
      const packed = noted([big, '--json', '--workers', '2'], threads - 1)
      assert.equal(packed.status, 0, packed.stderr)
      assert.equal(JSON.parse(packed.stdout).workers, threads)
      assert.deepEqual(counts(packed.stdout), counts(source.stdout))
      assert.deepEqual(packed.runs.map(([thread]) => thread).sort(), ['main', ...Array(threads - 1).fill('worker')])
      assert.ok(packed.runs.every(([, pid]) => pid === String(packed.pid)))
      // two files: a child process per file (as many as there are cores, at most the files)
      const many = noted([REPO_CAR, GENESIS], 0)
      assert.equal(many.status, 1, many.stderr)
      assert.match(many.stdout, /2 files: 1 OK, 1 with problems, 0 unreadable/)
      const children = many.runs.filter(([, pid]) => pid !== String(many.pid))
      assert.ok(children.length >= 1 && children.every(([thread]) => thread === 'main'), JSON.stringify(many.runs))
      const sample = run(bin, [])
      assert.equal(sample.status, 0, sample.stderr)
      assert.match(sample.stdout, /OK for the sample/)
    })

    it('the first check wrote the code cache, made for this bundle, and V8 takes it', () => {
      assertBuiltTogether(built.bundle, cacheFile, dir)
      assertCacheTaken(built.bundle, cacheFile, BUNDLE_NAME)
    })

    it('a cache made for another build is not used: an edited bundle runs as edited', () => {
      const bundle = fs.readFileSync(built.bundle, 'utf8')
      const cache = fs.readFileSync(cacheFile)
      // a rebuild of the same length: another id, one phrase changed (V8 checks a cache against the
      // source's length only, so only the id keeps the old bytecode from running)
      const edited = bundle.replace(/^\/\/ build [0-9a-f]{32}/, `// build ${'0'.repeat(32)}`).replaceAll('every root present', 'EVERY ROOT PRESENT')
      assert.equal(edited.length, bundle.length)
      try {
        fs.writeFileSync(built.bundle, edited)
        const r = run(bin, [REPO_CAR])
        assert.equal(r.status, 0, r.stderr)
        assert.match(r.stdout, /EVERY ROOT PRESENT/)
      } finally {
        fs.writeFileSync(built.bundle, bundle)
        fs.writeFileSync(cacheFile, cache)
      }
    })

    it('a cache V8 refuses (or none) changes nothing: the same summary', () => {
      const bundle = fs.readFileSync(built.bundle, 'utf8')
      const cache = fs.readFileSync(cacheFile)
      const id = Buffer.from(bundle.slice(0, bundle.indexOf('\n') + 1), 'latin1')
      const expected = run(bin, [REPO_CAR, '--json'])
      assert.equal(expected.status, 0, expected.stderr)
      try {
        for (const other of [null, Buffer.concat([id, Buffer.alloc(4096, 0x5a)])]) {
          if (other) fs.writeFileSync(cacheFile, other)
          else fs.rmSync(cacheFile)
          const r = run(bin, [REPO_CAR, '--json'])
          assert.equal(r.status, 0, r.stderr)
          assert.equal(r.stderr, '')
          assert.deepEqual(counts(r.stdout), counts(expected.stdout))
        }
      } finally {
        fs.writeFileSync(cacheFile, cache)
      }
    })

    it('a Node with no cache of its own gets one at its first check, which V8 takes and later runs keep', () => {
      const cache = fs.readFileSync(cacheFile)
      const expected = run(bin, [REPO_CAR, '--json'])
      try {
        fs.rmSync(cacheFile)
        // runs that compile little of the bundle write none: --version, --help, exit status 2
        for (const args of [['--version'], ['verify', '--help'], [path.join(dir, 'no-such.car')]]) {
          const r = run(bin, args)
          assert.equal(r.status, args.length === 1 && args[0].endsWith('.car') ? 2 : 0, r.stderr)
          assert.ok(!fs.existsSync(cacheFile), `${args.join(' ')} wrote a cache`)
        }
        const first = run(bin, [REPO_CAR, '--json'])
        assert.equal(first.status, 0, first.stderr)
        assert.deepEqual(counts(first.stdout), counts(expected.stdout))
        assertBuiltTogether(built.bundle, cacheFile, dir)
        assertCacheTaken(built.bundle, cacheFile, BUNDLE_NAME)
        const written = fs.readFileSync(cacheFile)
        const later = run(bin, [REPO_CAR, '--json'])
        assert.equal(later.status, 0, later.stderr)
        assert.ok(fs.readFileSync(cacheFile).equals(written), 'a later run rewrote the cache')
        assert.deepEqual(fs.readdirSync(path.dirname(cacheFile)).filter((f) => f.endsWith('.tmp')), [])
      } finally {
        fs.writeFileSync(cacheFile, cache)
      }
    })

    it('a run started with V8 options (NODE_OPTIONS) writes a cache of its own, which V8 takes under them, and leaves the one without options', () => {
      const cache = fs.readFileSync(cacheFile)
      const dirOf = path.dirname(cacheFile)
      const before = new Set(fs.readdirSync(dirOf))
      const nodeOptions = '--max-old-space-size=3000'
      const { NODE_OPTIONS, ...env } = process.env
      const withOptions = () => spawnSync(process.execPath, [bin, REPO_CAR, '--json'], { encoding: 'utf8', env: { ...env, NODE_OPTIONS: nodeOptions }, stdio: ['ignore', 'pipe', 'pipe'] })
      try {
        const first = withOptions()
        assert.equal(first.status, 0, first.stderr)
        const added = fs.readdirSync(dirOf).filter((f) => !before.has(f))
        assert.equal(added.length, 1, `files added: ${added.join(', ')}`)
        assert.match(added[0], /^dag-cbor-car\.v8-.+-[0-9a-f]{8}\.cache$/)
        const own = path.join(dirOf, added[0])
        assertCacheTaken(built.bundle, own, BUNDLE_NAME, nodeOptions)
        const written = fs.readFileSync(own)
        const again = withOptions()
        assert.equal(again.status, 0, again.stderr)
        assert.ok(fs.readFileSync(own).equals(written), 'the second run rewrote its cache')
        assert.ok(fs.readFileSync(cacheFile).equals(cache), 'the cache of runs without options changed')
      } finally {
        for (const f of fs.readdirSync(dirOf)) if (!before.has(f)) fs.rmSync(path.join(dirOf, f), { force: true })
      }
    })

    it('where the cache cannot be written, the run is the same and leaves nothing behind', () => {
      const cache = fs.readFileSync(cacheFile)
      const expected = run(bin, [REPO_CAR, '--json'])
      const before = fs.readdirSync(path.dirname(cacheFile)).filter((f) => f !== path.basename(cacheFile)).sort()
      try {
        // a directory where the cache would go: it can be neither read nor replaced
        fs.rmSync(cacheFile)
        fs.mkdirSync(cacheFile)
        const r = run(bin, [REPO_CAR, '--json'])
        assert.equal(r.status, 0, r.stderr)
        assert.equal(r.stderr, '')
        assert.deepEqual(counts(r.stdout), counts(expected.stdout))
        assert.ok(fs.statSync(cacheFile).isDirectory())
        assert.deepEqual(fs.readdirSync(path.dirname(cacheFile)).filter((f) => f !== path.basename(cacheFile)).sort(), before)
      } finally {
        fs.rmSync(cacheFile, { recursive: true, force: true })
        fs.writeFileSync(cacheFile, cache)
      }
    })
  })
})
