// The encoder: one recursive walk over the value that writes canonical DAG-CBOR straight
// into a chunked Writer: no token objects, no second pass. The same walk checks for
// circular references (an ancestor stack) and the depth limit, and a failing value's path
// is collected while the error unwinds (try/catch costs nothing until something throws).

import { Writer } from './writer.js'
import { asCid, CID_TAG } from './cid.js'
import { utf8Length, writeUtf8, loneSurrogateIndex } from './utf8.js'
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
 * @type {object[]} */
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
  const length = utf8Length(s, escapedBytes)
  if (length < 0) {
    throw new DagCborEncodeError('utf8', `string has a lone surrogate at index ${loneSurrogateIndex(s)}; it has no UTF-8 form`)
  }
  writeHead(TEXT, length)
  if (w.pos + length > w.buf.length) w.grow(length)
  w.pos = writeUtf8(s, w.buf, w.pos)
}

/**
 * Write a map key already known to be valid UTF-8 bytes (slow path for non-ASCII keys).
 *
 * @param {Uint8Array} bytes
 */
function writeTextBytes (bytes) {
  writeHead(TEXT, bytes.length)
  w.bytes(bytes)
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
 * @param {{bytes: Uint8Array}} a
 * @param {{bytes: Uint8Array}} b
 * @returns {number}
 */
function compareKeyBytes (a, b) {
  const x = a.bytes
  const y = b.bytes
  if (x.length !== y.length) return x.length - y.length
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i]) return x[i] - y[i]
  }
  return 0
}

/** scratch for key encoding on the non-ASCII path */
const keyScratch = new Uint8Array(1024)

/**
 * @param {string} key
 * @returns {Uint8Array}
 */
function keyBytes (key) {
  const length = utf8Length(key, escapedBytes)
  if (length < 0) {
    throw withSegment(new DagCborEncodeError('utf8', `map key has a lone surrogate at index ${loneSurrogateIndex(key)}; it has no UTF-8 form`), key)
  }
  const target = length <= keyScratch.length ? keyScratch : new Uint8Array(length)
  writeUtf8(key, target, 0)
  return target.slice(0, length)
}

/**
 * Write a map whose keys are all strings; `get` reads a value by key.
 * Keys sort by UTF-8 length, then bytewise (RFC 7049 canonical order, which DAG-CBOR uses).
 *
 * @param {object} container
 * @param {string[]} keys
 * @param {Map<string, unknown>|null} map - null when container is a plain object
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
  if (allAscii) {
    // ASCII: UTF-8 length is string length and byte order is code unit order
    for (let j = 1; j < n; j++) {
      if (compareAsciiKeys(keys[j - 1], keys[j]) > 0) {
        keys.sort(compareAsciiKeys)
        break
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
  } else {
    const entries = []
    for (let j = 0; j < n; j++) entries.push({ key: keys[j], bytes: keyBytes(keys[j]) })
    entries.sort(compareKeyBytes)
    writeHead(MAP, n)
    let i = 0
    try {
      for (; i < n; i++) {
        writeTextBytes(entries[i].bytes)
        writeValue(map === null ? /** @type {any} */ (container)[entries[i].key] : map.get(entries[i].key))
      }
    } catch (e) {
      throw withSegment(e, entries[i].key)
    }
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
 * @param {Uint8Array|null} target - write into this (encodeInto) instead of the writer's buffers
 * @param {(w: Writer) => R} finish
 * @returns {R}
 */
function run (value, options, target, finish) {
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
  if (target !== null) w.useTarget(target)
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
/** @param {Writer} writer */
const finishInto = (writer) => {
  const written = writer.pos
  writer.reset()
  return { written }
}

/**
 * Encode a value of the IPLD data model as canonical DAG-CBOR.
 *
 * @param {unknown} value
 * @param {EncodeOptions} [options]
 * @returns {Uint8Array}
 */
export function encode (value, options) {
  return run(value, options, null, finishBytes)
}

/**
 * The length of `encode(value)`, without building the result.
 *
 * @param {unknown} value
 * @param {EncodeOptions} [options]
 * @returns {number}
 */
export function encodedLength (value, options) {
  return run(value, options, null, finishLength)
}

/**
 * Encode into `target` from its start, allocating no output; throws (rule 'target-size')
 * when it does not fit.
 *
 * @param {unknown} value
 * @param {Uint8Array} target
 * @param {EncodeOptions} [options]
 * @returns {{ written: number }}
 */
export function encodeInto (value, target, options) {
  return run(value, options, target, finishInto)
}
