// What importing the library loads: only what importing needs. What only some calls use (DAG-JSON
// and dag-pb, which blockToJson and the checks of such blocks need; @noble/hashes, which a
// synchronous hash before the faster hasher is loaded needs; the AT Protocol signature check's
// @noble/curves; hash-wasm; the verify pipeline, which only verifyCar and its kin run) is loaded
// by the first call that needs it, and so are the stages the classes run (the #*-stages imports:
// the reading and writing code, the codec, multiformats' CID), which their first call loads. Each
// module loaded costs a fresh process its resolution, read and compile, so a module loaded at
// import costs every program that imports the library, whether it calls it or not. No timing
// here: the modules a fresh process loads, recorded by a module loader hook, are held to a list
// and counted.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { carV1 } from './helpers/car-oracle.js'

const car = fileURLToPath(new URL('../', import.meta.url))
const repo = fileURLToPath(new URL('../../', import.meta.url))

/** packages no entry loads at import (the first call that needs one loads it) */
const NOT_AT_IMPORT = ['dag-cbor-fast', '@ipld/dag-json', '@ipld/dag-pb', 'cborg', '@noble/hashes', '@noble/curves', 'hash-wasm']
/**
 * our modules and multiformats' no entry loads at import: the verify pipeline (and what only it
 * uses), the CLI's words, the stages the classes run (the #*-stages imports) and the CID class
 */
const OURS_NOT_AT_IMPORT = ['lib/core/run/pipeline.js', 'lib/core/report/summary.js', 'lib/core/check/car-checks.js', 'lib/node/command-args.js',
  'lib/core/read/open-car.js', 'lib/core/read/in-memory.js', 'lib/core/check/classify.js', 'lib/core/write/frames.js', 'lib/core/run/verify-car.js',
  'multiformats/dist/src/cid.js']

/**
 * The most modules (not counting Node's built-in ones) importing each entry may load: what it
 * loads today. An entry that loads more fails here: load the new module at the first call that
 * needs it (the #*-stages imports, lib/node/load-at-first-call-node.js), or raise the figure saying why.
 */
const MOST_AT_IMPORT = {
  './lib/node/node-library.js': 37,
  './lib/core/index.js': 27,
  './lib/node/reader-entry.js': 23,
  './lib/node/buffer-reader-entry.js': 23,
  './lib/node/indexer-entry.js': 23,
  './lib/node/iterator-entry.js': 27,
  './lib/node/indexed-reader-entry.js': 19,
  './lib/node/writer-entry.js': 6
}

// the hook (it runs on the loader's own thread): each module's URL, as it is loaded, to standard
// output, written at once, so that every line is out before the import it belongs to resolves
const HOOKS = `import { writeSync } from 'node:fs'
export async function load (url, context, next) {
  writeSync(1, 'loaded ' + url + '\\n')
  return next(url, context)
}`

/** @param {string} file @returns {string} a module's name as loadedBy gives it */
function moduleName (file) {
  const inModules = file.lastIndexOf('/node_modules/')
  if (inModules !== -1) return file.slice(inModules + '/node_modules/'.length)
  // the codec, through the workspace's link to the repository's root
  return file.startsWith(car) ? file.slice(car.length) : 'dag-cbor-fast/' + file.slice(repo.length)
}

/**
 * The modules a fresh Node process loads to import `entry`, and no more.
 *
 * @param {string} entry a module specifier, resolved from car/
 * @returns {string[]} their URLs, with node_modules/ packages and the codec (this repository's root
 *   package) as `package/path` and the rest relative to car/
 */
function loadedBy (entry) {
  const script = `
    import { register } from 'node:module'
    register(${JSON.stringify('data:text/javascript,' + encodeURIComponent(HOOKS))})
    await import(${JSON.stringify(entry)})`
  const { NODE_OPTIONS, ...env } = process.env
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: car, env, encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  return r.stdout.split('\n').filter((line) => line.startsWith('loaded ')).map((line) => {
    const url = line.slice('loaded '.length)
    if (!url.startsWith('file:')) return url
    return moduleName(fileURLToPath(url))
  })
}

/** @param {string} module @param {string} pkg */
const inPackage = (module, pkg) => module.startsWith(pkg + '/')

describe('importing the library loads only what importing needs', function () {
  this.timeout(60_000)

  // ('dag-cbor-car' in Node is library.cjs, whose require() of lib/node/node-library.js Node 20's hooks do not see)
  for (const [entry, most] of Object.entries(MOST_AT_IMPORT)) {
    it(`${entry}: none of ${NOT_AT_IMPORT.join(', ')}, nor the stages its classes run; at most ${most} modules`, () => {
      const loaded = loadedBy(entry)
      // the hook saw the import: the entry's modules
      assert.ok(loaded.includes(entry.slice(2)), loaded.join('\n'))
      const early = loaded.filter((m) => NOT_AT_IMPORT.some((pkg) => inPackage(m, pkg)))
      assert.deepEqual(early, [], `loaded at import:\n${early.join('\n')}`)
      assert.deepEqual(OURS_NOT_AT_IMPORT.filter((m) => loaded.includes(m)), [])
      const modules = loaded.filter((m) => !m.startsWith('node:'))
      assert.ok(modules.length <= most, `${modules.length} modules loaded at import, more than ${most}:\n${modules.join('\n')}`)
    })
  }
})

/**
 * What only the library's other calls run, which verifyCar's first call does not load: canonicalizeCar
 * (its in-memory output, whose frames load the encoder), readBlockAt, checkRepo and blockToJson; and
 * the codec's encoder, which canonical blocks do not need (check/dag-cbor.js loads it at its first use).
 */
const NOT_FOR_VERIFY = ['lib/core/run/call-stages.js', 'lib/core/run/canonicalize-car.js', 'lib/core/write/memory-target.js', 'lib/core/write/frames.js',
  'lib/core/run/read-block-at.js', 'lib/core/run/check-repo.js', 'lib/core/report/block-view.js', 'lib/core/graph/links.js',
  'dag-cbor-fast/index.js', 'dag-cbor-fast/lib/encode.js']
/** The most modules verifyCar's first call on a CAR of DAG-CBOR and raw blocks may load: what it loads today. */
const MOST_AT_FIRST_VERIFY = 48

/**
 * The modules a fresh Node process loads at its first verifyCar(file), after importing the Node
 * entry: every script V8 compiles, as the inspector reports it (Node 20's module hooks do not see
 * what the stages' require() loads).
 *
 * @param {string} file a CAR that passes
 * @returns {string[]} as loadedBy names them
 */
function loadedByFirstVerify (file) {
  const script = `
    import { Session } from 'node:inspector'
    const session = new Session()
    session.connect()
    const parsed = []
    session.on('Debugger.scriptParsed', ({ params }) => parsed.push(params.url))
    session.post('Debugger.enable')
    const { verifyCar } = await import('./lib/node/node-library.js')
    const atImport = parsed.length
    const summary = await verifyCar(${JSON.stringify(file)})
    if (summary.result !== 'ok') throw new Error('the CAR did not pass: ' + summary.result)
    console.log(JSON.stringify(parsed.slice(atImport)))`
  const { NODE_OPTIONS, ...env } = process.env
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: car, env, encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '[]').filter((/** @type {string} */ url) => url.startsWith('file:')).map((/** @type {string} */ url) => moduleName(fileURLToPath(url)))
}

describe("verifyCar's first call loads what a plain verify runs, no more", function () {
  this.timeout(60_000)

  it(`none of ${NOT_FOR_VERIFY.join(', ')}; at most ${MOST_AT_FIRST_VERIFY} modules`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-verify-'))
    try {
      const raw = new TextEncoder().encode('a raw block')
      const rawCid = CID.create(1, 0x55, await sha256.digest(raw))
      const root = dagCbor.encode({ name: 'root', raw: rawCid })
      const rootCid = CID.create(1, 0x71, await sha256.digest(root))
      const file = path.join(dir, 'dag-cbor-and-raw.car')
      fs.writeFileSync(file, carV1([rootCid], [{ cid: rootCid, bytes: root }, { cid: rawCid, bytes: raw }]))
      const loaded = loadedByFirstVerify(file)
      // the inspector saw the run: the verify stages and the pipeline
      assert.ok(loaded.includes('lib/core/run/verify-car.js') && loaded.includes('lib/core/run/pipeline.js'), loaded.join('\n'))
      assert.deepEqual(NOT_FOR_VERIFY.filter((m) => loaded.includes(m)), [])
      assert.ok(loaded.length <= MOST_AT_FIRST_VERIFY, `${loaded.length} modules loaded by the first verifyCar, more than ${MOST_AT_FIRST_VERIFY}:\n${loaded.join('\n')}`)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
