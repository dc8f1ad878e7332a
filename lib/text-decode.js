// UTF-8 text past the short lengths utf8.js decodes in JS, decoded with each invalid sequence
// replaced by U+FFFD (readUtf8 then looks for U+FFFD to tell valid text from invalid): here
// (browsers, Deno) by TextDecoder. Node takes text-decode-node.js (package.json's "imports").

const replacingDecoder = new TextDecoder('utf-8', { ignoreBOM: true })

/**
 * src[start, end) decoded as UTF-8, each invalid sequence replaced by U+FFFD, a leading BOM kept.
 *
 * @type {(src: Uint8Array, start: number, end: number) => string}
 */
export const decodeReplacing = (src, start, end) => replacingDecoder.decode(src.subarray(start, end))
