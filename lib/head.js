// The argument of a CBOR head: the one reader of it. The CAR tool's byte-level walkers call
// readArgument through the package's 'dag-cbor-fast/head' entry. Decode (decode.js), validate
// (validate.js), the typed reader (schema/read.js) and the Lexicon reader (lexicon/read.js) each
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
 * 2^53-1, which bigArgument() then gives exactly. The argument takes 1 << (info - 24) bytes
 * after the initial byte when info is 24 or more, none otherwise.
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
  if (info > 27) {
    throw info === 31
      ? fail('indefinite-length', 'indefinite-length item; DAG-CBOR has only definite lengths', at)
      : fail('malformed', `additional information ${info} is reserved`, at)
  }
  const size = 1 << (info - 24) // 1, 2, 4 or 8 bytes
  if (pos + size > end) throw truncated(at)
  let value = src[pos]
  // the least value this size holds in shortest form (LEAST's), a constant per branch: computed
  // (2 ** ...) it made every multi-byte head slower, and read from LEAST it made the bundles larger.
  // A one-byte argument (tags, most lengths) takes no branch beyond the first.
  let least = 24
  if (size > 1) {
    if (size === 2) {
      value = (value << 8) | src[pos + 1]
      least = 0x100
    } else if (size === 4) {
      value = word(src, pos)
      least = 0x10000
    } else {
      bigHi = word(src, pos)
      bigLo = word(src, pos + 4)
      least = 4294967296
      if (bigHi > 0x1fffff) {
        pos += 8 // past the argument, as below
        return -1
      }
      value = bigHi * 4294967296 + bigLo
    }
  }
  pos += size // in a copy pos is its module's cursor, moved past the argument here
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
