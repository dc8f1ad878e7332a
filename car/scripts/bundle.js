// The packed package's bundles, build/cli/ and build/library/, written when the package is packed
// (prepack) and removed after (postpack), never committed (.gitignore) and never run in a checkout
// (bin/dag-cbor-car.js: a package directory holding this script is a checkout). Two builds of the
// same source, each a folder holding:
//   dag-cbor-car.cjs               its entry (BUILDS) and every module it loads, dependencies
//                                  included but for its externals, in one CommonJS file, written
//                                  inside the function wrapper Node gives a CommonJS module, which
//                                  the loader calls as is
//   dag-cbor-car.v8-*.cache        V8's code cache for it, made by a run over the embedded sample
//                                  under the Node running this (for another V8, the command's
//                                  first run there writes its own: bin/dag-cbor-car.js)
//   worker.js, ...                 one launcher per file the bundled code starts as a worker
//                                  thread or child process (found by its URL, next to the
//                                  bundle): it runs that file's module out of the same bundle
//   sample.car, .json              (the command's) the embedded sample, which lib/node/sample.js
//                                  finds by its URL
// The command's (build/cli/) holds multiformats; the library's (build/library/) requires it, so
// that the CIDs a script gets are the script's multiformats class (require() of an ES module sets
// up Node's ES module loader, which the command's start does without).
// Node resolves, reads and links each ES module on its own; a check of a small CAR loaded about
// sixty, and a script's import of the library some 130, and that, not the checking, was most of
// their start-up (bench/README.md has the figures).
//
// CommonJS rather than an ES module: esbuild then keeps every module's imports inside that module's
// lazy initializer, so what a run does not use costs nothing, not even a require, and the loader
// can compile it with V8's code cache (a vm.Script: Node 20 has no code cache for ES modules).
// import() becomes require() (`supported`): functions restored from a code cache lose the module
// loader callback an import() would need.
//
// A bundle sits two directories down, as lib/node/ does, so that what the code finds by its own
// URL resolves the same way from it: ../../package.json, and beside it the launchers and the
// sample (checked here: a module of ours that uses import.meta elsewhere than one directory under
// lib/, a dependency that uses it at all, or a file started by URL that has no launcher fails the
// build).
//
// The code cache holds the bytecode of every function the run that made it ran; V8 takes it only
// under the same V8 and flags, so its name says its V8 version: a package packed on Node 24 starts
// with it on Node 24, and on another line the command writes its own at its first run there. The
// first line of a bundle names its build; the loader passes V8 only a cache that starts with the
// same line (V8's data follows it, 8-byte aligned).
//   node scripts/bundle.js            write build/ (npm pack runs it: prepack)
//   node scripts/bundle.js --remove   remove build/ (postpack)
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import * as esbuild from 'esbuild'

export const car = fileURLToPath(new URL('..', import.meta.url))
/** packages required from node_modules when a module that imports them first runs */
export const EXTERNAL = ['@noble/curves', '@noble/curves/*', '@noble/hashes', '@noble/hashes/*', 'hash-wasm', 'hash-wasm/*']
/** what the bundle's body is written inside: the function wrapper Node gives a CommonJS module */
export const WRAPPER = ['(function (exports, require, module, __filename, __dirname) {', '\n});\n']

/**
 * The two bundles, by folder in build/: the entry each is built from, what it leaves out, the
 * files it reads by its URL (copied next to it), the loader its launchers call
 * (bin/dag-cbor-car.js), and the run that makes its code cache (a script in build/<folder>/).
 *
 * @type {Record<'cli' | 'library', { entry: string, external: string[], data: string[], loader: string, cacheRun: string }>}
 */
export const BUILDS = {
  cli: {
    entry: 'lib/node/cli-bundle.js',
    external: EXTERNAL,
    data: ['sample.car', 'sample.json'],
    loader: 'loadBundle()',
    // a check of the embedded sample (no stdin, no file), through the bin's loader, which writes
    // the cache as a run with no cache does (not run as the bin: a checkout's would run the source)
    cacheRun: "require('../../bin/dag-cbor-car.js').loadBundle({ saveCache: true }).cli()"
  },
  library: {
    entry: 'lib/node/library-bundle.js',
    external: [...EXTERNAL, 'multiformats', 'multiformats/*'],
    data: [],
    loader: 'loadLibrary()',
    // what a script does first: verifyCar, then every block through the iterator, of the sample
    // (its path in SAMPLE_CAR: the package being built may not hold lib/)
    cacheRun: [
      "const { verifyCar, CarBlockIterator } = require('../../bin/dag-cbor-car.js').loadLibrary({ saveCache: true }).library()",
      'const sample = process.env.SAMPLE_CAR',
      'verifyCar(sample).then(async (summary) => {',
      '  let blocks = 0',
      '  for await (const block of await CarBlockIterator.fromIterable(sample)) blocks += block.bytes.length > 0 ? 1 : 0',
      '  if (blocks !== summary.blocks) throw new Error(`the iterator gave ${blocks} blocks, the check counted ${summary.blocks}`)',
      '})'
    ].join('\n')
  }
}

/**
 * Write both bundles, each with its launchers, its data and its code cache, into `into`/build/.
 *
 * @param {{ into?: string }} [options] the package directory to write into (default: this one)
 * @returns {Promise<Record<keyof typeof BUILDS, { bundle: string, cache: string, launchers: string[], text: string }>>}
 */
export async function buildBundle ({ into: given = car } = {}) {
  const into = path.resolve(given)
  fs.rmSync(path.join(into, 'build'), { recursive: true, force: true })
  fs.mkdirSync(path.join(into, 'build'), { recursive: true })
  // the launchers are CommonJS: no ES module loader to set up in a thread that runs a bundle
  fs.writeFileSync(path.join(into, 'build/package.json'), '{ "type": "commonjs" }\n')
  return { cli: await buildOne(into, 'cli'), library: await buildOne(into, 'library') }
}

/**
 * Write one bundle, its launchers, its data and its code cache into `into`/build/`build`/.
 *
 * @param {string} into
 * @param {keyof typeof BUILDS} build
 */
async function buildOne (into, build) {
  const { entry, external, data, loader, cacheRun } = BUILDS[build]
  const out = path.join(into, 'build', build)
  fs.mkdirSync(out, { recursive: true })
  const bundle = path.join(out, 'dag-cbor-car.cjs')
  const result = await esbuild.build({
    entryPoints: [path.join(car, entry)],
    absWorkingDir: car, // the paths the bundle names its modules by: the same from any working directory
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external,
    define: { 'import.meta.url': '__bundle.url' },
    supported: { 'dynamic-import': false },
    metafile: true,
    write: false,
    logLevel: 'warning',
    // no whitespace, comments or long local names: less for V8 to read and deserialize at each
    // start. A stack trace names minified functions; the command reports errors as one line.
    minify: true,
    banner: {
      js: [
        '"use strict";',
        '// @ts-nocheck',
        `// Generated by scripts/bundle.js from ${entry} and the modules it loads, when the package was packed. Do not edit.`,
        // import.meta.url, made when first read: pathToFileURL costs a fresh process almost 1 ms,
        // and a check of a file never reads it
        "const __bundle = { get url () { const url = require('node:url').pathToFileURL(__filename).href; Object.defineProperty(this, 'url', { value: url }); return url } };"
      ].join('\n')
    }
  })
  const inputs = Object.keys(result.metafile.inputs).map((input) => path.resolve(car, input))
  const started = checkModuleUrls(inputs)
  const { ROLES } = await import('../lib/node/bundle-roles.js')
  for (const file of started) {
    if (!Object.hasOwn(ROLES, file)) throw new Error(`the bundled code starts lib/node/${file} by its URL, and lib/node/bundle-roles.js's ROLES has no entry for it: it would run the source`)
    fs.writeFileSync(path.join(out, file), [
      `// Generated by scripts/bundle.js: lib/node/${file} out of the bundle next to this file, which started it`,
      `require('../../bin/dag-cbor-car.js').${loader}.ROLES[${JSON.stringify(file)}]()`,
      ''
    ].join('\n'))
  }
  for (const file of data) fs.copyFileSync(path.join(car, 'lib/node', file), path.join(out, file))
  const body = result.outputFiles[0].text
  checkAscii(body)
  // the id line, then the module inside the wrapper Node would give it: bin/dag-cbor-car.js compiles
  // the file as it is and calls the function it evaluates to
  const text = `// build ${crypto.createHash('sha256').update(body).digest('hex').slice(0, 32)}\n${WRAPPER[0]}${body}${WRAPPER[1]}`
  fs.writeFileSync(bundle, text)
  // the code cache: a run over the embedded sample, in a process without NODE_OPTIONS (V8 refuses
  // a cache made under other V8 flags, and a user's run has none), through the bin's loader, which
  // writes it as the process exits, started from a file rather than with -e, so that it starts
  // with no options, which would name the cache (bin/dag-cbor-car.js cacheName)
  const { NODE_OPTIONS, ...env } = process.env
  const starter = path.join(out, `make-cache.${process.pid}.cjs`)
  try {
    fs.writeFileSync(starter, cacheRun + '\n')
    const run = spawnSync(process.execPath, [starter], { cwd: into, env: { ...env, SAMPLE_CAR: path.join(car, 'lib/node/sample.car') }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
    if (run.status !== 0) throw new Error(`the run that makes build/${build}'s code cache exited ${run.status}: ${run.stderr}`)
  } finally {
    fs.rmSync(starter, { force: true })
  }
  // the file the loader named (bin/dag-cbor-car.js cachePath), the only cache in a fresh folder
  const caches = fs.readdirSync(out).filter((f) => f.endsWith('.cache'))
  if (caches.length !== 1) throw new Error(`the run that makes build/${build}'s code cache wrote ${caches.length === 0 ? 'none' : caches.join(', ')}`)
  const cache = path.join(out, caches[0])
  return { bundle, cache, launchers: started.map((f) => path.join(out, f)), text }
}

/**
 * Throw where the bundle has a character past ASCII: V8 holds a source string with any such
 * character in two bytes a character, twice the memory for every start to read in and scan.
 * esbuild escapes them in strings, not in a regular expression.
 *
 * @param {string} text
 */
export function checkAscii (text) {
  const at = text.search(/[^\x00-\x7f]/)
  if (at >= 0) throw new Error(`the bundle has a character past ASCII, near ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}: write it as an escape in the source`)
}

/**
 * A bundled module that finds files by its own URL must sit at the bundle's depth under lib/.
 *
 * @param {string[]} inputs the bundled files' paths
 * @returns {string[]} the .js files next to it that the bundled code starts by URL (worker threads, child processes)
 */
function checkModuleUrls (inputs) {
  const lib = path.join(car, 'lib')
  const started = new Set()
  for (const file of inputs) {
    const source = fs.readFileSync(file, 'utf8')
    if (!source.includes('import.meta')) continue
    const fromLib = path.relative(lib, file)
    const ours = !fromLib.startsWith('..') && !fromLib.includes('node_modules')
    if (!ours || fromLib.split(path.sep).length !== 2 || /import\.meta(?!\.url\b)/.test(source)) {
      throw new Error(`${path.relative(car, file)} uses import.meta: bundled, where import.meta.url is the bundle's URL, it would not find what it means to`)
    }
    for (const [, name] of source.matchAll(/new URL\('\.\/([\w.-]+\.js)', import\.meta\.url\)/g)) started.add(name)
  }
  return [...started].sort()
}

// run directly: write build/, or remove build/
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  if (process.argv.includes('--remove')) {
    fs.rmSync(path.join(car, 'build'), { recursive: true, force: true })
  } else {
    const built = await buildBundle()
    // on stderr: npm runs this as prepack inside `npm pack --json`, whose stdout is JSON
    for (const [build, { text }] of Object.entries(built)) process.stderr.write(`build/${build}/dag-cbor-car.cjs: ${(text.length / 1e3).toFixed(0)} kB\n`)
  }
}
