#!/usr/bin/env node
'use strict'
// dag-cbor-car: runs the command line tool from its bundle, lib/node/cli.bundle.cjs (the dispatcher,
// lib/commands/cli.js, and every module it loads, in one CommonJS file: see scripts/build-cli.js),
// compiled with the V8 code cache made beside it at build time (lib/node/cli.bundle.cache), which
// holds the bytecode of every function a check of the embedded sample ran (lib/node/load-bundle.cjs).
// This file is CommonJS (bin/package.json): Node starts a CommonJS entry without setting up its ES
// module loader first.
const path = require('node:path')
const { loadBundle } = require('../lib/node/load-bundle.cjs')

const bundle = path.join(__dirname, '../lib/node/cli.bundle.cjs')
const cache = path.join(__dirname, '../lib/node/cli.bundle.cache')

try {
  // scripts/build-cli.js sets DAG_CBOR_CAR_WRITE_CODE_CACHE for the one run that makes the cache
  loadBundle(bundle, cache, 'dag-cbor-car/lib/node/cli.bundle.cjs', 'DAG_CBOR_CAR_WRITE_CODE_CACHE')
} catch (err) {
  const { code, path: missing } = /** @type {{ code?: string, path?: string }} */ (err)
  if (code !== 'ENOENT' || missing !== bundle) throw err
  process.stderr.write('dag-cbor-car: lib/node/cli.bundle.cjs is missing: in a clone of the repository, run npm start (or npm run build:cli in car/) once\n')
  process.exit(2)
}
