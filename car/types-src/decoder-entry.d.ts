// 'dag-cbor-car/decoder' (@ipld/car's decoder sub-entry): its declarations, types/lib/core/read/decoder.d.ts,
// are built from lib/core/read/decoder.js's JSDoc (npm run build:types), like every module's; but
// neither entry the build starts from (lib/core/index.js, lib/node/node-library.js) imports it, as
// @ipld/car's main entry does not export the decoder: this file puts it in the build.
export type * from '../lib/core/read/decoder.js'
