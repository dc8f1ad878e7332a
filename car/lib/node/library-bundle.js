// Loads lib/node/library.bundle.cjs once (lib/node/load-bundle.cjs), for both of the package's Node
// entries: lib/node/library.js ('dag-cbor-car') and lib/node/core.js ('dag-cbor-car/core').
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const bundle = fileURLToPath(new URL('./library.bundle.cjs', import.meta.url))
const cache = fileURLToPath(new URL('./library.bundle.cache', import.meta.url))
const { loadBundle } = require('./load-bundle.cjs')

/** @type {typeof import('./bundle-entry.js')} */
let library
try {
  // scripts/build-library.js sets DAG_CBOR_CAR_WRITE_LIBRARY_CACHE for the one run that makes the cache
  library = loadBundle(bundle, cache, 'dag-cbor-car/lib/node/library.bundle.cjs', 'DAG_CBOR_CAR_WRITE_LIBRARY_CACHE')
} catch (err) {
  const { code, path: missing } = /** @type {{ code?: string, path?: string }} */ (err)
  if (code !== 'ENOENT' || missing !== bundle) throw err
  throw new Error('dag-cbor-car: lib/node/library.bundle.cjs is missing: in a clone of the repository, run npm install (or npm run build:cli in car/)')
}

export default library
