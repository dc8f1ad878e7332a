// The encoder: one recursive walk over the value that writes canonical DAG-CBOR straight
// into a chunked Writer: no token objects, no second pass. The same walk checks for
// circular references (an ancestor stack) and the depth limit, and a failing value's path
// is collected while the error unwinds (try/catch costs nothing until something throws).

import { Writer } from './writer.js'
import { asCid, CID_TAG } from './cid.js'
import { writeUtf8, loneSurrogateIndex } from './utf8.js'
import { DagCborEncodeError } from './errors.js'
import { DEFAULT_MAX_DEPTH } from './limits.js'


// major types, shifted into the initial byte
const UINT = 0x00
const NEGINT = 0x20
const BYTES = 0x40
const TEXT = 0x60
const ARRAY = 0x80
const MAP = 0xa0

const TWO_32 = 4294967296
const TWO_64 = 18446744073709551616n

/**
 * @typedef {object} EncodeOptions
 * @property {boolean} [escapedBytes] - write lone surrogates U+DC80..U+DCFF in strings as the
 *   raw bytes 0x80..0xFF they stand for: the inverse of `decode(bytes, { relaxed: true })` on
 *   text that is not valid UTF-8. Output with such strings is not valid DAG-CBOR.
 * @property {number} [maxDepth] - nesting limit (default 1000)
 */

let w = new Writer()
let escapedBytes = false
let maxDepth = DEFAULT_MAX_DEPTH
/** ancestors of the value being written, for the circular-reference check
 * @type {Array<object|null>} */
let ancestors = []
let depth = 0
let busy = false

const f64 = new Float64Array(1)
const f64Bytes = new Uint8Array(f64.buffer)
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/**
 * @param {number} major
 * @param {number} n - 0 <= n <= 2^53-1
 */
function writeHead (major, n) {
  const need = w.pos + 9
  if (need > w.buf.length) w.grow(9)
  const buf = w.buf
  let pos = w.pos
  if (n < 24) {
    buf[pos++] = major | n
  } else if (n < 0x100) {
    buf[pos++] = major | 24
    buf[pos++] = n
  } else if (n < 0x10000) {
    buf[pos++] = major | 25
    buf[pos++] = n >>> 8
    buf[pos++] = n & 0xff
  } else if (n < TWO_32) {
    buf[pos++] = major | 26
    buf[pos++] = n >>> 24
    buf[pos++] = (n >>> 16) & 0xff
    buf[pos++] = (n >>> 8) & 0xff
    buf[pos++] = n & 0xff
  } else {
    const hi = Math.floor(n / TWO_32)
    const lo = n >>> 0
    buf[pos++] = major | 27
    buf[pos++] = hi >>> 24
    buf[pos++] = (hi >>> 16) & 0xff
    buf[pos++] = (hi >>> 8) & 0xff
    buf[pos++] = hi & 0xff
    buf[pos++] = lo >>> 24
    buf[pos++] = (lo >>> 16) & 0xff
    buf[pos++] = (lo >>> 8) & 0xff
    buf[pos++] = lo & 0xff
  }
  w.pos = pos
}

/**
 * @param {number} v
 */
function writeFloat (v) {
  if (w.pos + 9 > w.buf.length) w.grow(9)
  const buf = w.buf
  let pos = w.pos
  f64[0] = v
  buf[pos++] = 0xfb
  if (littleEndian) {
    for (let i = 7; i >= 0; i--) buf[pos++] = f64Bytes[i]
  } else {
    for (let i = 0; i < 8; i++) buf[pos++] = f64Bytes[i]
  }
  w.pos = pos
}

/**
 * @param {number} v
 */
function writeNumber (v) {
  if (Number.isSafeInteger(v)) {
    if (v >= 0) {
      // -0 is a float in the data model; @ipld/dag-cbor writes it as the integer 0, which
      // decodes back as +0. Writing float64 -0.0 keeps the value (and the round trip) exact.
      if (v === 0 && 1 / v < 0) writeFloat(v)
      else writeHead(UINT, v)
    } else {
      writeHead(NEGINT, -1 - v)
    }
  } else if (v !== v) { // eslint-disable-line no-self-compare
    throw new DagCborEncodeError('non-finite-float', 'NaN is not in the IPLD data model')
  } else if (v === Infinity || v === -Infinity) {
    throw new DagCborEncodeError('non-finite-float', `${v} is not in the IPLD data model`)
  } else {
    // fractions, and whole numbers beyond 2^53 (not exact as integers): always float64
    writeFloat(v)
  }
}

/**
 * @param {bigint} v
 */
function writeBigInt (v) {
  const negative = v < 0n
  const n = negative ? -1n - v : v
  if (n >= TWO_64) {
    throw new DagCborEncodeError('integer-range', `the integer ${v} is outside the 64-bit range DAG-CBOR allows (-2^64 .. 2^64-1)`)
  }
  const major = negative ? NEGINT : UINT
  if (n <= BigInt(Number.MAX_SAFE_INTEGER)) {
    writeHead(major, Number(n))
    return
  }
  if (w.pos + 9 > w.buf.length) w.grow(9)
  const buf = w.buf
  let pos = w.pos
  buf[pos++] = major | 27
  const hi = Number(n >> 32n)
  const lo = Number(n & 0xffffffffn)
  buf[pos++] = hi >>> 24
  buf[pos++] = (hi >>> 16) & 0xff
  buf[pos++] = (hi >>> 8) & 0xff
  buf[pos++] = hi & 0xff
  buf[pos++] = lo >>> 24
  buf[pos++] = (lo >>> 16) & 0xff
  buf[pos++] = (lo >>> 8) & 0xff
  buf[pos++] = lo & 0xff
  w.pos = pos
}

/**
 * Size of the head for an argument n.
 *
 * @param {number} n
 * @returns {number}
 */
function headSize (n) {
  return n < 24 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : n < TWO_32 ? 5 : 9
}

/**
 * @param {string} s
 */
function writeString (s) {
  const n = s.length
  if (n < 24) {
    // short ASCII fast path: the length is known before scanning, write as we check
    if (w.pos + 1 + n > w.buf.length) w.grow(1 + n)
    const buf = w.buf
    const start = w.pos
    let pos = start + 1
    let i = 0
    for (; i < n; i++) {
      const c = s.charCodeAt(i)
      if (c >= 0x80) break
      buf[pos++] = c
    }
    if (i === n) {
      buf[start] = TEXT | n
      w.pos = pos
      return
    }
  }
  // one pass: write the UTF-8 after a head sized for the ASCII case, then move it if the
  // byte length needs a longer head (only non-ASCII text crossing 24, 256, 65536 bytes)
  const guess = headSize(n)
  const room = 9 + n * 3
  if (w.pos + room > w.buf.length) w.grow(room)
  const start = w.pos
  const stop = writeUtf8(s, w.buf, start + guess, escapedBytes)
  if (stop < 0) {
    throw new DagCborEncodeError('utf8', `string has a lone surrogate at index ${loneSurrogateIndex(s)}; it has no UTF-8 form`)
  }
  const length = stop - start - guess
  const head = headSize(length)
  if (head !== guess) w.buf.copyWithin(start + head, start + guess, stop)
  writeHead(TEXT, length)
  w.pos = start + head + length
}

/**
 * @param {Uint8Array} bytes
 */
function writeBytes (bytes) {
  writeHead(BYTES, bytes.length)
  w.bytes(bytes)
}

/**
 * @param {Uint8Array} cidBytes
 */
function writeCid (cidBytes) {
  if (w.pos + 2 > w.buf.length) w.grow(2)
  w.buf[w.pos++] = 0xd8
  w.buf[w.pos++] = CID_TAG
  writeHead(BYTES, cidBytes.length + 1)
  if (w.pos + 1 > w.buf.length) w.grow(1)
  w.buf[w.pos++] = 0
  w.bytes(cidBytes)
}

/**
 * Push a container on the ancestor stack: circular-reference and depth check.
 *
 * @param {object} container
 */
function enter (container) {
  for (let i = 0; i < depth; i++) {
    if (ancestors[i] === container) {
      throw new DagCborEncodeError('circular', 'circular reference: this value contains itself')
    }
  }
  if (depth >= maxDepth) {
    throw new DagCborEncodeError('depth', `nesting deeper than maxDepth (${maxDepth})`)
  }
  ancestors[depth++] = container
}

function leave () {
  ancestors[--depth] = null
}

/**
 * @param {any} e
 * @param {string|number} segment
 * @returns {any}
 */
function withSegment (e, segment) {
  if (e instanceof DagCborEncodeError) e.segments.push(segment)
  return e
}

/**
 * @param {unknown[]} array
 */
function writeArray (array) {
  enter(array)
  const n = array.length
  writeHead(ARRAY, n)
  let i = 0
  try {
    for (; i < n; i++) {
      // a hole in a sparse array reads as undefined, which writeValue rejects
      writeValue(array[i])
    }
  } catch (e) {
    throw withSegment(e, i)
  }
  leave()
}

/**
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
function compareAsciiKeys (a, b) {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)
}

/**
 * @param {string} s
 * @returns {boolean}
 */
function isAscii (s) {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x80) return false
  }
  return true
}

/**
 * UTF-8 length of a key, for sorting (lone surrogates are caught when the key is written).
 *
 * @param {string} s
 * @returns {number}
 */
function sortLength (s) {
  let length = s.length
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    // 2 bytes up to U+07FF; 3 up to U+FFFF; a surrogate pair's 4 bytes count 2 per half
    if (c >= 0x80) length += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2
  }
  return length
}

/**
 * A UTF-16 unit mapped so that units compare in code point order: surrogates (which stand
 * for code points above U+FFFF) move above U+E000..U+FFFF.
 *
 * @param {number} c
 * @returns {number}
 */
function codePointRank (c) {
  return c < 0xd800 ? c : c <= 0xdfff ? c + 0x2000 : c - 0x800
}

/**
 * DAG-CBOR key order (UTF-8 length, then bytes) without encoding the keys: UTF-8 preserves
 * code point order, so equal-length keys compare by code point.
 *
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
function compareUtf8Keys (a, b) {
  const d = sortLength(a) - sortLength(b)
  if (d !== 0) return d
  for (let i = 0; i < a.length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x !== y) return codePointRank(x) - codePointRank(y)
  }
  return 0
}

/**
 * With `escapedBytes`, a lone U+DCxx stands for one raw byte, so only the bytes can say
 * the order: encode each key (rare: relaxed round trips of invalid text only).
 *
 * @param {string[]} keys
 * @returns {string[]}
 */
function sortByEncodedBytes (keys) {
  const scratch = new Uint8Array(9 + 3 * keys.reduce((max, key) => Math.max(max, key.length), 0))
  const entries = keys.map((key) => {
    const stop = writeUtf8(key, scratch, 0, true)
    return { key, bytes: stop < 0 ? scratch.slice(0, 0) : scratch.slice(0, stop) }
  })
  entries.sort((x, y) => x.bytes.length - y.bytes.length || compareBytes(x.bytes, y.bytes))
  return entries.map((entry) => entry.key)
}

/**
 * @param {Uint8Array} x
 * @param {Uint8Array} y
 * @returns {number}
 */
function compareBytes (x, y) {
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i]) return x[i] - y[i]
  }
  return 0
}

/**
 * Write a map whose keys are all strings; `get` reads a value by key.
 * Keys sort by UTF-8 length, then bytewise (RFC 7049 canonical order, which DAG-CBOR uses).
 *
 * @param {object} container
 * @param {string[]} keys
 * @param {Map<unknown, unknown>|null} map - null when container is a plain object
 */
function writeMapEntries (container, keys, map) {
  enter(container)
  const n = keys.length
  let allAscii = true
  for (let i = 0; i < n; i++) {
    if (!isAscii(keys[i])) {
      allAscii = false
      break
    }
  }
  // ASCII: UTF-8 length is string length and byte order is code unit order
  const compare = allAscii ? compareAsciiKeys : compareUtf8Keys
  if (escapedBytes && !allAscii) {
    keys = sortByEncodedBytes(keys)
  } else {
    for (let j = 1; j < n; j++) {
      if (compare(keys[j - 1], keys[j]) > 0) {
        keys.sort(compare)
        break
      }
    }
  }
  writeHead(MAP, n)
  let i = 0
  try {
    for (; i < n; i++) {
      writeString(keys[i])
      writeValue(map === null ? /** @type {any} */ (container)[keys[i]] : map.get(keys[i]))
    }
  } catch (e) {
    throw withSegment(e, keys[i])
  }
  leave()
}

/**
 * @param {Map<unknown, unknown>} map
 */
function writeMap (map) {
  const keys = []
  for (const key of map.keys()) {
    if (typeof key !== 'string') {
      throw new DagCborEncodeError('map-key-type', `Map key ${typeof key === 'symbol' ? key.toString() : typeof key} is not a string; IPLD map keys are strings`)
    }
    keys.push(key)
  }
  writeMapEntries(map, keys, map)
}

/**
 * @param {object} value
 */
function writeObject (value) {
  if (Array.isArray(value)) {
    writeArray(value)
    return
  }
  const proto = Object.getPrototypeOf(value)
  if (proto === Object.prototype || proto === null) {
    writeMapEntries(value, Object.keys(value), null)
    return
  }
  if (value instanceof Uint8Array) {
    writeBytes(value)
    return
  }
  const cid = asCid(value)
  if (cid !== null) {
    writeCid(cid.bytes)
    return
  }
  if (value instanceof Map) {
    writeMap(value)
    return
  }
  const kind = Object.prototype.toString.call(value).slice(8, -1)
  if (kind === 'Object') {
    // an instance of a user class: its own enumerable properties, as @ipld/dag-cbor does
    writeMapEntries(value, Object.keys(value), null)
    return
  }
  throw new DagCborEncodeError('type', unsupportedMessage(kind))
}

/**
 * @param {string} kind
 * @returns {string}
 */
function unsupportedMessage (kind) {
  if (/Array$/.test(kind) || kind === 'DataView' || kind === 'ArrayBuffer' || kind === 'SharedArrayBuffer') {
    return `${kind} is not in the IPLD data model; bytes must be a Uint8Array (wrap it: new Uint8Array(x.buffer, x.byteOffset, x.byteLength))`
  }
  if (kind === 'Number' || kind === 'String' || kind === 'Boolean' || kind === 'BigInt' || kind === 'Symbol') {
    return `a boxed ${kind} object is not in the IPLD data model; use the primitive value`
  }
  return `${kind} is not in the IPLD data model`
}

/**
 * @param {unknown} value
 */
function writeValue (value) {
  switch (typeof value) {
    case 'string':
      writeString(value)
      return
    case 'number':
      writeNumber(value)
      return
    case 'object':
      if (value === null) {
        if (w.pos + 1 > w.buf.length) w.grow(1)
        w.buf[w.pos++] = 0xf6
      } else {
        writeObject(value)
      }
      return
    case 'boolean':
      if (w.pos + 1 > w.buf.length) w.grow(1)
      w.buf[w.pos++] = value ? 0xf5 : 0xf4
      return
    case 'bigint':
      writeBigInt(value)
      return
    case 'undefined':
      throw new DagCborEncodeError('undefined', '`undefined` is not in the IPLD data model (use null, or leave the key out)')
    default:
      throw new DagCborEncodeError('type', `a ${typeof value} is not in the IPLD data model`)
  }
}

/**
 * Run one encode with the writer set up; `finish` turns the writer's content into the result.
 *
 * @template R
 * @param {unknown} value
 * @param {EncodeOptions|undefined} options
 * @param {(w: Writer) => R} finish
 * @returns {R}
 */
function run (value, options, finish) {
  // a getter that encodes while we encode gets its own state, so ours survives
  const outer = busy ? { w, escapedBytes, maxDepth, ancestors, depth } : null
  if (outer !== null) {
    w = new Writer()
    ancestors = []
    depth = 0
  }
  busy = true
  escapedBytes = options !== undefined && options.escapedBytes === true
  maxDepth = options !== undefined && options.maxDepth !== undefined ? options.maxDepth : DEFAULT_MAX_DEPTH
  try {
    writeValue(value)
    return finish(w)
  } catch (e) {
    w.reset()
    for (let i = 0; i < depth; i++) ancestors[i] = null
    depth = 0
    if (e instanceof DagCborEncodeError) throw e.finish()
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new DagCborEncodeError('depth', `nesting too deep for the JavaScript stack (lower than maxDepth ${maxDepth})`).finish()
    }
    throw e
  } finally {
    busy = false
    if (outer !== null) {
      ({ w, escapedBytes, maxDepth, ancestors, depth } = outer)
      busy = true
    }
  }
}

/** @param {Writer} writer */
const finishBytes = (writer) => writer.finish()
/** @param {Writer} writer */
const finishLength = (writer) => {
  const length = writer.length()
  writer.reset()
  return length
}

/**
 * Encode a value of the IPLD data model as canonical DAG-CBOR.
 *
 * @param {unknown} value
 * @param {EncodeOptions} [options]
 * @returns {Uint8Array}
 */
export function encode (value, options) {
  return run(value, options, finishBytes)
}

/**
 * The length of `encode(value)`, without building the result.
 *
 * @param {unknown} value
 * @param {EncodeOptions} [options]
 * @returns {number}
 */
export function encodedLength (value, options) {
  return run(value, options, finishLength)
}

/**
 * Encode into `target` from its start, allocating no output buffer: the bytes are copied
 * from the encoder's reusable scratch space (values over 64 KiB also pass through
 * temporary chunks). Throws (rule 'target-size') when they do not fit.
 *
 * @param {unknown} value
 * @param {Uint8Array} target
 * @param {EncodeOptions} [options]
 * @returns {{ written: number }}
 */
export function encodeInto (value, target, options) {
  return { written: run(value, options, (writer) => writer.finishInto(target)) }
}
