// 'dag-cbor-car/core' in Node (the exports map's "node" condition): the platform-neutral core
// (lib/core/index.js) from the same bundle as 'dag-cbor-car' (lib/node/library-bundle.js), so a
// program importing both has one core: `instanceof CarReadError` holds across them and hashers
// installed through one are seen by the other. Its types are lib/core/index.js's.
import library from './library-bundle.js'

export const {
  CarBlockError,
  CarBlockIterator,
  CarBufferWriter,
  CarBufferReader,
  CarCIDIterator,
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
  runVerify,
  verifyCar
} = library.core
