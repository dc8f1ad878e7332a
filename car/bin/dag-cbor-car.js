#!/usr/bin/env node
'use strict'
// dag-cbor-car: runs the command line tool, lib/commands/cli.js, from the build this package has:
// the packed package's bundle, build/node/dag-cbor-car.cjs (scripts/bundle.js writes it when the
// package is packed: the command and what its worker threads and child processes run, in one
// file), or in a checkout the source, so that a run after an edit runs the edited code, with
// nothing to rebuild. The bundled code starts its worker threads and children from launchers next
// to the bundle (build/node/worker.js, ...), which require this file for loadBundle() and run their
// module out of the same bundle. So a process runs one build, the bundle or the source, never both.
// A checkout has no build/ (npm pack removes it again), and one left behind by an interrupted pack
// is not run either, since a package directory holding scripts/bundle.js (which the package does
// not ship) is a checkout.
//
// The loader is here rather than in a module of its own: one file fewer for Node to resolve, read
// and compile before the command starts. CommonJS (bin/package.json): Node starts a CommonJS entry
// without setting up its ES module loader first, which a run from the bundle does not need.
//
// The bundle is compiled with the V8 code cache made beside it when it was built, which holds the
// bytecode of every function that build's check of the embedded sample ran: V8 then neither parses
// the file nor compiles those functions again. V8 ignores a cache made by another V8 or with other
// flags (it compiles as without one); a cache for another build of the bundle is not passed (the
// id on the bundle's first line heads the cache).
const fs = require('node:fs')
const path = require('node:path')
const vm = require('node:vm')

const BUNDLE = path.join(__dirname, '../build/node/dag-cbor-car.cjs')
const CACHE = path.join(__dirname, '../build/node/dag-cbor-car.cache')
/** what V8 names the bundle in stack traces (a code cache keeps the name of the run that made it) */
const NAME = 'dag-cbor-car/build/node/dag-cbor-car.cjs'

/**
 * Where V8's data starts in a cache file whose id line is `idLength` bytes: at the next multiple of
 * 8, as V8 reads the data where it lies only when it is 8-byte aligned (it copies it otherwise).
 *
 * @param {number} idLength
 * @returns {number}
 */
function cacheDataOffset (idLength) {
  return Math.ceil(idLength / 8) * 8
}

/**
 * Does the command run from the bundle here: is there one, in a package that is not a checkout?
 *
 * @returns {boolean}
 */
function bundled () {
  return !fs.existsSync(path.join(__dirname, '../scripts/bundle.js')) && fs.existsSync(BUNDLE)
}

/** @type {typeof import('../lib/node/bundle-entry.js') | undefined} */
let loaded

/**
 * The bundle's exports (lib/node/bundle-entry.js), loaded once per thread. The file is a function
 * expression already (the wrapper Node gives a CommonJS module, written by scripts/bundle.js), so
 * that the 360 kB of source V8 compiles is the string read, not a copy made by wrapping it here.
 *
 * @returns {typeof import('../lib/node/bundle-entry.js')}
 */
function loadBundle () {
  if (loaded) return loaded
  const source = fs.readFileSync(BUNDLE, 'utf8')
  const id = Buffer.from(source.slice(0, source.indexOf('\n') + 1), 'latin1')
  /** @type {Buffer | undefined} */
  let cachedData
  try {
    const bytes = fs.readFileSync(CACHE)
    if (bytes.subarray(0, id.length).equals(id)) cachedData = bytes.subarray(cacheDataOffset(id.length))
  } catch (err) {
    if (/** @type {{ code?: string }} */ (err).code !== 'ENOENT') throw err
  }
  const script = new vm.Script(source, { filename: NAME, cachedData })
  // scripts/bundle.js sets it for the one run that makes the cache, written as that run ends
  const cacheOut = process.env.DAG_CBOR_CAR_WRITE_CODE_CACHE
  if (cacheOut) {
    process.on('exit', () => {
      const padding = Buffer.alloc(cacheDataOffset(id.length) - id.length, 0x20)
      fs.writeFileSync(cacheOut, Buffer.concat([id, padding, script.createCachedData()]))
    })
  }
  const module = { exports: {} }
  // this file's require: the bundle requires only built-ins and packages by name, which resolve
  // the same from build/node/ as from bin/ (neither has a node_modules of its own)
  script.runInThisContext()(module.exports, require, module, BUNDLE, path.dirname(BUNDLE))
  loaded = /** @type {typeof import('../lib/node/bundle-entry.js')} */ (module.exports)
  return loaded
}

module.exports = { bundled, loadBundle, cacheDataOffset }

if (require.main === module) {
  if (bundled()) loadBundle().cli()
  else import('../lib/commands/cli.js')
}
