// The argument of a CBOR head: the one reader of it. The CAR tool's byte-level walkers call
// readArgument through the package's 'dag-cbor-fast/head' entry. Decode (decode.js), validate
// (validate.js), the typed reader (schema/read.js) and the Lexicon reader (lexicon/read.js, unknown.js) each
// read heads over a cursor that is their own module state, on their hottest path: each holds a
// copy of readArgument and bigArgument written over that cursor, which
// scripts/generate-head-readers.js makes from the text below (test/head.spec.js fails when a copy
// differs from what it makes now). A call here from each module would be one function more in
// every bundle, over the size ceilings.
// Nothing here imports from Node.

import { decodeFail as fail, truncated } from './errors.js'

/** the high and low 32 bits of the last 8-byte argument read (additional information 27) */
export let bigHi = 0
export let bigLo = 0

/**
 * The smallest argument each longer head form may hold in shortest form (additional
 * information 24, 25, 26 and 27): anything less fits a shorter one.
 */
export const LEAST = [24, 0x100, 0x10000, 4294967296]

/**
 * The big-endian 32-bit word at bytes[at].
 *
 * @param {Uint8Array} bytes
 * @param {number} at
 * @returns {number}
 */
export function word (bytes, at) {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0
}

/**
 * The argument of the head whose initial byte is at `at` and whose additional information is
 * `info`, its bytes (if any) starting at src[pos]: checked to be there (else 'truncated'), to be
 * no reserved value or indefinite length, and unless `relaxed` to be in shortest form, each
 * refused with DAG-CBOR decode's error at `at`. Returns -1 for an 8-byte argument above
 * 2^53-1, which bigArgument() then gives exactly. The argument takes 1, 2, 4 or 8 bytes after
 * the initial byte for info 24, 25, 26 or 27, none below 24.
 *
 * @param {Uint8Array} src
 * @param {number} pos - just past the initial byte
 * @param {number} end - where the input ends
 * @param {number} info - low 5 bits of the initial byte
 * @param {number} at - the initial byte's offset, for errors
 * @param {boolean} relaxed - take arguments not in shortest form
 * @returns {number}
 */
export function readArgument (src, pos, end, info, at, relaxed) {
  if (info < 24) return info
  // a branch per size, each with its own constants: one path for every size (its byte count
  // computed from info) took validate's item loop about a sixth more instructions
  let value = 0
  let least = 0 // the least value this size holds in shortest form (LEAST's)
  if (info === 24) {
    if (pos + 1 > end) throw truncated(at)
    value = src[pos]
    pos += 1 // in a copy pos is its module's cursor, moved past the argument here
    least = 24
  } else if (info === 25) {
    if (pos + 2 > end) throw truncated(at)
    value = (src[pos] << 8) | src[pos + 1]
    pos += 2
    least = 0x100
  } else if (info === 26) {
    if (pos + 4 > end) throw truncated(at)
    value = word(src, pos)
    pos += 4
    least = 0x10000
  } else if (info === 27) {
    if (pos + 8 > end) throw truncated(at)
    bigHi = word(src, pos)
    bigLo = word(src, pos + 4)
    pos += 8
    if (bigHi > 0x1fffff) return -1
    value = bigHi * 4294967296 + bigLo
    least = 4294967296
  } else {
    throw info === 31
      ? fail('indefinite-length', 'indefinite-length item; DAG-CBOR has only definite lengths', at)
      : fail('malformed', `additional information ${info} is reserved`, at)
  }
  if (!relaxed && value < least) throw fail('non-shortest', `${value} is not in shortest form`, at)
  return value
}

/**
 * The last 8-byte argument readArgument returned -1 for, exactly.
 *
 * @returns {bigint}
 */
export function bigArgument () {
  return (BigInt(bigHi) << 32n) | BigInt(bigLo)
}
