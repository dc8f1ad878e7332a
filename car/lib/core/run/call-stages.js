// Own file: the package's `imports` map names it (package.json's #call-stages).
// What index.js's functions (library-calls.js) and the Node entry's run from the stages below them,
// but for verifyCar's (verify-stages.js), as one module that `#call-stages` gives as a function,
// callStages(): outside Node, this file, imported with the classes (a bundler takes it too); in Node,
// lib/node/load-at-first-call-node.js, which loads it at the first call that needs it, so that
// importing the library does not load the reading pipeline, the codec and multiformats' CID.
import * as stages from './call-stages.js'

export { canonicalizeCar } from './canonicalize-car.js'
export { readBlockAt } from './read-block-at.js'
export { checkRepo } from './check-repo.js'
export { blockToJson } from '../report/block-view.js'

/** @returns {typeof stages} this module */
export const callStages = () => stages
