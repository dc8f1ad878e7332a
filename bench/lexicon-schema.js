// @atproto/lex-schema validators built from Lexicon documents at run time, for the Lexicon bench
// (bench/lexicon.js): what @atproto/lex's code generator writes as source, made here from the
// same documents our codecs compile (one l.* schema per definition; refs resolved lazily, so
// recursive definitions work). Covers the field types of the app.bsky record definitions; a
// definition of any other type throws.
import { l } from '@atproto/lex-schema'

/**
 * @param {any[]} documents - parsed Lexicon documents
 * @returns {Record<string, any>} each record type's schema, by NSID
 */
export function recordSchemas (documents) {
  /** @type {Map<string, any>} */
  const byId = new Map(documents.map((d) => [d.id, d]))
  /** @type {Map<string, any>} made, by full name */
  const made = new Map()

  /**
   * @param {string} from - the NSID of the document the ref is in
   * @param {string} ref
   */
  const fullName = (from, ref) => {
    const [nsid, name] = ref.startsWith('#') ? [from, ref.slice(1)] : ref.split('#')
    return { nsid, name: name ?? 'main' }
  }

  /**
   * @param {string} nsid
   * @param {string} name
   */
  const named = (nsid, name) => {
    const key = `${nsid}#${name}`
    if (made.has(key)) return made.get(key)
    const def = byId.get(nsid)?.defs[name]
    if (def === undefined) throw new Error(`lexicon-schema: no definition ${key}`)
    let schema
    if (def.type === 'record') schema = l.record(def.key ?? 'any', nsid, object(def.record, nsid))
    else if (def.type === 'object') schema = l.typedObject(nsid, name, object(def, nsid))
    else schema = field(def, nsid)
    made.set(key, schema)
    return schema
  }

  /**
   * @param {any} def
   * @param {string} nsid
   */
  const object = (def, nsid) => {
    const required = new Set(def.required ?? [])
    const nullable = new Set(def.nullable ?? [])
    /** @type {Record<string, any>} */
    const shape = {}
    for (const [name, property] of Object.entries(def.properties ?? {})) {
      let schema = field(property, nsid)
      if (nullable.has(name)) schema = l.nullable(schema)
      shape[name] = required.has(name) ? schema : l.optional(schema)
    }
    return l.object(shape)
  }

  /**
   * @param {any} def
   * @param {string} nsid
   * @returns {any}
   */
  const field = (def, nsid) => {
    const { type, description, ...options } = def
    switch (type) {
      case 'string': {
        if (def.const !== undefined) return l.literal(def.const)
        if (def.enum !== undefined) return l.enumSchema(def.enum)
        const { default: _, ...rest } = options
        return l.string(rest)
      }
      case 'integer': {
        if (def.const !== undefined) return l.literal(def.const)
        if (def.enum !== undefined) return l.enumSchema(def.enum)
        const { default: _, ...rest } = options
        return l.integer(rest)
      }
      case 'boolean': return def.const !== undefined ? l.literal(def.const) : l.boolean()
      case 'null': return l.null()
      case 'bytes': return l.bytes(options)
      case 'cid-link': return l.cid()
      case 'blob': return l.blob(options)
      case 'unknown': return l.unknown()
      case 'array': return l.array(field(def.items, nsid), { minLength: def.minLength, maxLength: def.maxLength })
      case 'object': return object(def, nsid)
      case 'ref': {
        const { nsid: target, name } = fullName(nsid, def.ref)
        return l.ref(() => named(target, name))
      }
      case 'union': return l.typedUnion(def.refs.map((/** @type {string} */ ref) => {
        const { nsid: target, name } = fullName(nsid, ref)
        return l.typedRef(() => named(target, name))
      }), def.closed === true)
      default: throw new Error(`lexicon-schema: no l.* schema for a ${type} definition`)
    }
  }

  /** @type {Record<string, any>} */
  const records = {}
  for (const d of documents) if (d.defs.main?.type === 'record') records[d.id] = named(d.id, 'main')
  return records
}
