// Own file: the package's `imports` map names it (#read-stages, #index-stages, #iterate-stages,
// #write-stages, #header-stages and #call-stages, "node" condition). In Node, the functions of
// lib/core/run/read-stages.js and its five kin: each module loaded at the first call that asks for
// it, by require() of an ES module (Node 20.19 and later; the same module instance import gives),
// not with the library: importing them would cost every program that imports the library the
// reading pipeline's, the codec's and multiformats' modules, used or not
// (test/library-import.spec.js). Synchronous, so that CarBufferReader.fromBytes, CarWriter.create,
// CarBufferWriter and blockToJson work on their first call; the asynchronous calls load them the
// same way, so that no import() of these modules is ever still loading when a require() of them
// comes (Node 24 refuses that). A bundler (esbuild, webpack, Rollup) matches the map's "module"
// condition before "node" and gets the core's files, which import the stages: a require() by path
// here would not find them in a bundle.
const { createRequire } = /** @type {typeof import('node:module')} */ (process.getBuiltinModule('node:module'))
const require = createRequire(import.meta.url)

/** @type {typeof import('../core/run/read-stages.js') | undefined} */
let read
/** @type {typeof import('../core/run/index-stages.js') | undefined} */
let index
/** @type {typeof import('../core/run/iterate-stages.js') | undefined} */
let iterate
/** @type {typeof import('../core/run/write-stages.js') | undefined} */
let write
/** @type {typeof import('../core/run/header-stages.js') | undefined} */
let header
/** @type {typeof import('../core/run/call-stages.js') | undefined} */
let call

/** @type {typeof import('../core/run/read-stages.js').readStages} */
export const readStages = () => (read ??= require('../core/run/read-stages.js'))
/** @type {typeof import('../core/run/index-stages.js').indexStages} */
export const indexStages = () => (index ??= require('../core/run/index-stages.js'))
/** @type {typeof import('../core/run/iterate-stages.js').iterateStages} */
export const iterateStages = () => (iterate ??= require('../core/run/iterate-stages.js'))
/** @type {typeof import('../core/run/write-stages.js').writeStages} */
export const writeStages = () => (write ??= require('../core/run/write-stages.js'))
/** @type {typeof import('../core/run/header-stages.js').headerStages} */
export const headerStages = () => (header ??= require('../core/run/header-stages.js'))
/** @type {typeof import('../core/run/call-stages.js').callStages} */
export const callStages = () => (call ??= require('../core/run/call-stages.js'))
