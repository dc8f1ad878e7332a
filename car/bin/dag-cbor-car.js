#!/usr/bin/env node
'use strict'
// dag-cbor-car: runs the command line tool from its bundle, lib/node/cli.bundle.cjs (the dispatcher,
// lib/commands/cli.js, and every module it loads, in one CommonJS file: see scripts/build-cli.js),
// compiled with the V8 code cache made beside it at build time (lib/node/cli.bundle.cache), which
// holds the bytecode of every function a check of the embedded sample ran: V8 then neither parses
// the 480 kB file nor compiles those functions again. V8 ignores a cache made by another V8 or with
// other flags (it compiles as without one); a cache for another build of the bundle is not passed
// (the id on the bundle's first line heads the cache). This file is CommonJS (bin/package.json):
// Node starts a CommonJS entry without setting up its ES module loader first.
const fs = require('node:fs')
const path = require('node:path')
const vm = require('node:vm')
const { createRequire, wrap } = require('node:module')

const bundle = path.join(__dirname, '../lib/node/cli.bundle.cjs')
const cache = path.join(__dirname, '../lib/node/cli.bundle.cache')

let source
try {
  source = fs.readFileSync(bundle, 'utf8')
} catch (err) {
  if (/** @type {{ code?: string }} */ (err).code !== 'ENOENT') throw err
  process.stderr.write('dag-cbor-car: lib/node/cli.bundle.cjs is missing: in a clone of the repository, run npm install (or npm run build:cli in car/)\n')
  process.exit(2)
}
const id = Buffer.from(source.slice(0, source.indexOf('\n') + 1), 'latin1')
/** @type {Buffer | undefined} */
let cachedData
try {
  const bytes = fs.readFileSync(cache)
  if (bytes.subarray(0, id.length).equals(id)) cachedData = bytes.subarray(id.length)
} catch (err) {
  if (/** @type {{ code?: string }} */ (err).code !== 'ENOENT') throw err
}
// V8 names the bundle in stack traces by the name it was compiled under, which a code cache keeps
// from the build's run: one name, the same on every machine, with or without the cache
const script = new vm.Script(wrap(source), { filename: 'dag-cbor-car/lib/node/cli.bundle.cjs', cachedData })
// scripts/build-cli.js sets this for the one run that makes the cache: written as the process ends,
// it holds what that run compiled
const cacheOut = process.env.DAG_CBOR_CAR_WRITE_CODE_CACHE
if (cacheOut) process.on('exit', () => fs.writeFileSync(cacheOut, Buffer.concat([id, script.createCachedData()])))
const cli = { exports: {} }
script.runInThisContext()(cli.exports, createRequire(bundle), cli, bundle, path.dirname(bundle))
