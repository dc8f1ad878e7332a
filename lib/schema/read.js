// The typed decoder's readers: one small closure per schema type, made by the factories below when
// a codec is compiled (no code is generated at run time, so it runs where a Content-Security-Policy
// forbids eval). They read the input as strict decode (lib/decode.js) does, with the same rules and
// errors, and check the shape in the same pass: a struct's keys are matched byte for byte against
// its fields' keys, precomputed in canonical order, so no key string is made and no order is
// compared; a tuple struct is read straight into named fields.
//
// The cursor (src, pos, end) is module state, as in decode.js: one read runs at a time. With
// `building` false (validate), nothing is built: the same walk checks the shape only, after
// lib/validate.js has checked the bytes.
//
// What is shared with the generic codec: text through lib/utf8.js, CIDs through
// lib/cid-decode.js, the error classes, the depth limit, and `Any` values through decodeFirst.
// The head reading (readArg) is decode.js's, written again here over this module's cursor:
// decode.js keeps its cursor private, and reading through calls into it cost more than the work.

import { readUtf8, invalidAt } from '../utf8.js'
import { readCid } from '../cid-decode.js'
import { decodeFirst } from '../decode.js'
import { CID_TAG } from '../cid-encode.js'
import { count, lengthPastEnd } from '../errors.js'
import { DEFAULT_MAX_DEPTH } from '../limits.js'
import { decodeFail as fail, withSegments, fieldSegment } from './errors.js'

/** @typedef {() => any} Read */
/** @typedef {{ read: Read, name: string }} ReadNode - a type's reader (filled in after it is made, for recursive types) */

/** @type {Uint8Array} */
const EMPTY = new Uint8Array(0)
/** @type {Uint8Array} */
let src = EMPTY
let pos = 0
let end = 0
let depth = 0
let maxDepth = DEFAULT_MAX_DEPTH
/** false: check only, build nothing (validate) */
let building = true
/** where the map of the struct at each depth starts, for readers written ahead of time (runtime.mapHead) */
const mapStarts = [0]
/** set by readArg for a 64-bit argument above 2^53-1, which it leaves in bigValue */
let big = false
let bigValue = 0n

const floatView = new DataView(new ArrayBuffer(8))

/**
 * @param {number} at
 * @returns {number}
 */
function word (at) {
  return ((src[at] << 24) | (src[at + 1] << 16) | (src[at + 2] << 8) | src[at + 3]) >>> 0
}

/**
 * @param {number} at
 * @returns {Error}
 */
function truncated (at) {
  return fail('truncated', 'unexpected end of input', at)
}

/** What the item at `at` is, for messages. */
const KINDS = ['an integer', 'a negative integer', 'a byte string', 'a text string', 'a list', 'a map', 'a tag', 'a float or simple value']

/**
 * @param {string} expected - 'a map (struct BlockHeader)'
 * @param {number} at
 * @returns {Error}
 */
function kindError (expected, at) {
  const b = src[at]
  const found = b === 0xf6 ? 'null' : b === 0xf4 || b === 0xf5 ? 'a boolean' : b === 0xfb ? 'a float' : b === 0xd8 && src[at + 1] === CID_TAG ? 'a link' : KINDS[b >> 5]
  return fail('schema-kind', `expected ${expected}, found ${found}`, at)
}

/**
 * The argument of the head at `at` (pos just past its initial byte), in shortest form;
 * sets `big` for a 64-bit value above 2^53-1 (returning 0).
 *
 * @param {number} info
 * @param {number} at
 * @returns {number}
 */
function readArg (info, at) {
  big = false
  if (info < 24) return info
  if (info > 27) {
    throw info === 31
      ? fail('indefinite-length', 'indefinite-length item; DAG-CBOR has only definite lengths', at)
      : fail('malformed', `additional information ${info} is reserved`, at)
  }
  const size = 1 << (info - 24)
  if (pos + size > end) throw truncated(at)
  let value = src[pos]
  let least = 24
  if (size === 2) {
    value = (value << 8) | src[pos + 1]
    least = 0x100
  } else if (size === 4) {
    value = word(pos)
    least = 0x10000
  } else if (size === 8) {
    const hi = word(pos)
    pos += 8
    if (hi > 0x1fffff) {
      big = true
      bigValue = (BigInt(hi) << 32n) | BigInt(word(pos - 4))
      return 0
    }
    value = hi * 4294967296 + word(pos - 4)
    if (value < 4294967296) throw fail('non-shortest', `${value} is not in shortest form`, at)
    return value
  }
  pos += size
  if (value < least) throw fail('non-shortest', `${value} is not in shortest form`, at)
  return value
}

/**
 * A length, checked against the bytes left (each item takes at least `unit` bytes).
 *
 * @param {number} info
 * @param {number} at
 * @param {number} unit
 * @returns {number}
 */
function readLength (info, at, unit) {
  const n = readArg(info, at)
  if (big || n * unit > end - pos) throw fail('truncated', lengthPastEnd(src[at] >> 5, big ? bigValue : n, end - pos), at)
  return n
}

/**
 * @param {number} at
 */
function enter (at) {
  if (++depth > maxDepth) throw fail('depth', `nesting deeper than maxDepth (${count(maxDepth, 'level')})`, at)
}

/**
 * A float64 at pos (its initial byte 0xfb at pos - 1), checked finite.
 *
 * @param {number} at
 * @returns {number}
 */
function readFloat64 (at) {
  if (pos + 8 > end) throw truncated(at)
  floatView.setUint32(0, word(pos))
  floatView.setUint32(4, word(pos + 4))
  pos += 8
  const value = floatView.getFloat64(0)
  if (value - value !== 0) throw fail('non-finite-float', `${value} is not in the IPLD data model`, at)
  return value
}

/**
 * A number of the data model, as generic decode returns it: 0 ints, 1 negative ints, float64.
 * `integral`: only integers (an Int: a float64 holding an integer is one too, as @ipld/schema's
 * Number.isInteger check takes it). Integers beyond 2^53-1 (bigints in generic decode) are no Int
 * or Float in @ipld/schema, and are refused.
 *
 * @param {boolean} integral
 * @param {string} expected
 * @returns {number}
 */
function readNumber (integral, expected) {
  if (pos >= end) throw truncated(pos)
  const at = pos
  const initial = src[pos++]
  const major = initial >> 5
  if (major === 0 || major === 1) {
    const n = readArg(initial & 31, at)
    if (big || (major === 1 && n >= Number.MAX_SAFE_INTEGER)) {
      throw fail('schema-kind', `expected ${expected}, found an integer outside -(2^53)+1..2^53-1 (a BigInt in JavaScript)`, at)
    }
    return major === 0 ? n : -1 - n
  }
  if (initial === 0xfb) {
    const value = readFloat64(at)
    if (integral && !Number.isInteger(value)) throw fail('schema-kind', `expected ${expected}, found the float ${value}`, at)
    return value
  }
  if (initial === 0xf9 || initial === 0xfa) throw fail('float-size', `${initial === 0xf9 ? 16 : 32}-bit float; DAG-CBOR floats are 64-bit`, at)
  pos = at
  throw kindError(expected, at)
}

/** @type {Read} */
export const readInt = () => readNumber(true, 'an integer (Int)')
/** @type {Read} */
export const readFloat = () => readNumber(false, 'a number (Float)')

/** @type {Read} */
export function readBool () {
  if (pos >= end) throw truncated(pos)
  const b = src[pos]
  if (b === 0xf5 || b === 0xf4) {
    pos++
    return b === 0xf5
  }
  throw kindError('a boolean (Bool)', pos)
}

/** @type {Read} */
export function readNull () {
  if (pos >= end) throw truncated(pos)
  if (src[pos] !== 0xf6) throw kindError('null (Null)', pos)
  pos++
  return null
}

/**
 * The head of a string of major type `major` (2 or 3); returns where its content starts.
 *
 * @param {number} major
 * @param {string} expected
 * @returns {number}
 */
function stringHead (major, expected) {
  if (pos >= end) throw truncated(pos)
  const at = pos
  const initial = src[pos++]
  if (initial >> 5 !== major) {
    pos = at
    throw kindError(expected, at)
  }
  const n = readLength(initial & 31, at, 1)
  const start = pos
  pos += n
  return start
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

/** @type {Read} */
export function readString () {
  const start = stringHead(3, 'a text string (String)')
  return building ? text(start, pos) : undefined
}

/** @type {Read} */
export function readBytes () {
  const start = stringHead(2, 'a byte string (Bytes)')
  return building ? src.slice(start, pos) : undefined
}

/** @type {Read} */
export function readLink () {
  if (pos >= end) throw truncated(pos)
  const at = pos
  if (src[pos] !== 0xd8 || src[pos + 1] !== CID_TAG) {
    if (src[pos] >> 5 === 6) throw fail('tag', 'a tag other than 42 (CID) in its shortest form is not allowed', at)
    throw kindError('a link (tag 42)', at)
  }
  pos += 2
  const start = stringHead(2, 'a byte string in tag 42 (CID)')
  const cid = readCid(src, start, pos) // checks it, as validate did already
  return building ? cid : undefined
}

/**
 * Any value of the data model, read by generic decode (building) or skipped (checking; the bytes
 * were validated already). As @ipld/schema's `any`, refuses integers beyond 2^53-1 anywhere in it.
 *
 * @type {Read}
 */
export function readAny () {
  const at = pos
  if (!building) {
    skip(at)
    return undefined
  }
  let value
  let rest
  try {
    [value, rest] = decodeFirst(src.subarray(pos, end), { maxDepth: maxDepth - depth })
  } catch (e) {
    const err = /** @type {any} */ (e)
    if (err.offset >= 0) err.offset += at
    throw err
  }
  pos = end - rest.length
  if (hasBigInt(value, 0)) throw fail('schema-kind', 'expected a value of the data model (Any) with no integer outside -(2^53)+1..2^53-1 (a BigInt in JavaScript)', at)
  return value
}

/**
 * @param {unknown} value
 * @param {number} level
 * @returns {boolean}
 */
function hasBigInt (value, level) {
  if (typeof value === 'bigint') return true
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array || level > maxDepth) return false
  if (Array.isArray(value)) return value.some((v) => hasBigInt(v, level + 1))
  if (/** @type {any} */ (value).asCID === value) return false
  for (const k in value) if (hasBigInt(/** @type {any} */ (value)[k], level + 1)) return true
  return false
}

/**
 * Skip one item (its bytes are checked already, or are checked again by the reader that follows):
 * lengths and ends are checked, nothing else. Refuses integers beyond 2^53-1, as readAny does.
 *
 * @param {number} at
 */
function skip (at) {
  if (pos >= end) throw truncated(pos)
  const initial = src[pos++]
  const major = initial >> 5
  const info = initial & 31
  if (major === 7) {
    // simple values and floats: their bytes only (checked by validate or by the reader that follows)
    if (info >= 24 && info <= 27) pos += info === 24 ? 1 : 1 << (info - 24)
    if (pos > end) throw truncated(at)
    return
  }
  const n = readArg(info, at)
  if (major <= 1) {
    if (big || (major === 1 && n >= Number.MAX_SAFE_INTEGER)) throw fail('schema-kind', 'expected a value of the data model (Any) with no integer outside -(2^53)+1..2^53-1 (a BigInt in JavaScript)', at)
  } else if (major <= 3) {
    if (big || n > end - pos) throw fail('truncated', lengthPastEnd(major, big ? bigValue : n, end - pos), at)
    pos += n
  } else if (major <= 5) {
    enter(at)
    const items = major === 4 ? n : 2 * n
    for (let i = 0; i < items; i++) skip(pos)
    depth--
  } else {
    skip(pos)
  }
}

/** What a field or list value is, when it is a scalar: its reader is then called directly from a
 * switch, where a call through `node.read` would be one indirect call site shared by every type
 * (megamorphic, never inlined). 0: call node.read. */
export const CODE = { OTHER: 0, STRING: 1, BYTES: 2, INT: 3, LINK: 4, BOOL: 5, FLOAT: 6, ANY: 7 }

/**
 * The value at pos, as `node` reads it (`code`: which scalar it is, or 0); null when `nullable`
 * and the item is null.
 *
 * @param {number} code
 * @param {ReadNode} node
 * @param {boolean} nullable
 * @returns {any}
 */
function readValue (code, node, nullable) {
  if (nullable && pos < end && src[pos] === 0xf6) {
    pos++
    return null
  }
  switch (code) {
    case 1: return readString()
    case 2: return readBytes()
    case 3: return readNumber(true, 'an integer (Int)')
    case 4: return readLink()
    case 5: return readBool()
    case 6: return readNumber(false, 'a number (Float)')
    case 7: return readAny()
    default: return node.read()
  }
}

/**
 * @param {ReadNode} node
 * @param {boolean} nullable
 * @returns {Read}
 */
export function listReader (node, nullable) {
  const code = codeOf(node)
  return function readList () {
    if (pos >= end) throw truncated(pos)
    const at = pos
    const initial = src[pos++]
    if (initial >> 5 !== 4) {
      pos = at
      throw kindError(`a list (${node.name} list)`, at)
    }
    const n = readLength(initial & 31, at, 1)
    enter(at)
    const list = building ? (n <= 1024 ? new Array(n) : []) : null
    let i = 0
    try {
      for (; i < n; i++) {
        const v = readValue(code, node, nullable)
        if (list !== null) list[i] = v
      }
    } catch (e) {
      throw withSegments(e, i, `[${i}]`)
    }
    depth--
    return list
  }
}

/** @type {Map<Read, number>} */
const CODES = new Map([[readString, 1], [readBytes, 2], [readInt, 3], [readLink, 4], [readBool, 5], [readFloat, 6], [readAny, 7]])

/**
 * The CODE of a node's type (0 for any other, or one not read yet: a recursive type's).
 *
 * @param {ReadNode} node
 * @returns {number}
 */
export function codeOf (node) {
  return CODES.get(node.read) ?? 0
}

/** Plain objects for typed maps: a constructor of their own (see decode.js's PlainObject). */
const MapObject = /** @type {new () => Record<string, unknown>} */ (/** @type {any} */ ({ Object: function () {} }).Object)
MapObject.prototype = Object.prototype

/**
 * A map of String keys: keys in canonical order (as strict decode checks them), values by `node`.
 *
 * @param {ReadNode} node
 * @param {boolean} nullable
 * @returns {Read}
 */
export function mapReader (node, nullable) {
  const code = codeOf(node)
  return function readMap () {
    if (pos >= end) throw truncated(pos)
    const at = pos
    const initial = src[pos++]
    if (initial >> 5 !== 5) {
      pos = at
      throw kindError(`a map ({String:${node.name}})`, at)
    }
    const n = readLength(initial & 31, at, 2)
    enter(at)
    const map = building ? (n > 128 ? {} : new MapObject()) : null
    let previous = -1
    let previousLength = 0
    /** @type {string|number} */
    let key = ''
    let i = 0
    try {
      for (; i < n; i++) {
        key = i
        const keyAt = pos
        if (pos < end && src[pos] >> 5 !== 3) throw fail('map-key-type', 'map key is not a string', pos)
        const start = stringHead(3, 'a text string (map key)')
        const length = pos - start
        key = text(start, pos)
        if (previous >= 0) {
          const order = compareKeys(previous, previousLength, start, length)
          if (order >= 0) {
            throw order === 0
              ? fail('duplicate-key', `duplicate map key ${JSON.stringify(key)}`, keyAt)
              : fail('map-key-order', `map key ${JSON.stringify(key)} is out of order (keys sort by length, then bytewise)`, keyAt)
          }
        }
        previous = start
        previousLength = length
        const v = readValue(code, node, nullable)
        if (map !== null) {
          if (key === '__proto__') Object.defineProperty(map, key, { value: v, enumerable: true, writable: true, configurable: true })
          else map[key] = v
        }
      }
    } catch (e) {
      throw typeof key === 'string' ? withSegments(e, key, `[${JSON.stringify(key)}]`) : e
    }
    depth--
    return map
  }
}

/**
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
 * Whether the bytes at pos are `bytes` (a key's head and UTF-8); moves pos past them if so.
 *
 * @param {Uint8Array} bytes
 * @returns {boolean}
 */
function match (bytes) {
  const n = bytes.length
  if (pos + n > end || src[pos] !== bytes[0]) return false
  for (let i = 1; i < n; i++) {
    if (src[pos + i] !== bytes[i]) return false
  }
  pos += n
  return true
}

/**
 * Store a field of a typed value: as an own property even when it is named __proto__ (whose
 * assignment would set the prototype instead).
 *
 * @param {Record<string, unknown>} struct
 * @param {string} name
 * @param {unknown} value
 */
function defineField (struct, name, value) {
  Object.defineProperty(struct, name, { value, enumerable: true, writable: true, configurable: true })
}

/**
 * @typedef {object} StructField
 * @property {string} name - the field's name in the typed value
 * @property {string} key - its key in the representation (a rename, or the name); for a tuple, unused
 * @property {Uint8Array} keyBytes - the key as written: its head and UTF-8
 * @property {ReadNode} node
 * @property {number} code - CODE of its type
 * @property {boolean} nullable
 * @property {boolean} required - neither optional nor implicit
 * @property {unknown} implicit - the value of an absent implicit field, or undefined
 * @property {Uint8Array|null} fixed - an inline union's discriminant: the value it must hold
 *   (head and UTF-8); it is checked and not stored
 */

/**
 * A struct of map representation. `fields` are in canonical key order: each key read is matched
 * against the next field's key bytes, skipping absent optional ones.
 *
 * @param {string} typeName
 * @param {StructField[]} fields
 * @returns {Read}
 */
export function structMapReader (typeName, fields) {
  const Struct = /** @type {new () => Record<string, unknown>} */ (/** @type {any} */ ({ Object: function () {} }).Object)
  Struct.prototype = Object.prototype
  const F = fields.length
  const expected = `a map (struct ${typeName})`
  // only a struct with a field named __proto__ pays for the check at each store
  const proto = fields.some((f) => f.name === '__proto__')
  return function readStruct () {
    if (pos >= end) throw truncated(pos)
    const at = pos
    const initial = src[pos++]
    if (initial >> 5 !== 5) {
      pos = at
      throw kindError(expected, at)
    }
    const n = readLength(initial & 31, at, 2)
    enter(at)
    const struct = building ? new Struct() : null
    let j = 0
    /** the index of the field last read (keyError tells a duplicate by it) */
    let last = -1
    /** @type {StructField|null} */
    let field = null
    try {
      for (let i = 0; i < n; i++) {
        field = null
        const keyAt = pos
        for (;;) {
          if (j === F) throw keyError(fields, j, keyAt, typeName, i > 0 ? last : -1, at)
          const f = fields[j]
          if (match(f.keyBytes)) {
            field = f
            break
          }
          if (f.required) throw keyError(fields, j, keyAt, typeName, i > 0 ? last : -1, at)
          if (struct !== null && f.implicit !== undefined) {
            if (proto && f.name === '__proto__') defineField(struct, f.name, f.implicit)
            else struct[f.name] = f.implicit
          }
          j++
        }
        j++
        last = j - 1
        if (field.fixed !== null) {
          if (!match(field.fixed)) throw fail('schema-union', `the discriminant ${JSON.stringify(field.key)} changed while read`, pos)
          continue
        }
        const v = readValue(field.code, field.node, field.nullable)
        if (struct !== null) {
          if (proto && field.name === '__proto__') defineField(struct, field.name, v)
          else struct[field.name] = v
        }
      }
      field = null
      for (; j < F; j++) {
        const f = fields[j]
        if (f.required) throw fail('schema-missing-field', missing(f, typeName), at)
        if (struct !== null && f.implicit !== undefined) {
          if (proto && f.name === '__proto__') defineField(struct, f.name, f.implicit)
          else struct[f.name] = f.implicit
        }
      }
    } catch (e) {
      throw field === null ? e : withSegments(e, field.key, fieldSegment(field.name))
    }
    depth--
    return struct
  }
}

/**
 * Why the key at pos matches no field from fields[j] on: not text, out of order, a duplicate,
 * a required field skipped, or not a field at all.
 *
 * @param {StructField[]} fields
 * @param {number} j
 * @param {number} keyAt
 * @param {string} typeName
 * @param {number} last - the index of the field read just before (-1: none)
 * @param {number} [mapAt] - where the struct's map starts (a missing field is reported there);
 *   readers written ahead of time leave it to mapHead's record
 * @returns {Error}
 */
function keyError (fields, j, keyAt, typeName, last, mapAt = mapStarts[depth]) {
  if (pos >= end) return truncated(pos)
  if (src[pos] >> 5 !== 3) return fail('map-key-type', 'map key is not a string', pos)
  const start = stringHead(3, 'a text string (map key)')
  const key = text(start, pos)
  pos = keyAt
  const index = fields.findIndex((f) => f.key === key)
  if (index >= 0 && index < j) {
    return index === last
      ? fail('duplicate-key', `duplicate map key ${JSON.stringify(key)}`, keyAt)
      : fail('map-key-order', `map key ${JSON.stringify(key)} is out of order (keys sort by length, then bytewise)`, keyAt)
  }
  if (index > j) {
    // the first required field passed over (readers written ahead of time leave j at an optional one)
    let m = j
    while (m < index && !fields[m].required) m++
    // the block lacks the field: its map is at fault, not the key that follows the gap
    return fail('schema-missing-field', missing(fields[m], typeName), mapAt)
  }
  return fail('schema-unknown-field', `${JSON.stringify(key)} is not a field of struct ${typeName}`, keyAt)
}

/**
 * @param {StructField} f
 * @param {string} typeName
 * @returns {string}
 */
function missing (f, typeName) {
  return f.fixed !== null
    ? `inline union member ${typeName} has no discriminant key ${JSON.stringify(f.key)}`
    : `block has no field ${JSON.stringify(f.key)}${f.key !== f.name ? ` (${f.name})` : ''} required by struct ${typeName}`
}

/**
 * A struct of tuple representation: a list of exactly its fields, in `fields` order.
 *
 * @param {string} typeName
 * @param {StructField[]} fields
 * @returns {Read}
 */
export function structTupleReader (typeName, fields) {
  const Struct = /** @type {new () => Record<string, unknown>} */ (/** @type {any} */ ({ Object: function () {} }).Object)
  Struct.prototype = Object.prototype
  const F = fields.length
  const expected = `a list (tuple struct ${typeName})`
  const proto = fields.some((f) => f.name === '__proto__')
  return function readTuple () {
    if (pos >= end) throw truncated(pos)
    const at = pos
    const initial = src[pos++]
    if (initial >> 5 !== 4) {
      pos = at
      throw kindError(expected, at)
    }
    const n = readLength(initial & 31, at, 1)
    if (n !== F) throw fail('schema-tuple-length', `tuple struct ${typeName} has ${count(F, 'field')}, the list ${count(n, 'item')}`, at)
    enter(at)
    const struct = building ? new Struct() : null
    let i = 0
    try {
      for (; i < F; i++) {
        const f = fields[i]
        const v = readValue(f.code, f.node, f.nullable)
        if (struct !== null) {
          if (proto && f.name === '__proto__') defineField(struct, f.name, v)
          else struct[f.name] = v
        }
      }
    } catch (e) {
      throw withSegments(e, i, fieldSegment(fields[i].name))
    }
    depth--
    return struct
  }
}

/**
 * @typedef {object} Member
 * @property {string} typeName - the member type's name, the key of the typed value
 * @property {Uint8Array} keyBytes - keyed: the key as written; inline: the discriminant value as written
 * @property {ReadNode} node
 */

/** A union's typed value, { [member]: value }, made by a constructor of its own and one store: a
 * literal with a computed key is created empty and then has the key defined, a slower path
 * (atproto-post, whose embeds and facet features are unions, decodes 4-6% faster this way). */
const Wrapped = /** @type {new () => Record<string, unknown>} */ (/** @type {any} */ ({ Object: function () {} }).Object)
Wrapped.prototype = Object.prototype

/**
 * @param {string} name - the member's type name
 * @param {unknown} value
 * @returns {Record<string, unknown>}
 */
function wrap (name, value) {
  const o = new Wrapped()
  // assignment would set the prototype
  if (name === '__proto__') Object.defineProperty(o, name, { value, enumerable: true, writable: true, configurable: true })
  else o[name] = value
  return o
}

/**
 * A keyed union: a map of one entry, whose key names the member.
 *
 * @param {string} typeName
 * @param {Member[]} members
 * @returns {Read}
 */
export function keyedUnionReader (typeName, members) {
  return function readKeyed () {
    if (pos >= end) throw truncated(pos)
    const at = pos
    const initial = src[pos++]
    if (initial >> 5 !== 5) {
      pos = at
      throw kindError(`a map of one entry (keyed union ${typeName})`, at)
    }
    const n = readLength(initial & 31, at, 2)
    if (n !== 1) throw fail('schema-union', `keyed union ${typeName} is a map of one entry, not ${n}`, at)
    enter(at)
    const keyAt = pos
    let member = null
    for (let i = 0; i < members.length; i++) {
      if (match(members[i].keyBytes)) {
        member = members[i]
        break
      }
    }
    if (member === null) {
      if (pos < end && src[pos] >> 5 !== 3) throw fail('map-key-type', 'map key is not a string', pos)
      const start = stringHead(3, 'a text string (map key)')
      throw fail('schema-union', `${JSON.stringify(text(start, pos))} names no member of keyed union ${typeName}`, keyAt)
    }
    let v
    try {
      v = member.node.read()
    } catch (e) {
      const key = readKeyAt(keyAt)
      throw withSegments(e, key, `(${member.typeName})`)
    }
    depth--
    return building ? wrap(member.typeName, v) : undefined
  }
}

/**
 * The text key at `at` (already checked), for a path.
 *
 * @param {number} at
 * @returns {string}
 */
function readKeyAt (at) {
  const save = pos
  pos = at
  const start = stringHead(3, 'a text string')
  const key = text(start, pos)
  pos = save
  return key
}

/**
 * A kinded union: the kind of the item picks the member. `byKind` maps each data model kind to
 * its member, or null; `intFirst` whether an integral number goes to the int member before the
 * float member (@ipld/schema tries the kinds in the order the representation lists them, and
 * Number.isInteger passes both).
 *
 * @param {string} typeName
 * @param {Record<string, Member|null>} byKind
 * @param {boolean} intFirst
 * @returns {Read}
 */
export function kindedUnionReader (typeName, byKind, intFirst) {
  const { bool, string, bytes, int, float, map, list, link } = byKind
  const nul = byKind.null
  const kinds = Object.keys(byKind).filter((k) => byKind[k] !== null).join(', ')
  return function readKinded () {
    if (pos >= end) throw truncated(pos)
    const at = pos
    const initial = src[pos]
    const major = initial >> 5
    let member = null
    if (major <= 1) {
      member = int !== null && (intFirst || float === null) ? int : float
    } else if (major === 2) member = bytes
    else if (major === 3) member = string
    else if (major === 4) member = list
    else if (major === 5) member = map
    else if (major === 6) member = link
    else if (initial === 0xf4 || initial === 0xf5) member = bool
    else if (initial === 0xf6) member = nul
    else if (initial === 0xfb) {
      member = float
      if (int !== null && (intFirst || float === null)) {
        pos++
        const value = readFloat64(at)
        pos = at
        if (Number.isInteger(value)) member = int
      }
    } else if (initial === 0xf9 || initial === 0xfa) {
      throw fail('float-size', `${initial === 0xf9 ? 16 : 32}-bit float; DAG-CBOR floats are 64-bit`, at)
    }
    if (member === null) throw fail('schema-union', `kinded union ${typeName} has no member for ${kindName(at)} (its kinds: ${kinds})`, at)
    let v
    try {
      v = member.node.read()
    } catch (e) {
      throw withSegments(e, null, `(${member.typeName})`)
    }
    return building ? wrap(member.typeName, v) : undefined
  }
}

/**
 * @param {number} at
 * @returns {string}
 */
function kindName (at) {
  const b = src[at]
  return b === 0xf6 ? 'null' : b === 0xf4 || b === 0xf5 ? 'a boolean' : b === 0xfb ? 'a float' : b >> 5 === 6 ? 'a link' : KINDS[b >> 5]
}

/**
 * An inline union: a map whose discriminant key's value names the member, a map struct read with
 * the discriminant as one more (fixed) field. The map is scanned once for the discriminant, then
 * read by the member's reader.
 *
 * @param {string} typeName
 * @param {Uint8Array} discriminant - the key as written
 * @param {Member[]} members - keyBytes: the discriminant's value as written
 * @returns {Read}
 */
export function inlineUnionReader (typeName, discriminant, members) {
  const key = new TextDecoder().decode(discriminant.subarray(discriminant[0] < 0x78 ? 1 : 2))
  return function readInline () {
    if (pos >= end) throw truncated(pos)
    const at = pos
    const initial = src[pos++]
    if (initial >> 5 !== 5) {
      pos = at
      throw kindError(`a map (inline union ${typeName})`, at)
    }
    const n = readLength(initial & 31, at, 2)
    enter(at)
    let member = null
    let valueAt = -1
    for (let i = 0; i < n && member === null; i++) {
      if (match(discriminant)) {
        valueAt = pos
        for (let m = 0; m < members.length; m++) {
          if (match(members[m].keyBytes)) {
            member = members[m]
            break
          }
        }
        if (member === null) break
      } else {
        skip(pos) // the key
        skip(pos) // its value
      }
    }
    depth--
    pos = at
    if (member === null) {
      if (valueAt < 0) throw fail('schema-union', `inline union ${typeName} has no discriminant key ${JSON.stringify(key)}`, at)
      pos = valueAt
      const found = pos < end && src[pos] >> 5 === 3 ? JSON.stringify(text(stringHead(3, ''), pos)) : kindName(valueAt)
      pos = at
      throw fail('schema-union', `${found} names no member of inline union ${typeName}`, valueAt)
    }
    let v
    try {
      v = member.node.read()
    } catch (e) {
      throw withSegments(e, null, `(${member.typeName})`)
    }
    return building ? wrap(member.typeName, v) : undefined
  }
}

/**
 * An enum of string representation.
 *
 * @param {string} typeName
 * @param {Member[]} members - keyBytes: the string as written
 * @returns {Read}
 */
export function stringEnumReader (typeName, members) {
  return function readEnum () {
    const at = pos
    for (let m = 0; m < members.length; m++) {
      if (match(members[m].keyBytes)) return members[m].typeName
    }
    const start = stringHead(3, `a text string (enum ${typeName})`)
    throw fail('schema-enum', `${JSON.stringify(text(start, pos))} is not a member of enum ${typeName}`, at)
  }
}

/**
 * An enum of int representation.
 *
 * @param {string} typeName
 * @param {Map<number, string>} members - value to member name
 * @returns {Read}
 */
export function intEnumReader (typeName, members) {
  return function readEnum () {
    const at = pos
    const value = readNumber(true, `an integer (enum ${typeName})`)
    const name = members.get(value)
    if (name === undefined) throw fail('schema-enum', `${value} is not a member of enum ${typeName}`, at)
    return name
  }
}

/**
 * What readers written ahead of time (lib/schema/aot.js's toJavaScript) call: the scalar readers,
 * and the heads, key matching and errors of structs, over this module's cursor.
 */
export const runtime = {
  readString,
  readBytes,
  readInt: () => readNumber(true, 'an integer (Int)'),
  readFloat: () => readNumber(false, 'a number (Float)'),
  readBool,
  readLink,
  readAny,
  match,
  building: () => building,
  pos: () => pos,
  /** @returns {boolean} whether the item at pos is null (then read) */
  isNull () {
    if (pos < end && src[pos] === 0xf6) {
      pos++
      return true
    }
    return false
  },
  /**
   * The head of a tuple struct of `fieldCount` fields; enters a level.
   *
   * @param {number} fieldCount
   * @param {string} typeName
   */
  tupleHead (fieldCount, typeName) {
    if (pos >= end) throw truncated(pos)
    const at = pos
    const initial = src[pos++]
    if (initial >> 5 !== 4) {
      pos = at
      throw kindError(`a list (tuple struct ${typeName})`, at)
    }
    const n = readLength(initial & 31, at, 1)
    if (n !== fieldCount) throw fail('schema-tuple-length', `tuple struct ${typeName} has ${count(fieldCount, 'field')}, the list ${count(n, 'item')}`, at)
    enter(at)
  },
  /**
   * The head of a map struct; enters a level; returns its entry count.
   *
   * @param {string} typeName
   * @returns {number}
   */
  mapHead (typeName) {
    if (pos >= end) throw truncated(pos)
    const at = pos
    const initial = src[pos++]
    if (initial >> 5 !== 5) {
      pos = at
      throw kindError(`a map (struct ${typeName})`, at)
    }
    const n = readLength(initial & 31, at, 2)
    enter(at)
    mapStarts[depth] = at
    return n
  },
  leave () {
    depth--
  },
  keyError,
  /**
   * The first required field from fields[j] on, as an error, or null.
   *
   * @param {StructField[]} fields
   * @param {number} j
   * @param {string} typeName
   * @returns {Error|null}
   */
  missingFrom (fields, j, typeName) {
    for (; j < fields.length; j++) if (fields[j].required) return fail('schema-missing-field', missing(fields[j], typeName), mapStarts[depth])
    return null
  },
  defineField,
  /**
   * @param {any} e
   * @param {StructField} field
   * @param {number|null} index - a tuple's position, or null (a map struct: its key)
   */
  fieldError (e, field, index) {
    return withSegments(e, index === null ? field.key : index, fieldSegment(field.name))
  }
}

/**
 * Read one whole block with `node`; bytes after it are an error.
 *
 * @param {Uint8Array} input
 * @param {ReadNode} node
 * @param {number} maxDepthOption
 * @param {boolean} build
 * @returns {any}
 */
export function run (input, node, maxDepthOption, build) {
  src = input
  pos = 0
  end = input.length
  depth = 0
  maxDepth = maxDepthOption
  building = build
  try {
    const value = node.read()
    if (pos !== end) {
      throw fail('trailing-bytes', `${count(end - pos, 'byte')} left over after the first item`, pos)
    }
    return value
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw fail('depth', 'nesting too deep for the JavaScript stack', pos)
    }
    throw e
  } finally {
    src = EMPTY
  }
}
