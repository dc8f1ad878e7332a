// Text the Lexicon reader already knows is ASCII (a format checked on its bytes passed), as a
// string, in Node and Bun (package.json's "imports"; ascii-text.js elsewhere). Past the short
// text the codec decodes in JS, Buffer's latin1Slice copies the bytes straight into a one-byte
// string: for ASCII the same string, without TextDecoder's wrapper, the subarray it needs and
// the U+FFFD scan after it (at-uris and CIDs are 50-80 bytes; bench/README.md, Lexicon).

import { SHORT_TEXT, shortAscii } from '../utf8.js'

/** @type {(this: Uint8Array, start: number, stop: number) => string} */
const latin1Slice = /** @type {any} */ (globalThis).Buffer.prototype.latin1Slice

/**
 * @param {Uint8Array} src
 * @param {number} start
 * @param {number} stop
 * @returns {string}
 */
export function asciiText (src, start, stop) {
  const n = stop - start
  return n <= SHORT_TEXT ? /** @type {string} */ (shortAscii(src, start, n)) : latin1Slice.call(src, start, stop)
}
