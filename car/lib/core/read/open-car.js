// The CAR reader's entry: openCar, and what callers import from here, re-exported from the files
// it is spread over (reader.js the type, header.js, byte-reader.js, sections.js, section-batches.js,
// errors.js; every limit and default in limits.js).
import { CarFileReader } from './reader.js'

export { CarFileReader } from './reader.js'
export { CarReadError, asReadError, sectionError } from './errors.js'
export { readVarint } from './byte-reader.js'
export { decodeSectionCid, readSectionAt, scanSections } from './sections.js'

/**
 * @typedef {CarFileReader} Car
 * @typedef {import('./reader.js').Block} Block
 * @typedef {import('./reader.js').SectionBatch} SectionBatch
 * @typedef {import('./reader.js').SeekableFile} SeekableFile
 * @typedef {import('./reader.js').ReaderOptions} ReaderOptions
 * @typedef {import('./header.js').V2Header} V2Header
 */

/**
 * Read a CAR's header from a stream of chunks: the reader of its blocks, positioned at the first.
 *
 * @param {AsyncIterable<Uint8Array>} chunks
 * @param {ReaderOptions} [options]
 * @returns {Promise<Car>}
 */
export function openCar (chunks, options) {
  return CarFileReader.open(chunks, options)
}
