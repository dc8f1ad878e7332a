// Builds lib/node/library.bundle.cjs and its code cache (scripts/bundle.js): the library's Node
// entry, lib/node/index.js, and every module it loads (the core, the codec, @ipld/dag-json,
// @ipld/dag-pb, cborg) in one file, which lib/node/library.js (the package's "node" export) runs.
// A script's `import('dag-cbor-car')` otherwise resolved, read and linked some ninety modules, which
// cost it more than checking a CAR of a few hundred MB took beside the command.
//
// multiformats stays outside the bundle, loaded from node_modules: the CIDs the library hands out
// and takes are then the caller's CID class (instanceof, CID.equals), one copy of it in the process.
// The code cache is made by a run that verifies the embedded sample by its path and iterates its
// blocks, as scripts call the library. Run by scripts/build-cli.js (npm install, npm pack, the
// tests, bench:car), after it writes the sample.
//   node scripts/build-library.js
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { buildBundle, car, EXTERNAL } from './bundle.js'

export const LIBRARY_BUNDLE = path.join(car, 'lib/node/library.bundle.cjs')
export const LIBRARY_CACHE = path.join(car, 'lib/node/library.bundle.cache')
const ENTRY = pathToFileURL(path.join(car, 'lib/node/library.js')).href
const SAMPLE = path.join(car, 'lib/node/sample.car')

/** @returns {Promise<string>} the bundle's text */
export async function buildLibrary () {
  const run = `
    const { verifyCar, CarBlockIterator } = await import(${JSON.stringify(ENTRY)})
    await verifyCar(${JSON.stringify(SAMPLE)})
    let blocks = 0
    for await (const block of await CarBlockIterator.fromIterable(${JSON.stringify(SAMPLE)})) blocks += block.bytes.length >= 0 ? 1 : 0
    if (blocks === 0) throw new Error('no blocks in the sample')`
  return buildBundle({
    entry: path.join(car, 'lib/node/bundle-entry.js'),
    bundle: LIBRARY_BUNDLE,
    cache: LIBRARY_CACHE,
    external: ['multiformats', 'multiformats/*', ...EXTERNAL],
    what: 'lib/node/index.js, the core beside it, and the modules they load',
    cacheRun: ['--input-type=module', '-e', run],
    cacheOutVariable: 'DAG_CBOR_CAR_WRITE_LIBRARY_CACHE'
  })
}

// run directly: write the bundle (the sample must be there: npm run build:cli writes both)
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const text = await buildLibrary()
  process.stderr.write(`${path.relative(process.cwd(), LIBRARY_BUNDLE)}: ${(text.length / 1e3).toFixed(0)} kB\n`)
}
