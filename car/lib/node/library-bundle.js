// What the packed package's bundle of the library holds (scripts/bundle.js; bin/dag-cbor-car.js
// loadLibrary): the Node entry, the platform-neutral core and @ipld/car's decoder, one copy of the
// code for all three (library.cjs, core.cjs, library-decoder.cjs), and the modules its worker threads run (bundle-roles.js).
// Synchronous, as require() of the package is: the bundle is CommonJS, and esbuild bundles a
// require() as it does an import(), each module run when first asked for.

/** @returns {typeof import('./index.js')} */
export const library = () => require('./index.js')

/** @returns {typeof import('../core/index.js')} */
export const core = () => require('../core/index.js')

/** @returns {typeof import('../core/read/decoder.js')} 'dag-cbor-car/decoder': from the same bundle, so its CarReadError is the library's */
export const decoder = () => require('../core/read/decoder.js')

export { ROLES } from './bundle-roles.js'
