// Own file: the package's `imports` map names it (package.json's #index-stages).
// What CarIndexer and Node's CarIndexedReader use from the stages below them, as one module that
// `#index-stages` gives as a function, indexStages(): outside Node, this file, imported with the
// classes (a bundler takes it too); in Node, lib/node/load-at-first-call-node.js, which loads it at the
// first call that needs it, so that importing the library does not load the reading pipeline, the
// codec and multiformats' CID.
import * as stages from './index-stages.js'

export { CID } from 'multiformats/cid'
export { Digest } from 'multiformats/hashes/digest'
export { openForIndex, visitSections } from '../read/section-places.js'

/** @returns {typeof stages} this module */
export const indexStages = () => stages
