// For the typed codec's tests (dag-cbor-fast/schema): random typed values of a schema's types,
// random schemas, and the reference the typed codec must equal: @ipld/schema's typed form
// (create(schema, root).toTyped / toRepresentation) over generic decode and encode.
import { Builder, safeReference } from '@ipld/schema/typed.js'
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import { decode, encode } from '../../index.js'

const WORDS = ['a', 'b', 'key', 'é', '日本', '🎉', 'x'.repeat(30), '', 'Z', 'name', '$type', 'constructor', '__proto__', 'toString']

/** names a plain object inherits (a field, key or member so named must still be its own) */
export const INHERITED_NAMES = ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty', 'isPrototypeOf', 'toLocaleString']

/**
 * o[key] = value, as an own property even for `__proto__` (whose assignment sets the prototype).
 *
 * @param {Record<string, unknown>} o
 * @param {string} key
 * @param {unknown} value
 */
function put (o, key, value) {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true })
}

/**
 * @param {any} r - an Rng (test/fuzz/prng.js)
 * @returns {import('multiformats/cid').CID}
 */
export function randomCid (r) {
  const v0 = r.chance(0.2)
  const digest = createDigest(v0 ? 0x12 : r.pick([0x12, 0xb220]), r.bytes(32))
  return v0 ? CID.createV0(/** @type {any} */ (digest)) : CID.createV1(r.pick([0x71, 0x55, 0x70]), digest)
}

/**
 * @param {any} r
 * @returns {number}
 */
function randomInt (r) {
  switch (r.int(6)) {
    case 0: return r.int(24)
    case 1: return r.int(1 << 16) - (1 << 15)
    case 2: return r.pick([23, 24, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, -24, -25, -256, -257, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER])
    case 3: return -r.int(2 ** 31)
    default: return r.int(2 ** 40)
  }
}

/**
 * @param {any} r
 * @returns {string}
 */
function randomString (r) {
  return r.chance(0.5) ? r.pick(WORDS) : Array.from({ length: r.int(8) }, () => r.pick(WORDS)).join(r.pick(['', ' ', '/']))
}

/**
 * A value of the data model with no integer beyond 2^53 (what `Any` holds).
 *
 * @param {any} r
 * @param {number} level
 * @returns {unknown}
 */
function randomAny (r, level) {
  switch (r.int(level > 2 ? 7 : 9)) {
    case 0: return null
    case 1: return r.chance(0.5)
    case 2: return randomInt(r)
    case 3: return r.chance(0.5) ? r.float() * 1e6 - 5e5 : 0.5
    case 4: return randomString(r)
    case 5: return r.bytes(r.int(40))
    case 6: return randomCid(r)
    case 7: return Array.from({ length: r.int(4) }, () => randomAny(r, level + 1))
    default: {
      /** @type {Record<string, unknown>} */
      const m = {}
      for (let i = r.int(4); i > 0; i--) put(m, randomString(r), randomAny(r, level + 1))
      return m
    }
  }
}

const PRELUDE = /** @type {Record<string, any>} */ ({
  Bool: { bool: {} }, String: { string: {} }, Bytes: { bytes: {} }, Int: { int: {} }, Float: { float: {} }, Null: { null: {} }, Link: { link: {} }, Any: { any: {} }
})

/** Thrown when a value would nest too deep; the caller tries again. */
class TooDeep extends Error {}

/**
 * A random typed value of `type` (a name or an inline definition) in `schema`.
 *
 * @param {any} r
 * @param {{ types: Record<string, any> }} schema
 * @param {string|Record<string, any>} type
 * @param {number} [level]
 * @returns {any}
 */
export function randomTyped (r, schema, type, level = 0) {
  if (level > 12) throw new TooDeep()
  const defn = typeof type === 'string' ? (schema.types[type] ?? PRELUDE[type]) : type
  const [kind] = Object.keys(defn)
  const d = defn[kind]
  const deep = level > 4
  const next = (/** @type {any} */ t) => randomTyped(r, schema, t, level + 1)
  switch (kind) {
    case 'bool': return r.chance(0.5)
    case 'int': return randomInt(r)
    case 'float': return r.chance(0.3) ? randomInt(r) : (r.float() - 0.5) * 10 ** r.int(12)
    case 'string': return randomString(r)
    case 'bytes': return r.bytes(r.int(r.chance(0.1) ? 300 : 40))
    case 'null': return null
    case 'link': return randomCid(r)
    case 'any': return randomAny(r, level)
    case 'copy': return randomTyped(r, schema, d.fromType, level)
    case 'list': return Array.from({ length: deep ? 0 : r.int(5) }, () => d.valueNullable && r.chance(0.3) ? null : next(d.valueType))
    case 'map': {
      /** @type {Record<string, unknown>} */
      const m = {}
      for (let i = deep ? 0 : r.int(5); i > 0; i--) put(m, randomString(r), d.valueNullable && r.chance(0.3) ? null : next(d.valueType))
      return m
    }
    case 'enum': return r.pick(d.members)
    case 'struct': {
      const implicits = Object.fromEntries(Object.entries(d.representation?.map?.fields ?? {}))
      /** @type {Record<string, unknown>} */
      const s = {}
      for (const [name, f] of Object.entries(d.fields)) {
        const implicit = Object.prototype.hasOwnProperty.call(implicits, name) ? implicits[name]?.implicit : undefined
        // an implicit field is always in the typed form (toTyped fills it in, toRepresentation needs it)
        if (f.optional && implicit === undefined && r.chance(deep ? 0.9 : 0.4)) continue
        if (f.nullable && r.chance(deep ? 0.9 : 0.3)) {
          put(s, name, null)
          continue
        }
        let v = next(f.type)
        // a field holding its implicit value is not written (the typed tests check that apart)
        for (let tries = 0; implicit !== undefined && v === implicit && tries < 100; tries++) v = next(f.type)
        put(s, name, v)
      }
      return s
    }
    case 'union': {
      const repr = d.representation
      const table = repr.keyed ?? repr.kinded ?? repr.inline.discriminantTable
      const member = r.pick(Object.values(table))
      return { [member]: next(member) }
    }
    default: throw new Error(`randomTyped: no ${kind}`)
  }
}

/**
 * randomTyped, tried again while it nests too deep.
 *
 * @param {any} r
 * @param {{ types: Record<string, any> }} schema
 * @param {string} root
 * @returns {any}
 */
export function randomValue (r, schema, root) {
  for (let i = 0; ; i++) {
    try {
      return randomTyped(r, schema, root)
    } catch (e) {
      if (!(e instanceof TooDeep) || i > 50) throw e
    }
  }
}

/** the deepest value the reference is asked about (see reference().decode) */
const MAX_REFERENCE_DEPTH = 14

/**
 * @param {unknown} v
 * @returns {number}
 */
function depthOf (v) {
  if (typeof v !== 'object' || v === null || v instanceof Uint8Array || /** @type {any} */ (v).asCID === v) return 0
  let max = 0
  for (const x of Object.values(v)) max = Math.max(max, depthOf(x))
  return max + 1
}

/**
 * The schema as @ipld/schema's typed transforms take it: they know the Any type as `any`.
 *
 * @param {{ types: Record<string, any> }} schema
 * @returns {{ types: Record<string, any> }}
 */
export function referenceSchema (schema) {
  const copy = JSON.parse(JSON.stringify(schema).replace(/"(type|valueType|fromType)":"Any"/g, '"$1":"any"'))
  // toRepresentation counts an implicit field as required but never counts it off, so it refuses
  // every struct with one: marked optional here, which toTyped reads the same (an implicit field is
  // not required there either)
  for (const t of Object.values(copy.types)) {
    const implicit = /** @type {any} */ (t).struct?.representation?.map?.fields ?? {}
    for (const [name, o] of Object.entries(implicit)) if (/** @type {any} */ (o).implicit !== undefined) /** @type {any} */ (t).struct.fields[name].optional = true
  }
  return copy
}

/**
 * @ipld/schema's create(schema, root), with one bug fixed: its map transform, once a value
 * changes, copies the keys before it as `ret[keys[j]] = obj[keys[i]]` (the changed key's value)
 * where it means obj[keys[j]], so a map whose first values are unchanged and a later one is not
 * (a nullable struct value, then a struct holding a union) came out with wrong values. The typed
 * codec writes and reads what the fixed transform does. (Like create, this generates code.)
 *
 * @param {{ types: Record<string, any> }} schema
 * @param {string} root
 * @returns {{ toTyped: (v: any) => any, toRepresentation: (v: any) => any }}
 */
export function create (schema, root) {
  const builder = new Builder(/** @type {any} */ (schema))
  builder.addType(root)
  const source = builder.dumpTypeTransformers()
  const fixed = source.replaceAll('ret[keys[j]] = obj[keys[i]]', 'ret[keys[j]] = obj[keys[j]]')
  // eslint-disable-next-line no-new-func
  return new Function(`'use strict'\n${fixed}\nreturn { toTyped: (obj) => Types${safeReference(root)}(obj), toRepresentation: (obj) => Reprs${safeReference(root)}(obj) }`)()
}

/**
 * The reference for one root type: what typed decode must return (toTyped of generic decode, or
 * undefined where either rejects) and the bytes typed encode must write (generic encode of
 * toRepresentation).
 *
 * @param {{ types: Record<string, any> }} schema
 * @param {string} root
 */
export function reference (schema, root) {
  const typed = create(referenceSchema(schema), root)
  return {
    /** @param {Uint8Array} bytes @returns {{ ok: true, value: any } | { ok: false, why: string } | { ok: 'too deep' }} */
    decode (bytes) {
      let generic
      try { generic = decode(bytes) } catch (e) { return { ok: false, why: `decode: ${/** @type {Error} */ (e).message}` } }
      // toTyped's list transform runs each item's transform twice when the first item changes
      // (as a nested list in Any does), so its time doubles with each level of nested lists
      if (depthOf(generic) > MAX_REFERENCE_DEPTH) return { ok: 'too deep' }
      const value = typed.toTyped(generic)
      return value === undefined ? { ok: false, why: 'toTyped: undefined' } : { ok: true, value }
    },
    /** @param {any} value @returns {Uint8Array|null} */
    encode (value) {
      const repr = typed.toRepresentation(value)
      return repr === undefined ? null : encode(repr)
    }
  }
}

/**
 * A random schema of `n` types: scalars (Null too), copies, lists, maps, structs (map with optional,
 * nullable, rename and implicit fields; tuple, with a fieldOrder now and then), enums (string, int,
 * with representations of their own) and unions (keyed, kinded, inline), referring to each other,
 * recursive ones included (through nullable, optional and list fields). Field names, map keys,
 * union keys and enum members are now and then names a plain object inherits (`constructor`,
 * `__proto__`...). With `collide`, one representation is then made to collide (two enum members
 * written alike, two union entries naming one member, two fields one key, a rename that is another
 * field's name, a kinded union with float before int or a member of another kind): a schema compile
 * must refuse. Collisions also come up by chance (a keyed union's two keys picking one member);
 * `collisionsOf` says which a schema has, independently of the compiler.
 *
 * @param {any} r
 * @param {number} n
 * @param {{ collide?: boolean }} [options]
 * @returns {{ types: Record<string, any> }}
 */
export function randomSchema (r, n, options = {}) {
  /** @type {Record<string, any>} */
  const types = {}
  const names = Array.from({ length: n }, (_, i) => `T${i}`)
  const scalars = ['Bool', 'String', 'Bytes', 'Int', 'Float', 'Link', 'Any']
  /** kinds of each type's representation, for kinded unions */
  /** @type {Record<string, string>} */
  const reprKind = { Bool: 'bool', String: 'string', Bytes: 'bytes', Int: 'int', Float: 'float', Link: 'link', Null: 'null' }
  /** map structs, for inline unions */
  const mapStructs = []
  const fieldName = () => r.chance(0.15) ? r.pick(INHERITED_NAMES) : r.pick(['a', 'b', 'c', 'id', 'name', 'é', 'longer_field', 'x9', 'Data', 'k'])
  for (let i = 0; i < n; i++) {
    const name = names[i]
    // earlier types, and now and then this type or a later one (recursion, guarded below)
    const ref = (/** @type {boolean} */ guarded) => guarded && r.chance(0.15) ? r.pick(names) : r.chance(0.5) || i === 0 ? r.pick(scalars) : names[r.int(i)]
    const k = r.int(11)
    if (k === 0) {
      types[name] = { list: { valueType: ref(true), valueNullable: r.chance(0.3) } }
      reprKind[name] = 'list'
    } else if (k === 1) {
      types[name] = { map: { keyType: 'String', valueType: ref(true), valueNullable: r.chance(0.3) } }
      reprKind[name] = 'map'
    } else if (k <= 4) {
      /** @type {Record<string, any>} */
      const fields = {}
      /** @type {Record<string, any>} */
      const reprFields = {}
      const tuple = r.chance(0.35)
      for (let f = r.int(5); f >= 0; f--) {
        const fname = fieldName() + (f === 0 || r.chance(0.5) ? '' : f)
        if (Object.prototype.hasOwnProperty.call(fields, fname)) continue
        const optional = !tuple && r.chance(0.3)
        const nullable = r.chance(0.3)
        // a field referring to a later type (or itself) must be able to end the recursion
        const type = r.chance(0.1) ? { list: { valueType: ref(optional || nullable) } } : ref(optional || nullable)
        put(fields, fname, { type, ...(optional ? { optional } : {}), ...(nullable ? { nullable } : {}) })
        if (!tuple && r.chance(0.2)) put(reprFields, fname, { rename: r.chance(0.2) ? r.pick(INHERITED_NAMES) : r.pick(['r', 'renamed', 'ü', 'Zz']) + f })
        else if (!tuple && !optional && r.chance(0.15) && (type === 'Int' || type === 'String' || type === 'Bool')) {
          put(reprFields, fname, { implicit: type === 'Int' ? 7 : type === 'String' ? 'dflt' : false })
        }
      }
      const order = Object.keys(fields).sort(() => r.float() - 0.5)
      types[name] = { struct: { fields, representation: tuple ? { tuple: r.chance(0.5) ? { fieldOrder: order } : {} } : { map: Object.keys(reprFields).length ? { fields: reprFields } : {} } } }
      reprKind[name] = tuple ? 'list' : 'map'
      if (!tuple) mapStructs.push(name)
    } else if (k === 5) {
      const members = r.chance(0.3) ? ['A', r.pick(INHERITED_NAMES), 'Cc'] : ['A', 'B', 'Cc', 'Déjà']
      /** @type {Record<string, any>} */
      const strings = {}
      put(strings, members[0], 'a')
      if (r.chance(0.5)) put(strings, members[1], r.pick(['toString', '__proto__', 'b']))
      put(strings, members[2], 'cc-long')
      /** @type {Record<string, any>} */
      const ints = {}
      members.forEach((m, j) => put(ints, m, [0, -1, 24, 1000][j]))
      types[name] = r.chance(0.5)
        ? { enum: { members, representation: { string: strings } } }
        : { enum: { members, representation: { int: ints } } }
      reprKind[name] = Object.keys(types[name].enum.representation)[0]
    } else if (k === 6 && i > 0) {
      /** @type {Record<string, string>} */
      const keyed = {}
      // distinct members, but now and then one named twice (a collision compile must refuse)
      const pool = names.slice(0, i).sort(() => r.float() - 0.5)
      for (let m = 1 + r.int(3); m > 0; m--) put(keyed, r.pick(['x', 'y', 'long key', 'ñ', 'toString', '__proto__']), r.chance(0.1) ? names[r.int(i)] : pool[m % pool.length])
      types[name] = { union: { members: [...new Set(Object.values(keyed))], representation: { keyed } } }
      reprKind[name] = 'map'
    } else if (k === 7) {
      /** @type {Record<string, string>} */
      const kinded = {}
      for (const t of [...scalars.slice(0, 6), 'Null', ...names.slice(0, i)].sort(() => r.float() - 0.5)) {
        const kind = reprKind[t]
        if (kind && !(kind in kinded) && !Object.values(kinded).includes(t) && r.chance(0.6)) kinded[kind] = t
      }
      // int before float, as compile needs, but now and then not
      if (kinded.int && kinded.float && r.chance(0.8)) {
        const float = kinded.float
        delete kinded.float
        kinded.float = float
      }
      if (!Object.keys(kinded).length) kinded.string = 'String'
      types[name] = { union: { members: [...new Set(Object.values(kinded))], representation: { kinded } } }
      reprKind[name] = ''
    } else if (k === 8 && mapStructs.length) {
      /** @type {Record<string, string>} */
      const table = {}
      const pool = [...mapStructs].sort(() => r.float() - 0.5)
      for (let m = 1 + r.int(3); m > 0; m--) put(table, r.pick(['p', 'q', 'rr', 'constructor']), r.chance(0.1) ? r.pick(mapStructs) : pool[m % pool.length])
      types[name] = { union: { members: [...new Set(Object.values(table))], representation: { inline: { discriminantKey: r.pick(['type', 'kind', 'valueOf']), discriminantTable: table } } } }
      reprKind[name] = 'map'
    } else if (k === 9 && i > 0) {
      const from = names[r.int(i)]
      types[name] = { copy: { fromType: from } }
      reprKind[name] = reprKind[from]
      if (mapStructs.includes(from)) mapStructs.push(name)
    } else {
      types[name] = { [r.pick(['int', 'string', 'bytes', 'bool', 'float', 'null'])]: {} }
      reprKind[name] = Object.keys(types[name])[0]
    }
  }
  // an inline union's members must not have a field keyed as its discriminant, and are structs
  for (const t of Object.values(types)) {
    const inline = t.union?.representation?.inline
    if (!inline) continue
    for (const [value, member] of Object.entries(inline.discriminantTable)) {
      let struct = types[/** @type {string} */ (member)]
      while (struct.copy) struct = types[struct.copy.fromType]
      inline.discriminantTable[value] = Object.keys(types).find((n) => types[n] === struct)
      const fields = struct.struct.fields
      delete fields[inline.discriminantKey]
      const renames = struct.struct.representation.map.fields ?? {}
      delete renames[inline.discriminantKey]
      for (const [f, o] of Object.entries(renames)) if (/** @type {any} */ (o).rename === inline.discriminantKey) delete renames[f]
    }
    t.union.members = [...new Set(Object.values(inline.discriminantTable))]
  }
  if (options.collide) collide(r, types)
  return { types }
}

/**
 * Make one representation of `types` collide, where it has one that can.
 *
 * @param {any} r
 * @param {Record<string, any>} types
 */
function collide (r, types) {
  /** @type {Array<() => void>} */
  const ways = []
  for (const t of Object.values(types)) {
    const e = t.enum
    if (e?.representation.string) ways.push(() => put(e.representation.string, e.members[1], hasOwn(e.representation.string, e.members[0]) ? e.representation.string[e.members[0]] : e.members[0]))
    if (e?.representation.int) ways.push(() => put(e.representation.int, e.members[2], e.representation.int[e.members[0]]))
    if (e) ways.push(() => e.members.push(e.members[0]))
    const u = t.union?.representation
    const table = u?.keyed ?? u?.inline?.discriminantTable
    if (table) ways.push(() => put(table, 'another', Object.values(table)[0]))
    if (u?.kinded) {
      const kinded = u.kinded
      if (!kinded.float) ways.push(() => { kinded.float = 'Float'; kinded.int = 'Int'; delete kinded.int; kinded.int = 'Int' })
      ways.push(() => { const [kind, member] = Object.entries(kinded)[0]; delete kinded[kind]; kinded[kind === 'bytes' ? 'string' : 'bytes'] = member })
    }
    const s = t.struct
    const fieldNames = s ? Object.keys(s.fields) : []
    if (s?.representation.map && fieldNames.length > 1) {
      const reprFields = s.representation.map.fields ?? (s.representation.map.fields = {})
      ways.push(() => put(reprFields, fieldNames[0], { rename: fieldNames[1] }))
      ways.push(() => {
        put(reprFields, fieldNames[0], { rename: 'same' })
        put(reprFields, fieldNames[1], { rename: 'same' })
      })
    }
  }
  if (ways.length) r.pick(ways)()
  for (const t of Object.values(types)) if (t.union?.representation && !t.union.representation.kinded) t.union.members = [...new Set(Object.values(t.union.representation.keyed ?? t.union.representation.inline.discriminantTable))]
  for (const t of Object.values(types)) if (t.union?.representation?.kinded) t.union.members = [...new Set(Object.values(t.union.representation.kinded))]
}

/**
 * @param {object} o
 * @param {string} key
 * @returns {boolean}
 */
function hasOwn (o, key) {
  return Object.prototype.hasOwnProperty.call(o, key)
}

/**
 * The collisions a schema's representations have, found apart from the compiler (lib/schema/
 * compile.js must refuse a schema exactly when this lists one, among the types `root` reaches):
 * representations two members, entries or fields share, so decode could not tell which was encoded.
 *
 * @param {{ types: Record<string, any> }} schema
 * @param {string} root
 * @returns {string[]}
 */
export function collisionsOf (schema, root) {
  const types = schema.types
  const all = { ...PRELUDE, ...types }
  /** @type {string[]} */
  const found = []
  /** @param {string} name @returns {string|null} */
  const written = (name) => {
    let d = hasOwn(all, name) ? all[name] : undefined
    while (d?.copy) d = hasOwn(all, d.copy.fromType) ? all[d.copy.fromType] : undefined
    if (!d) return null
    const [kind] = Object.keys(d)
    const strategy = Object.keys(d[kind].representation ?? {})[0]
    if (kind === 'struct') return strategy === 'tuple' ? 'list' : 'map'
    if (kind === 'enum') return strategy === 'int' ? 'int' : 'string'
    if (kind === 'union') return strategy === 'kinded' ? null : 'map'
    return kind === 'any' ? null : kind
  }
  const seen = new Set()
  /** @param {any} ref */
  const visit = (ref) => {
    if (typeof ref !== 'string') {
      const [kind] = Object.keys(ref)
      if (kind === 'list' || kind === 'map') visit(ref[kind].valueType)
      return
    }
    if (seen.has(ref) || !hasOwn(all, ref)) return
    seen.add(ref)
    const d = all[ref]
    const [kind] = Object.keys(d)
    const body = d[kind]
    if (kind === 'list' || kind === 'map') {
      if (body.valueNullable && nullMember(body.valueType)) found.push(`${ref}: nullable values of a kinded union with a null member`)
      visit(body.valueType)
    }
    if (kind === 'copy') visit(body.fromType)
    if (kind === 'enum') {
      if (new Set(body.members).size !== body.members.length) found.push(`${ref}: an enum member listed twice`)
      const [strategy, repr] = Object.entries(body.representation ?? { string: {} })[0]
      const values = body.members.map((/** @type {string} */ m) => hasOwn(repr, m) ? repr[m] : strategy === 'string' ? m : undefined)
      if (new Set(values).size !== new Set(body.members).size) found.push(`${ref}: two enum members written alike`)
    }
    if (kind === 'union') {
      const [strategy, repr] = Object.entries(body.representation)[0]
      const table = strategy === 'inline' ? repr.discriminantTable : repr
      const members = Object.values(table)
      if (new Set(members).size !== members.length) found.push(`${ref}: two ${strategy} entries name one member`)
      if (strategy === 'kinded') {
        for (const [k, m] of Object.entries(table)) {
          const w = written(/** @type {string} */ (m))
          if (w !== null && w !== k && !(k === 'float' && w === 'int')) found.push(`${ref}: kind ${k} names a member written as ${w}`)
        }
        const kinds = Object.keys(table)
        if (kinds.includes('int') && kinds.includes('float') && kinds.indexOf('float') < kinds.indexOf('int')) found.push(`${ref}: float before int`)
      }
      for (const m of members) {
        if (strategy !== 'inline') visit(m)
        else {
          visitStruct(/** @type {string} */ (m), repr.discriminantKey)
          seen.add(m)
        }
      }
    }
    if (kind === 'struct') visitStruct(ref, null)
  }
  /** @param {string} name @param {string|null} discriminant */
  const visitStruct = (name, discriminant) => {
    const body = all[name].struct
    const reprFields = body.representation?.map?.fields ?? {}
    const fields = Object.keys(body.fields)
    if (body.representation?.map) {
      const keys = fields.map((f) => hasOwn(reprFields, f) && reprFields[f].rename !== undefined ? reprFields[f].rename : f)
      if (new Set(keys).size !== keys.length) found.push(`${name}: two fields one key`)
      fields.forEach((f, i) => { if (keys[i] !== f && fields.includes(keys[i])) found.push(`${name}: a rename is another field's name`) })
    }
    for (const f of fields) {
      if (body.fields[f].nullable && nullMember(body.fields[f].type)) found.push(`${name}: a nullable field of a kinded union with a null member`)
      visit(body.fields[f].type)
    }
  }
  /** @param {unknown} ref @returns {boolean} whether ref is a kinded union with a null member */
  const nullMember = (ref) => {
    if (typeof ref !== 'string') return false
    let d = hasOwn(all, ref) ? all[ref] : undefined
    while (d?.copy) d = hasOwn(all, d.copy.fromType) ? all[d.copy.fromType] : undefined
    return Boolean(d?.union?.representation?.kinded && hasOwn(d.union.representation.kinded, 'null'))
  }
  visit(root)
  return found
}
