// The decoder: one recursive descent over the input Uint8Array. Strict by default: it
// accepts exactly the canonical form, so whatever it returns re-encodes to the same bytes
// and CIDs hold. The relaxed mode is a flag read by the same loop, never a second decoder.
// Each rejection names its rule and byte offset; the value path is added while the error
// unwinds (try/catch costs nothing until something throws).

import { readUtf8, invalidAt, shortAscii, SHORT_TEXT } from './utf8.js'
import { readCid } from './cid-decode.js'
import { toByteView } from './byte-view.js'
import { CID_TAG } from './cid-encode.js'
import { DagCborDecodeError, count, lengthPastEnd, withDecodeSegment as withSegment } from './errors.js'
import { DEFAULT_MAX_DEPTH } from './limits.js'
import { readLargeMapInBatches } from '#map-batches'

/**
 * @typedef {object} DecodeOptions
 * @property {boolean} [relaxed] - also accept what the DAG-CBOR spec lets decoders relax for
 *   historical data: map keys out of order, 16- and 32-bit floats, integers and lengths not
 *   in shortest form, `undefined` (read as null), and text that is not valid UTF-8 (each invalid byte b read as the lone surrogate U+DC00+b, so that
 *   `encode(value, { escapedBytes: true })` writes the same bytes back)
 * @property {boolean} [viewBytes] - return byte strings as views into the input instead of
 *   copies: faster, but each one keeps the whole input alive
 * @property {number} [maxDepth] - nesting limit (default 1000)
 */

/** @type {Uint8Array} */
const EMPTY = new Uint8Array(0)

/** @type {Uint8Array} */
let src = EMPTY
let pos = 0
let end = 0
let relaxed = false
let viewBytes = false
let maxDepth = DEFAULT_MAX_DEPTH
let depth = 0
/** the high and low 32 bits of the last 64-bit argument too large for a safe Number */
let bigHi = 0
let bigLo = 0

/** floats are read through this scratch view: a DataView of src itself would cost an
 * allocation per block, and for a small input V8 would first move its bytes off the heap
 * (`src.buffer`); measured 200-253 -> 102 ns for a 3-item array holding one float */
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
 * @param {number} at
 * @returns {number}
 */
function readFloat64 (at) {
  floatView.setUint32(0, word(at))
  floatView.setUint32(4, word(at + 4))
  return floatView.getFloat64(0)
}

/**
 * @param {number} at
 * @returns {number}
 */
function readFloat32 (at) {
  floatView.setUint32(0, word(at))
  return floatView.getFloat32(0)
}

/**
 * @param {import('./errors.js').RuleName} rule - whether relaxed mode lifts it is in errors.js's RULES
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

/**
 * The argument of the head whose initial byte is at `at` (pos is just past it), checked to
 * be in shortest form. Returns -1 for a 64-bit value above 2^53-1, leaving it in
 * bigHi/bigLo.
 *
 * @param {number} info - low 5 bits of the initial byte
 * @param {number} at
 * @returns {number}
 */
function readArg (info, at) {
  if (info < 24) return info
  if (info > 27) {
    throw info === 31
      ? fail('indefinite-length', 'indefinite-length item; DAG-CBOR has only definite lengths', at)
      : fail('malformed', `additional information ${info} is reserved`, at)
  }
  const size = 1 << (info - 24) // 1, 2, 4 or 8 bytes
  if (pos + size > end) throw truncated(at)
  let value = src[pos]
  // the smallest value that needs this size (shortest form); a constant per branch, since
  // computing 2 ** (4 * size) here made every multi-byte head ~4x slower (Math.pow)
  let least = 24
  if (size === 2) {
    value = (value << 8) | src[pos + 1]
    least = 0x100
  } else if (size === 4) {
    value = word(pos)
    least = 0x10000
  } else if (size === 8) {
    const hi = word(pos)
    bigLo = word(pos + 4)
    if (hi > 0x1fffff) {
      pos += 8
      bigHi = hi
      return -1
    }
    value = hi * 4294967296 + bigLo
    least = 4294967296
  }
  pos += size
  if (!relaxed && value < least) {
    throw fail('non-shortest', `${value} is not in shortest form`, at)
  }
  return value
}

/**
 * A length argument, checked against the bytes left (each item takes at least `unit` bytes),
 * so a hostile header never makes us allocate more than the input could fill.
 *
 * @param {number} info
 * @param {number} at
 * @param {number} unit
 * @returns {number}
 */
function readLength (info, at, unit) {
  const n = readArg(info, at)
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

/** @returns {bigint} */
function bigArg () {
  return (BigInt(bigHi) << 32n) | BigInt(bigLo)
}

/**
 * @returns {unknown}
 */
export function readItem () {
  if (pos >= end) throw truncated(pos)
  const at = pos
  const initial = src[pos++]
  const info = initial & 31
  switch (initial >> 5) {
    case 0: {
      const n = readArg(info === 31 ? 28 : info, at)
      return n >= 0 ? n : bigArg()
    }
    case 1: {
      const n = readArg(info === 31 ? 28 : info, at)
      if (n < 0) return -1n - bigArg()
      // -1 - (2^53 - 1) = -2^53 is not a safe integer: it must stay exact
      return n < Number.MAX_SAFE_INTEGER ? -1 - n : -1n - BigInt(n)
    }
    case 2: {
      const n = readLength(info, at, 1)
      const start = pos
      pos += n
      return viewBytes ? src.subarray(start, pos) : src.slice(start, pos)
    }
    case 3: {
      const n = readLength(info, at, 1)
      const start = pos
      pos += n
      return readText(start, pos)
    }
    case 4:
      return readArray(readLength(info, at, 1), at)
    case 5:
      return readMap(readLength(info, at, 2), at)
    case 6:
      return readTag(info, at)
    default:
      return readSimple(info, at)
  }
}

/**
 * Read a map key's head; returns where its text starts and moves pos past it. Nearly every key
 * has a one-byte head (text of 0-23 bytes), read here without expectString's call; every other
 * head, and every error, is expectString's.
 *
 * @returns {number}
 */
export function readKeyHead () {
  const head = pos < end ? src[pos] : 0
  const start = pos + 1
  if (head >= 0x60 && head < 0x78 && start + (head & 31) <= end) {
    pos = start + (head & 31)
    return start
  }
  return expectString(3, 'map-key-type', 'map key is not a string')
}

/** @returns {Uint8Array} the input being decoded (for lib/map-batches.js) */
export function input () {
  return src
}

/** @returns {number} the offset reached (for lib/map-batches.js: the end of the key just read) */
export function position () {
  return pos
}

/** offset of the head read by the last expectString */
let headAt = 0

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
  headAt = pos
  const initial = src[pos++]
  if (initial >> 5 !== major) throw fail(rule, detail, headAt)
  const length = readLength(initial & 31, headAt, 1)
  const start = pos
  pos += length
  return start
}

/**
 * @param {number} start
 * @param {number} stop
 * @returns {string}
 */
export function readText (start, stop) {
  const s = readUtf8(src, start, stop, relaxed)
  if (s === null) {
    throw fail('invalid-utf8', 'text is not valid UTF-8', invalidAt)
  }
  return s
}

/** Map keys repeat across maps and blocks: a cache of recent keys of up to 32 bytes saves
 * building (and V8 internalizing) the same string again. A slot is chosen by a hash of the
 * key's length and its first, middle and last bytes (hashing every byte cost more than the
 * collisions it avoids); the cache keeps each key's bytes in one slab, and a hit is confirmed
 * byte by byte.
 * Only keys read in strict mode enter it (a relaxed read may hold escaped invalid UTF-8). */
const KEY_SLOTS = 4096
const MAX_CACHED_KEY = 32
const keySlab = new Uint8Array(KEY_SLOTS * MAX_CACHED_KEY)
const keyLengths = new Int8Array(KEY_SLOTS).fill(-1)
/** @type {string[]} */
const keyStrings = new Array(KEY_SLOTS).fill('')

/**
 * @param {number} start
 * @param {number} stop
 * @returns {string}
 */
function readKey (start, stop) {
  const length = stop - start
  if (length > MAX_CACHED_KEY) return readText(start, stop)
  let hash = length
  if (length !== 0) {
    hash = Math.imul(hash ^ src[start], 0x01000193)
    hash = Math.imul(hash ^ src[start + (length >> 1)], 0x01000193)
    hash = Math.imul(hash ^ src[stop - 1], 0x01000193)
  }
  const slot = (hash >>> 20) & (KEY_SLOTS - 1)
  const base = slot * MAX_CACHED_KEY
  if (keyLengths[slot] === length) {
    let i = 0
    while (i < length && keySlab[base + i] === src[start + i]) i++
    if (i === length) return keyStrings[slot]
  }
  const key = readText(start, stop)
  if (!relaxed) {
    for (let i = 0; i < length; i++) keySlab[base + i] = src[start + i]
    keyLengths[slot] = length
    keyStrings[slot] = key
  }
  return key
}

/**
 * A key of a large map (which would only churn the key cache): readText's, with its short ASCII
 * case first, which saves two calls per key.
 *
 * @param {number} start
 * @param {number} stop
 * @returns {string}
 */
function readLargeMapKey (start, stop) {
  if (stop - start <= SHORT_TEXT) {
    const s = shortAscii(src, start, stop - start)
    if (s !== null) return s
  }
  return readText(start, stop)
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
 * @returns {unknown[]}
 */
function readArray (n, at) {
  enter(at)
  // preallocated when small (V8 keeps large preallocated arrays in slow dictionary mode)
  const array = n <= 1024 ? new Array(n) : []
  let i = 0
  try {
    for (; i < n; i++) array[i] = readItem()
  } catch (e) {
    throw withSegment(e, i)
  }
  depth--
  return array
}

/** Decoded maps are made by this constructor instead of `{}`. They are the same plain objects
 * (prototype Object.prototype, constructor Object), but V8 gives them a tree of hidden classes
 * of their own: all objects made with `{}` in a program share one, and once other code has
 * grown it, adding properties to `{}` slows down. Measured: after the bench's corpora were
 * generated, building `{}` objects with the garbage-600B corpus's keys cost 142-244 ns per
 * property, against 17 ns with this constructor. Named Object so that debuggers, which name
 * an object after the function that made it, show decoded maps as plain objects.
 * @type {new () => Record<string, unknown>} */
export const PlainObject = /** @type {any} */ ({ Object: function () {} }).Object
PlainObject.prototype = Object.prototype
// V8 fixes how many properties such objects hold inline from the first few it makes; made
// with four, as `{}` holds, so that small first maps do not push every later map's
// properties out of line (a separate array per object)
for (let i = 0; i < 8; i++) {
  const primer = new PlainObject()
  primer.a = primer.b = primer.c = primer.d = 0
}

/** maps with more keys than this are made with `{}` (see readMap) */
export const LARGE_MAP = 128

/**
 * Compare two keys in the input the DAG-CBOR way: shorter first, then bytewise.
 *
 * @param {number} a
 * @param {number} aLength
 * @param {number} b
 * @param {number} bLength
 * @returns {number}
 */
function compareKeys (a, aLength, b, bLength) {
  if (aLength !== bLength) return aLength - bLength
  for (let i = 0; i < aLength; i++) {
    const d = src[a + i] - src[b + i]
    if (d !== 0) return d
  }
  return 0
}

/**
 * compareKeys for the keys of a large map, four bytes at a time: next to each other in a
 * large map, keys of one length mostly differ in their first four bytes, so this loop ends
 * where the CPU predicts it, where a loop of single bytes ends at a byte it cannot predict.
 *
 * @param {number} a
 * @param {number} aLength
 * @param {number} b
 * @param {number} bLength
 * @returns {number}
 */
export function compareLargeMapKeys (a, aLength, b, bLength) {
  if (aLength !== bLength) return aLength - bLength
  let i = 0
  for (; i + 4 <= aLength; i += 4) {
    const x = word(a + i)
    const y = word(b + i)
    if (x !== y) return x < y ? -1 : 1
  }
  for (; i < aLength; i++) {
    const d = src[a + i] - src[b + i]
    if (d !== 0) return d
  }
  return 0
}

/**
 * @param {number} n
 * @param {number} at
 * @returns {Record<string, unknown>}
 */
function readMap (n, at) {
  enter(at)
  // Bun's batched keys (lib/map-batches.js; null elsewhere), in strict mode only: relaxed mode's
  // duplicate check looks in the map
  if (readLargeMapInBatches !== null && n > LARGE_MAP && !relaxed) {
    const batchedMap = readLargeMapInBatches(n)
    if (batchedMap !== null) {
      depth--
      return batchedMap
    }
  }
  /** @type {Record<string, unknown>} */
  // Past about 128 keys V8 turns any object into a hash table (dictionary mode); for maps that
  // large `{}` measured faster than PlainObject (see bench/README.md, map-10k-keys)
  const map = n > LARGE_MAP ? {} : new PlainObject()
  let previous = -1
  let previousLength = 0
  let unordered = false
  /** @type {string|null} */
  let key = null
  try {
    for (let i = 0; i < n; i++) {
      key = null
      const keyAt = pos
      const start = readKeyHead()
      const length = pos - start
      key = n <= LARGE_MAP ? readKey(start, pos) : readLargeMapKey(start, pos)
      if (previous >= 0) {
        const order = n <= LARGE_MAP ? compareKeys(previous, previousLength, start, length) : compareLargeMapKeys(previous, previousLength, start, length)
        if (order >= 0) {
          if (order === 0) throw duplicateKey(key, keyAt)
          if (!relaxed) {
            throw keyOutOfOrder(key, keyAt)
          }
          unordered = true
        }
      }
      // once out of order, a duplicate need not be next to its twin
      if (unordered && Object.prototype.hasOwnProperty.call(map, key)) throw duplicateKey(key, keyAt)
      previous = start
      previousLength = length
      const value = readItem()
      if (key === '__proto__') {
        defineProtoKey(map, value)
      } else {
        map[key] = value
      }
    }
  } catch (e) {
    throw key === null ? e : withSegment(e, key)
  }
  depth--
  return map
}

/**
 * A map's `__proto__` key, as a plain own property: assignment would set the prototype instead.
 *
 * @param {Record<string, unknown>} map
 * @param {unknown} value
 */
export function defineProtoKey (map, value) {
  Object.defineProperty(map, '__proto__', { value, enumerable: true, writable: true, configurable: true })
}

/**
 * @param {string} key
 * @param {number} at
 * @returns {DagCborDecodeError}
 */
export function keyOutOfOrder (key, at) {
  return fail('map-key-order', `map key ${JSON.stringify(key)} is out of order (keys sort by length, then bytewise)`, at)
}

/**
 * @param {string} key
 * @param {number} at
 * @returns {DagCborDecodeError}
 */
export function duplicateKey (key, at) {
  return fail('duplicate-key', `duplicate map key ${JSON.stringify(key)}`, at)
}

/**
 * @param {number} info
 * @param {number} at
 * @returns {unknown}
 */
function readTag (info, at) {
  const tag = readArg(info === 31 ? 28 : info, at)
  if (tag !== CID_TAG) throw fail('tag', `tag ${tag < 0 ? bigArg() : tag} is not allowed; DAG-CBOR has only tag 42 (CID)`, at)
  const start = expectString(2, 'cid', 'tag 42 (CID) must hold a byte string')
  return readCid(src, start, pos)
}

/**
 * @param {number} info
 * @param {number} at
 * @returns {unknown}
 */
function readSimple (info, at) {
  switch (info) {
    case 20: return false
    case 21: return true
    case 22: return null
    case 23:
      if (relaxed) return null
      throw fail('undefined', 'undefined (0xf7)', at)
    case 25:
    case 26:
    case 27: {
      const size = 1 << (info - 24) // 2, 4 or 8 bytes
      if (pos + size > end) throw truncated(at)
      const value = size === 8 ? readFloat64(pos) : size === 4 ? readFloat32(pos) : readHalf((src[pos] << 8) | src[pos + 1])
      pos += size
      if (value - value !== 0) throw fail('non-finite-float', `${value} is not in the IPLD data model`, at)
      if (size !== 8 && !relaxed) throw fail('float-size', `${size * 8}-bit float; DAG-CBOR floats are 64-bit`, at)
      // A float64 holding an integer (Go and Rust write 1.0 this way) is valid DAG-CBOR and is
      // accepted. It comes back as a Number, which our encoder writes as an integer: the spec's
      // "JavaScript Numbers" limitation, documented in the README, not a reason to reject it.
      return value
    }
    case 31:
      throw fail('indefinite-length', 'break code (0xff); DAG-CBOR has no indefinite lengths', at)
    case 24:
    default:
      if (info >= 28) return readArg(info, at) // throws: reserved
      throw fail('simple-value', `simple value ${info === 24 ? src[pos] : info} is not in the IPLD data model`, at)
  }
}

/**
 * @param {number} half - IEEE 754 binary16 bits
 * @returns {number}
 */
export function readHalf (half) {
  const exponent = (half >> 10) & 0x1f
  const mantissa = half & 0x3ff
  const value = exponent === 0
    ? mantissa * 2 ** -24
    : exponent !== 31 ? (mantissa + 1024) * 2 ** (exponent - 25) : mantissa === 0 ? Infinity : NaN
  return half & 0x8000 ? -value : value
}

/**
 * Decode the first item of `input`; `pos` is left just after it. With `whole`, bytes after
 * it are an error.
 *
 * @param {Uint8Array} input
 * @param {DecodeOptions|undefined} options
 * @param {boolean} whole
 * @returns {unknown}
 */
function run (input, options, whole) {
  // options first, into locals: a getter may run anything, even another decode, which would
  // overwrite the module state of this one had it already been set
  const relaxedOption = options?.relaxed === true
  const viewBytesOption = options?.viewBytes === true
  const maxDepthOption = options?.maxDepth ?? DEFAULT_MAX_DEPTH
  src = input
  pos = 0
  end = input.length
  depth = 0
  relaxed = relaxedOption
  viewBytes = viewBytesOption
  maxDepth = maxDepthOption
  try {
    const value = readItem()
    if (whole && pos !== end) {
      throw fail('trailing-bytes', `${count(end - pos, 'byte')} left over after the first item (decodeFirst(bytes) returns the first item and the bytes after it)`, pos)
    }
    return value
  } catch (e) {
    if (e instanceof DagCborDecodeError) throw e.finish()
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw fail('depth', 'nesting too deep for the JavaScript stack', pos).finish()
    }
    throw e
  } finally {
    src = EMPTY // never keep the caller's input alive
  }
}

/**
 * Decode one DAG-CBOR block; bytes after the first item are an error. Typed as
 * the decode of `@ipld/dag-cbor`: bytes tagged with the type they encode (ByteView<T>) decode
 * to T; any other view of bytes (a DataView, say) is read too.
 *
 * @template T
 * @param {import('multiformats/codecs/interface').ByteView<T> | import('multiformats/codecs/interface').ArrayBufferView<T> | ArrayBufferView} data
 * @param {DecodeOptions} [options]
 * @returns {T}
 */
export function decode (data, options) {
  return /** @type {T} */ (run(toByteView(data), options, true))
}

/**
 * Decode the first item and return it with the rest of the input (a view of it).
 *
 * @template T
 * @param {import('multiformats/codecs/interface').ByteView<T> | import('multiformats/codecs/interface').ArrayBufferView<T> | ArrayBufferView} data
 * @param {DecodeOptions} [options]
 * @returns {[T, Uint8Array]}
 */
export function decodeFirst (data, options) {
  const input = toByteView(data)
  const value = /** @type {T} */ (run(input, options, false))
  return [value, input.subarray(pos)]
}
