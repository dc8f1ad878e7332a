'use strict'
// 'dag-cbor-car/core' in Node (the exports map's "node" condition): lib/core/index.js, the module
// 'dag-cbor-car' (library.cjs) loads, so that a program importing both has one core: its classes,
// and the hashers installed through either. Its names are written out as library.cjs's are
// (test/library-entry.spec.js holds them equal to lib/core/index.js's).
const core = require('../core/index.js')

exports.CarBlockError = core.CarBlockError
exports.CarBlockIterator = core.CarBlockIterator
exports.CarBufferReader = core.CarBufferReader
exports.CarBufferWriter = core.CarBufferWriter
exports.CarCIDIterator = core.CarCIDIterator
exports.CarIndexer = core.CarIndexer
exports.CarReadError = core.CarReadError
exports.CarReader = core.CarReader
exports.CarWriter = core.CarWriter
exports.InputFailedError = core.InputFailedError
exports.blockToJson = core.blockToJson
exports.canonicalizeCar = core.canonicalizeCar
exports.checkRepo = core.checkRepo
exports.contentType = core.contentType
exports.hashBackends = core.hashBackends
exports.installHashers = core.installHashers
exports.readBlockAt = core.readBlockAt
exports.runVerify = core.runVerify
exports.verifyCar = core.verifyCar
