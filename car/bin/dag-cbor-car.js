#!/usr/bin/env node
// dag-cbor-car: runs the command line tool from its bundle, lib/node/cli.bundle.js (the dispatcher,
// lib/commands/cli.js, and every module it loads, in one file: see scripts/build-cli.js). The
// bundle is built at `npm install` in a clone and shipped in the package.
try {
  await import('../lib/node/cli.bundle.js')
} catch (err) {
  const e = /** @type {{ code?: string, url?: string }} */ (err)
  if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !e.url?.endsWith('/lib/node/cli.bundle.js')) throw err
  process.stderr.write('dag-cbor-car: lib/node/cli.bundle.js is missing: in a clone of the repository, run npm install (or npm run build:cli in car/)\n')
  process.exitCode = 2
}
