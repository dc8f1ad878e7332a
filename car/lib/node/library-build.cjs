'use strict'
// Which build of the library 'dag-cbor-car', 'dag-cbor-car/core' and 'dag-cbor-car/decoder' give in
// Node (library.cjs, core.cjs, library-decoder.cjs): in the packed package, its library bundle
// (bin/dag-cbor-car.js loadLibrary; built by scripts/bundle.js, with a V8 code cache), so that a
// script loads one file rather than resolving and linking some 130 ES modules, and its worker
// threads run that bundle too; in a checkout, or inside a program's own bundle (where a bundler has
// put the source's modules already, and __filename, if any, is the program's), the source itself.
// Either way one copy for every entry.

/** this file runs as itself, not inside another program's bundle */
const itself = typeof __filename === 'string' && /[\\/]lib[\\/]node[\\/]library-build\.cjs$/.test(__filename)
const bin = itself ? require('../../bin/dag-cbor-car.js') : null
/** @type {typeof import('./library-bundle.js') | undefined} the library's bundle, when this package runs from one */
const built = bin !== null && bin.bundled('library') ? bin.loadLibrary() : undefined

/** @returns {typeof import('./index.js')} */
exports.library = () => built?.library() ?? require('./index.js')

/** @returns {typeof import('../core/index.js')} */
exports.core = () => built?.core() ?? require('../core/index.js')

/** @returns {typeof import('../core/read/decoder.js')} 'dag-cbor-car/decoder' (library-decoder.cjs) */
exports.decoder = () => built?.decoder() ?? require('../core/read/decoder.js')
