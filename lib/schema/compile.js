// From an IPLD Schema (its parsed form, the DMT that @ipld/schema's fromDSL returns) to one reader
// and one writer per type (lib/schema/read.js, write.js), linked to each other by name so that
// recursive types work. Everything the schema language allows that is not supported here is
// refused with an Error naming the type, never read some other way.

import { encode } from '../encode.js'
import * as R from './read.js'
import * as W from './write.js'

/**
 * @typedef {(runtime: typeof R.runtime, fields: R.StructField[]) => R.Read} StructReaderFactory
 * @typedef {{ name: string, read: R.Read, write: W.Write, list?: { item: Node, nullable: boolean } }} Node - a list's
 *   node names its item's (toJavaScript's readers read a list field's items in a loop of their own;
 *   item is null while a recursive item type is being compiled)
 * @typedef {Record<string, any>} TypeDefn - one type of the DMT: `{ struct: {...} }`, `{ int: {} }`, ...
 */

/** A node's reader and writer until its definition is compiled (only a recursive type's own parts
 * see it, and they call it only after). */
function pending () {
  throw new Error('dag-cbor-fast/schema: internal error: a type used before it was compiled')
}

/** the data model kinds a kinded union can name, in the order generic decode can return them */
const KINDS = ['bool', 'string', 'bytes', 'int', 'float', 'null', 'link', 'map', 'list']

/** Types every schema has (the prelude), unless it defines a type of the same name. */
const PRELUDE = /** @type {Record<string, TypeDefn>} */ ({
  Bool: { bool: {} },
  String: { string: {} },
  Bytes: { bytes: {} },
  Int: { int: {} },
  Float: { float: {} },
  Null: { null: {} },
  Link: { link: {} },
  Any: { any: {} },
  any: { any: {} }
})

/**
 * The key or string as DAG-CBOR writes it: head and UTF-8.
 *
 * @param {string} s
 * @returns {Uint8Array}
 */
function textBytes (s) {
  return encode(s)
}

/**
 * DAG-CBOR's key order: shorter first, then bytewise (on the encoded key, whose head holds the length).
 *
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 * @returns {number}
 */
function compareEncoded (a, b) {
  if (a.length !== b.length) return a.length - b.length
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return 0
}

/**
 * @param {string} name
 * @param {string} why
 * @returns {Error}
 */
function refuse (name, why) {
  return new Error(`dag-cbor-fast/schema: type ${JSON.stringify(name)}: ${why}`)
}

/**
 * Refuse a representation two parts of the schema collide in (two members, keys or fields written
 * alike, so that decode could not tell which one was encoded): names the type, where in the parsed
 * schema (DMT) the collision is, and both names.
 *
 * @param {string} name - the type
 * @param {string} where - the path inside its definition: 'enum.representation.string'
 * @param {string} why
 * @returns {Error}
 */
function collision (name, where, why) {
  return new Error(`dag-cbor-fast/schema: type ${JSON.stringify(name)} (types${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? '.' + name : `[${JSON.stringify(name)}]`}.${where}): ${why}`)
}

const hasOwn = (/** @type {object} */ o, /** @type {string} */ key) => Object.prototype.hasOwnProperty.call(o, key)

/**
 * @param {unknown} x
 * @returns {x is Record<string, any>}
 */
function isObject (x) {
  return typeof x === 'object' && x !== null && !Array.isArray(x)
}

/**
 * The one kind key of a type definition ('struct', 'int', ...).
 *
 * @param {TypeDefn} defn
 * @param {string} name
 * @returns {string}
 */
function kindOf (defn, name) {
  if (!isObject(defn)) throw refuse(name, 'its definition is not an object')
  const keys = Object.keys(defn)
  if (keys.length !== 1) throw refuse(name, `its definition must have exactly one kind, has ${JSON.stringify(keys)}`)
  return keys[0]
}

/**
 * The single representation of a definition, or `fallback` when none is given.
 *
 * @param {Record<string, any>} body
 * @param {string} fallback
 * @param {string} name
 * @returns {[string, Record<string, any>]}
 */
function representationOf (body, fallback, name) {
  const r = body.representation
  if (r === undefined) return [fallback, {}]
  if (!isObject(r) || Object.keys(r).length !== 1) throw refuse(name, 'its representation must name exactly one strategy')
  const strategy = Object.keys(r)[0]
  if (!isObject(r[strategy])) throw refuse(name, `its ${strategy} representation is not an object`)
  return [strategy, r[strategy]]
}

export class Compiler {
  /**
   * @param {{ types: Record<string, TypeDefn>, advanced?: unknown }} schema
   * @param {Record<string, StructReaderFactory>} [readers] - struct readers written ahead of time
   *   (toJavaScript), by type name
   */
  constructor (schema, readers = {}) {
    this.readers = readers
    if (!isObject(schema) || !isObject(schema.types)) throw new TypeError('dag-cbor-fast/schema: a schema is { types: { ... } } (the parsed form, as @ipld/schema\'s fromDSL returns it)')
    if (schema.advanced !== undefined && isObject(schema.advanced) && Object.keys(schema.advanced).length) throw new Error('dag-cbor-fast/schema: advanced data layouts are not supported')
    /** @type {Record<string, TypeDefn>} */
    this.types = { ...PRELUDE, ...schema.types }
    /** @type {Map<string, Node>} */
    this.nodes = new Map()
    let anonymous = 0
    this.anonymous = () => anonymous++
  }

  /**
   * The node of a named type, or of an inline definition (a list, map or link in a field).
   *
   * @param {string|TypeDefn} ref
   * @param {string} context - where it is used, for errors
   * @returns {Node}
   */
  node (ref, context) {
    if (typeof ref === 'string') {
      const known = this.nodes.get(ref)
      if (known !== undefined) return known
      const defn = Object.prototype.hasOwnProperty.call(this.types, ref) ? this.types[ref] : undefined
      if (defn === undefined) throw new Error(`dag-cbor-fast/schema: ${context} refers to type ${JSON.stringify(ref)}, which the schema does not define`)
      /** @type {Node} */
      const node = { name: ref, read: pending, write: pending }
      this.nodes.set(ref, node) // before its parts, for recursive types
      this.fill(node, defn, ref)
      return node
    }
    const name = inlineName(ref)
    /** @type {Node} */
    const node = { name, read: pending, write: pending }
    this.fill(node, ref, `${context} (${name})`)
    return node
  }

  /**
   * @param {Node} node
   * @param {TypeDefn} defn
   * @param {string} name
   */
  fill (node, defn, name) {
    const kind = kindOf(defn, name)
    const body = defn[kind]
    if (!isObject(body)) throw refuse(name, `its ${kind} definition is not an object`)
    switch (kind) {
      case 'bool': case 'string': case 'bytes': case 'int': case 'float': case 'null': case 'any': {
        if (body.representation !== undefined) throw refuse(name, `a ${kind} with a representation (${Object.keys(body.representation)}) is not supported`)
        const [read, write] = /** @type {Record<string, [R.Read, W.Write]>} */ ({
          bool: [R.readBool, W.writeBool],
          string: [R.readString, W.writeString],
          bytes: [R.readBytes, W.writeBytes],
          int: [R.readInt, W.writeInt],
          float: [R.readFloat, W.writeFloat],
          null: [R.readNull, W.writeNull],
          any: [R.readAny, W.writeAny]
        })[kind]
        node.read = read
        node.write = write
        return
      }
      case 'link':
        if (body.expectedType !== undefined && typeof body.expectedType !== 'string') throw refuse(name, 'a link\'s expectedType must be a type name')
        node.read = R.readLink
        node.write = W.writeLink
        return
      case 'list': {
        if (body.valueNullable === true) this.checkNullable(name, 'list.valueNullable', 'values are', 'their', body.valueType)
        // set before the item's node is made: a recursive item type's written reader takes it then
        const list = { item: /** @type {Node} */ (/** @type {unknown} */ (null)), nullable: body.valueNullable === true }
        node.list = list
        const value = this.node(body.valueType, `the values of ${name}`)
        list.item = value
        node.read = R.listReader(value, body.valueNullable === true)
        node.write = W.listWriter(value, body.valueNullable === true)
        return
      }
      case 'map': {
        if (body.keyType !== 'String') throw refuse(name, `maps with keys of type ${JSON.stringify(body.keyType)} are not supported (only String)`)
        const [strategy] = representationOf(body, 'map', name)
        if (strategy !== 'map') throw refuse(name, `the ${strategy} representation of maps is not supported`)
        if (body.valueNullable === true) this.checkNullable(name, 'map.valueNullable', 'values are', 'their', body.valueType)
        const value = this.node(body.valueType, `the values of ${name}`)
        node.read = R.mapReader(value, body.valueNullable === true)
        node.write = W.mapWriter(value, body.valueNullable === true)
        return
      }
      case 'struct': {
        const s = this.struct(name, body)
        const written = Object.prototype.hasOwnProperty.call(this.readers, name) ? this.readers[name] : undefined
        node.read = written !== undefined ? written(R.runtime, s.fields) : s.tuple ? R.structTupleReader(name, s.fields) : R.structMapReader(name, s.fields)
        node.write = s.tuple ? W.structTupleWriter(name, s.writeFields) : W.structMapWriter(name, s.writeFields)
        return
      }
      case 'enum':
        return this.enum(node, name, body)
      case 'union':
        return this.union(node, name, body)
      case 'copy': {
        if (typeof body.fromType !== 'string') throw refuse(name, 'a copy needs a fromType')
        const from = this.node(body.fromType, name)
        // the same functions, when they are compiled already (a scalar's, so its CODE holds)
        node.read = from.read !== pending ? from.read : () => from.read()
        node.write = from.write !== pending ? from.write : (v) => from.write(v)
        return
      }
      default:
        throw refuse(name, `the ${kind} kind is not supported`)
    }
  }

  /**
   * A struct's fields, for the reader (with `fixed`, for an inline union's discriminant) and the
   * writer; map representation: in canonical key order; tuple: in list order.
   *
   * @param {string} name
   * @param {Record<string, any>} body
   * @param {{ key: string, value: string }|null} [discriminant]
   * @returns {{ tuple: boolean, fields: R.StructField[], writeFields: W.StructField[] }}
   */
  struct (name, body, discriminant = null) {
    if (!isObject(body.fields)) throw refuse(name, 'a struct needs fields')
    const [strategy, repr] = representationOf(body, 'map', name)
    if (strategy !== 'map' && strategy !== 'tuple') throw refuse(name, `the ${strategy} representation of structs is not supported (map and tuple are)`)
    const tuple = strategy === 'tuple'
    const reprFields = isObject(repr.fields) ? repr.fields : {}
    const names = Object.keys(body.fields)
    for (const f of Object.keys(reprFields)) if (!names.includes(f)) throw refuse(name, `its representation names ${JSON.stringify(f)}, which is not a field`)
    if (!tuple) checkKeys(name, names, reprFields)
    let order = names
    if (tuple) {
      if (repr.fieldOrder !== undefined) {
        if (!Array.isArray(repr.fieldOrder) || repr.fieldOrder.length !== names.length || !names.every((f) => repr.fieldOrder.includes(f))) {
          throw refuse(name, 'its tuple fieldOrder must list each field once')
        }
        order = repr.fieldOrder
      }
      if (Object.keys(reprFields).length) throw refuse(name, 'a tuple representation has no per-field options')
    }
    /** @type {R.StructField[]} */
    const fields = []
    /** @type {W.StructField[]} */
    const writeFields = []
    for (const fieldName of order) {
      const def = body.fields[fieldName]
      if (!isObject(def)) throw refuse(name, `field ${JSON.stringify(fieldName)} is not an object`)
      const options = hasOwn(reprFields, fieldName) && isObject(reprFields[fieldName]) ? reprFields[fieldName] : {}
      for (const o of Object.keys(options)) if (o !== 'rename' && o !== 'implicit') throw refuse(name, `field option ${JSON.stringify(o)} of ${JSON.stringify(fieldName)} is not supported`)
      if (tuple && def.optional === true) throw refuse(name, `field ${JSON.stringify(fieldName)}: optional fields are not supported in a tuple representation (as in @ipld/schema)`)
      const key = typeof options.rename === 'string' ? options.rename : fieldName
      const implicit = options.implicit
      if (implicit !== undefined && typeof implicit !== 'string' && typeof implicit !== 'boolean' && !Number.isInteger(implicit)) {
        throw refuse(name, `field ${JSON.stringify(fieldName)}: an implicit value must be a string, integer or boolean`)
      }
      if (implicit !== undefined) this.checkImplicit(name, fieldName, def.type, implicit)
      if (def.nullable === true) this.checkNullable(name, `struct.fields${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(fieldName) ? '.' + fieldName : `[${JSON.stringify(fieldName)}]`}.nullable`, `field ${JSON.stringify(fieldName)} is`, 'its', def.type)
      const node = this.node(def.type, `field ${JSON.stringify(fieldName)} of ${name}`)
      const nullable = def.nullable === true
      const optional = def.optional === true
      fields.push({ name: fieldName, key, keyBytes: textBytes(key), node, code: R.codeOf(node), nullable, required: !optional && implicit === undefined, implicit, fixed: null })
      writeFields.push({ name: fieldName, key, node, code: W.codeOf(node), nullable, optional, implicit, fixed: null })
    }
    if (discriminant !== null) {
      const clash = fields.find((f) => f.key === discriminant.key)
      if (clash !== undefined) throw refuse(name, `field ${JSON.stringify(clash.name)}'s key is the inline union's discriminant key ${JSON.stringify(discriminant.key)}`)
      const nothing = /** @type {Node} */ ({ name: '', read: R.readAny, write: W.writeAny })
      fields.push({ name: '', key: discriminant.key, keyBytes: textBytes(discriminant.key), node: nothing, code: 0, nullable: false, required: true, implicit: undefined, fixed: textBytes(discriminant.value) })
      writeFields.push({ name: '', key: discriminant.key, node: nothing, code: 0, nullable: false, optional: false, implicit: undefined, fixed: discriminant.value })
    }
    if (!tuple) {
      fields.sort((a, b) => compareEncoded(a.keyBytes, b.keyBytes))
      const rank = new Map(fields.map((f, i) => [f.key, i]))
      writeFields.sort((a, b) => /** @type {number} */ (rank.get(a.key)) - /** @type {number} */ (rank.get(b.key)))
    }
    return { tuple, fields, writeFields }
  }

  /**
   * A nullable place (field, list or map values) must not hold a kinded union with a null member:
   * null there and that member's value would be written alike, and read back as null.
   *
   * @param {string} name
   * @param {string} where
   * @param {string} what - 'field "x" is', 'values are'
   * @param {string} their - 'its', 'their'
   * @param {unknown} type
   */
  checkNullable (name, where, what, their, type) {
    if (typeof type !== 'string') return
    let defn = hasOwn(this.types, type) ? this.types[type] : undefined
    for (let i = 0; i < 100 && isObject(defn) && isObject(defn.copy) && typeof defn.copy.fromType === 'string'; i++) defn = hasOwn(this.types, defn.copy.fromType) ? this.types[defn.copy.fromType] : undefined
    const kinded = isObject(defn) && isObject(defn.union) && isObject(defn.union.representation) ? defn.union.representation.kinded : undefined
    if (isObject(kinded) && hasOwn(kinded, 'null')) {
      const message = `${what} nullable, and ${their} type ${JSON.stringify(type)} writes its member ${JSON.stringify(kinded.null)} as null too: null and { ${kinded.null}: null } would be written alike`
      throw hasOwn(this.types, name) ? collision(name, where, message) : refuse(name, message)
    }
  }

  /**
   * The data model kind a named type's values are written as, when there is one ('map' for a map
   * struct, 'string' for a string enum...); null for Any and kinded unions (each value its own).
   *
   * @param {string} typeName
   * @returns {string|null}
   */
  writtenKind (typeName) {
    let defn = hasOwn(this.types, typeName) ? this.types[typeName] : undefined
    for (let i = 0; i < 100 && isObject(defn) && isObject(defn.copy) && typeof defn.copy.fromType === 'string'; i++) defn = hasOwn(this.types, defn.copy.fromType) ? this.types[defn.copy.fromType] : undefined
    if (!isObject(defn)) return null
    const kind = Object.keys(defn)[0]
    const body = defn[kind]
    if (!isObject(body)) return null
    const strategy = isObject(body.representation) ? Object.keys(body.representation)[0] : undefined
    switch (kind) {
      case 'bool': case 'string': case 'bytes': case 'int': case 'float': case 'null': case 'link': case 'list': case 'map': return kind
      case 'struct': return strategy === 'tuple' ? 'list' : 'map'
      case 'enum': return strategy === 'int' ? 'int' : 'string'
      case 'union': return strategy === 'keyed' || strategy === 'inline' ? 'map' : null
      default: return null
    }
  }

  /**
   * An implicit value must be one its field's type holds: an absent field reads as it, and a field
   * holding it is not written, so one the type cannot hold would decode to a value encode refuses.
   *
   * @param {string} name
   * @param {string} fieldName
   * @param {unknown} type
   * @param {string|number|boolean} implicit
   */
  checkImplicit (name, fieldName, type, implicit) {
    let defn = typeof type === 'string' && hasOwn(this.types, type) ? this.types[type] : undefined
    for (let i = 0; i < 100 && isObject(defn) && isObject(defn.copy) && typeof defn.copy.fromType === 'string'; i++) defn = hasOwn(this.types, defn.copy.fromType) ? this.types[defn.copy.fromType] : undefined
    const kind = isObject(defn) ? Object.keys(defn)[0] : ''
    const holds = kind === 'int'
      ? Number.isInteger(implicit)
      : kind === 'string'
        ? typeof implicit === 'string'
        : kind === 'bool'
          ? typeof implicit === 'boolean'
          : kind === 'enum'
            ? typeof implicit === 'string' && Array.isArray(defn?.enum.members) && defn?.enum.members.includes(implicit)
            : false
    if (!holds) throw refuse(name, `field ${JSON.stringify(fieldName)}: its implicit value ${JSON.stringify(implicit)} is not ${kind === 'int' || kind === 'string' || kind === 'bool' || kind === 'enum' ? `of its type (${kind})` : 'supported for its type (only Int, String, Bool and enum fields have one)'}`)
  }

  /**
   * @param {Node} node
   * @param {string} name
   * @param {Record<string, any>} body
   */
  enum (node, name, body) {
    if (!Array.isArray(body.members) || body.members.length === 0) throw refuse(name, 'an enum needs members')
    /** @type {Set<string>} */
    const listed = new Set()
    for (const m of body.members) {
      if (typeof m !== 'string') throw refuse(name, 'an enum\'s members are names (strings)')
      if (listed.has(m)) throw collision(name, 'enum.members', `member ${JSON.stringify(m)} is listed twice`)
      listed.add(m)
    }
    const [strategy, repr] = representationOf(body, 'string', name)
    for (const m of Object.keys(repr)) if (!listed.has(m)) throw collision(name, `enum.representation.${strategy}`, `${JSON.stringify(m)} is not a member`)
    // each representation read back names one member: two members written alike could not be told apart
    /** @type {Map<string|number, string>} */
    const writtenBy = new Map()
    /**
     * @param {string} m
     * @param {string|number} value
     */
    const claim = (m, value) => {
      const other = writtenBy.get(value)
      if (other !== undefined) throw collision(name, `enum.representation.${strategy}`, `members ${JSON.stringify(other)} and ${JSON.stringify(m)} are both written ${JSON.stringify(value)}`)
      writtenBy.set(value, m)
    }
    if (strategy === 'string') {
      const members = body.members.map((/** @type {string} */ m) => {
        const value = hasOwn(repr, m) ? repr[m] : m
        if (typeof value !== 'string') throw refuse(name, `member ${m}'s string must be a string`)
        claim(m, value)
        return { typeName: m, keyBytes: textBytes(value), key: value, node }
      })
      node.read = R.stringEnumReader(name, members)
      node.write = W.enumWriter(name, new Map(members.map((/** @type {any} */ m) => [m.typeName, m.key])))
      return
    }
    if (strategy === 'int') {
      /** @type {Map<number, string>} */
      const byValue = new Map()
      /** @type {Map<string, number>} */
      const byName = new Map()
      for (const m of body.members) {
        const value = hasOwn(repr, m) ? repr[m] : undefined
        if (!Number.isSafeInteger(value)) throw refuse(name, `member ${m} needs an integer`)
        claim(m, value)
        byValue.set(value, m)
        byName.set(m, value)
      }
      node.read = R.intEnumReader(name, byValue)
      node.write = W.enumWriter(name, byName)
      return
    }
    throw refuse(name, `the ${strategy} representation of enums is not supported (string and int are)`)
  }

  /**
   * @param {Node} node
   * @param {string} name
   * @param {Record<string, any>} body
   */
  union (node, name, body) {
    const [strategy, repr] = representationOf(body, '', name)
    // a typed value names its member, which must be written one way, and read back as itself
    /** @type {Map<string, string>} */
    const namedBy = new Map()
    /**
     * @param {string} where
     * @param {string} what - 'key', 'kind', 'discriminant'
     * @param {Record<string, unknown>} table
     */
    const oneEach = (where, what, table) => {
      for (const [written, typeName] of Object.entries(table)) {
        if (typeof typeName !== 'string') continue // refused below, with its message
        const other = namedBy.get(typeName)
        if (other !== undefined) throw collision(name, where, `${what}s ${JSON.stringify(other)} and ${JSON.stringify(written)} both name member ${JSON.stringify(typeName)}`)
        namedBy.set(typeName, written)
      }
      if (Array.isArray(body.members)) {
        for (const m of body.members) if (!namedBy.has(m)) throw collision(name, where, `member ${JSON.stringify(m)} is not in the representation`)
        for (const m of namedBy.keys()) if (!body.members.includes(m)) throw collision(name, 'union.members', `${JSON.stringify(m)}, named by ${what} ${JSON.stringify(namedBy.get(m))}, is not a member`)
      }
    }
    if (strategy === 'keyed') oneEach('union.representation.keyed', 'key', repr)
    else if (strategy === 'kinded') oneEach('union.representation.kinded', 'kind', repr)
    else if (strategy === 'inline' && isObject(repr.discriminantTable)) oneEach('union.representation.inline.discriminantTable', 'discriminant', repr.discriminantTable)
    if (strategy === 'keyed') {
      const members = Object.entries(repr).map(([key, typeName]) => {
        if (typeof typeName !== 'string') throw refuse(name, `key ${JSON.stringify(key)} must name a type`)
        return { typeName, key, keyBytes: textBytes(key), node: this.node(typeName, `member ${typeName} of ${name}`) }
      })
      if (!members.length) throw refuse(name, 'a union needs members')
      node.read = R.keyedUnionReader(name, members)
      node.write = W.unionWriter(name, members, 'keyed')
      return
    }
    if (strategy === 'kinded') {
      /** @type {Record<string, any>} */
      const byKind = Object.fromEntries(KINDS.map((k) => [k, null]))
      const entries = Object.entries(repr)
      for (const [kind, typeName] of entries) {
        if (!KINDS.includes(kind)) throw refuse(name, `${JSON.stringify(kind)} is not a data model kind`)
        if (typeof typeName !== 'string') throw refuse(name, `kind ${kind} must name a type`)
        byKind[kind] = { typeName, key: kind, keyBytes: new Uint8Array(0), node: this.node(typeName, `member ${typeName} of ${name}`) }
      }
      if (!entries.length) throw refuse(name, 'a union needs members')
      const kinds = entries.map(([k]) => k)
      const intFirst = !kinds.includes('float') || (kinds.includes('int') && kinds.indexOf('int') < kinds.indexOf('float'))
      // a member whose values are written as another kind would be read back as another member, or none
      for (const [kind, typeName] of entries) {
        const written = this.writtenKind(typeName)
        if (written !== null && written !== kind && !(kind === 'float' && written === 'int')) {
          throw collision(name, 'union.representation.kinded', `kind ${JSON.stringify(kind)} names member ${JSON.stringify(typeName)}, which is written as ${written}`)
        }
      }
      if (byKind.int !== null && byKind.float !== null && !intFirst) {
        throw collision(name, 'union.representation.kinded', `kinds "float" and "int": every number reads as member ${JSON.stringify(byKind.float.typeName)} (float is listed first), so member ${JSON.stringify(byKind.int.typeName)} would read back as ${JSON.stringify(byKind.float.typeName)}; list int first`)
      }
      node.read = R.kindedUnionReader(name, byKind, intFirst)
      const members = Object.values(byKind).filter((m) => m !== null)
      // an integral value of the float member is written as an integer, which reads back as the int member
      node.write = W.unionWriter(name, members, 'kinded', byKind.int !== null && byKind.float !== null ? byKind.float.typeName : null)
      return
    }
    if (strategy === 'inline') {
      const key = repr.discriminantKey
      if (typeof key !== 'string' || !isObject(repr.discriminantTable)) throw refuse(name, 'an inline union needs a discriminantKey and a discriminantTable')
      const members = Object.entries(repr.discriminantTable).map(([value, typeName]) => {
        if (typeof typeName !== 'string') throw refuse(name, `discriminant ${JSON.stringify(value)} must name a type`)
        const defn = hasOwn(this.types, typeName) ? this.types[typeName] : undefined
        if (defn === undefined || !isObject(defn) || !isObject(defn.struct)) throw refuse(name, `member ${typeName} of an inline union must be a struct of map representation`)
        const s = this.struct(typeName, defn.struct, { key, value })
        if (s.tuple) throw refuse(name, `member ${typeName} of an inline union must be a struct of map representation`)
        // readers written ahead of time name a member's reader `Union|Member` (it checks the discriminant too)
        const written = hasOwn(this.readers, `${name}|${typeName}`) ? this.readers[`${name}|${typeName}`] : undefined
        /** @type {Node} */
        const variant = { name: typeName, read: written !== undefined ? written(R.runtime, s.fields) : R.structMapReader(typeName, s.fields), write: W.structMapWriter(typeName, s.writeFields) }
        return { typeName, key: value, keyBytes: textBytes(value), node: variant }
      })
      if (!members.length) throw refuse(name, 'a union needs members')
      node.read = R.inlineUnionReader(name, textBytes(key), members)
      node.write = W.unionWriter(name, members, 'inline')
      return
    }
    throw refuse(name, `the ${strategy || 'missing'} representation of unions is not supported (keyed, kinded and inline are)`)
  }
}

/**
 * A map struct's keys: one per field (two fields written with one key could not be told apart), and
 * a rename is none of the other fields' names (a reader of the block would take that key for the
 * field so named).
 *
 * @param {string} name
 * @param {string[]} names - the fields
 * @param {Record<string, any>} reprFields - representation options by field
 */
function checkKeys (name, names, reprFields) {
  const renameOf = (/** @type {string} */ f) => hasOwn(reprFields, f) && isObject(reprFields[f]) && typeof reprFields[f].rename === 'string' ? reprFields[f].rename : null
  /** @type {Map<string, string>} */
  const byKey = new Map()
  for (const f of names) {
    const key = renameOf(f) ?? f
    const other = byKey.get(key)
    if (other !== undefined) throw collision(name, 'struct.representation.map.fields', `fields ${JSON.stringify(other)} and ${JSON.stringify(f)} are both written with the key ${JSON.stringify(key)}`)
    byKey.set(key, f)
  }
  for (const f of names) {
    const rename = renameOf(f)
    if (rename !== null && rename !== f && names.includes(rename)) {
      throw collision(name, `struct.representation.map.fields${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(f) ? '.' + f : `[${JSON.stringify(f)}]`}.rename`, `field ${JSON.stringify(f)} is renamed ${JSON.stringify(rename)}, the name of field ${JSON.stringify(rename)}`)
    }
  }
}

/**
 * A name for an inline definition, for messages: '[Int]', '{String:Bytes}', '&Any'.
 *
 * @param {TypeDefn} defn
 * @returns {string}
 */
function inlineName (defn) {
  if (!isObject(defn)) return '?'
  const ref = (/** @type {any} */ t) => typeof t === 'string' ? t : inlineName(t)
  if (isObject(defn.list)) return `[${defn.list.valueNullable ? 'nullable ' : ''}${ref(defn.list.valueType)}]`
  if (isObject(defn.map)) return `{${ref(defn.map.keyType)}:${defn.map.valueNullable ? 'nullable ' : ''}${ref(defn.map.valueType)}}`
  if (isObject(defn.link)) return `&${defn.link.expectedType || 'Any'}`
  return Object.keys(defn).join('')
}
