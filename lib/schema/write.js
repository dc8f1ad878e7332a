// The typed encoder's writers: one small closure per schema type, made when a codec is compiled
// (no code generated at run time). They write through the codec's own writer (lib/writer.js), the
// same bytes generic encode writes for the value's representation: a struct's keys go out in the
// canonical order fixed when the codec was made, from strings checked once then (no sort per call).

import * as out from '../writer.js'
import { loneSurrogateDetail } from '../utf8.js'
import { canonicalOrder } from '../key-order.js'
import { encode } from '../encode.js'
import { count, DagCborEncodeError } from '../errors.js'
import { DEFAULT_MAX_DEPTH } from '../limits.js'
import { encodeFail as fail, withSegments, fieldSegment } from './errors.js'

/** @typedef {(value: any) => void} Write */
/** @typedef {{ write: Write, name: string }} WriteNode */

const NEGINT = 0x20
const ARRAY = 0x80
const MAP = 0xa0

let depth = 0
let maxDepth = DEFAULT_MAX_DEPTH
let busy = false
/** The field values of the structs being written (see gather): each holds slots[base, base + F)
 * below `top`; the slots from top on hold undefined. */
/** @type {unknown[]} */
const slots = []
let top = 0

/**
 * What a value is, for messages.
 *
 * @param {unknown} v
 * @returns {string}
 */
function describe (v) {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  if (v instanceof Uint8Array) return 'a Uint8Array'
  if (typeof v === 'object' && /** @type {any} */ (v).asCID === v) return 'a CID'
  return typeof v === 'object' ? 'an object' : typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`
}

/**
 * @param {string} expected
 * @param {unknown} v
 * @returns {Error}
 */
function kindError (expected, v) {
  return fail('schema-kind', `expected ${expected}, found ${describe(v)}`)
}

/**
 * A Number as generic encode writes it: a safe integer as an integer (-0 as float64 -0.0), any
 * other finite value as float64.
 *
 * @param {number} v
 */
function writeNumber (v) {
  if (Number.isSafeInteger(v)) {
    if (v === 0 && 1 / v < 0) out.writeFloat(v)
    else if (v >= 0) out.writeHead(0, v)
    else out.writeHead(NEGINT, -1 - v)
  } else {
    out.writeFloat(v)
  }
}

/** @type {Write} */
export function writeInt (v) {
  if (typeof v !== 'number' || !Number.isInteger(v)) throw kindError('an integer (Int)', v)
  writeNumber(v)
}

/** @type {Write} */
export function writeFloat (v) {
  if (typeof v !== 'number' || v - v !== 0) throw typeof v === 'number' ? fail('non-finite-float', `${v} is not in the IPLD data model`) : kindError('a number (Float)', v)
  writeNumber(v)
}

/** @type {Write} */
export function writeBool (v) {
  if (typeof v !== 'boolean') throw kindError('a boolean (Bool)', v)
  out.writeByte(v ? 0xf5 : 0xf4)
}

/** @type {Write} */
export function writeNull (v) {
  if (v !== null) throw kindError('null (Null)', v)
  out.writeByte(0xf6)
}

/** @type {Write} */
export function writeString (v) {
  if (typeof v !== 'string') throw kindError('a string (String)', v)
  if (!out.writeString(v, false)) throw fail('utf8', loneSurrogateDetail(v, false))
}

/** @type {Write} */
export function writeBytes (v) {
  if (!(v instanceof Uint8Array)) throw kindError('a Uint8Array (Bytes)', v)
  out.writeBytes(v)
}

/** @type {Write} */
export function writeLink (v) {
  // what cidBytes checks: once asCID is the value, its bytes are the CID's when they are a Uint8Array
  if (typeof v === 'object' && v !== null && v.asCID === v) {
    const bytes = v.bytes
    if (bytes instanceof Uint8Array) return out.writeLinkBytes(bytes)
  }
  throw kindError('a CID (Link)', v)
}

/**
 * Any value of the data model: generic encode, in a writer state of its own, then its bytes.
 *
 * @type {Write}
 */
export function writeAny (v) {
  if (v === undefined) throw fail('undefined', 'undefined is not in the IPLD data model')
  // as typed decode and @ipld/schema's `any`: no integer outside -(2^53)+1..2^53-1
  if (hasBigInt(v, 0)) throw fail('schema-kind', 'expected a value of the data model (Any) with no integer outside -(2^53)+1..2^53-1 (a BigInt)')
  const bytes = encode(v, { maxDepth: maxDepth - depth }) // with a writer of its own (out.begin)
  for (let i = 0; i < bytes.length; i++) out.writeByte(bytes[i])
}

/**
 * Whether a BigInt is in `value`, down to maxDepth levels (deeper, generic encode refuses it).
 *
 * @param {unknown} value
 * @param {number} level
 * @returns {boolean}
 */
function hasBigInt (value, level) {
  if (typeof value === 'bigint') return true
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array || level > maxDepth) return false
  if (Array.isArray(value)) return value.some((x) => hasBigInt(x, level + 1))
  if (/** @type {any} */ (value).asCID === value) return false
  for (const k in value) if (hasBigInt(/** @type {any} */ (value)[k], level + 1)) return true
  return false
}

/**
 * @param {unknown} v
 * @returns {boolean} whether v is a map of the data model (@ipld/schema's Kinds.Map)
 */
function isMap (v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && /** @type {any} */ (v).asCID !== v
}

/**
 * @param {object} container
 */
function enter (container) {
  if (++depth > maxDepth) throw fail('depth', `nesting deeper than maxDepth (${count(maxDepth, 'level')})`)
}

/** @type {Map<Write, number>} */
const CODES = new Map([[writeString, 1], [writeBytes, 2], [writeInt, 3], [writeLink, 4], [writeBool, 5], [writeFloat, 6], [writeAny, 7]])

/**
 * The CODE of a node's type (read.js's CODE), 0 for any other.
 *
 * @param {WriteNode} node
 * @returns {number}
 */
export function codeOf (node) {
  return CODES.get(node.write) ?? 0
}

/**
 * Write `v` as `node` does (`code`: which scalar it is, or 0: call node.write, see read.js's
 * readValue); null when `nullable` and v is null.
 *
 * @param {number} code
 * @param {WriteNode} node
 * @param {any} v
 * @param {boolean} nullable
 */
function writeValue (code, node, v, nullable) {
  if (nullable && v === null) return out.writeByte(0xf6)
  switch (code) {
    case 1: return writeString(v)
    case 2: return writeBytes(v)
    case 3: return writeInt(v)
    case 4: return writeLink(v)
    case 5: return writeBool(v)
    case 6: return writeFloat(v)
    case 7: return writeAny(v)
    default: return node.write(v)
  }
}

/**
 * @param {WriteNode} node
 * @param {boolean} nullable
 * @returns {Write}
 */
export function listWriter (node, nullable) {
  const code = codeOf(node)
  return function writeList (v) {
    if (!Array.isArray(v)) throw kindError(`an array (${node.name} list)`, v)
    enter(v)
    const n = v.length
    out.writeHead(ARRAY, n)
    let i = 0
    try {
      for (; i < n; i++) writeValue(code, node, v[i], nullable)
    } catch (e) {
      throw withSegments(e, i, `[${i}]`)
    }
    depth--
  }
}

/**
 * @param {WriteNode} node
 * @param {boolean} nullable
 * @returns {Write}
 */
export function mapWriter (node, nullable) {
  const code = codeOf(node)
  return function writeMap (v) {
    if (!isMap(v)) throw kindError(`an object ({String:${node.name}})`, v)
    enter(v)
    let keys = Object.keys(v)
    const n = keys.length
    if (n > 1) keys = canonicalOrder(keys, false)
    out.writeHead(MAP, n)
    let i = 0
    try {
      for (; i < n; i++) {
        if (!out.writeString(keys[i], false)) throw fail('utf8', loneSurrogateDetail(keys[i], false))
        writeValue(code, node, v[keys[i]], nullable)
      }
    } catch (e) {
      throw withSegments(e, keys[i], `[${JSON.stringify(keys[i])}]`)
    }
    depth--
  }
}

/**
 * @typedef {object} StructField
 * @property {string} name - its name in the typed value
 * @property {string} key - its key in the representation
 * @property {WriteNode} node
 * @property {number} code - its CODE (see codeOf)
 * @property {boolean} nullable
 * @property {boolean} optional
 * @property {unknown} implicit - absent fields read as this value, and a field holding it is not written
 * @property {string|null} fixed - an inline union's discriminant: written as this string, not read
 */

const hasOwnProperty = Object.prototype.hasOwnProperty

/**
 * Whether `key` is an own property of `v`. A function of the module's, not a closure's, so that
 * V8 knows which hasOwnProperty it calls where it inlines this: in a for-in over `v`, with `key`
 * from it, then, the answer is known (no call).
 *
 * @param {object} v
 * @param {string} key
 * @returns {boolean}
 */
function isOwn (v, key) {
  return hasOwnProperty.call(v, key)
}

/**
 * The value of field `name` of `v`: its own property, or undefined. An inherited member (a
 * `constructor` or `toString` from Object.prototype, a getter of a class) is no field: generic
 * encode writes own keys only, and decode makes own properties.
 *
 * @param {Record<string, unknown>} v
 * @param {string} name
 * @returns {unknown}
 */
function fieldOf (v, name) {
  return hasOwnProperty.call(v, name) ? v[name] : undefined
}

/**
 * The field values of struct value `v`, into slots[base + j] for field j (undefined: absent), read
 * by one for-in over its keys: there V8 reads each property by its index in the object's layout,
 * where `v[name]` per field is a lookup by name through a cache shared by every struct type (and
 * hasOwnProperty one more). True when `v` is a plain case: each key own, and a field; and each
 * absent field optional, and not an own property the for-in did not list (non-enumerable, or held
 * undefined). Otherwise false (slots left clear), and the caller writes it by name, which reports
 * the missing or unknown field.
 *
 * @param {Record<string, unknown>} v
 * @param {Array<string|null>} names - fields[j].name as the for-in gives it (see propertyKey);
 *   null for an inline union's discriminant, which is no property
 * @param {boolean[]} required - whether field j must be present
 * @param {number} base
 * @returns {boolean}
 */
function gather (v, names, required, base) {
  const F = names.length
  let j = 0
  let found = 0
  for (const key in v) {
    if (!hasOwnProperty.call(v, key)) return clearSlots(base, F)
    // values made by decode list the fields in this order; others are searched
    let k = j
    if (k === F || names[k] !== key) {
      k = 0
      while (k < F && names[k] !== key) k++
      if (k === F) return clearSlots(base, F)
    }
    const x = v[key]
    slots[base + k] = x
    // an own field holding undefined is absent, and then checked below
    if (x !== undefined) found++
    j = k + 1
  }
  if (found < F) {
    for (let f = 0; f < F; f++) {
      const name = names[f]
      if (slots[base + f] === undefined && name !== null && (required[f] || hasOwnProperty.call(v, name))) return clearSlots(base, F)
    }
  }
  return true
}

/**
 * gather, leaving the slots clear when a getter it runs throws.
 *
 * @param {Record<string, unknown>} v
 * @param {Array<string|null>} names
 * @param {boolean[]} required
 * @param {number} base
 * @returns {boolean}
 */
function gatherOrClear (v, names, required, base) {
  try {
    return gather(v, names, required, base)
  } catch (e) {
    clearSlots(base, names.length)
    throw e
  }
}

/**
 * Let go of the values in slots[base, base + count), and of the slots (top = base): slots from top
 * on hold undefined, which gather relies on.
 *
 * @param {number} base
 * @param {number} count
 * @returns {false}
 */
function clearSlots (base, count) {
  for (let f = 0; f < count; f++) slots[base + f] = undefined
  top = base
  return false
}

/**
 * A field name as a property key is: the same string the for-in of gather gives, which then
 * compares by identity.
 *
 * @param {string} name
 * @returns {string}
 */
function propertyKey (name) {
  return Object.keys({ [name]: 0 })[0] ?? name
}

/**
 * The own enumerable keys of `v` that are not fields (for the error), when it has any that hold
 * a value.
 *
 * @param {Record<string, unknown>} v
 * @param {Set<string>} names
 * @param {string} typeName
 */
function checkUnknown (v, names, typeName) {
  for (const key in v) {
    if (!names.has(key) && Object.prototype.hasOwnProperty.call(v, key)) {
      throw withSegments(fail('schema-unknown-field', `${JSON.stringify(key)} is not a field of struct ${typeName}`), key, fieldSegment(key))
    }
  }
}

/**
 * @param {StructField} f - a required field the value does not have
 * @param {string} typeName
 * @returns {Error}
 */
function missingField (f, typeName) {
  return withSegments(fail('schema-missing-field', `struct ${typeName} has no field ${JSON.stringify(f.name)}`), f.key, fieldSegment(f.name))
}

/**
 * The missing-field and unknown-field errors of a struct value, thrown when it has one: a value
 * with one of those and also a bad field reports the first, as if checked before any field is written.
 *
 * @param {Record<string, unknown>} v
 * @param {StructField[]} fields
 * @param {Set<string>} names
 * @param {string} typeName
 */
function checkFields (v, fields, names, typeName) {
  let own = 0
  for (let j = 0; j < fields.length; j++) {
    const f = fields[j]
    if (f.fixed !== null) continue
    const x = fieldOf(v, f.name)
    if (x === undefined) {
      if (!f.optional && f.implicit === undefined) {
        throw missingField(f, typeName)
      }
      continue
    }
    own++
  }
  let keys = 0
  for (const key in v) keys++ // eslint-disable-line no-unused-vars
  if (keys !== own) checkUnknown(v, names, typeName)
}

/**
 * A struct of map representation; `fields` in canonical key order. Each field is read once and
 * written as it is read, its key from bytes made here (head and UTF-8); the map's head, whose count
 * leaves out absent and implicit fields, is filled in after them (under 24 fields it is one byte).
 *
 * @param {string} typeName
 * @param {StructField[]} fields
 * @returns {Write}
 */
export function structMapWriter (typeName, fields) {
  const F = fields.length
  const names = new Set(fields.filter((f) => f.fixed === null).map((f) => f.name))
  const expected = `an object (struct ${typeName})`
  // an inline union's discriminant: its key and value as one block
  const blocks = fields.map((f) => f.fixed === null ? encode(f.key) : concat(encode(f.key), encode(f.fixed)))
  const held = F < 24
  const keys = fields.map((f) => f.fixed === null ? propertyKey(f.name) : null)
  const required = fields.map((f) => f.fixed === null && !f.optional && f.implicit === undefined)
  /**
   * The value whose fields gather did not read: each read by name, missing and unknown fields found.
   *
   * @param {Record<string, unknown>} v
   */
  const writeByName = (v) => {
    /** @type {unknown} */
    let caught
    let failed = false
    let present = 0
    let own = 0
    let missing = false
    let j = 0
    // a missing or unknown field is reported before the depth limit, as before any field is written
    if (depth >= maxDepth) checkFields(v, fields, names, typeName)
    enter(v)
    try {
      let at = -1
      /** @type {Uint8Array|null} */
      let head = null
      if (held) {
        at = out.holdByte()
        head = out.held()
      } else {
        present = countPresent(v, fields)
        out.writeHead(MAP, present)
      }
      for (; j < F; j++) {
        const f = fields[j]
        if (f.fixed !== null) {
          out.writeBlock(blocks[j])
          if (held) present++
          continue
        }
        const x = fieldOf(v, f.name)
        if (x === undefined) {
          if (!f.optional && f.implicit === undefined) {
            missing = true
            break
          }
          continue
        }
        own++
        if (x === f.implicit) continue
        if (held) present++
        out.writeBlock(blocks[j])
        writeValue(f.code, f.node, x, f.nullable)
      }
      if (head !== null) head[at] = MAP | present
    } catch (e) {
      caught = e
      failed = true
    }
    if (failed || missing) {
      checkFields(v, fields, names, typeName)
      if (missing) throw missingField(fields[j], typeName)
      throw withSegments(caught, fields[j].key, fieldSegment(fields[j].name))
    }
    let keys = 0
    for (const key in v) keys++ // eslint-disable-line no-unused-vars
    if (keys !== own) checkUnknown(v, names, typeName)
    depth--
  }
  return function writeStruct (v) {
    if (!isMap(v)) throw kindError(expected, v)
    const base = top
    // reserved first: a getter read by gather may run a typed encode, which takes slots from top
    top = base + F
    if (!gatherOrClear(v, keys, required, base)) return writeByName(v)
    if (depth >= maxDepth) clearSlots(base, F)
    enter(v)
    let j = 0
    try {
      let present = 0
      let at = -1
      /** @type {Uint8Array|null} */
      let head = null
      if (held) {
        at = out.holdByte()
        head = out.held()
      } else {
        for (let f = 0; f < F; f++) {
          const x = slots[base + f]
          if (fields[f].fixed !== null || (x !== undefined && x !== fields[f].implicit)) present++
        }
        out.writeHead(MAP, present)
      }
      for (; j < F; j++) {
        const f = fields[j]
        if (f.fixed !== null) {
          out.writeBlock(blocks[j])
          if (held) present++
          continue
        }
        const x = slots[base + j]
        if (x === undefined) continue
        slots[base + j] = undefined
        if (x === f.implicit) continue
        if (held) present++
        out.writeBlock(blocks[j])
        writeValue(f.code, f.node, x, f.nullable)
      }
      if (head !== null) head[at] = MAP | present
    } catch (e) {
      clearSlots(base, F)
      throw withSegments(e, fields[j].key, fieldSegment(fields[j].name))
    }
    top = base
    depth--
  }
}

/**
 * The count of fields a struct value writes (for a head written before them).
 *
 * @param {Record<string, unknown>} v
 * @param {StructField[]} fields
 * @returns {number}
 */
function countPresent (v, fields) {
  let present = 0
  for (let j = 0; j < fields.length; j++) {
    const f = fields[j]
    if (f.fixed !== null) present++
    else {
      const x = fieldOf(v, f.name)
      if (x !== undefined && x !== f.implicit) present++
    }
  }
  return present
}

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 * @returns {Uint8Array}
 */
function concat (a, b) {
  const c = new Uint8Array(a.length + b.length)
  c.set(a)
  c.set(b, a.length)
  return c
}

/**
 * A struct of tuple representation; `fields` in list order.
 *
 * @param {string} typeName
 * @param {StructField[]} fields
 * @returns {Write}
 */
export function structTupleWriter (typeName, fields) {
  const F = fields.length
  const names = new Set(fields.map((f) => f.name))
  const expected = `an object (tuple struct ${typeName})`
  const keys = fields.map((f) => propertyKey(f.name))
  /**
   * The unknown-field error of a value with more keys than fields, when it has one: reported before
   * any field is written (and before the depth limit), as every field is read by name.
   *
   * @param {Record<string, unknown>} v
   */
  const checkKeys = (v) => {
    let keys = 0
    for (const key in v) keys++ // eslint-disable-line no-unused-vars
    if (keys !== F) checkUnknown(v, names, typeName)
  }
  /**
   * Fields from `from` on (those before it written), each read by name: a missing one is
   * reported where it is due.
   *
   * @param {Record<string, unknown>} v
   * @param {number} from
   */
  const writeRest = (v, from) => {
    let j = from
    try {
      for (; j < F; j++) {
        const f = fields[j]
        const x = fieldOf(v, f.name)
        if (x === undefined) throw fail('schema-missing-field', `struct ${typeName} has no field ${JSON.stringify(f.name)}`)
        writeValue(f.code, f.node, x, f.nullable)
      }
    } catch (e) {
      throw withSegments(e, j, fieldSegment(fields[j].name))
    }
  }
  /**
   * The value with every field read by name.
   *
   * @param {Record<string, unknown>} v
   */
  const writeByName = (v) => {
    checkKeys(v)
    enter(v)
    out.writeHead(ARRAY, F)
    writeRest(v, 0)
    depth--
  }
  return function writeTuple (v) {
    if (!isMap(v)) throw kindError(expected, v)
    if (depth >= maxDepth) return writeByName(v)
    depth++
    out.writeHead(ARRAY, F)
    // each field written as the for-in meets it, while they come in order, own and defined (values
    // made by decode list them so): the values read by property index, and no second pass
    let j = 0
    let inOrder = true
    for (const key in v) {
      if (j === F || key !== keys[j] || !isOwn(v, key)) {
        inOrder = false
        break
      }
      const x = v[key]
      if (x === undefined) {
        inOrder = false
        break
      }
      const f = fields[j]
      try {
        writeValue(f.code, f.node, x, f.nullable)
      } catch (e) {
        // as writeByName would report it: an unknown field first
        checkKeys(v)
        throw withSegments(e, j, fieldSegment(f.name))
      }
      j++
    }
    // the rest as writeByName writes it (the fields before j are those it writes first)
    if (!inOrder || j < F) {
      checkKeys(v)
      writeRest(v, j)
    }
    depth--
  }
}

/**
 * @typedef {object} Member
 * @property {string} typeName
 * @property {string} key - keyed: the key; inline: the discriminant value; kinded: unused
 * @property {WriteNode} node
 */

/**
 * The one member a typed union value `{ [TypeName]: value }` holds.
 *
 * @param {any} v
 * @param {Member[]} members
 * @param {string} what - 'keyed union X'
 * @returns {Member}
 */
function memberOf (v, members, what) {
  if (!isMap(v)) throw kindError(`an object of one member (${what})`, v)
  /** @type {string|null} */
  let only = null
  let n = 0
  for (const key in v) {
    if (!hasOwnProperty.call(v, key)) continue // inherited: not a member
    n++
    only = key
  }
  if (n !== 1 || only === null) throw fail('schema-union', `${what} is an object of exactly one member, not ${count(n, 'key')}`)
  for (let m = 0; m < members.length; m++) {
    if (members[m].typeName === only) return members[m]
  }
  throw fail('schema-union', `${JSON.stringify(only)} is not a member of ${what}`)
}

/**
 * @param {string} typeName
 * @param {Member[]} members
 * @param {'keyed'|'kinded'|'inline'} representation
 * @param {string|null} [integersReadAsInt] - a kinded union's float member, when it also has an int
 *   member (listed first), which reads every integer: an integral value of the float member is refused
 * @returns {Write}
 */
export function unionWriter (typeName, members, representation, integersReadAsInt = null) {
  const what = `${representation} union ${typeName}`
  return function writeUnion (v) {
    const member = memberOf(v, members, what)
    if (member.typeName === integersReadAsInt && Number.isInteger(v[member.typeName])) {
      throw fail('schema-union', `${v[member.typeName]} of member ${JSON.stringify(member.typeName)} is written as an integer, which ${what} reads back as its int member; a float member holds only numbers with a fraction here`)
    }
    if (representation === 'keyed') {
      enter(v)
      out.writeHead(MAP, 1)
      if (!out.writeString(member.key, false)) throw fail('utf8', loneSurrogateDetail(member.key, false))
    }
    try {
      member.node.write(v[member.typeName])
    } catch (e) {
      throw withSegments(e, representation === 'keyed' ? member.key : null, `(${member.typeName})`)
    }
    if (representation === 'keyed') depth--
  }
}

/**
 * @param {string} typeName
 * @param {Map<string, string|number>} members - member name to its representation
 * @returns {Write}
 */
export function enumWriter (typeName, members) {
  return function writeEnum (v) {
    const repr = typeof v === 'string' ? members.get(v) : undefined
    if (repr === undefined) {
      throw typeof v === 'string' ? fail('schema-enum', `${JSON.stringify(v)} is not a member of enum ${typeName}`) : kindError(`a string (enum ${typeName})`, v)
    }
    if (typeof repr === 'number') writeNumber(repr)
    else out.writeString(repr, false)
  }
}

/**
 * Run one typed encode; `finish` turns what was written into the result.
 *
 * @template R
 * @param {unknown} value
 * @param {WriteNode} node
 * @param {number} maxDepthOption
 * @param {() => R} finish
 * @returns {R}
 */
export function run (value, node, maxDepthOption, finish) {
  const outerWriter = out.begin()
  const outer = busy ? [depth, maxDepth, top] : null
  busy = true
  if (outer === null) top = 0
  const first = top
  depth = 0
  maxDepth = maxDepthOption
  try {
    node.write(value)
    return finish()
  } catch (e) {
    // each struct lets go of its slots as an error passes; this holds even if one could not
    clearSlots(first, slots.length - first)
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw fail('depth', `nesting too deep for the JavaScript stack, which ran out before maxDepth (${count(maxDepth, 'level')})`)
    }
    throw e
  } finally {
    out.end(outerWriter)
    busy = false
    if (outer !== null) {
      depth = /** @type {number} */ (outer[0])
      maxDepth = /** @type {number} */ (outer[1])
      top = /** @type {number} */ (outer[2])
      busy = true
    }
  }
}

export { DagCborEncodeError }
