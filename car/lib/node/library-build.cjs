'use strict'
// Which build of the library 'dag-cbor-car' and 'dag-cbor-car/core' give in Node (library.cjs,
// core.cjs): in the packed package, its library bundle (bin/dag-cbor-car.js loadLibrary; built by
// scripts/bundle.js, with a V8 code cache), so that a script loads one file rather than resolving
// and linking some 130 ES modules, and its worker threads run that bundle too; in a checkout, or
// inside a program's own bundle (where a bundler has put the source's modules already, and
// __filename, if any, is the program's), the source itself. Either way one copy for both entries.

/** this file runs as itself, not inside another program's bundle */
const itself = typeof __filename === 'string' && /[\\/]lib[\\/]node[\\/]library-build\.cjs$/.test(__filename)

/** @returns {typeof import('./library-bundle.js') | undefined} the library's bundle, when this package runs from one */
function bundle () {
  if (!itself) return undefined
  const bin = require('../../bin/dag-cbor-car.js')
  return bin.bundled('library') ? bin.loadLibrary() : undefined
}

/** @returns {typeof import('./index.js')} */
exports.library = () => bundle()?.library() ?? require('./index.js')

/** @returns {typeof import('../core/index.js')} */
exports.core = () => bundle()?.core() ?? require('../core/index.js')
