// dag-cbor-car's library in Node, as the package's "node" export gives it to `import` and
// `require`: lib/node/index.js (see there) and every module it loads, run from one bundle,
// lib/node/library.bundle.cjs, with the code cache made beside it (scripts/build-library.js,
// lib/node/load-bundle.cjs), so that a script does not resolve and link some ninety modules first.
// multiformats stays outside it: the CIDs are the caller's class. The same API and types as
// lib/node/index.js (the exports map's "types"); test/library-entry.spec.js holds the names equal.
// Bun is given lib/node/index.js itself (the exports map's "bun"): the bundle requires multiformats
// through its "module-sync" exports, which Node (20.19 and later) and Deno read and Bun does not.
// So are bundlers building a Node program (the "module" condition, which esbuild, webpack and
// Rollup match and Node does not): this file finds the bundle next to itself, which a program
// bundled elsewhere would not have.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const bundle = fileURLToPath(new URL('./library.bundle.cjs', import.meta.url))
const cache = fileURLToPath(new URL('./library.bundle.cache', import.meta.url))
const { loadBundle } = require('./load-bundle.cjs')

/** @type {typeof import('./index.js')} */
let library
try {
  // scripts/build-library.js sets DAG_CBOR_CAR_WRITE_LIBRARY_CACHE for the one run that makes the cache
  library = loadBundle(bundle, cache, 'dag-cbor-car/lib/node/library.bundle.cjs', 'DAG_CBOR_CAR_WRITE_LIBRARY_CACHE')
} catch (err) {
  const { code, path: missing } = /** @type {{ code?: string, path?: string }} */ (err)
  if (code !== 'ENOENT' || missing !== bundle) throw err
  throw new Error('dag-cbor-car: lib/node/library.bundle.cjs is missing: in a clone of the repository, run npm install (or npm run build:cli in car/)')
}

export const {
  CarBlockError,
  CarBlockIterator,
  CarReadError,
  CarWriter,
  blockToJson,
  canonicalizeCar,
  checkRepo,
  hashBackends,
  installHashers,
  readBlockAt,
  verifyCar
} = library
