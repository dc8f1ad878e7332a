// Own file: the package's `imports` map names it (package.json's #modules-now, "node" condition).
// lib/core/base/modules-now.js's functions in Node: each module loaded at the first call that asks
// for it, not when the library is imported. Importing them would cost every program that imports
// the library their modules' loading (DAG-JSON brings cborg's twenty), used or not. They are
// loaded by require() of an ES module (Node 20.19 and later) of the file import resolves the name
// to: @ipld/dag-pb's exports map has only an "import" condition, which require() does not match.
// In Node every load of these comes through here, the on-demand ones included (check/codecs.js):
// Node 24 refuses to require() a module that an import() of it is still loading.
const { createRequire } = /** @type {typeof import('node:module')} */ (process.getBuiltinModule('node:module'))
const { fileURLToPath } = /** @type {typeof import('node:url')} */ (process.getBuiltinModule('node:url'))
const require = createRequire(import.meta.url)

/**
 * @param {string} specifier
 * @returns {any} the module's namespace
 */
const load = (specifier) => require(fileURLToPath(import.meta.resolve(specifier)))

/** @typedef {typeof import('../core/base/modules-now.js')} ModulesNow the same functions, outside Node */

/** @type {ReturnType<ModulesNow['dagJson']> | undefined} */
let dagJsonModule
/** @type {ReturnType<ModulesNow['dagPb']> | undefined} */
let dagPbModule
/** @type {ReturnType<ModulesNow['sha2']> | undefined} */
let sha2Module
/** @type {ReturnType<ModulesNow['blake2']> | undefined} */
let blake2Module

/** @type {ModulesNow['dagJson']} */
export const dagJson = () => (dagJsonModule ??= load('@ipld/dag-json'))
/** @type {ModulesNow['dagPb']} */
export const dagPb = () => (dagPbModule ??= load('@ipld/dag-pb'))
/** @type {ModulesNow['sha2']} */
export const sha2 = () => (sha2Module ??= load('@noble/hashes/sha2.js'))
/** @type {ModulesNow['blake2']} */
export const blake2 = () => (blake2Module ??= load('@noble/hashes/blake2.js'))
