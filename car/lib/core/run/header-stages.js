// Own file: the package's `imports` map names it (package.json's #header-stages).
// What CarWriter.updateRootsInFile uses to read the header it replaces, from the stages below, as
// one module that `#header-stages` gives as a function, headerStages(): outside Node, this file,
// imported with the class (a bundler takes it too); in Node, lib/node/load-at-first-call-node.js, which
// loads it at the first call that needs it, so that importing the library does not load the codec
// and multiformats' CID.
import * as stages from './header-stages.js'

export { CID } from 'multiformats/cid'
export { decode } from 'dag-cbor-fast'

/** @returns {typeof stages} this module */
export const headerStages = () => stages
