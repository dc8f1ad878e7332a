#!/usr/bin/env node
'use strict'
// dag-cbor-car: runs the command line tool, lib/commands/cli.js, from the build this package has:
// the packed package's bundle of the command, build/cli/dag-cbor-car.cjs (scripts/bundle.js writes
// it when the package is packed: the command and what its worker threads and child processes run,
// in one file), or in a checkout the source, so that a run after an edit runs the edited code,
// with nothing to rebuild. The bundled code starts its worker threads and children from launchers
// next to the bundle (build/cli/worker.js, ...), which require this file for loadBundle() and run
// their module out of the same bundle. So a process runs one build, the bundle or the source, never
// both. A checkout has no build/ (npm pack removes it again), and one left behind by an interrupted
// pack is not run either, since a package directory holding scripts/bundle.js (which the package
// does not ship) is a checkout.
//
// The library ('dag-cbor-car' in a script) has no bundle: it runs its source modules (lib/node/library.cjs),
// so that an error's stack trace names the source's files, lines and functions.
//
// The loader is here rather than in a module of its own: one file fewer for Node to resolve, read
// and compile before the command starts. CommonJS (bin/package.json): Node starts a CommonJS entry
// without setting up its ES module loader first, which a run from the bundle does not need.
//
// A bundle is compiled with V8's code cache for it, which holds the bytecode of every function
// the run that made it ran: V8 then neither parses the file nor compiles those functions again.
// V8 takes a cache only from its own version and flags, so there is one per engine version and set
// of options the process started with, named by them (cacheName). The package ships none (it would
// double the tarball): the command's first check of CAR data under a Node, Bun or set of options
// writes its own as it exits (as Python writes __pycache__ beside the code; nothing where the
// package directory cannot be written). Runs that compile little of the bundle write none
// (--version, --help, exit status 2): a cache made by one would leave every later check compiling
// the rest. A cache file for another build of the bundle is neither passed nor kept: the id on the
// bundle's first line heads the cache.
const fs = require('node:fs')
const path = require('node:path')
const vm = require('node:vm')

/** the bundle's path */
const BUNDLE = path.join(__dirname, '../build/cli/dag-cbor-car.cjs')
/** @returns {string} its code cache for this engine and the options this process started with (cacheName) */
const cachePath = () => path.join(__dirname, `../build/cli/dag-cbor-car.${cacheName()}.cache`)
/** what V8 names the bundle in stack traces (a code cache keeps the name of the run that made it, so not a machine's path) */
const BUNDLE_NAME = 'dag-cbor-car/build/cli/dag-cbor-car.cjs'

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
 * What names the code cache a run can take: its engine's version (V8's, or Bun's, whose
 * JavaScriptCore takes a cache of its own) and, when the process started with options, a hash of
 * them, since V8 refuses a cache made under other V8 flags (NODE_OPTIONS=--max-old-space-size is
 * one): a run with the options a user always sets has a cache of its own, and one without keeps
 * its own.
 *
 * @returns {string}
 */
function cacheName () {
  const engine = process.versions.bun ? `bun-${process.versions.bun}` : `v8-${process.versions.v8}`
  const options = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim()
  if (options === '') return engine
  let hash = 0x811c9dc5 // FNV-1a, for a short file name: no module to load for it
  for (let i = 0; i < options.length; i++) hash = Math.imul(hash ^ options.charCodeAt(i), 0x01000193)
  return `${engine}-${(hash >>> 0).toString(16).padStart(8, '0')}`
}

/**
 * Does the command run from its bundle: is there one, in a package that is not a checkout?
 *
 * @returns {boolean}
 */
function bundled () {
  return !fs.existsSync(path.join(__dirname, '../scripts/bundle.js')) && fs.existsSync(BUNDLE)
}

/** @type {any} the bundle's exports, once loaded in this thread */
let loaded

/**
 * The command's bundle's exports (lib/node/cli-bundle.js), loaded once per thread.
 *
 * @param {{ saveCache?: boolean }} [options] saveCache: when there is no cache for this build and
 *   this V8, write one as the process exits with status 0 or 1 (the command's own run of a
 *   command that reads CAR data does; the threads and children it starts do not)
 * @returns {typeof import('../lib/node/cli-bundle.js')}
 */
function loadBundle ({ saveCache = false } = {}) {
  if (loaded) return loaded
  // compiled with its code cache when V8 has one for it. The file is a function expression already
  // (the wrapper Node gives a CommonJS module, written by scripts/bundle.js), so that the source V8
  // compiles is the string read, not a copy made by wrapping it here.
  const cacheFile = cachePath()
  const source = fs.readFileSync(BUNDLE, 'utf8')
  const id = Buffer.from(source.slice(0, source.indexOf('\n') + 1), 'latin1')
  /** @type {Buffer | undefined} */
  let cachedData
  try {
    const bytes = fs.readFileSync(cacheFile)
    if (bytes.subarray(0, id.length).equals(id)) cachedData = bytes.subarray(cacheDataOffset(id.length))
  } catch {
    // none (or unreadable): compiled from the source
  }
  const script = new vm.Script(source, { filename: BUNDLE_NAME, cachedData })
  if (saveCache && cachedData === undefined) {
    process.on('exit', (code) => { if (code === 0 || code === 1) writeCache(script, id, cacheFile) })
  }
  const module = { exports: {} }
  // this file's require: the bundle requires only built-ins and packages by name, which resolve
  // the same from build/cli/ as from bin/ (neither has a node_modules of its own)
  script.runInThisContext()(module.exports, require, module, BUNDLE, path.dirname(BUNDLE))
  loaded = module.exports
  return loaded
}

/**
 * Write the code cache of what this run compiled, after the bundle's id line, whole or not at all
 * (renamed into place); nothing when the directory cannot be written.
 *
 * @param {import('node:vm').Script} script
 * @param {Buffer} id
 * @param {string} cacheFile
 */
function writeCache (script, id, cacheFile) {
  // a name no other process writes, even one with this pid in another container sharing the directory
  const partial = `${cacheFile}.${process.pid}-${Math.random().toString(36).slice(2)}.tmp`
  try {
    const padding = Buffer.alloc(cacheDataOffset(id.length) - id.length, 0x20)
    fs.writeFileSync(partial, Buffer.concat([id, padding, script.createCachedData()]))
    fs.renameSync(partial, cacheFile)
  } catch {
    try { fs.rmSync(partial, { force: true }) } catch {}
  }
}

/** arguments that make a run compile little of the bundle: no cache is written from one */
const BRIEF = new Set(['--version', '-V', 'version', '--help', '-h', 'help'])

module.exports = { bundled, loadBundle, BUNDLE_NAME, cacheDataOffset }

if (require.main === module) {
  if (bundled()) loadBundle({ saveCache: !process.argv.slice(2).some((arg) => BRIEF.has(arg)) }).cli()
  else import('../lib/commands/cli.js')
}
