'use strict'
// 'dag-cbor-car/decoder' in Node (the exports map's "node" condition): @ipld/car's decoder
// (lib/core/read/decoder.js), from the same build as 'dag-cbor-car' (library-build.cjs), so that the
// CarReadError it throws is the one 'dag-cbor-car' exports. Its names are written out as
// library.cjs's are, for Node's import of a CommonJS module (test/ipld-car/decoder.spec.js holds
// them equal to the module's).
const decoder = require('./library-build.cjs').decoder()

exports.UnexpectedEnd = decoder.UnexpectedEnd
exports.asyncIterableReader = decoder.asyncIterableReader
exports.bytesReader = decoder.bytesReader
exports.chunkReader = decoder.chunkReader
exports.createDecoder = decoder.createDecoder
exports.limitReader = decoder.limitReader
exports.readBlockHead = decoder.readBlockHead
exports.readHeader = decoder.readHeader
