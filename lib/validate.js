// A strict validating walk: the same checks, in the same order, as strict decode (decode.js),
// over the same bytes, but building no values. A block it accepts is canonical DAG-CBOR, so
// whatever decode returns for it re-encodes to the same bytes, integral floats aside (counted
// here). It rejects as decode does: a DagCborDecodeError with the same rule, offset, value path
// and message (the messages are decode's words, written again here: test/validate.spec.js
// compares them over every rule and thousands of fuzzed inputs).

import { readUtf8, invalidUtf8At } from './utf8.js'
import { checkCid } from './cid-decode.js'
import { toByteView } from './byte-view.js'
import { CID_TAG } from './cid-encode.js'
import { DagCborDecodeError, count, lengthPastEnd, withDecodeSegment as withSegment } from './errors.js'
import { DEFAULT_MAX_DEPTH } from './limits.js'

/**
 * @typedef {object} ValidateOptions
 * @property {number} [maxDepth] - nesting limit (default 1000), as decode's
 * @property {boolean} [links] - also list where each link's CID bytes are (`links` in the result)
 */

/**
 * @typedef {object} ValidateResult
 * @property {number} integralFloats - how many float64 items hold a safe integer other than -0:
 *   canonical DAG-CBOR, but decode returns them as Numbers, which encode writes as integers, so
 *   such a block does not survive decode-and-encode byte for byte
 * @property {readonly string[]} integralFloatPaths - the value paths of the first
 *   INTEGRAL_FLOAT_PATHS of them, in input order, written as error paths are ('/a/0'; '' for
 *   the block itself, '/' for the value of an empty key)
 * @property {number[]|null} links - with `{ links: true }`, each link as a pair of offsets:
 *   `bytes.subarray(links[2 * i], links[2 * i + 1])` is the binary CID of the i-th link (its
 *   tag 42 content without the 0x00 prefix), in input order; null otherwise
 */

/** how many integral floats get their value path in a ValidateResult */
export const INTEGRAL_FLOAT_PATHS = 5

/** @type {Uint8Array} */
const EMPTY = new Uint8Array(0)
/** @type {readonly string[]} */
const NO_PATHS = Object.freeze([])

/** @type {Uint8Array} */
let src = EMPTY
let pos = 0
let end = 0
let maxDepth = DEFAULT_MAX_DEPTH
let depth = 0
/** the high and low 32 bits of the last 64-bit argument too large for a safe Number */
let bigHi = 0
let bigLo = 0
let integralFloats = 0
/** offsets of the first INTEGRAL_FLOAT_PATHS integral floats */
const integralFloatOffsets = new Array(INTEGRAL_FLOAT_PATHS).fill(0)
/** @type {number[]|null} */
let links = null
/** a path walk (pathTo) stops at the float64 at this offset; -1 otherwise */
let stopAt = -1

/** float64 values are read through this scratch view (see decode.js's floatView) */
const floatView = new DataView(new ArrayBuffer(8))

/**
 * The big-endian 32-bit word at src[at].
 *
 * @param {number} at
 * @returns {number}
 */
function word (at) {
  return ((src[at] << 24) | (src[at + 1] << 16) | (src[at + 2] << 8) | src[at + 3]) >>> 0
}

/**
 * @param {import('./errors.js').RuleName} rule
 * @param {string} detail
 * @param {number} offset
 * @returns {DagCborDecodeError}
 */
function fail (rule, detail, offset) {
  return new DagCborDecodeError(rule, detail, offset)
}

/**
 * @param {number} at
 * @returns {DagCborDecodeError}
 */
function truncated (at) {
  return fail('truncated', 'unexpected end of input', at)
}

/** @returns {bigint} */
function bigArg () {
  return (BigInt(bigHi) << 32n) | BigInt(bigLo)
}

/**
 * The argument of a head with additional information `info` of 24 or more, whose initial
 * byte is at `at` (pos is just past it), checked to be in shortest form. Returns -1 for a
 * 64-bit value above 2^53-1, leaving it in bigHi/bigLo. Shortest form is checked on the
 * leading bytes; the value is computed only for lengths and messages.
 *
 * @param {number} info
 * @param {number} at
 * @returns {number}
 */
function argument (info, at) {
  let value = 0
  if (info === 24) {
    if (pos + 1 > end) throw truncated(at)
    value = src[pos++]
    if (value < 24) throw nonShortest(value, at)
  } else if (info === 25) {
    if (pos + 2 > end) throw truncated(at)
    value = (src[pos] << 8) | src[pos + 1]
    pos += 2
    if (value < 0x100) throw nonShortest(value, at)
  } else if (info === 26) {
    if (pos + 4 > end) throw truncated(at)
    value = word(pos)
    pos += 4
    if (value < 0x10000) throw nonShortest(value, at)
  } else if (info === 27) {
    if (pos + 8 > end) throw truncated(at)
    const hi = word(pos)
    bigLo = word(pos + 4)
    pos += 8
    if (hi > 0x1fffff) {
      bigHi = hi
      return -1
    }
    value = hi * 4294967296 + bigLo
    if (hi === 0) throw nonShortest(value, at)
  } else {
    throw info === 31
      ? fail('indefinite-length', 'indefinite-length item; DAG-CBOR has only definite lengths', at)
      : fail('malformed', `additional information ${info} is reserved`, at)
  }
  return value
}

/**
 * @param {number} value
 * @param {number} at
 * @returns {DagCborDecodeError}
 */
function nonShortest (value, at) {
  return fail('non-shortest', `${value} is not in shortest form`, at)
}

/**
 * A length argument, checked against the bytes left (each item takes at least `unit` bytes).
 *
 * @param {number} info
 * @param {number} at
 * @param {number} unit
 * @returns {number}
 */
function length (info, at, unit) {
  const n = info < 24 ? info : argument(info, at)
  if (n < 0 || n * unit > end - pos) throw tooLong(n < 0 ? bigArg() : n, at)
  return n
}

/**
 * @param {number|bigint} n - the length the head at `at` declares
 * @param {number} at
 * @returns {DagCborDecodeError}
 */
function tooLong (n, at) {
  return fail('truncated', lengthPastEnd(src[at] >> 5, n, end - pos), at)
}

/**
 * Check one item and move pos past it.
 */
function item () {
  if (pos >= end) throw truncated(pos)
  const at = pos
  const initial = src[pos++]
  const info = initial & 31
  switch (initial >> 5) {
    case 0:
    case 1:
      // 31 is reserved here (no indefinite integers), as decode reads it
      if (info >= 24) argument(info === 31 ? 28 : info, at)
      return
    case 2: {
      const n = length(info, at, 1)
      pos += n
      return
    }
    case 3: {
      const n = length(info, at, 1)
      const start = pos
      pos += n
      text(start, pos)
      return
    }
    case 4:
      array(length(info, at, 1), at)
      return
    case 5:
      map(length(info, at, 2), at)
      return
    case 6:
      tag(info, at)
      return
    default:
      simple(info, at)
  }
}

/**
 * Check that src[start, stop) is valid UTF-8.
 *
 * @param {number} start
 * @param {number} stop
 */
function text (start, stop) {
  // an ASCII prefix, 8 bytes to a test, before the full check (which is called for less)
  const bytes = src
  let i = start
  const stop8 = stop - 7
  while (i < stop8 && (bytes[i] | bytes[i + 1] | bytes[i + 2] | bytes[i + 3] | bytes[i + 4] | bytes[i + 5] | bytes[i + 6] | bytes[i + 7]) < 0x80) i += 8
  while (i < stop && bytes[i] < 0x80) i++
  if (i === stop) return
  const invalid = invalidUtf8At(bytes, i, stop)
  if (invalid >= 0) throw fail('invalid-utf8', 'text is not valid UTF-8', invalid)
}

/**
 * @param {number} at
 */
function enter (at) {
  // written so that a maxDepth of NaN (or a word) fails at once rather than never
  if (!(++depth <= maxDepth)) {
    throw fail('depth', `nesting deeper than maxDepth (${count(maxDepth, 'level')})`, at)
  }
}

/**
 * @param {number} n
 * @param {number} at
 */
function array (n, at) {
  enter(at)
  let i = 0
  try {
    for (; i < n; i++) item()
  } catch (e) {
    throw withSegment(e, i)
  }
  depth--
}

/**
 * A map key as a string, for paths and messages only (the key was checked to be UTF-8).
 *
 * @param {number} start
 * @param {number} stop
 * @returns {string}
 */
function keyString (start, stop) {
  return /** @type {string} */ (readUtf8(src, start, stop, false))
}

/**
 * @param {number} n
 * @param {number} at
 */
function map (n, at) {
  enter(at)
  let previous = -1
  let previousLength = 0
  /** the current key's content, once it is known to be text: it names the path */
  let keyStart = -1
  let keyStop = 0
  try {
    for (let i = 0; i < n; i++) {
      keyStart = -1
      const keyAt = pos
      // a key with a one-byte head (text of 0-23 bytes) is read here; every other head, and
      // every error, is expectString's
      const head = pos < end ? src[pos] : 0
      let start = pos + 1
      if (head >= 0x60 && head < 0x78 && start + (head & 31) <= end) pos = start + (head & 31)
      else start = expectString(3, 'map-key-type', 'map key is not a string')
      const keyLength = pos - start
      text(start, pos)
      keyStart = start
      keyStop = pos
      if (previous >= 0 && previousLength >= keyLength) {
        // not longer than the previous key: it must be the same length and bytewise greater
        let order = previousLength - keyLength
        for (let j = 0; order === 0 && j < keyLength; j++) order = src[previous + j] - src[start + j]
        if (order >= 0) {
          const key = JSON.stringify(keyString(start, pos))
          throw order === 0
            ? fail('duplicate-key', `duplicate map key ${key}`, keyAt)
            : fail('map-key-order', `map key ${key} is out of order (keys sort by length, then bytewise)`, keyAt)
        }
      }
      previous = start
      previousLength = keyLength
      item()
    }
  } catch (e) {
    // the key is made a string only for an error of ours, never on the way out of a stack overflow
    if (keyStart >= 0 && e instanceof DagCborDecodeError) e.segments.push(keyString(keyStart, keyStop))
    throw e
  }
  depth--
}

/**
 * Read the head of a string the grammar requires next (a map key, a CID's bytes), of major
 * type `major` or else an error; returns where its content starts and moves pos past it.
 *
 * @param {number} major
 * @param {import('./errors.js').RuleName} rule
 * @param {string} detail
 * @returns {number}
 */
function expectString (major, rule, detail) {
  if (pos >= end) throw truncated(pos)
  const at = pos
  const initial = src[pos++]
  if (initial >> 5 !== major) throw fail(rule, detail, at)
  const n = length(initial & 31, at, 1)
  const start = pos
  pos += n
  return start
}

/**
 * @param {number} info
 * @param {number} at
 */
function tag (info, at) {
  const number = info < 24 ? info : argument(info === 31 ? 28 : info, at)
  if (number !== CID_TAG) throw fail('tag', `tag ${number < 0 ? bigArg() : number} is not allowed; DAG-CBOR has only tag 42 (CID)`, at)
  const start = expectString(2, 'cid', 'tag 42 (CID) must hold a byte string')
  checkCid(src, start, pos)
  if (links !== null) links.push(start + 1, pos)
}

/**
 * The detail of a NaN or infinite float, as decode's message gives it for its value.
 *
 * @param {boolean} negative
 * @param {boolean} infinite
 * @returns {string}
 */
function nonFinite (negative, infinite) {
  return `${infinite ? (negative ? '-Infinity' : 'Infinity') : 'NaN'} is not in the IPLD data model`
}

/**
 * @param {number} info
 * @param {number} at
 */
function simple (info, at) {
  switch (info) {
    case 20:
    case 21:
    case 22:
      return
    case 23:
      throw fail('undefined', 'undefined (0xf7)', at)
    case 25: {
      if (pos + 2 > end) throw truncated(at)
      const half = (src[pos] << 8) | src[pos + 1]
      pos += 2
      if ((half & 0x7c00) === 0x7c00) throw fail('non-finite-float', nonFinite(half > 0x7fff, (half & 0x3ff) === 0), at)
      throw fail('float-size', '16-bit float; DAG-CBOR floats are 64-bit', at)
    }
    case 26: {
      if (pos + 4 > end) throw truncated(at)
      const single = word(pos)
      pos += 4
      if ((single & 0x7f800000) === 0x7f800000) throw fail('non-finite-float', nonFinite(single > 0x7fffffff, (single & 0x7fffff) === 0), at)
      throw fail('float-size', '32-bit float; DAG-CBOR floats are 64-bit', at)
    }
    case 27: {
      if (pos + 8 > end) throw truncated(at)
      const hi = word(pos)
      const lo = word(pos + 4)
      pos += 8
      if ((hi & 0x7ff00000) === 0x7ff00000) throw fail('non-finite-float', nonFinite(hi > 0x7fffffff, (hi & 0xfffff) === 0 && lo === 0), at)
      floatView.setUint32(0, hi)
      floatView.setUint32(4, lo)
      const value = floatView.getFloat64(0)
      // what encode writes as an integer (it keeps -0 and integers past 2^53 as floats)
      if (Number.isSafeInteger(value) && (hi !== 0x80000000 || lo !== 0)) {
        // 'path' is no rule: pathTo catches this error, and no caller ever sees it
        if (at === stopAt) throw fail(/** @type {any} */ ('path'), 'a path walk stops here', at)
        if (integralFloats < INTEGRAL_FLOAT_PATHS) integralFloatOffsets[integralFloats] = at
        integralFloats++
      }
      return
    }
    case 31:
      throw fail('indefinite-length', 'break code (0xff); DAG-CBOR has no indefinite lengths', at)
    default:
      if (info >= 28) argument(info, at) // throws: reserved
      throw fail('simple-value', `simple value ${info === 24 ? src[pos] : info} is not in the IPLD data model`, at)
  }
}

/**
 * Walk the whole input from its start; the caller sets the options' state.
 */
function walk () {
  pos = 0
  depth = 0
  integralFloats = 0
  item()
  if (pos !== end) throw fail('trailing-bytes', `${count(end - pos, 'byte')} left over after the first item (decodeFirst(bytes) returns the first item and the bytes after it)`, pos)
}

/**
 * The value path of the integral float at `offset` of the input just validated: the walk is
 * run again, to stop there with an error whose path the unwinding fills in, as for any error.
 *
 * @param {number} offset
 * @returns {string}
 */
function pathTo (offset) {
  stopAt = offset
  try {
    walk()
  } catch (e) {
    if (e instanceof DagCborDecodeError && e.rule === /** @type {any} */ ('path')) return e.finish().path
    throw e
  } finally {
    stopAt = -1
  }
  throw new Error(`validate: no integral float at byte ${offset}`) // unreachable: it was found before
}

/**
 * Check that `data` is one canonical DAG-CBOR block, exactly as strict `decode(data)` does, but
 * without building its value (several times faster). Throws what decode throws on the same
 * bytes: a DagCborDecodeError with the same rule, byte offset, value path and message (a
 * TypeError for input that is not bytes). One difference: with `maxDepth` raised past what the
 * JavaScript stack holds, each runs out of stack (rule 'depth') at its own nesting, validate's
 * frames being smaller; at the default maxDepth both stop at the same place.
 *
 * @param {Uint8Array|ArrayBuffer|ArrayBufferView} data
 * @param {ValidateOptions} [options]
 * @returns {ValidateResult}
 */
export function validate (data, options) {
  const input = toByteView(data)
  // options first, into locals: a getter may run anything, even another validate
  const maxDepthOption = options?.maxDepth ?? DEFAULT_MAX_DEPTH
  const linksOption = options?.links === true
  src = input
  end = input.length
  maxDepth = maxDepthOption
  /** @type {number[]|null} */
  const found = linksOption ? [] : null
  links = found
  try {
    walk()
    links = null
    const floats = integralFloats
    let paths = NO_PATHS
    if (floats > 0) {
      const offsets = integralFloatOffsets.slice(0, Math.min(floats, INTEGRAL_FLOAT_PATHS))
      paths = offsets.map(pathTo)
    }
    return { integralFloats: floats, integralFloatPaths: paths, links: found }
  } catch (e) {
    if (e instanceof DagCborDecodeError) throw e.finish()
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw fail('depth', 'nesting too deep for the JavaScript stack', pos).finish()
    }
    throw e
  } finally {
    src = EMPTY // never keep the caller's input alive
    links = null
  }
}
