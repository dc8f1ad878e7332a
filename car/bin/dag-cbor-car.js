#!/usr/bin/env node
// dag-cbor-car: runs the command line tool from its bundle, lib/node/cli.bundle.cjs (the dispatcher,
// lib/commands/cli.js, and every module it loads, in one CommonJS file: see scripts/build-cli.js).
// The bundle is built at `npm install` in a clone and shipped in the package. This file is
// CommonJS too (bin/package.json): Node starts a CommonJS entry without setting up its ES module
// loader first.
const BUNDLE = '../lib/node/cli.bundle.cjs'
try {
  require.resolve(BUNDLE)
} catch {
  process.stderr.write('dag-cbor-car: lib/node/cli.bundle.cjs is missing: in a clone of the repository, run npm install (or npm run build:cli in car/)\n')
  process.exit(2)
}
require(BUNDLE)
