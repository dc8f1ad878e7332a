// The encoder's check: a value walked against the nodes of compile.js with the rules the reader
// applies to bytes (rules.js), before generic encode writes it (canonical DAG-CBOR). What the
// Lexicon does not type (unknown fields, properties it does not name, open-union members it does
// not list) is checked as data of the AT Protocol model: no floats, blobs of the blob shape.

import { cidBytes } from '../cid-encode.js'
import { DagCborEncodeError } from '../errors.js'
import { integerProblem, stringProblem, lengthProblem, blobProblem, blobShapeProblem } from './rules.js'
import { isCidString } from './formats.js'

/**
 * @param {string} rule
 * @param {string} detail
 * @returns {DagCborEncodeError}
 */
function fail (rule, detail) {
  return new DagCborEncodeError(/** @type {any} */ (rule), detail)
}

/**
 * A segment added to an encode error as it unwinds (errors.js's helper takes decode errors only).
 *
 * @param {any} e
 * @param {string|number} segment
 * @returns {any}
 */
function withSegment (e, segment) {
  if (e instanceof DagCborEncodeError) e.segments.push(segment)
  return e
}

/** the AT Protocol data model's integers are signed 64-bit */
const INT64_MAX = 2n ** 63n - 1n

/**
 * @param {bigint} v
 * @returns {DagCborEncodeError}
 */
function outOfRange (v) {
  return fail('lexicon-kind', `an integer ${v > 0n ? 'above 2^63-1' : 'below -2^63'}, outside the signed 64-bit integers of the AT Protocol data model`)
}

/**
 * @param {import('./rules.js').Problem} problem
 */
function check (problem) {
  if (problem !== null) throw fail(problem[0], problem[1])
}

/**
 * Whether generic encode writes `v` as a link: what it takes for a CID (the multiformats signal,
 * on anything but a plain object, which it writes as a map).
 *
 * @param {unknown} v
 * @returns {boolean}
 */
function isLink (v) {
  if (typeof v !== 'object' || v === null || v instanceof Uint8Array || Array.isArray(v)) return false
  const proto = Object.getPrototypeOf(v)
  return proto !== Object.prototype && proto !== null && cidBytes(v) !== null
}

/**
 * @param {unknown} v
 * @returns {string}
 */
function kindOf (v) {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  if (v instanceof Uint8Array) return 'bytes'
  if (isLink(v)) return 'a link (CID)'
  if (v instanceof Map) return 'a Map (records are written as plain objects)'
  if (typeof v === 'number' && !Number.isInteger(v)) return 'a float'
  return typeof v === 'object' ? 'an object' : typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`
}

/**
 * @param {string} expected
 * @param {unknown} v
 * @returns {DagCborEncodeError}
 */
function kindError (expected, v) {
  if (v === null) return fail('lexicon-nullable', `null, where ${expected} goes (the property is not nullable)`)
  return fail('lexicon-kind', `expected ${expected}, found ${kindOf(v)}`)
}

/**
 * @param {unknown} v
 * @returns {v is Record<string, unknown>}
 */
function isMap (v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Map) && !isLink(v)
}

/**
 * @param {string} s
 * @returns {number} its length in UTF-8 bytes (a lone surrogate counted as the 3 bytes of U+FFFD;
 *   generic encode refuses it anyway)
 */
function utf8Length (s) {
  let n = s.length
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x80) {
      if (c < 0x800) n += 1
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        n += 2
        i++
      } else n += 2
    }
  }
  return n
}

/**
 * Check `value` against `node`; throws a DagCborEncodeError with the lexicon rule broken.
 *
 * @param {unknown} v
 * @param {import('./compile.js').Node} node
 * @param {number} depth
 */
export function checkValue (v, node, depth) {
  if (depth > 1000) throw fail('depth', 'nesting deeper than 1000 levels')
  switch (node.kind) {
    case 'null':
      if (v !== null) throw fail('lexicon-kind', `expected null, found ${kindOf(v)}`)
      return
    case 'boolean':
      if (typeof v !== 'boolean') throw kindError('a boolean', v)
      if (node.const !== undefined && v !== node.const) throw fail('lexicon-const', `${v} is not the constant ${node.const}`)
      return
    case 'integer':
      if (!(typeof v === 'number' && Number.isInteger(v)) && typeof v !== 'bigint') throw kindError('an integer', v)
      if (typeof v === 'bigint' && (v > INT64_MAX || v < -INT64_MAX - 1n)) throw outOfRange(v)
      return check(integerProblem(node, v))
    case 'string':
      if (typeof v !== 'string') throw kindError('a string', v)
      check(lengthProblem(node, utf8Length(v), 'byte'))
      return check(stringProblem(node, v))
    case 'bytes':
      if (!(v instanceof Uint8Array)) throw kindError('bytes (a Uint8Array)', v)
      return check(lengthProblem(node, v.length, 'byte'))
    case 'cid-link':
      if (!isLink(v)) throw kindError('a link (a CID)', v)
      return
    case 'blob':
      if (!isMap(v)) throw kindError('a blob (an object)', v)
      checkData(v, depth) // its fields, and its shape when it has "$type": "blob"
      check(blobShapeProblem(v, isLink(v.ref), isCidString))
      return check(blobProblem(node, /** @type {string} */ (v.mimeType), /** @type {number|undefined} */ (v.size)))
    case 'array': {
      if (!Array.isArray(v)) throw kindError('an array', v)
      check(lengthProblem(node, v.length, 'item'))
      for (let i = 0; i < v.length; i++) {
        try {
          checkValue(v[i], node.items, depth + 1)
        } catch (e) {
          throw withSegment(e, i)
        }
      }
      return
    }
    case 'object': return checkObject(v, node, null, depth)
    case 'union': {
      if (!isMap(v)) throw kindError(`an object (a union of ${node.names.join(', ') || 'any type'})`, v)
      const type = v.$type
      if (typeof type !== 'string') throw fail('lexicon-type', `a union's value has a "$type" string naming its type (${node.closed ? 'one of ' : 'for instance '}${node.names.join(', ') || 'any type'}), and it has none`)
      const member = node.members.get(type)
      if (member !== undefined) return checkObject(v, member, type, depth)
      if (type.endsWith('#main')) throw fail('lexicon-type', `${JSON.stringify(type)}: a main definition is named without #main`)
      if (node.closed) throw fail('lexicon-union', `${JSON.stringify(type)} is not a member of the closed union (${node.names.join(', ')})`)
      if (type === 'blob') throw fail('lexicon-union', 'a blob is not an object a union may hold')
      return checkData(v, depth)
    }
    default: // unknown
      if (v === null) throw kindError('an object (unknown)', v)
      if (!isMap(v)) throw fail('lexicon-unknown', `an unknown field holds an object, not ${kindOf(v)}`)
      if (v.$type === 'blob') throw fail('lexicon-unknown', 'an unknown field holds an object, not a blob')
      return checkData(v, depth)
  }
}

/**
 * @param {unknown} v
 * @param {import('./compile.js').ObjectNode} node
 * @param {string|null} type - the `$type` a union chose
 * @param {number} depth
 */
export function checkObject (v, node, type, depth) {
  if (!isMap(v)) throw kindError(node.recordType !== null ? `an object (record ${node.recordType})` : 'an object', v)
  const properties = node.properties
  for (const name of Object.keys(v)) {
    const value = v[name]
    if (value === undefined) continue // generic encode refuses it, naming the place
    try {
      const property = properties.get(name)
      if (property !== undefined) {
        if (value !== null || !property.nullable) checkValue(value, property.node, depth + 1)
      } else if (name === '$type') {
        const expected = type ?? node.recordType ?? node.name
        if (value !== expected) {
          throw fail('lexicon-type', expected === ''
            ? `${JSON.stringify(value)} on an inline object, which has no type name`
            : `${JSON.stringify(value)} is not ${JSON.stringify(expected)}`)
        }
      } else {
        checkData(value, depth + 1)
      }
    } catch (e) {
      throw withSegment(e, name)
    }
  }
  if (node.recordType !== null && type === null && v.$type === undefined) throw fail('lexicon-type', `a ${node.recordType} record has "$type": "${node.recordType}", and it is absent`)
  for (const p of node.required) {
    if (v[p.name] === undefined || !Object.prototype.hasOwnProperty.call(v, p.name)) throw withSegment(fail('lexicon-required', 'required, and absent'), p.name)
  }
}

/**
 * Data the Lexicon does not type: no floats, blobs of the blob shape.
 *
 * @param {unknown} v
 * @param {number} depth
 */
function checkData (v, depth) {
  if (depth > 1000) throw fail('depth', 'nesting deeper than 1000 levels')
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw fail('lexicon-float', `${v}: a float; the AT Protocol data model has no floats`)
    return
  }
  if (typeof v === 'bigint') {
    if (v > INT64_MAX || v < -INT64_MAX - 1n) throw outOfRange(v)
    return
  }
  if (typeof v !== 'object' || v === null || v instanceof Uint8Array) return
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      try {
        checkData(v[i], depth + 1)
      } catch (e) {
        throw withSegment(e, i)
      }
    }
    return
  }
  if (isLink(v)) return
  const map = /** @type {Record<string, unknown>} */ (v)
  for (const k of Object.keys(map)) {
    try {
      checkData(map[k], depth + 1)
    } catch (e) {
      throw withSegment(e, k)
    }
  }
  if (map.$type === 'blob') check(blobShapeProblem(map, isLink(map.ref), isCidString))
}
