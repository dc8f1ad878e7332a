// Own file: the package's `imports` map names it (package.json's #write-stages).
// What CarWriter and CarBufferWriter use from the stages below them, as one module that `#write-
// stages` gives as a function, writeStages(): outside Node, this file, imported with the classes (a
// bundler takes it too); in Node, lib/node/load-at-first-call-node.js, which loads it at the first call
// that needs it, so that importing the library does not load the reading pipeline, the codec and
// multiformats' CID.
import * as stages from './write-stages.js'

export { headerBytes, sectionBytes } from '../write/frames.js'
export { asCid, blockHashProblem, booleanOption, describeValue, optionsObject, wholeNumberOption } from '../write/cid-check.js'

/** @returns {typeof stages} this module */
export const writeStages = () => stages
