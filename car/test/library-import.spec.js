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
import { fileURLToPath } from 'node:url'

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
 * needs it (the #*-stages imports, lib/node/api-stages-node.js), or raise the figure saying why.
 */
const MOST_AT_IMPORT = {
  './lib/node/node-library.js': 38,
  './lib/core/index.js': 28,
  './lib/node/reader-entry.js': 24,
  './lib/node/buffer-reader-entry.js': 24,
  './lib/node/indexer-entry.js': 24,
  './lib/node/iterator-entry.js': 28,
  './lib/node/indexed-reader-entry.js': 20,
  './lib/node/writer-entry.js': 6
}

// the hook (it runs on the loader's own thread): each module's URL, as it is loaded, to standard
// output, written at once, so that every line is out before the import it belongs to resolves
const HOOKS = `import { writeSync } from 'node:fs'
export async function load (url, context, next) {
  writeSync(1, 'loaded ' + url + '\\n')
  return next(url, context)
}`

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
    const file = fileURLToPath(url)
    const inModules = file.lastIndexOf('/node_modules/')
    if (inModules !== -1) return file.slice(inModules + '/node_modules/'.length)
    // the codec, through the workspace's link to the repository's root
    return file.startsWith(car) ? file.slice(car.length) : 'dag-cbor-fast/' + file.slice(repo.length)
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
