// A strict, canonical, fast DAG-CBOR codec (multicodec 0x71): a multiformats BlockCodec
// and a drop-in for @ipld/dag-cbor. Runs in browsers: nothing here imports from Node.
// `validate` is its own entry, 'dag-cbor-fast/validate' (lib/validate.js): code that uses this
// module as a value (`import * as dagCbor`, passed as a codec) keeps every export in its bundle.

export { encode, encodedLength, encodeInto } from './lib/encode.js'
export { decode, decodeFirst } from './lib/decode.js'
export { toByteView } from './lib/byte-view.js'
export { encodeOptions, decodeOptions } from './lib/cborg-options.js'
export { DagCborDecodeError, DagCborEncodeError } from './lib/errors.js'

/**
 * Bytes that encode a value of type T: multiformats' type, which the reference codec exports too.
 * @template T
 * @typedef {import('multiformats/codecs/interface').ByteView<T>} ByteView
 */
/**
 * An ArrayBuffer that encodes a value of type T: multiformats' type, which the reference codec exports too.
 * @template T
 * @typedef {import('multiformats/codecs/interface').ArrayBufferView<T>} ArrayBufferView
 */
/** @typedef {import('./lib/encode.js').EncodeOptions} EncodeOptions */
/** @typedef {import('./lib/decode.js').DecodeOptions} DecodeOptions */
/** @typedef {import('./lib/validate.js').ValidateOptions} ValidateOptions */
/** @typedef {import('./lib/validate.js').ValidateResult} ValidateResult */
/** @typedef {import('./lib/errors.js').RuleName} RuleName */

export const name = 'dag-cbor'
export const code = 0x71
