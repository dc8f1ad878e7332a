// @ipld/car's main entry (src/index.js), as this library gives it: its Node entry.
// Read through the namespace, so that a name the library lacks is undefined (its tests fail) rather
// than a link error that would stop every test file importing this one.
import * as lib from '../../../lib/node/node-library.js'

export const CarReader = lib.CarReader
export const CarBufferReader = lib.CarBufferReader
export const CarIndexer = lib.CarIndexer
export const CarBlockIterator = lib.CarBlockIterator
export const CarCIDIterator = lib.CarCIDIterator
export const CarWriter = lib.CarWriter
export const CarIndexedReader = lib.CarIndexedReader
export const CarBufferWriter = /** @type {any} */ (lib).CarBufferWriter
export const contentType = lib.contentType
