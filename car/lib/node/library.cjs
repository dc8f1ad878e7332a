'use strict'
// 'dag-cbor-car' in Node (the exports map's "node" condition): lib/node/node-library.js, its source
// modules, in a checkout and in the packed package alike (so a stack trace names the source's
// files, lines and functions; the package ships no bundle of the library). The names are written
// out, one line each, for Node's import of a CommonJS module, which finds them by reading this file
// (test/library-entry.spec.js holds them equal to lib/node/node-library.js's).
const library = require('./node-library.js')

exports.CarBlockError = library.CarBlockError
exports.CarBlockIterator = library.CarBlockIterator
exports.CarBufferReader = library.CarBufferReader
exports.CarBufferWriter = library.CarBufferWriter
exports.CarCIDIterator = library.CarCIDIterator
exports.CarIndexedReader = library.CarIndexedReader
exports.CarIndexer = library.CarIndexer
exports.CarReadError = library.CarReadError
exports.CarReader = library.CarReader
exports.CarWriter = library.CarWriter
exports.InputFailedError = library.InputFailedError
exports.blockToJson = library.blockToJson
exports.canonicalizeCar = library.canonicalizeCar
exports.checkRepo = library.checkRepo
exports.contentType = library.contentType
exports.hashBackends = library.hashBackends
exports.installHashers = library.installHashers
exports.readBlockAt = library.readBlockAt
exports.verifyCar = library.verifyCar
