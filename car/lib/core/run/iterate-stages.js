// Own file: the package's `imports` map names it (package.json's #iterate-stages).
// What CarBlockIterator (and so CarCIDIterator) uses from the stages below them, as one module that
// `#iterate-stages` gives as a function, iterateStages(): outside Node, this file, imported with
// the classes (a bundler takes it too); in Node, lib/node/load-at-first-call-node.js, which loads it at the
// first call that needs it, so that importing the library does not load the reading pipeline, the
// codec and multiformats' CID.
import * as stages from './iterate-stages.js'

export { openCar } from '../read/open-car.js'
export { verdict, codecOf, statusOf, HASH_OK } from '../check/classify.js'
export * as dagCbor from '../check/dag-cbor.js'
export { decodeBlock } from '../report/block-view.js'
export { blockBatches, hashedBatches } from './iterate.js'

/** @returns {typeof stages} this module */
export const iterateStages = () => stages
