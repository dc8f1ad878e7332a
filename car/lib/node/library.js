// dag-cbor-car's library in Node, as the package's "node" export gives it to `import` and
// `require`: lib/node/index.js (see there) and every module it loads, run from one bundle,
// lib/node/library.bundle.cjs (loaded by library-bundle.js, which lib/node/core.js shares), with the
// code cache made beside it (scripts/build-library.js, lib/node/load-bundle.cjs), so that a script does not resolve and link some ninety modules first.
// multiformats stays outside it: the CIDs are the caller's class. The same API and types as
// lib/node/index.js (the exports map's "types"); test/library-entry.spec.js holds the names equal.
// Bun is given lib/node/index.js itself (the exports map's "bun"): the bundle requires multiformats
// through its "module-sync" exports, which Node (20.19 and later) and Deno read and Bun does not.
// So are bundlers building a Node program (the "module" condition, which esbuild, webpack and
// Rollup match and Node does not): library-bundle.js finds the bundle next to itself, which a program
// bundled elsewhere would not have.
import library from './library-bundle.js'

export const {
  CarBlockError,
  CarBlockIterator,
  CarBufferWriter,
  CarBufferReader,
  CarCIDIterator,
  CarIndexedReader,
  CarIndexer,
  CarReadError,
  CarReader,
  CarWriter,
  blockToJson,
  canonicalizeCar,
  checkRepo,
  contentType,
  hashBackends,
  installHashers,
  readBlockAt,
  verifyCar
} = library
