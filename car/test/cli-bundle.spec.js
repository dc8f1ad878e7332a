// The command's bundle and its code cache (scripts/build-cli.js, bin/dag-cbor-car.js): built together,
// and a cache is used only for the build it was made from.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { BUNDLE, CACHE } from '../scripts/build-cli.js'
import { assertBuiltTogether, assertCacheTaken } from './helpers/code-cache.js'

const car = fileURLToPath(new URL('../', import.meta.url))
const REPO_CAR = path.join(car, 'test/fixtures/atproto/repo-small-v2.car')

/** @param {string} bin @param {string[]} args */
const run = (bin, args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' })

/** @param {string} stdout a --json summary, without its timings */
const counts = (stdout) => {
  const { seconds, mbPerSec, ...rest } = JSON.parse(stdout)
  return rest
}

describe('the command\'s bundle and its code cache', function () {
  this.timeout(60_000)

  /** @type {string} */
  let dir

  /**
   * A copy of bin/ and the bundle in a directory of its own, with `cache` as its code cache.
   *
   * @param {string} bundle the bundle's text
   * @param {Uint8Array | null} cache
   */
  function install (bundle, cache) {
    fs.rmSync(dir, { recursive: true, force: true })
    fs.mkdirSync(path.join(dir, 'bin'), { recursive: true })
    fs.mkdirSync(path.join(dir, 'lib/node'), { recursive: true })
    for (const f of ['dag-cbor-car.js', 'package.json']) fs.copyFileSync(path.join(car, 'bin', f), path.join(dir, 'bin', f))
    fs.copyFileSync(path.join(car, 'lib/node/load-bundle.cjs'), path.join(dir, 'lib/node/load-bundle.cjs'))
    fs.writeFileSync(path.join(dir, 'lib/node/cli.bundle.cjs'), bundle)
    if (cache) fs.writeFileSync(path.join(dir, 'lib/node/cli.bundle.cache'), cache)
    return path.join(dir, 'bin/dag-cbor-car.js')
  }

  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-bundle-')) })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('are built together: the cache starts with the bundle\'s first line, which names its build', () => {
    assertBuiltTogether(BUNDLE, CACHE, car)
  })

  it('V8 takes the cache the build made, for the bundle as the bin compiles it (a run without NODE_OPTIONS)', () => {
    assertCacheTaken(BUNDLE, CACHE, 'dag-cbor-car/lib/node/cli.bundle.cjs')
  })

  it('a cache made for another build is not used: an edited bundle runs as edited', () => {
    const bundle = fs.readFileSync(BUNDLE, 'utf8')
    const cache = fs.readFileSync(CACHE)
    // a rebuild of the same length: another id, one phrase changed (V8 checks a cache against the
    // source's length only, so only the id keeps the old bytecode from running)
    const edited = bundle.replace(/^\/\/ build [0-9a-f]{32}/, `// build ${'0'.repeat(32)}`).replaceAll('every root present', 'EVERY ROOT PRESENT')
    assert.equal(edited.length, bundle.length)
    assert.notEqual(edited, bundle)
    const r = run(install(edited, cache), [REPO_CAR])
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /EVERY ROOT PRESENT/)
  })

  it('a cache V8 refuses (or none) changes nothing: the same summary as the built one gives', () => {
    const bundle = fs.readFileSync(BUNDLE, 'utf8')
    const id = Buffer.from(bundle.slice(0, bundle.indexOf('\n') + 1), 'latin1')
    const expected = run(path.join(car, 'bin/dag-cbor-car.js'), [REPO_CAR, '--json'])
    assert.equal(expected.status, 0, expected.stderr)
    for (const cache of [null, Buffer.concat([id, Buffer.alloc(4096, 0x5a)])]) {
      const r = run(install(bundle, cache), [REPO_CAR, '--json'])
      assert.equal(r.status, 0, r.stderr)
      assert.equal(r.stderr, '')
      assert.deepEqual(counts(r.stdout), counts(expected.stdout))
    }
  })
})
