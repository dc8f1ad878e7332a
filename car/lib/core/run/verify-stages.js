// Own file: the package's `imports` map names it (package.json's #verify-stages).
// What verifyCar and runVerify (library-calls.js, and the Node entry's verifyCar) run, as one module
// that `#verify-stages` gives as a function, verifyStages(): outside Node, this file, imported with
// the library (a bundler takes it too); in Node, lib/node/load-at-first-call-node.js, which loads it
// at the first call that needs it, with the pipeline and the codec the run imports. Apart from
// call-stages.js, so that a plain verify loads none of what the library's other calls run.
import * as stages from './verify-stages.js'

export { verifyCar, runVerify, checkVerifyOptions } from './verify-car.js'

/** @returns {typeof stages} this module */
export const verifyStages = () => stages
