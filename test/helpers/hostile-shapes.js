// Inputs of about `size` bytes in shapes where a careless decoder goes quadratic: used by
// limits.spec.js (work counted) and bench/linear.js (time measured).
import { head, concat, concatAll, text, fromHex } from '../fuzz/cbor.js'

/** @typedef {(size: number) => Uint8Array} Shape */

/** how much larger the large input of each pair is */
export const SCALE = 16

/**
 * The small input's size for a shape (the large is SCALE times it): 64 KiB; 256 KiB for the shapes
 * that decode at memory speed, whose 64 KiB call takes microseconds; 16 KiB for those that make one
 * object per few bytes, which V8's GC makes superlinear by itself at 1 MiB.
 * @param {string} shape
 */
export function smallSize (shape) {
  /** @type {Record<string, number>} */
  const kib = { 'long ASCII string': 256, 'byte strings of 4 KiB': 256, 'nested arrays': 16, 'array of short strings': 16, 'array of CIDs': 16 }
  return (kib[shape] ?? 64) * 1024
}

/** @type {Record<string, Shape>} */
export const SHAPES = {
  // one map with many keys, in canonical order (equal-length keys, so bytewise order)
  'map of many keys': (size) => {
    const n = Math.floor(size / 10)
    const parts = [head(5, n)]
    for (let i = 0; i < n; i++) parts.push(text('k' + String(i).padStart(7, '0')), [0x01])
    return concatAll(parts)
  },
  // one long ASCII text string, one long multi-byte text string, 4 KiB byte strings
  'long ASCII string': (size) => text('a'.repeat(size)),
  'long multi-byte string': (size) => text('é☺\u{1f600}'.repeat(Math.floor(size / 9))),
  'byte strings of 4 KiB': (size) => {
    const piece = concat(head(2, 4096), new Uint8Array(4096).fill(7))
    const n = Math.floor(size / piece.length)
    return concatAll([head(4, n), ...Array(n).fill(piece)])
  },
  // an array of many 100-deep nested arrays: one array per input byte
  'nested arrays': (size) => {
    const one = concat(new Uint8Array(99).fill(0x81), [0x80])
    const n = Math.floor(size / one.length)
    return concatAll([head(4, n), ...Array(n).fill(one)])
  },
  'array of short strings': (size) => {
    const n = Math.floor(size / 6)
    return concatAll([head(4, n), ...Array.from({ length: n }, (_, i) => text(String(i % 100000).padStart(5, '0')))])
  },
  'array of CIDs': (size) => {
    const cid = fromHex('d82a58250001711220e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    const n = Math.floor(size / cid.length)
    return concatAll([head(4, n), ...Array(n).fill(cid)])
  }
}
