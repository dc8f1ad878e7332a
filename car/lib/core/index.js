// dag-cbor-car's library API, platform-neutral: Node, browsers and Web Workers, Deno, Bun, workerd.
// No node: imports, Buffer, process, fs or worker_threads here or below (test/core/core-neutral.spec.js
// walks the imports). The Node entry (../node/node-library.js) re-exports all of this, takes file paths too,
// and adds worker threads to verifyCar. This file only re-exports: each stage is a folder (docs/layers.md).
export { CarBlockIterator } from './api/car-block-iterator.js'
export { CarBlockError } from './check/block-errors.js'
export { CarReader } from './api/car-reader.js'
export { CarBufferReader } from './api/car-buffer-reader.js'
export { CarIndexer } from './api/car-indexer.js'
export { CarCIDIterator } from './api/car-cid-iterator.js'
export { contentType } from './write/content-type.js'
export { verifyCar, runVerify, canonicalizeCar, readBlockAt, checkRepo, blockToJson } from './run/library-calls.js'
export { CarWriter } from './api/car-writer.js'
// @ipld/car's index exports CarBufferWriter's functions as one namespace
export * as CarBufferWriter from './api/car-buffer-writer.js'
export { hashBackends, installHashers } from './check/hash.js'
export { CarReadError, InputFailedError } from './read/read-errors.js'

/**
 * @typedef {import('./read/source.js').CarInput} CarInput
 * @typedef {import('./report/summary.js').Summary} Summary
 * @typedef {import('./api/car-block-iterator.js').Block} Block
 * @typedef {import('./api/car-block-iterator.js').BlockStatus} BlockStatus
 * @typedef {import('./api/car-block-iterator.js').BlockProblem} BlockProblem
 * @typedef {import('./api/car-block-iterator.js').CheckedBlock} CheckedBlock
 * @typedef {import('./api/car-block-iterator.js').IteratorOptions} IteratorOptions
 * @typedef {import('./run/verify-car.js').BlockInfo} BlockInfo
 * @typedef {import('./run/verify-car.js').VerifyOptions} VerifyOptions
 */
