'use strict'
// 'dag-cbor-car/decoder' in Node (the exports map's "node" condition): @ipld/car's decoder
// (lib/core/read/decoder.js), the module 'dag-cbor-car' (library.cjs) loads, so that the
// CarReadError it throws is the one 'dag-cbor-car' exports. Its names are written out as
// library.cjs's are, for Node's import of a CommonJS module (test/ipld-car/decoder.spec.js holds
// them equal to the module's).
const decoder = require('../core/read/decoder.js')

exports.UnexpectedEnd = decoder.UnexpectedEnd
exports.asyncIterableReader = decoder.asyncIterableReader
exports.bytesReader = decoder.bytesReader
exports.chunkReader = decoder.chunkReader
exports.createDecoder = decoder.createDecoder
exports.limitReader = decoder.limitReader
exports.readBlockHead = decoder.readBlockHead
exports.readHeader = decoder.readHeader
