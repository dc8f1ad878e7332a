// Builds what the package runs from (scripts/bundle.js says how a bundle and its code cache are made):
//   lib/node/cli.bundle.cjs + .cache       the file bin/dag-cbor-car.js runs: the dispatcher
//                                          (lib/commands/cli.js) and every module it loads, the codec
//                                          and multiformats included; its cache is made by a check of
//                                          the embedded sample
//   lib/node/library.bundle.cjs + .cache   the library's Node entry (scripts/build-library.js)
// Node resolves, reads and links each ES module on its own; a check of a small CAR loaded about
// sixty, and that, not the checking, was most of its start-up.
//
// First of all, the embedded sample the bin checks when given no input (scripts/sample-car.js writes
// lib/node/sample.car and sample.json), which the runs that make the caches need.
//
// Run at `npm pack` (prepack), by `npm start`, before the tests (test/build-cli.hook.js) and before
// bench:car, so that neither a clone nor the tests run a bundle older than the source. Not an
// install script: an installed tarball already holds what it made, and npm warns about every
// package that carries one.
//   node scripts/build-cli.js [--quiet]      (npm run build:cli; the root's npm start runs it quietly first)
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeSample } from './sample-car.js'
import { buildBundle, car, EXTERNAL } from './bundle.js'
import { buildLibrary } from './build-library.js'

export const BUNDLE = path.join(car, 'lib/node/cli.bundle.cjs')
export const CACHE = path.join(car, 'lib/node/cli.bundle.cache')
const BIN = path.join(car, 'bin/dag-cbor-car.js')

/**
 * Write the embedded sample, build the command's bundle and its code cache (the bin, run once on
 * the sample with DAG_CBOR_CAR_WRITE_CODE_CACHE set, writes what V8 compiled for that run), then
 * the library's.
 *
 * @returns {Promise<string>} the command bundle's text
 */
export async function buildCli () {
  await writeSample()
  const text = await buildBundle({
    entry: path.join(car, 'lib/commands/cli.js'),
    bundle: BUNDLE,
    cache: CACHE,
    external: EXTERNAL,
    what: 'lib/commands/cli.js and the modules it loads',
    cacheRun: [BIN],
    cacheOutVariable: 'DAG_CBOR_CAR_WRITE_CODE_CACHE'
  })
  await buildLibrary()
  return text
}

// run directly: write the bundles
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const text = await buildCli()
  // on stderr: npm runs this as prepack inside `npm pack --json`, whose stdout is JSON
  if (!process.argv.includes('--quiet')) process.stderr.write(`${path.relative(process.cwd(), BUNDLE)}: ${(text.length / 1e3).toFixed(0)} kB\n`)
}
