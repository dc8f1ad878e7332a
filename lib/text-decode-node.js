// UTF-8 text past the short lengths utf8.js decodes in JS, decoded with each invalid sequence
// replaced by U+FFFD, in Node and Bun (package.json's "imports"; text-decode.js elsewhere):
// Buffer's utf8Slice reads the range in place, without the subarray TextDecoder needs and without
// its JavaScript wrapper; like TextDecoder with ignoreBOM it keeps a leading BOM and replaces
// every invalid sequence, so readUtf8's U+FFFD check holds. Without a global Buffer it takes
// TextDecoder, as text-decode.js does (not imported from there: one module less to load).

/** @type {((this: Uint8Array, start: number, end: number) => string) | undefined} */
const utf8Slice = /** @type {any} */ (globalThis).Buffer?.prototype.utf8Slice
const replacingDecoder = utf8Slice === undefined ? new TextDecoder('utf-8', { ignoreBOM: true }) : null

/**
 * src[start, end) decoded as UTF-8, each invalid sequence replaced by U+FFFD, a leading BOM kept.
 *
 * @type {(src: Uint8Array, start: number, end: number) => string}
 */
export const decodeReplacing = utf8Slice !== undefined
  ? (src, start, end) => utf8Slice.call(src, start, end)
  : (src, start, end) => /** @type {TextDecoder} */ (replacingDecoder).decode(src.subarray(start, end))
