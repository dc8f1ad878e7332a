// @ipld/car's src/decoder.js (its sub-entry @ipld/car/decoder): this library's, dag-cbor-car/decoder
// (in Node lib/node/library-decoder.cjs, which requires this same module).
export { asyncIterableReader, bytesReader, chunkReader, createDecoder, limitReader, readBlockHead, readHeader } from '../../../lib/core/read/decoder.js'
