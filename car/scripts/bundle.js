// The packed package's bundle of the command, build/cli/, written when the package is packed
// (prepack) and removed after (postpack), never committed (.gitignore) and never run in a checkout
// (bin/dag-cbor-car.js: a package directory holding this script is a checkout). The folder holds:
//   dag-cbor-car.cjs               lib/node/cli-bundle.js and every module it loads, dependencies
//                                  included but for EXTERNAL, in one CommonJS file, written inside
//                                  the function wrapper Node gives a CommonJS module, which the
//                                  loader calls as is
//   worker.js, ...                 one launcher per file the bundled code starts as a worker
//                                  thread or child process (found by its URL, next to the
//                                  bundle): it runs that file's module out of the same bundle
// Node resolves, reads and links each ES module on its own; a check of a small CAR loaded about
// sixty, and that, not the checking, was most of its start-up (bench/README.md has the figures).
// The library ('dag-cbor-car' in a script) has no bundle: it runs the source modules, so that its
// errors' stack traces name the source's functions, files and lines (lib/node/library.cjs).
//
// No code cache ships (it would double the tarball): the command's first check of CAR data writes
// V8's for its Node beside the bundle (bin/dag-cbor-car.js).
//
// CommonJS rather than an ES module: esbuild then keeps every module's imports inside that module's
// lazy initializer, so what a run does not use costs nothing, not even a require, and the loader
// can compile it with V8's code cache (a vm.Script: Node 20 has no code cache for ES modules).
// import() becomes require() (`supported`): functions restored from a code cache lose the module
// loader callback an import() would need.
//
// The bundle sits two directories down, as lib/node/ does, so that what the code finds by its own
// URL resolves the same way from it: ../../package.json, and beside it the launchers (checked here:
// a module of ours that uses import.meta elsewhere than one directory under lib/, a dependency
// that uses it at all, or a file started by URL that has no launcher fails the build). The modules
// in READS_BESIDE_ITSELF read data files next to their source: their import.meta.url is their own
// file's in the package, so the data (the embedded sample) ships once, in lib/.
//   node scripts/bundle.js            write build/ (npm pack runs it: prepack)
//   node scripts/bundle.js --remove   remove build/ (postpack)
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import crypto from 'node:crypto'
import * as esbuild from 'esbuild'

export const car = fileURLToPath(new URL('..', import.meta.url))
/** packages required from node_modules when a module that imports them first runs */
export const EXTERNAL = ['@noble/curves', '@noble/curves/*', '@noble/hashes', '@noble/hashes/*', 'hash-wasm', 'hash-wasm/*']
/** what the bundle's body is written inside: the function wrapper Node gives a CommonJS module */
export const WRAPPER = ['(function (exports, require, module, __filename, __dirname) {', '\n});\n']

/** the command's entry, which the bundle is built from */
export const ENTRY = 'lib/node/cli-bundle.js'
/** modules that read data files next to their source (lib/node/sample.js: sample.car, .json) */
export const READS_BESIDE_ITSELF = ['lib/node/sample.js']

/**
 * Write the command's bundle and its launchers into `into`/build/cli/.
 *
 * @param {{ into?: string }} [options] the package directory to write into (default: this one)
 * @returns {Promise<{ bundle: string, launchers: string[], text: string }>}
 */
export async function buildBundle ({ into: given = car } = {}) {
  const into = path.resolve(given)
  fs.rmSync(path.join(into, 'build'), { recursive: true, force: true })
  const out = path.join(into, 'build/cli')
  fs.mkdirSync(out, { recursive: true })
  // the launchers are CommonJS: no ES module loader to set up in a thread that runs a bundle
  fs.writeFileSync(path.join(into, 'build/package.json'), '{ "type": "commonjs" }\n')
  const bundle = path.join(out, 'dag-cbor-car.cjs')
  const result = await esbuild.build({
    entryPoints: [path.join(car, ENTRY)],
    absWorkingDir: car, // the paths the bundle names its modules by: the same from any working directory
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    define: { 'import.meta.url': '__bundle.url' },
    supported: { 'dynamic-import': false },
    metafile: true,
    write: false,
    logLevel: 'warning',
    // no whitespace, comments or long local names: less for V8 to read and deserialize at each
    // start. A stack trace names minified functions; the command reports errors as one line.
    minify: true,
    plugins: [readsBesideItself, modulesNowBundled],
    banner: {
      js: [
        '"use strict";',
        '// @ts-nocheck',
        `// Generated by scripts/bundle.js from ${ENTRY} and the modules it loads, when the package was packed. Do not edit.`,
        // import.meta.url, made when first read: pathToFileURL costs a fresh process almost 1 ms,
        // and a check of a file never reads it; source(file): a file's URL in the package
        "const __bundle = { get url () { const url = require('node:url').pathToFileURL(__filename).href; Object.defineProperty(this, 'url', { value: url }); return url }, source (file) { return new URL('../../' + file, this.url).href } };"
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
      `require('../../bin/dag-cbor-car.js').loadBundle().ROLES[${JSON.stringify(file)}]()`,
      ''
    ].join('\n'))
  }
  const body = result.outputFiles[0].text
  checkAscii(body)
  // the id line, then the module inside the wrapper Node would give it: bin/dag-cbor-car.js compiles
  // the file as it is and calls the function it evaluates to
  const text = `// build ${crypto.createHash('sha256').update(body).digest('hex').slice(0, 32)}\n${WRAPPER[0]}${body}${WRAPPER[1]}`
  fs.writeFileSync(bundle, text)
  return { bundle, launchers: started.map((f) => path.join(out, f)), text }
}

/** @type {esbuild.Plugin} READS_BESIDE_ITSELF's modules: their import.meta.url is their source file's in the package */
const readsBesideItself = {
  name: 'reads-beside-itself',
  setup (build) {
    build.onLoad({ filter: /\.js$/ }, (args) => {
      const file = path.relative(car, args.path).split(path.sep).join('/')
      if (!READS_BESIDE_ITSELF.includes(file)) return undefined
      const source = fs.readFileSync(args.path, 'utf8')
      return { contents: source.replaceAll('import.meta.url', `__bundle.source(${JSON.stringify(file)})`), loader: 'js' }
    })
  }
}

/**
 * #modules-now from the bundle: lib/core/base/modules-now.js, which imports the modules, not Node's
 * lib/node/load-at-first-call-node.js, which would load them from node_modules at their first use. In the
 * bundle a module costs nothing until its code first runs, and one held in it loads the faster.
 *
 * @type {esbuild.Plugin}
 */
const modulesNowBundled = {
  name: 'modules-now-bundled',
  setup (build) {
    build.onResolve({ filter: /^#modules-now$/ }, () => ({ path: path.join(car, 'lib/core/base/modules-now.js') }))
  }
}

/**
 * Throw where the bundle has a character past ASCII: V8 holds a source string with any such
 * character in two bytes a character, twice the memory for every start to read in and scan.
 * esbuild escapes them in strings, not in a regular expression.
 *
 * @param {string} text
 */
export function checkAscii (text) {
  const at = text.search(/[^\x00-\x7f]/) // eslint-disable-line no-control-regex -- the range is all of ASCII
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
    const { text } = await buildBundle()
    // on stderr: npm runs this as prepack inside `npm pack --json`, whose stdout is JSON
    process.stderr.write(`build/cli/dag-cbor-car.cjs: ${(text.length / 1e3).toFixed(0)} kB\n`)
  }
}
