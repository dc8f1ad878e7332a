// The Lexicon reader: one walk over a record's bytes that checks the DAG-CBOR rules strict decode
// checks (lib/decode.js: shortest heads, definite lengths, map keys as canonical text, UTF-8,
// CIDs) and the Lexicon's rules together, and builds the value as generic decode would (the same
// objects, CIDs, byte copies; keys in the order they are written). With `building` false
// (validate) the same walk builds nothing except the text a check needs.
//
// Each node of compile.js is read by a switch on its kind: an interpreter, not generated code,
// so it runs under a Content-Security-Policy without 'unsafe-eval'. What a Lexicon does not type
// (`unknown` fields, properties it does not name, the members of an open union it does not list)
// is read by generic decode (decodeFirst), after a walk over its bytes that refuses floats (the
// AT Protocol data model has none) and checks any blob inside.
//
// The cursor (src, pos, end) is module state, as in decode.js: one read runs at a time.

import { readUtf8, invalidAt, invalidUtf8At } from '../utf8.js'
import { readCid, checkCid } from '../cid-decode.js'
// PlainObject: records are built by generic decode's constructor (decode.js says why it is not `{}`)
import { decodeFirst, PlainObject } from '../decode.js'
import { CID_TAG } from '../cid-encode.js'
import { DagCborDecodeError, count, lengthPastEnd, withDecodeSegment } from '../errors.js'
import { integerProblem, stringProblem, lengthProblem, blobProblem, blobShapeProblem } from './rules.js'
import { isCidString } from './formats.js'

/** @type {Uint8Array} */
const EMPTY = new Uint8Array(0)
/** @type {Uint8Array} */
let src = EMPTY
let pos = 0
let end = 0
let depth = 0
let maxDepth = 1000
let building = true
/** set by readArg for a 64-bit argument above 2^53-1, left in bigValue */
let big = false
let bigValue = 0n
/** a new stamp per object read: which properties it had (Property.seen) */
let stamp = 0

/**
 * @param {string} rule
 * @param {string} detail
 * @param {number} at
 * @returns {DagCborDecodeError}
 */
function fail (rule, detail, at) {
  return new DagCborDecodeError(/** @type {any} */ (rule), detail, at)
}

/**
 * @param {import('./rules.js').Problem} problem
 * @param {number} at
 */
function check (problem, at) {
  if (problem !== null) throw fail(problem[0], problem[1], at)
}

/** @param {number} at */
function word (at) {
  return ((src[at] << 24) | (src[at + 1] << 16) | (src[at + 2] << 8) | src[at + 3]) >>> 0
}

/** @param {number} at */
function truncated (at) {
  return fail('truncated', 'unexpected end of input', at)
}

const KINDS = ['an integer', 'a negative integer', 'a byte string', 'a text string', 'an array', 'a map', 'a tag', 'a float or simple value']

/**
 * What the item at `at` is, for messages.
 *
 * @param {number} at
 * @returns {string}
 */
function found (at) {
  const b = src[at]
  return b === 0xf6 ? 'null' : b === 0xf4 || b === 0xf5 ? 'a boolean' : b >= 0xf9 && b <= 0xfb ? 'a float' : b === 0xd8 && src[at + 1] === CID_TAG ? 'a link' : KINDS[b >> 5]
}

/**
 * @param {string} expected
 * @param {number} at
 * @returns {DagCborDecodeError}
 */
function kindError (expected, at) {
  if (src[at] === 0xf6) return fail('lexicon-nullable', `null, where ${expected} goes (the property is not nullable)`, at)
  return fail('lexicon-kind', `expected ${expected}, found ${found(at)}`, at)
}

/**
 * The argument of the head whose initial byte was at `at` (pos just past it), in shortest form;
 * sets `big` for a 64-bit value above 2^53-1.
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

/** @param {number} at */
function enter (at) {
  if (++depth > maxDepth) throw fail('depth', `nesting deeper than maxDepth (${count(maxDepth, 'level')})`, at)
}

/**
 * The head of an item of major type `major` at pos; returns its argument (a length), pos past it.
 *
 * @param {number} major
 * @param {string} expected
 * @param {number} unit - least bytes per item (1 for strings and arrays, 2 for maps)
 * @returns {number}
 */
function head (major, expected, unit) {
  if (pos >= end) throw truncated(pos)
  const at = pos
  const initial = src[pos]
  if (initial >> 5 !== major) throw kindError(expected, at)
  pos++
  return readLength(initial & 31, at, unit)
}

/**
 * Text at src[start, stop), checked UTF-8.
 *
 * @param {number} start
 * @param {number} stop
 * @returns {string}
 */
function text (start, stop) {
  const s = readUtf8(src, start, stop, false)
  if (s === null) throw fail('invalid-utf8', 'text is not valid UTF-8', invalidAt)
  return s
}

/** the AT Protocol data model's integers are signed 64-bit: CBOR's major types 0 and 1 reach 2^64 */
const INT64_MAX = 2n ** 63n - 1n

/**
 * @param {number} major
 * @param {number} at
 * @returns {DagCborDecodeError}
 */
function outOfRange (major, at) {
  return fail('lexicon-kind', `an integer ${major === 0 ? 'above 2^63-1' : 'below -2^63'}, outside the signed 64-bit integers of the AT Protocol data model`, at)
}

/**
 * @param {import('./compile.js').IntegerNode} node
 * @returns {number|bigint|undefined}
 */
function readInteger (node) {
  if (pos >= end) throw truncated(pos)
  const at = pos
  const initial = src[pos]
  const major = initial >> 5
  if (major > 1) throw kindError('an integer', at)
  pos++
  const n = readArg(initial & 31, at)
  /** @type {number|bigint} */
  let v
  if (big) {
    if (bigValue > INT64_MAX) throw outOfRange(major, at)
    v = major === 0 ? bigValue : -1n - bigValue
  } else v = major === 0 ? n : n < Number.MAX_SAFE_INTEGER ? -1 - n : -1n - BigInt(n)
  check(integerProblem(node, v), at)
  return building ? v : undefined
}

/**
 * @param {import('./compile.js').StringNode} node
 * @returns {string|undefined}
 */
function readString (node) {
  const at = pos
  const n = head(3, 'a string', 1)
  const start = pos
  pos += n
  check(lengthProblem(node, n, 'byte'), at)
  // checking only, the text is made only when a check needs it: a string of n UTF-8 bytes has at
  // most n grapheme clusters, and at least one when it is not empty
  if (!building && (node.plain || (node.countsOnly &&
      (node.maxGraphemes === undefined || n <= node.maxGraphemes) &&
      (node.minGraphemes === undefined || node.minGraphemes <= (n === 0 ? 0 : 1))))) {
    if (invalidUtf8At(src, start, pos) >= 0) throw fail('invalid-utf8', 'text is not valid UTF-8', invalidUtf8At(src, start, pos))
    return undefined
  }
  // an ASCII format that passes on the bytes is valid UTF-8 too, and is the string's only check;
  // one that fails is read as text below, for the message (or the UTF-8 error)
  if (node.formatBytes !== null && node.formatBytes(src, start, n)) return building ? text(start, pos) : undefined
  const s = text(start, pos)
  if (!node.plain) check(stringProblem(node, s), at)
  return s
}

/**
 * @param {import('./compile.js').BytesNode} node
 * @returns {Uint8Array|undefined}
 */
function readBytes (node) {
  const at = pos
  const n = head(2, 'bytes', 1)
  const start = pos
  pos += n
  check(lengthProblem(node, n, 'byte'), at)
  return building ? src.slice(start, pos) : undefined
}

/** @returns {any} a CID (or undefined, not building) */
function readLink () {
  if (pos >= end) throw truncated(pos)
  const at = pos
  if (src[pos] !== 0xd8 || src[pos + 1] !== CID_TAG) {
    if (src[pos] >> 5 === 6) throw fail('tag', 'a tag other than 42 (CID) in its shortest form is not allowed', at)
    throw kindError('a link (tag 42)', at)
  }
  pos += 2
  const n = head(2, 'a byte string in tag 42 (CID)', 1)
  const start = pos
  pos += n
  if (building) return readCid(src, start, pos)
  checkCid(src, start, pos)
  return undefined
}

/** @returns {boolean|null|undefined} null, a boolean, or undefined for any other item */
function readSimple () {
  const b = src[pos]
  if (b === 0xf4 || b === 0xf5 || b === 0xf6) {
    pos++
    return b === 0xf6 ? null : b === 0xf5
  }
  return undefined
}

/**
 * A map key at pos: text, in canonical order after the previous key (src[previous,
 * previous + previousLength), previous < 0 for the first). Returns where its UTF-8 starts; pos
 * is past it.
 *
 * @param {number} previous
 * @param {number} previousLength
 * @returns {number}
 */
function key (previous, previousLength) {
  if (pos >= end) throw truncated(pos)
  const at = pos
  const initial = src[pos]
  if (initial >> 5 !== 3) throw fail('map-key-type', 'map key is not a string', at)
  pos++
  const n = readLength(initial & 31, at, 1)
  const start = pos
  pos += n
  if (previous >= 0) inOrder(previous, previousLength, start, n, at)
  return start
}

/**
 * Check that the key src[start, start + n) (its head at `at`) comes after the previous one,
 * src[previous, previous + previousLength): DAG-CBOR's order, by length, then bytewise.
 *
 * @param {number} previous
 * @param {number} previousLength
 * @param {number} start
 * @param {number} n
 * @param {number} at
 */
function inOrder (previous, previousLength, start, n, at) {
  let order = previousLength - n
  for (let i = 0; order === 0 && i < n; i++) order = src[previous + i] - src[start + i]
  if (order >= 0) {
    const k = text(start, start + n)
    throw order === 0
      ? fail('duplicate-key', `duplicate map key ${JSON.stringify(k)}`, at)
      : fail('map-key-order', `map key ${JSON.stringify(k)} is out of order (keys sort by length, then bytewise)`, at)
  }
}

/**
 * @param {number} start
 * @param {number} n
 * @returns {boolean}
 */
function isTypeKey (start, n) {
  return n === 5 && src[start] === 0x24 && src[start + 1] === 0x74 && src[start + 2] === 0x79 && src[start + 3] === 0x70 && src[start + 4] === 0x65
}

/**
 * Store `value` at `name`, as an own property even for __proto__ (as generic decode does).
 *
 * @param {Record<string, unknown>} object
 * @param {string} name
 * @param {unknown} value
 */
function store (object, name, value) {
  if (name === '__proto__') Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true })
  else object[name] = value
}

/**
 * The value at pos, as `node` types it.
 *
 * @param {import('./compile.js').Node} node
 * @returns {any}
 */
function readNode (node) {
  if (pos >= end) throw truncated(pos)
  switch (node.kind) {
    case 'string': return readString(node)
    case 'integer': return readInteger(node)
    case 'object': return readObject(node, null)
    case 'array': return readArray(node)
    case 'union': return readUnion(node)
    case 'cid-link': return readLink()
    case 'blob': return readBlob(node)
    case 'bytes': return readBytes(node)
    case 'unknown': return readUnknown()
    case 'boolean': {
      const at = pos
      const v = src[pos] === 0xf6 ? undefined : readSimple()
      if (v === undefined) throw kindError('a boolean', at)
      if (node.const !== undefined && v !== node.const) throw fail('lexicon-const', `${v} is not the constant ${node.const}`, at)
      return v
    }
    default: { // null
      if (src[pos] !== 0xf6) throw fail('lexicon-kind', `expected null, found ${found(pos)}`, pos)
      pos++
      return null
    }
  }
}

/**
 * @param {import('./compile.js').ArrayNode} node
 * @returns {unknown[]|undefined}
 */
function readArray (node) {
  const at = pos
  const n = head(4, 'an array', 1)
  check(lengthProblem(node, n, 'item'), at)
  enter(at)
  const list = building ? new Array(n) : undefined
  const items = node.items
  let i = 0
  try {
    for (; i < n; i++) {
      const v = readNode(items)
      if (list !== undefined) list[i] = v
    }
  } catch (e) {
    throw withDecodeSegment(e, i)
  }
  depth--
  return list
}

/**
 * A map typed by an object definition. `type`: the `$type` a union read (the member's name),
 * or null. Properties it names are read by their nodes; others by generic decode.
 *
 * @param {import('./compile.js').ObjectNode} node
 * @param {string|null} type
 * @returns {Record<string, unknown>|undefined}
 */
function readObject (node, type) {
  const at = pos
  if (pos >= end) throw truncated(pos)
  if (src[pos] >> 5 !== 5) throw kindError(node.recordType !== null ? `a map (record ${node.recordType})` : node.name ? `a map (${node.name})` : 'a map (object)', at)
  const n = head(5, '', 2)
  enter(at)
  const object = building ? new PlainObject() : undefined
  const mine = ++stamp
  const keys = node.keys
  const keyCount = keys.length
  let next = 0 // keys[next] is the first that can still come (the map's keys come in order)
  let required = 0
  let previous = -1
  let previousLength = 0
  let previousKnown = false
  let hasType = false
  // the path segment of an error: the key being read, or its index while it cannot be read
  /** @type {string|number} */
  let segment = 0
  try {
    for (let i = 0; i < n; i++) {
      segment = i
      const keyAt = pos
      if (pos >= end) throw truncated(pos)
      const initial = src[pos]
      if (initial >> 5 !== 3) throw fail('map-key-type', 'map key is not a string', keyAt)
      pos++
      const length = readLength(initial & 31, keyAt, 1)
      const start = pos
      pos += length
      /** @type {import('./compile.js').Key|null} */
      let known = null
      while (next < keyCount) {
        const bytes = keys[next].bytes
        let order = bytes.length - length
        for (let b = 0; order === 0 && b < length; b++) order = bytes[b] - src[start + b]
        if (order > 0) break
        next++
        if (order === 0) {
          known = keys[next - 1]
          break
        }
      }
      // node.keys are in canonical order and matched only forward, so a known key after a known
      // key is in order; any other pair is compared (the order rule, and duplicates)
      if (previous >= 0 && (known === null || !previousKnown)) inOrder(previous, previousLength, start, length, keyAt)
      previous = start
      previousLength = length
      previousKnown = known !== null
      let v
      /** @type {string} */
      let name
      if (known === null) {
        name = text(start, pos)
        segment = name
        v = readGeneric()
      } else {
        name = known.name
        segment = name
        const property = known.property
        if (property === null) {
          hasType = true
          v = readType(node, type)
        } else {
          if (src[pos] === 0xf6 && property.nullable) {
            pos++
            v = null
          } else {
            v = readNode(property.node)
          }
          property.seen = mine
          if (property.required) required++
        }
      }
      if (object !== undefined) {
        if (name === '__proto__') store(object, name, v)
        else object[name] = v
      }
    }
  } catch (e) {
    throw withDecodeSegment(e, segment)
  }
  depth--
  if (node.recordType !== null && !hasType && type === null) throw fail('lexicon-type', `a ${node.recordType} record has "$type": "${node.recordType}", and it is absent`, at)
  if (required !== node.required.length) {
    const absent = /** @type {import('./compile.js').Property} */ (node.required.find((p) => p.seen !== mine))
    throw withDecodeSegment(fail('lexicon-required', 'required, and absent', at), absent.name)
  }
  return object
}

/**
 * The `$type` of an object: a record's NSID; the member a union chose; else, when present where
 * the spec does not ask for it, the object's own definition's name.
 *
 * @param {import('./compile.js').ObjectNode} node
 * @param {string|null} type
 * @returns {string}
 */
function readType (node, type) {
  const at = pos
  const n = head(3, 'a string ($type)', 1)
  const start = pos
  pos += n
  // a record's NSID, the union member's name, or a ref'd object's own name: always node.name
  // (an inline object has none); matched as bytes, so no string is made when it is right
  if (node.name !== '' && sameBytes(node.nameBytes, start, n)) return node.name
  const s = text(start, pos)
  const expected = type ?? node.name
  throw fail('lexicon-type', expected === ''
    ? `${JSON.stringify(s)} on an inline object, which has no type name`
    : `${JSON.stringify(s)} is not ${JSON.stringify(expected)}${s === expected + '#main' ? ' (a main definition is named without #main)' : ''}`, at)
}

/**
 * Whether src[start, start + n) holds `bytes`.
 *
 * @param {Uint8Array} bytes
 * @param {number} start
 * @param {number} n
 * @returns {boolean}
 */
function sameBytes (bytes, start, n) {
  if (bytes.length !== n) return false
  for (let i = 0; i < n; i++) if (bytes[i] !== src[start + i]) return false
  return true
}

/**
 * Skip one item (no checks beyond bounds; it is read properly afterwards).
 */
function skip () {
  if (pos >= end) throw truncated(pos)
  const at = pos
  const initial = src[pos++]
  const major = initial >> 5
  const info = initial & 31
  if (major === 7) {
    if (info >= 24 && info <= 27) pos += info === 24 ? 1 : 1 << (info - 24)
    if (pos > end) throw truncated(at)
    return
  }
  const n = readArg(info, at)
  if (major <= 1) return
  if (major <= 3) {
    if (big || n > end - pos) throw fail('truncated', lengthPastEnd(major, big ? bigValue : n, end - pos), at)
    pos += n
  } else if (major <= 5) {
    if (big) throw truncated(at)
    enter(at)
    const items = major === 4 ? n : 2 * n
    for (let i = 0; i < items; i++) skip()
    depth--
  } else {
    skip()
  }
}

/** the UTF-8 length of the `$type` peekType found */
let peekedLength = 0

/**
 * Where the text of the `$type` of the map at pos starts, read ahead (pos is left where it was;
 * its length in peekedLength), or -1 when the map has none (or is not a map, or its `$type` is
 * not text).
 *
 * @returns {number}
 */
function peekType () {
  const at = pos
  const initial = src[pos]
  if (initial >> 5 !== 5) return -1
  let found = -1
  try {
    pos++
    const n = readLength(initial & 31, at, 2)
    for (let i = 0; i < n; i++) {
      if (pos < end && src[pos] === 0x65 && pos + 6 <= end && isTypeKey(pos + 1, 5)) {
        pos += 6
        if (pos < end && src[pos] >> 5 === 3) {
          const t = pos
          pos++
          peekedLength = readLength(src[t] & 31, t, 1)
          found = pos
        }
        break
      }
      skip()
      skip()
    }
  } finally {
    pos = at
  }
  return found
}

/**
 * A union's value: a map whose `$type` names one of its members (or, open, any type).
 *
 * @param {import('./compile.js').UnionNode} node
 * @returns {unknown}
 */
function readUnion (node) {
  const at = pos
  if (src[at] >> 5 !== 5) throw kindError(`a map (a union of ${node.names.join(', ') || 'any type'})`, at)
  const start = peekType()
  if (start < 0) throw fail('lexicon-type', `a union's value has a "$type" string naming its type (${node.closed ? 'one of ' : 'for instance '}${node.names.join(', ') || 'any type'}), and it has none`, at)
  const length = peekedLength
  for (const member of node.members.values()) {
    if (sameBytes(member.nameBytes, start, length)) return readObject(member, member.name)
  }
  const type = text(start, start + length)
  if (type.endsWith('#main')) throw fail('lexicon-type', `${JSON.stringify(type)}: a main definition is named without #main`, at)
  if (node.closed) throw fail('lexicon-union', `${JSON.stringify(type)} is not a member of the closed union (${node.names.join(', ')})`, at)
  if (type === 'blob') throw fail('lexicon-union', 'a blob is not an object a union may hold', at)
  // open: a type this Lexicon does not know, read as data
  return readGeneric()
}

/** @returns {unknown} an `unknown` field: an object, not a blob */
function readUnknown () {
  const at = pos
  if (src[at] === 0xf6) throw kindError('an object (unknown)', at)
  if (src[at] >> 5 !== 5) throw fail('lexicon-unknown', `an unknown field holds an object (a map), not ${found(at)}`, at)
  const type = peekType()
  if (type >= 0 && peekedLength === 4 && src[type] === 0x62 && src[type + 1] === 0x6c && src[type + 2] === 0x6f && src[type + 3] === 0x62) {
    throw fail('lexicon-unknown', 'an unknown field holds an object, not a blob', at)
  }
  return readGeneric()
}

/**
 * A blob: `{ $type: 'blob', ref, mimeType, size }`, or the legacy `{ cid, mimeType }`.
 *
 * @param {import('./compile.js').BlobNode} node
 * @returns {Record<string, unknown>|undefined}
 */
function readBlob (node) {
  const at = pos
  const n = head(5, 'a blob (a map)', 2)
  enter(at)
  const object = building ? new PlainObject() : undefined
  /** @type {Record<string, unknown>} */
  const fields = { $type: undefined, ref: undefined, mimeType: undefined, size: undefined, cid: undefined }
  let isLink = false
  let previous = -1
  let previousLength = 0
  /** @type {string|number} */
  let name = ''
  try {
    for (let i = 0; i < n; i++) {
      name = i
      const start = key(previous, previousLength)
      previous = start
      previousLength = pos - start
      name = text(start, pos)
      const valueAt = pos
      let v
      if (name === 'ref' && src[pos] === 0xd8 && src[pos + 1] === CID_TAG) {
        v = readLink()
        isLink = true
        fields.ref = true
      } else if (name === '$type' || name === 'mimeType' || name === 'cid' || name === 'size') {
        // the shape checks below need these values, built or not: text and integers are read
        // here (what generic decode would give), anything else by generic decode
        const b = src[pos]
        if (b >> 5 === 3) {
          const stringAt = pos
          pos++
          const length = readLength(b & 31, stringAt, 1)
          v = text(pos, pos + length)
          pos += length
        } else if (b >> 5 === 0 && b !== 0x1b) {
          pos++
          v = readArg(b & 31, valueAt)
        } else {
          const was = building
          building = true
          try {
            v = readGeneric()
          } finally {
            building = was
          }
        }
        fields[name] = v
      } else {
        v = readGeneric()
        if (name === 'ref') fields.ref = v === undefined ? true : v
      }
      if (pos === valueAt) throw truncated(pos)
      if (object !== undefined) store(object, name, v)
    }
  } catch (e) {
    throw withDecodeSegment(e, name)
  }
  depth--
  check(blobShapeProblem(fields, isLink, isCidString), at)
  check(blobProblem(node, /** @type {string} */ (fields.mimeType), /** @type {number|undefined} */ (fields.size)), at)
  return object
}

/**
 * Any value of the data model, by generic decode (after a walk that refuses floats and checks
 * blobs inside); undefined when not building.
 *
 * @returns {unknown}
 */
function readGeneric () {
  const at = pos
  let value
  let rest
  try {
    [value, rest] = decodeFirst(src.subarray(pos, end), { maxDepth: maxDepth - depth })
  } catch (e) {
    const err = /** @type {any} */ (e)
    // decodeFirst finished it from its own top: the offset is made the record's (its segments,
    // innermost first, are kept, and the levels above are added as it unwinds)
    if (err instanceof DagCborDecodeError && err.offset >= 0) err.offset += at
    throw err
  }
  const stop = end - rest.length
  dataModel(at, stop)
  pos = stop
  checkBlobs(value)
  return building ? value : undefined
}

/**
 * Refuse a float anywhere in the (valid DAG-CBOR) bytes src[from, to).
 *
 * @param {number} from
 * @param {number} to
 */
function dataModel (from, to) {
  pos = from
  const stop = end
  end = to
  try {
    floats()
  } finally {
    end = stop
  }
}

/** Walk one valid item at pos, refusing floats (with the path to them). */
function floats () {
  const at = pos
  const initial = src[pos++]
  const major = initial >> 5
  const info = initial & 31
  if (major === 7) {
    if (info >= 25 && info <= 27) throw fail('lexicon-float', 'a float; the AT Protocol data model has no floats', at)
    return
  }
  const n = readArg(info, at)
  if (major <= 1) {
    if (big && bigValue > INT64_MAX) throw outOfRange(major, at)
    return
  }
  if (major <= 3) {
    pos += n
  } else if (major === 4) {
    for (let i = 0; i < n; i++) {
      try {
        floats()
      } catch (e) {
        throw withDecodeSegment(e, i)
      }
    }
  } else if (major === 5) {
    for (let i = 0; i < n; i++) {
      const k = pos
      skip()
      try {
        floats()
      } catch (e) {
        const kn = readArgAt(k)
        throw withDecodeSegment(e, text(kn[0], kn[0] + kn[1]))
      }
    }
  } else {
    floats()
  }
}

/**
 * Where the text of the (valid) key head at `at` starts, and its length.
 *
 * @param {number} at
 * @returns {[number, number]}
 */
function readArgAt (at) {
  const save = pos
  pos = at + 1
  const n = readArg(src[at] & 31, at)
  const start = pos
  pos = save
  return [start, n]
}

/**
 * Check every map with `$type: 'blob'` inside a generic value against the blob shape.
 *
 * @param {unknown} value
 */
function checkBlobs (value) {
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      try {
        checkBlobs(value[i])
      } catch (e) {
        throw withDecodeSegment(e, i)
      }
    }
    return
  }
  const v = /** @type {any} */ (value)
  if (v.asCID === v) return
  if (v.$type === 'blob') {
    const ref = v.ref
    const problem = blobShapeProblem(v, ref !== undefined && ref !== null && ref.asCID === ref, isCidString)
    if (problem !== null) throw fail(problem[0], problem[1], -1)
  }
  for (const k of Object.keys(v)) {
    try {
      checkBlobs(v[k])
    } catch (e) {
      throw withDecodeSegment(e, k)
    }
  }
}

/**
 * Read one record at the start of `input`, which it must fill.
 *
 * @param {Uint8Array} input
 * @param {import('./compile.js').ObjectNode} node
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
    const value = readObject(node, null)
    if (pos !== end) throw fail('trailing-bytes', `${count(end - pos, 'byte')} after the end of the record`, pos)
    return value
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) throw fail('depth', 'nesting too deep for the JavaScript stack', pos)
    throw e
  } finally {
    src = EMPTY // never keep the caller's input alive
  }
}
