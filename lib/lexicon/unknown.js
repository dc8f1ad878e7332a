// What a Lexicon does not type, read as data: `unknown` fields, the properties an object does not
// name, the members of an open union it does not list (read.js calls readUnknownValue for each).
// One walk over the bytes builds the value generic decode (lib/decode.js, strict) would build (the
// same plain objects, key order, CIDs, byte copies, integers and bigints) and refuses what it
// refuses with its errors (rule, detail, offset, path), and besides what the AT Protocol data
// model lacks: floats, integers outside signed 64 bits, and maps with "$type": "blob" that are no
// blob. Generic decode itself is not used, so that a bundle of the Lexicon reader does not carry
// it. The cursor is this module's own, over read.js's input; one read runs at a time.

import { readUtf8, invalidAt } from '../utf8.js'
import { readCid } from '../cid-decode.js'
import { CID_TAG } from '../cid-encode.js'
import { decodeFail as fail, truncated, count, lengthPastEnd, withDecodeSegment, keyOutOfOrder, duplicateKey } from '../errors.js'
import { readArgument, bigArgument } from '../head.js'
import { PlainObject, LARGE_MAP, defineProtoKey } from '../plain-object.js'
import { blobShapeProblem } from './rules.js'
import { isCidString } from './formats.js'

/** @type {Uint8Array} */
const EMPTY = new Uint8Array(0)
/** @type {Uint8Array} */
let src = EMPTY
let pos = 0
let end = 0
let depth = 0
let maxDepth = 0

/** where the value readUnknownValue read last ends (its caller's cursor goes on from there) */
export let unknownEnd = 0

/**
 * The value at input[at], ending by `stop`; unknownEnd is then where it ends.
 *
 * @param {Uint8Array} input
 * @param {number} at
 * @param {number} stop - where the input ends
 * @param {number} depthAt - how deep the value is (maps and arrays around it)
 * @param {number} maxDepthOption - the read's nesting limit
 * @returns {unknown}
 */
export function readUnknownValue (input, at, stop, depthAt, maxDepthOption) {
  src = input
  pos = at
  end = stop
  depth = depthAt
  maxDepth = maxDepthOption
  try {
    return readValue()
  } finally {
    unknownEnd = pos
    src = EMPTY // never keep the caller's input alive
  }
}

/** the AT Protocol data model's integers are signed 64-bit: CBOR's major types 0 and 1 reach 2^64 */
export const INT64_MAX = 2n ** 63n - 1n

/**
 * @param {number} major
 * @param {number} at
 * @returns {import('../errors.js').DagCborDecodeError}
 */
export function outOfRange (major, at) {
  return fail(/** @type {any} */ ('lexicon-kind'), `an integer ${major === 0 ? 'above 2^63-1' : 'below -2^63'}, outside the signed 64-bit integers of the AT Protocol data model`, at)
}

/**
 * The argument of the head at `at` (lib/head.js's reader), pos past it; -1 above 2^53-1
 * (bigArgument() then gives it).
 *
 * @param {number} info
 * @param {number} at
 * @returns {number}
 */
function readArg (info, at) {
  if (info < 24) return info
  const n = readArgument(src, pos, end, info, at, false)
  pos += 1 << (info - 24) // 1, 2, 4 or 8 bytes (readArgument threw for any other info)
  return n
}

/**
 * A length read by readArg, checked against the bytes left (each item takes at least `unit` bytes).
 *
 * @param {number} n
 * @param {number} at
 * @param {number} unit
 * @returns {number}
 */
function checkLength (n, at, unit) {
  if (n < 0 || n * unit > end - pos) throw fail('truncated', lengthPastEnd(src[at] >> 5, n < 0 ? bigArgument() : n, end - pos), at)
  return n
}

/**
 * @param {number} start
 * @param {number} stop
 * @returns {string}
 */
function text (start, stop) {
  const s = readUtf8(src, start, stop, false)
  if (s === null) throw fail('invalid-utf8', 'text is not valid UTF-8', invalidAt)
  return s
}

/** @param {number} at */
function enter (at) {
  if (++depth > maxDepth) throw fail('depth', `nesting deeper than maxDepth (${count(maxDepth, 'level')})`, at)
}

/** @returns {unknown} the item at pos, as generic decode reads it */
function readValue () {
  if (pos >= end) throw truncated(pos)
  const at = pos
  const initial = src[pos++]
  const major = initial >> 5
  const info = initial & 31
  if (major === 7) return readSimple(info, at)
  if (major === 0 || major === 1) {
    // 31 read as reserved (28), as generic decode reads integers and tags
    const n = readArg(info === 31 ? 28 : info, at)
    if (n >= 0) return major === 0 ? n : n < Number.MAX_SAFE_INTEGER ? -1 - n : -1n - BigInt(n)
    const big = bigArgument()
    if (big > INT64_MAX) throw outOfRange(major, at)
    return major === 0 ? big : -1n - big
  }
  if (major === 6) {
    const tag = readArg(info === 31 ? 28 : info, at)
    if (tag !== CID_TAG) throw fail('tag', `tag ${tag < 0 ? bigArgument() : tag} is not allowed; DAG-CBOR has only tag 42 (CID)`, at)
    if (pos >= end) throw truncated(pos)
    const headAt = pos
    const head = src[pos++]
    if (head >> 5 !== 2) throw fail('cid', 'tag 42 (CID) must hold a byte string', headAt)
    const length = checkLength(readArg(head & 31, headAt), headAt, 1)
    const start = pos
    pos += length
    return readCid(src, start, pos)
  }
  const n = checkLength(readArg(info, at), at, major === 5 ? 2 : 1)
  if (major === 4) return readList(n, at)
  if (major === 5) return readMap(n, at)
  const start = pos
  pos += n
  return major === 2 ? src.slice(start, pos) : text(start, pos)
}

/**
 * @param {number} info
 * @param {number} at
 * @returns {unknown}
 */
function readSimple (info, at) {
  if (info === 20) return false
  if (info === 21) return true
  if (info === 22) return null
  if (info === 23) throw fail('undefined', 'undefined (0xf7)', at)
  if (info >= 25 && info <= 27) throw floatError(info, at)
  if (info === 31) throw fail('indefinite-length', 'break code (0xff); DAG-CBOR has no indefinite lengths', at)
  if (info >= 28) readArg(info, at) // throws: reserved
  throw fail('simple-value', `simple value ${info === 24 ? src[pos] : info} is not in the IPLD data model`, at)
}

/**
 * The error for the float whose head is at `at`: generic decode's where it refuses the float
 * (non-finite; not 64-bit), else the data model's, which has no floats.
 *
 * @param {number} info - 25, 26 or 27
 * @param {number} at
 * @returns {import('../errors.js').DagCborDecodeError}
 */
function floatError (info, at) {
  const size = 1 << (info - 24)
  if (pos + size > end) return truncated(at)
  // the exponent's bits in the first two bytes of a 16-, 32- and 64-bit float: all set is
  // Infinity (the rest zero) or NaN
  const exponent = info === 25 ? 0x7c00 : info === 26 ? 0x7f80 : 0x7ff0
  const top = (src[pos] << 8) | src[pos + 1]
  if ((top & exponent) === exponent) {
    let nan = (top & ~exponent & 0x7fff) !== 0
    for (let i = 2; i < size; i++) if (src[pos + i] !== 0) nan = true
    return fail('non-finite-float', `${nan ? NaN : top & 0x8000 ? -Infinity : Infinity} is not in the IPLD data model`, at)
  }
  if (size !== 8) return fail('float-size', `${size * 8}-bit float; DAG-CBOR floats are 64-bit`, at)
  return fail(/** @type {any} */ ('lexicon-float'), 'a float; the AT Protocol data model has no floats', at)
}

/**
 * @param {number} n
 * @param {number} at
 * @returns {unknown[]}
 */
function readList (n, at) {
  enter(at)
  // preallocated when small, as generic decode does (V8 keeps large preallocated arrays slow)
  const list = n <= 1024 ? new Array(n) : []
  let i = 0
  try {
    for (; i < n; i++) list[i] = readValue()
  } catch (e) {
    throw withDecodeSegment(e, i)
  }
  depth--
  return list
}

/**
 * A map: text keys in canonical order (by length, then bytewise), no key twice; one with
 * "$type": "blob" is checked as a blob.
 *
 * @param {number} n
 * @param {number} at
 * @returns {Record<string, unknown>}
 */
function readMap (n, at) {
  enter(at)
  const map = n > LARGE_MAP ? {} : new PlainObject()
  let previous = -1
  let previousLength = 0
  /** @type {string|null} the key whose value is read (the error's path), null while a key is */
  let key = null
  try {
    for (let i = 0; i < n; i++) {
      key = null
      const keyAt = pos
      if (pos >= end) throw truncated(pos)
      const head = src[pos++]
      if (head >> 5 !== 3) throw fail('map-key-type', 'map key is not a string', keyAt)
      const length = checkLength(readArg(head & 31, keyAt), keyAt, 1)
      const start = pos
      pos += length
      key = text(start, pos)
      if (previous >= 0) {
        let order = previousLength - length
        for (let b = 0; order === 0 && b < length; b++) order = src[previous + b] - src[start + b]
        if (order >= 0) throw order === 0 ? duplicateKey(key, keyAt) : keyOutOfOrder(key, keyAt)
      }
      previous = start
      previousLength = length
      const value = readValue()
      if (key === '__proto__') defineProtoKey(map, value)
      else map[key] = value
    }
  } catch (e) {
    throw key === null ? e : withDecodeSegment(e, key)
  }
  depth--
  if (map.$type === 'blob') {
    const ref = /** @type {any} */ (map.ref)
    const problem = blobShapeProblem(map, ref !== undefined && ref !== null && ref.asCID === ref, isCidString)
    if (problem !== null) throw fail(/** @type {any} */ (problem[0]), problem[1], at)
  }
  return map
}
