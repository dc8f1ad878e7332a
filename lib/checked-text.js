// Text for the typed and Lexicon readers (lib/schema/read.js, lib/lexicon/read.js, unknown.js):
// utf8.js's readUtf8, strict, with the decode error they all give at the first invalid byte.
// Generic decode (decode.js) keeps its own, which also escapes for relaxed decode, so that the
// drop-in bundle does not grow by this module.

import { readUtf8, invalidAt } from './utf8.js'
import { decodeFail } from './errors.js'

/**
 * src[start, end) as text, or the decode error at its first invalid byte.
 *
 * @param {Uint8Array} src
 * @param {number} start
 * @param {number} end
 * @returns {string}
 */
export function checkedText (src, start, end) {
  const s = readUtf8(src, start, end, false)
  if (s === null) throw decodeFail('invalid-utf8', 'text is not valid UTF-8', invalidAt)
  return s
}
