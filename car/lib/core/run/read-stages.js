// Own file: the package's `imports` map names it (package.json's #read-stages).
// What CarReader and CarBufferReader use from the stages below them, as one module that `#read-
// stages` gives as a function, readStages(): outside Node, this file, imported with the classes (a
// bundler takes it too); in Node, lib/node/load-at-first-call-node.js, which loads it at the first call
// that needs it, so that importing the library does not load the reading pipeline, the codec and
// multiformats' CID.
import * as stages from './read-stages.js'

export { CID } from 'multiformats/cid'
export { readCarHeader, forEachSection } from '../read/in-memory.js'
export { BlockTable } from '../graph/block-table.js'
export { plainCid } from '../read/sections.js'
export { ownedCopy } from '../base/bytes.js'

/** @returns {typeof stages} this module */
export const readStages = () => stages
