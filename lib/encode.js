// The encoder: one recursive walk over the value, writing canonical DAG-CBOR straight into
// the chunked writer: no token objects, no second pass. The same walk checks for circular
// references (an ancestor stack) and the depth limit; a failing value's path is collected
// while the error unwinds (try/catch costs nothing until something throws).

import * as out from './writer.js'
import { cidBytes } from './cid-encode.js'
import { loneSurrogateDetail } from './utf8.js'
import { canonicalOrder, orderAsIfAscii, orderRest, MANY_KEYS } from './key-order.js'
import { JAVASCRIPTCORE, SPIDERMONKEY } from './engine.js'
import { DagCborEncodeError, count, named } from './errors.js'
import { DEFAULT_MAX_DEPTH } from './limits.js'
import { finishPooled } from './pool.js'

// major types, shifted into the initial byte
const NEGINT = 0x20
const ARRAY = 0x80
const MAP = 0xa0

const TWO_64 = 1n << 64n

/** Whether a large object's values are read by one Object.values call (in Object.keys order) and
 * put in key order with the keys' sort, instead of one read by key per value: faster in
 * JavaScriptCore and SpiderMonkey, many times slower in V8 for objects with many keys. */
const VALUES_AT_ONCE = JAVASCRIPTCORE || SPIDERMONKEY

/**
 * @typedef {object} EncodeOptions
 * @property {boolean} [escapedBytes] - write lone surrogates U+DC80..U+DCFF in strings as the
 *   raw bytes 0x80..0xFF they stand for: the inverse of `decode(bytes, { relaxed: true })` on
 *   text that is not valid UTF-8. Output with such strings is not valid DAG-CBOR.
 * @property {number} [maxDepth] - nesting limit (default 1000)
 * @property {boolean} [pool] - `encode` only: allow a small result to be a view of a 64 KiB slab
 *   shared with other results rather than an array of its own, which is faster where an array of
 *   its own is costly (V8: Node, Chromium, Deno; results of 65 bytes, in Deno of 1 byte, to 4 KiB).
 *   Such a result's `.buffer` is the whole slab, other results' bytes included, its `byteOffset`
 *   is not 0, a kept one keeps its whole slab alive, and transferring its `.buffer` detaches every
 *   result in that slab (docs/memory.md). Other results, and all in Firefox, Safari and Bun, are
 *   exact, as by default.
 */

let escapedBytes = false
let maxDepth = DEFAULT_MAX_DEPTH
/** ancestors of the value being written, for the circular-reference check
 * @type {Array<object|null>} */
let ancestors = []
let depth = 0
let busy = false

/**
 * @param {import('./errors.js').RuleName} rule
 * @param {string} detail
 * @returns {DagCborEncodeError}
 */
function fail (rule, detail) {
  return new DagCborEncodeError(rule, detail)
}

/**
 * @param {number} v
 */
function writeNumber (v) {
  if (Number.isSafeInteger(v)) {
    // -0 is a float in the data model; @ipld/dag-cbor writes it as the integer 0, which
    // decodes back as +0. Writing float64 -0.0 keeps the value (and the round trip) exact.
    if (v === 0 && 1 / v < 0) out.writeFloat(v)
    else if (v >= 0) out.writeHead(0, v)
    else out.writeHead(NEGINT, -1 - v)
  } else if (v - v === 0) {
    // finite: fractions, and whole numbers beyond 2^53 (inexact as integers): float64
    out.writeFloat(v)
  } else {
    throw fail('non-finite-float', `${v} is not in the IPLD data model`)
  }
}

/**
 * @param {bigint} v
 */
function writeBigInt (v) {
  const negative = v < 0n
  const n = negative ? -1n - v : v
  if (n >= TWO_64) throw fail('integer-range', `${v} is outside -2^64..2^64-1`)
  const major = negative ? NEGINT : 0
  if (n <= 9007199254740991n) out.writeHead(major, Number(n))
  else out.writeHead64(major, n)
}

/**
 * @param {string} s
 */
function writeString (s) {
  if (!out.writeString(s, escapedBytes)) {
    throw fail('utf8', loneSurrogateDetail(s, escapedBytes))
  }
}

/**
 * Push a container on the ancestor stack: circular-reference and depth check.
 *
 * @param {object} container
 */
function enter (container) {
  for (let i = 0; i < depth; i++) {
    if (ancestors[i] === container) throw fail('circular', 'circular reference')
  }
  // written so that a maxDepth of NaN (or a word) fails at once rather than never
  if (!(depth < maxDepth)) throw fail('depth', `nesting deeper than maxDepth (${count(maxDepth, 'level')})`)
  ancestors[depth++] = container
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
  out.writeHead(ARRAY, n)
  let i = 0
  try {
    // a hole in a sparse array reads as undefined, which writeValue rejects
    for (; i < n; i++) writeValue(array[i])
  } catch (e) {
    throw withSegment(e, i)
  }
  ancestors[--depth] = null
}

/**
 * Write a map whose keys are all strings, sorted by UTF-8 length, then bytewise.
 *
 * @param {object} container
 * @param {string[]} keys
 * @param {Map<unknown, unknown>|null} map - null when container is a plain object
 */
function writeMapEntries (container, keys, map) {
  enter(container)
  const n = keys.length
  // many keys are put in order as if all were ASCII; the first that is not shows as it is
  // written, and the keys from it on are then put in order (so no read of every key to check)
  const asIfAscii = n > MANY_KEYS && !escapedBytes
  /** @type {unknown[]|null} */
  let values = null
  if (asIfAscii) {
    if (VALUES_AT_ONCE && map === null) {
      // Object.values lists the values of Object.keys's keys, in that order, unless a getter hid
      // or deleted a key it had not reached yet: then fewer, and the values are read by key instead
      values = Object.values(container)
      if (values.length !== n) values = null
    }
    orderAsIfAscii(keys, values)
  } else if (n > 1) {
    keys = canonicalOrder(keys, escapedBytes)
  }
  out.writeHead(MAP, n)
  let i = 0
  try {
    if (asIfAscii) {
      for (; i < n; i++) {
        const key = keys[i]
        if (!out.writeAsciiString(key)) {
          // the keys from here on are put in order again, without their values: those are read by key
          orderRest(keys, i)
          break
        }
        writeValue(values !== null ? values[i] : map === null ? /** @type {any} */ (container)[key] : map.get(key))
      }
    }
    for (; i < n; i++) {
      writeString(keys[i])
      writeValue(map === null ? /** @type {any} */ (container)[keys[i]] : map.get(keys[i]))
    }
  } catch (e) {
    throw withSegment(e, keys[i])
  }
  ancestors[--depth] = null
}

/**
 * @param {object} value
 */
function writeObject (value) {
  // first: byte strings are most of the objects in Filecoin blocks, and instanceof costs
  // ~7 ns, Object.getPrototypeOf ~20 ns (a builtin call at this megamorphic site)
  if (value instanceof Uint8Array) return out.writeByteString(value)
  if (Array.isArray(value)) return writeArray(value)
  const proto = Object.getPrototypeOf(value)
  if (proto === Object.prototype || proto === null) return writeMapEntries(value, Object.keys(value), null)
  const cid = cidBytes(value)
  if (cid !== null) return out.writeCid(cid)
  if (value instanceof Map) {
    const keys = [...value.keys()]
    for (const key of keys) {
      if (typeof key !== 'string') throw fail('map-key-type', `a Map key of type ${typeof key}; IPLD map keys are strings`)
    }
    return writeMapEntries(value, keys, value)
  }
  const kind = Object.prototype.toString.call(value).slice(8, -1)
  // an instance of a user class: its own enumerable properties, as @ipld/dag-cbor does
  if (kind === 'Object') return writeMapEntries(value, Object.keys(value), null)
  throw fail('type', /Array$|^DataView$|ArrayBuffer$/.test(kind)
    ? `${named(kind)} is not in the IPLD data model; bytes must be a Uint8Array`
    : /^(Number|String|Boolean|BigInt|Symbol)$/.test(kind)
      ? `a boxed ${kind} is not in the IPLD data model; use the primitive`
      : `${named(kind)} is not in the IPLD data model`)
}

/**
 * @param {unknown} value
 */
function writeValue (value) {
  switch (typeof value) {
    case 'string':
      return writeString(value)
    case 'number':
      return writeNumber(value)
    case 'object':
      return value === null ? out.writeByte(0xf6) : writeObject(value)
    case 'boolean':
      return out.writeByte(value ? 0xf5 : 0xf4)
    case 'bigint':
      return writeBigInt(value)
    default:
      throw typeof value === 'undefined'
        ? fail('undefined', 'undefined is not in the IPLD data model')
        : fail('type', `${named(typeof value)} is not in the IPLD data model`)
  }
}

/**
 * Run one encode; `finish` turns what was written into the result.
 *
 * @template R
 * @param {unknown} value
 * @param {EncodeOptions|undefined} options
 * @param {() => R} finish
 * @returns {R}
 */
function run (value, options, finish) {
  // a getter that encodes while we encode gets fresh state, so ours survives
  const outerWriter = out.begin()
  const outer = busy ? [escapedBytes, maxDepth, ancestors, depth] : null
  if (outer !== null) {
    ancestors = []
    depth = 0
  }
  busy = true
  escapedBytes = options?.escapedBytes === true
  maxDepth = options?.maxDepth ?? DEFAULT_MAX_DEPTH
  try {
    writeValue(value)
    return finish()
  } catch (e) {
    ancestors.fill(null, 0, depth)
    depth = 0
    if (e instanceof DagCborEncodeError) throw e.finish()
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw fail('depth', `nesting too deep for the JavaScript stack, which ran out before maxDepth (${count(maxDepth, 'level')})`).finish()
    }
    throw e
  } finally {
    out.end(outerWriter)
    busy = false
    if (outer !== null) {
      [escapedBytes, maxDepth, ancestors, depth] = /** @type {any[]} */ (outer)
      busy = true
    }
  }
}

/**
 * Encode a value of the IPLD data model as canonical DAG-CBOR.
 *
 * @template T
 * @param {T} value
 * @param {EncodeOptions} [options]
 * @returns {import('multiformats/codecs/interface').ByteView<T>}
 */
export function encode (value, options) {
  return run(value, options, options?.pool === true ? finishPooled : out.finish)
}

/**
 * The length of `encode(value)`, without building the result.
 *
 * @template T
 * @param {T} value
 * @param {EncodeOptions} [options]
 * @returns {number}
 */
export function encodedLength (value, options) {
  return run(value, options, out.written)
}

/**
 * Encode into `target` from its start, allocating no output buffer: the bytes are copied
 * from the encoder's reusable scratch space (values over 64 KiB also pass through
 * temporary chunks). Throws (rule 'target-size') when they do not fit.
 *
 * @template T
 * @param {T} value
 * @param {Uint8Array} target
 * @param {EncodeOptions} [options]
 * @returns {{ written: number }}
 */
export function encodeInto (value, target, options) {
  return {
    written: run(value, options, () => {
      const length = out.written()
      if (length > target.length) throw fail('target-size', `the encoding takes ${count(length, 'byte')}, the target has ${count(target.length, 'byte')}`)
      out.finish(target)
      return length
    })
  }
}
