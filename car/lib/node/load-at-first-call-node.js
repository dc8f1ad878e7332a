// Own file: the package's `imports` map names it, "node" condition, for #modules-now and for the
// stages the library runs (#read-stages, #index-stages, #iterate-stages, #write-stages,
// #header-stages, #verify-stages and #call-stages). In Node, the functions of
// lib/core/base/modules-now.js and of lib/core/run/read-stages.js and its kin: each loads its
// module at the first call that asks for it, by require() (of an ES module: Node 20.19 and later;
// the same module instance import gives), not with the library. Importing them would cost every
// program that imports the library their modules (the reading pipeline's, the codec's,
// multiformats' CID; DAG-JSON brings cborg's twenty), used or not (test/library-import.spec.js).
// Synchronous, so that CarBufferReader.fromBytes, CarWriter.create, CarBufferWriter and blockToJson
// work on their first call; the asynchronous calls load them the same way, and in Node every load
// of the #modules-now modules comes through here (check/codecs.js's on-demand ones too), so that
// no import() of one is ever still loading when a require() of it comes (Node 24 refuses that).
// A bundler (esbuild, webpack, Rollup) matches the stages' "module" condition before "node" and
// gets the core's files, which import the stages: a require() by path here would not find them in
// a bundle (the CLI's bundle takes lib/core/base/modules-now.js the same way: scripts/bundle.js).
const { createRequire } = /** @type {typeof import('node:module')} */ (process.getBuiltinModule('node:module'))
const { fileURLToPath } = /** @type {typeof import('node:url')} */ (process.getBuiltinModule('node:url'))
const require = createRequire(import.meta.url)

/**
 * A function that loads a module at its first call and gives that same module at every call.
 *
 * @template T
 * @param {() => T} load
 * @returns {() => T}
 */
function atFirstCall (load) {
  /** @type {T | undefined} */
  let module
  return () => (module ??= load())
}

/**
 * A package's module by the file import resolves its name to: @ipld/dag-pb's exports map has only
 * an "import" condition, which require() does not match.
 *
 * @param {string} specifier
 * @returns {any} the module's namespace
 */
const requirePackage = (specifier) => require(fileURLToPath(import.meta.resolve(specifier)))

/** @typedef {typeof import('../core/base/modules-now.js')} ModulesNow the same functions, outside Node */

/** @type {ModulesNow['dagJson']} */
export const dagJson = atFirstCall(() => requirePackage('@ipld/dag-json'))
/** @type {ModulesNow['dagPb']} */
export const dagPb = atFirstCall(() => requirePackage('@ipld/dag-pb'))
/** @type {ModulesNow['dagCbor']} */
export const dagCbor = atFirstCall(() => requirePackage('dag-cbor-fast'))
/** @type {ModulesNow['sha2']} */
export const sha2 = atFirstCall(() => requirePackage('@noble/hashes/sha2.js'))
/** @type {ModulesNow['blake2']} */
export const blake2 = atFirstCall(() => requirePackage('@noble/hashes/blake2.js'))

/** @type {typeof import('../core/run/read-stages.js').readStages} */
export const readStages = atFirstCall(() => require('../core/run/read-stages.js'))
/** @type {typeof import('../core/run/index-stages.js').indexStages} */
export const indexStages = atFirstCall(() => require('../core/run/index-stages.js'))
/** @type {typeof import('../core/run/iterate-stages.js').iterateStages} */
export const iterateStages = atFirstCall(() => require('../core/run/iterate-stages.js'))
/** @type {typeof import('../core/run/write-stages.js').writeStages} */
export const writeStages = atFirstCall(() => require('../core/run/write-stages.js'))
/** @type {typeof import('../core/run/header-stages.js').headerStages} */
export const headerStages = atFirstCall(() => require('../core/run/header-stages.js'))
/** @type {typeof import('../core/run/call-stages.js').callStages} */
export const callStages = atFirstCall(() => require('../core/run/call-stages.js'))
/**
 * verifyCar's stages, with the pipeline and the codec its run imports (run/verify-car.js's import()
 * of them then finds them loaded): one synchronous load of the graph, which costs Node less than
 * import() of its parts one after another.
 *
 * @type {typeof import('../core/run/verify-stages.js').verifyStages}
 */
export const verifyStages = atFirstCall(() => {
  require('../core/run/pipeline.js')
  require('../core/check/dag-cbor.js')
  return require('../core/run/verify-stages.js')
})
