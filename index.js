// A strict, canonical, fast DAG-CBOR codec (multicodec 0x71): a multiformats BlockCodec
// and a drop-in for @ipld/dag-cbor. Runs in browsers: nothing here imports from Node.

export { encode, encodedLength, encodeInto } from './lib/encode.js'
export { decode, decodeFirst } from './lib/decode.js'
export { validate } from './lib/validate.js'
export { toByteView } from './lib/byte-view.js'
export { encodeOptions, decodeOptions } from './lib/cborg-options.js'
export { DagCborDecodeError, DagCborEncodeError } from './lib/errors.js'

export const name = 'dag-cbor'
export const code = 0x71
