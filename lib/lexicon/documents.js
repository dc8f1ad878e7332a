// Lexicon documents in, checked: each document's shape (atproto.com/specs/lexicon), then every
// ref and union member resolved across all the documents given. An error names the document
// (its id, or its place in the list) and the JSON-pointer path inside it. Checked documents are
// kept by id for compile.js, which turns definitions into the nodes the codec walks.

import { FORMATS, isNsid } from './formats.js'

export class LexiconDocumentError extends Error {
  /**
   * @param {string} document - the document's id, or 'document 3' when it has none
   * @param {string} path - JSON pointer inside it ('/defs/main/record/properties/text')
   * @param {string} detail
   */
  constructor (document, path, detail) {
    super(`Lexicon document ${document}, at ${path || 'the top level'}: ${detail}`)
    this.name = 'LexiconDocumentError'
    this.document = document
    this.path = path
    this.detail = detail
  }
}

/** The keys each definition type may have (beyond `type` and `description`): a key outside
 * these is refused, since a misspelt constraint (`maxLenght`) would otherwise check nothing. */
const KEYS = {
  null: [],
  boolean: ['default', 'const'],
  integer: ['minimum', 'maximum', 'enum', 'default', 'const'],
  string: ['format', 'maxLength', 'minLength', 'maxGraphemes', 'minGraphemes', 'knownValues', 'enum', 'default', 'const'],
  bytes: ['minLength', 'maxLength'],
  'cid-link': [],
  blob: ['accept', 'maxSize'],
  array: ['items', 'minLength', 'maxLength'],
  object: ['properties', 'required', 'nullable'],
  params: ['properties', 'required'],
  token: [],
  ref: ['ref'],
  union: ['refs', 'closed'],
  unknown: [],
  record: ['key', 'record'],
  query: ['parameters', 'output', 'errors'],
  procedure: ['parameters', 'input', 'output', 'errors'],
  subscription: ['parameters', 'message', 'errors'],
  'permission-set': ['title', 'title:lang', 'detail', 'detail:lang', 'permissions']
}

const PRIMARY = new Set(['record', 'query', 'procedure', 'subscription', 'permission-set'])
/** types a `defs` entry may have (ref, union, unknown and params are field types only) */
const NAMED = new Set([...PRIMARY, 'null', 'boolean', 'integer', 'string', 'bytes', 'cid-link', 'blob', 'array', 'object', 'token'])
/** types a field (an object property, array items) may have */
const FIELD = new Set(['null', 'boolean', 'integer', 'string', 'bytes', 'cid-link', 'blob', 'array', 'object', 'ref', 'union', 'unknown'])
const PARAM = new Set(['boolean', 'integer', 'string', 'array', 'unknown'])

// `#name`, `nsid`, or `nsid#name`
const REF = /^(?:([^#]+))?(?:#([^#]+))?$/
const MIME = /^(?:\*\/\*|[a-zA-Z0-9!#$&^_.+-]+\/(?:\*|[a-zA-Z0-9!#$&^_.+-]+))$/
const RECORD_KEY_TYPE = /^(?:tid|nsid|any|literal:[a-zA-Z0-9_~.:-]{1,512})$/

/**
 * @typedef {object} LoadedDocument
 * @property {string} id
 * @property {Record<string, any>} defs
 */

/**
 * Check documents and index them by id; every ref in them must resolve to a definition of a
 * type it may point at.
 *
 * @param {unknown} documents - an array of Lexicon documents (parsed JSON objects, or JSON text)
 * @returns {Map<string, LoadedDocument>}
 */
export function loadDocuments (documents) {
  if (!Array.isArray(documents)) throw new TypeError('dag-cbor-fast/lexicon: compile(documents) needs an array of Lexicon documents (parsed JSON, or JSON text)')
  /** @type {Map<string, LoadedDocument>} */
  const byId = new Map()
  /** @type {Array<{ from: string, path: string, ref: string, union: boolean }>} */
  const refs = []
  documents.forEach((input, index) => {
    let doc = input
    if (typeof doc === 'string') {
      try {
        doc = JSON.parse(doc)
      } catch (e) {
        throw new LexiconDocumentError(`document ${index}`, '', `is not JSON: ${/** @type {Error} */ (e).message}`)
      }
    }
    const name = doc !== null && typeof doc === 'object' && typeof doc.id === 'string' ? doc.id : `document ${index}`
    const checker = new DocumentChecker(name, refs)
    checker.document(doc)
    if (byId.has(name)) throw new LexiconDocumentError(name, '/id', `two documents have the id ${name}`)
    byId.set(name, { id: name, defs: doc.defs })
  })
  for (const { from, path, ref, union } of refs) {
    const target = resolve(byId, from, ref)
    if (target === undefined) throw new LexiconDocumentError(from, path, `${JSON.stringify(ref)} names no definition in the documents given (${refName(from, ref)} is not among them)`)
    const type = target.def.type
    if (union ? type !== 'object' && type !== 'record' : type === 'token' || type === 'query' || type === 'procedure' || type === 'subscription' || type === 'permission-set') {
      throw new LexiconDocumentError(from, path, `${JSON.stringify(ref)} points at a ${type} definition; a ${union ? 'union member must be an object or a record' : 'ref cannot point at a token or an XRPC or permission-set definition'}`)
    }
  }
  return byId
}

/**
 * The full name of a ref made inside document `from`: 'nsid' for a main definition, else 'nsid#name'.
 *
 * @param {string} from
 * @param {string} ref
 * @returns {string}
 */
export function refName (from, ref) {
  const m = /** @type {RegExpExecArray} */ (REF.exec(ref))
  const nsid = m[1] ?? from
  const def = m[2] ?? 'main'
  return def === 'main' ? nsid : `${nsid}#${def}`
}

/**
 * @param {Map<string, LoadedDocument>} byId
 * @param {string} from - the id of the document the ref is in
 * @param {string} ref
 * @returns {{ nsid: string, name: string, def: any, fullName: string }|undefined}
 */
export function resolve (byId, from, ref) {
  const m = /** @type {RegExpExecArray} */ (REF.exec(ref))
  const nsid = m[1] ?? from
  const name = m[2] ?? 'main'
  const doc = byId.get(nsid)
  if (doc === undefined || !Object.prototype.hasOwnProperty.call(doc.defs, name)) return undefined
  return { nsid, name, def: doc.defs[name], fullName: name === 'main' ? nsid : `${nsid}#${name}` }
}

/**
 * @param {unknown} value
 * @returns {string}
 */
function describe (value) {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return JSON.stringify(value).length > 40 ? 'a string' : JSON.stringify(value)
  return typeof value === 'object' ? 'an object' : String(value)
}

/**
 * @param {string} key
 * @returns {string}
 */
function segment (key) {
  return '/' + key.replace(/~/g, '~0').replace(/\//g, '~1')
}

class DocumentChecker {
  /**
   * @param {string} name
   * @param {Array<{ from: string, path: string, ref: string, union: boolean }>} refs - collects refs to resolve
   */
  constructor (name, refs) {
    this.name = name
    this.refs = refs
  }

  /**
   * @param {string} path
   * @param {string} detail
   * @returns {LexiconDocumentError}
   */
  error (path, detail) {
    return new LexiconDocumentError(this.name, path, detail)
  }

  /** @param {any} doc */
  document (doc) {
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw this.error('', `a Lexicon document is a JSON object, not ${describe(doc)}`)
    for (const key of Object.keys(doc)) {
      if (!['lexicon', 'id', 'revision', 'description', 'defs', '$type'].includes(key)) throw this.error(segment(key), 'is not a field of a Lexicon document (lexicon, id, revision, description, defs)')
    }
    if (doc.lexicon !== 1) throw this.error('/lexicon', `must be 1 (this is version 1 of the Lexicon language), not ${describe(doc.lexicon)}`)
    if (typeof doc.id !== 'string' || !isNsid(doc.id)) throw this.error('/id', `must be an NSID, not ${describe(doc.id)}`)
    if (doc.revision !== undefined) this.count(doc.revision, '/revision')
    if (doc.description !== undefined && typeof doc.description !== 'string') throw this.error('/description', 'must be a string')
    if (doc.$type !== undefined && doc.$type !== 'com.atproto.lexicon.schema') throw this.error('/$type', 'must be "com.atproto.lexicon.schema" when present (a Lexicon published as a record)')
    const defs = doc.defs
    if (defs === null || typeof defs !== 'object' || Array.isArray(defs)) throw this.error('/defs', `must be an object of definitions by name, not ${describe(defs)}`)
    const names = Object.keys(defs)
    if (names.length === 0) throw this.error('/defs', 'a Lexicon with no definitions is invalid')
    for (const name of names) {
      const path = '/defs' + segment(name)
      if (name === '' || name.includes('#')) throw this.error(path, 'a definition name is not empty and has no "#"')
      const def = defs[name]
      this.typed(def, path)
      if (!NAMED.has(def.type)) throw this.error(path + '/type', `a ${def.type} cannot be a named definition (ref, union, unknown and params appear only inside other definitions)`)
      if (PRIMARY.has(def.type) && name !== 'main') throw this.error(path + '/type', `a ${def.type} definition must be named "main"`)
      this.definition(def, path)
    }
  }

  /**
   * Check that `def` is an object with a known `type`, only that type's keys, and a string
   * description if any.
   *
   * @param {any} def
   * @param {string} path
   */
  typed (def, path) {
    if (def === null || typeof def !== 'object' || Array.isArray(def)) throw this.error(path, `a definition is an object with a "type", not ${describe(def)}`)
    if (typeof def.type !== 'string' || !Object.prototype.hasOwnProperty.call(KEYS, def.type)) throw this.error(path + '/type', `${describe(def.type)} is not a Lexicon type`)
    const allowed = /** @type {Record<string, string[]>} */ (KEYS)[def.type]
    for (const key of Object.keys(def)) {
      if (key !== 'type' && key !== 'description' && !allowed.includes(key)) throw this.error(path + segment(key), `is not a field of a ${def.type} definition${allowed.length ? ` (its fields: ${allowed.join(', ')})` : ''}`)
    }
    if (def.description !== undefined && typeof def.description !== 'string') throw this.error(path + '/description', 'must be a string')
  }

  /**
   * @param {any} def - typed already
   * @param {string} path
   */
  definition (def, path) {
    switch (def.type) {
      case 'null':
      case 'cid-link':
      case 'token':
      case 'unknown':
        return
      case 'boolean':
        for (const key of ['default', 'const']) if (def[key] !== undefined && typeof def[key] !== 'boolean') throw this.error(`${path}/${key}`, 'must be a boolean')
        return this.exclusive(def, path)
      case 'integer':
        for (const key of ['minimum', 'maximum', 'default', 'const']) if (def[key] !== undefined) this.integer(def[key], `${path}/${key}`)
        if (def.enum !== undefined) this.list(def.enum, `${path}/enum`, (v, p) => this.integer(v, p))
        this.order(def, path, 'minimum', 'maximum')
        return this.exclusive(def, path)
      case 'string':
        if (def.format !== undefined && (typeof def.format !== 'string' || !Object.prototype.hasOwnProperty.call(FORMATS, def.format))) {
          throw this.error(`${path}/format`, `${describe(def.format)} is not a string format (${Object.keys(FORMATS).join(', ')})`)
        }
        for (const key of ['minLength', 'maxLength', 'minGraphemes', 'maxGraphemes']) if (def[key] !== undefined) this.count(def[key], `${path}/${key}`)
        this.order(def, path, 'minLength', 'maxLength')
        this.order(def, path, 'minGraphemes', 'maxGraphemes')
        for (const key of ['knownValues', 'enum']) if (def[key] !== undefined) this.list(def[key], `${path}/${key}`, (v, p) => { if (typeof v !== 'string') throw this.error(p, 'must be a string') })
        for (const key of ['default', 'const']) if (def[key] !== undefined && typeof def[key] !== 'string') throw this.error(`${path}/${key}`, 'must be a string')
        return this.exclusive(def, path)
      case 'bytes':
        for (const key of ['minLength', 'maxLength']) if (def[key] !== undefined) this.count(def[key], `${path}/${key}`)
        return this.order(def, path, 'minLength', 'maxLength')
      case 'blob':
        if (def.accept !== undefined) {
          this.list(def.accept, `${path}/accept`, (v, p) => {
            if (typeof v !== 'string' || !MIME.test(v)) throw this.error(p, `${describe(v)} is not a MIME type or a pattern "type/*" or "*/*" (partial globs and a lone "*" are not supported)`)
          })
        }
        if (def.maxSize !== undefined) this.count(def.maxSize, `${path}/maxSize`)
        return
      case 'array':
        if (def.items === undefined) throw this.error(`${path}/items`, 'an array definition needs "items"')
        this.field(def.items, `${path}/items`)
        for (const key of ['minLength', 'maxLength']) if (def[key] !== undefined) this.count(def[key], `${path}/${key}`)
        return this.order(def, path, 'minLength', 'maxLength')
      case 'object':
      case 'params':
        return this.object(def, path)
      case 'ref':
        this.ref(def.ref, `${path}/ref`, false)
        return
      case 'union':
        if (!Array.isArray(def.refs)) throw this.error(`${path}/refs`, 'a union needs "refs", an array of refs')
        def.refs.forEach((/** @type {unknown} */ r, /** @type {number} */ i) => this.ref(r, `${path}/refs/${i}`, true))
        if (def.closed !== undefined && typeof def.closed !== 'boolean') throw this.error(`${path}/closed`, 'must be a boolean')
        if (def.closed === true && def.refs.length === 0) throw this.error(`${path}/refs`, 'a closed union with no refs is invalid')
        return
      case 'record':
        if (typeof def.key !== 'string' || !RECORD_KEY_TYPE.test(def.key)) throw this.error(`${path}/key`, `must be a record key type: "tid", "nsid", "any" or "literal:<key>", not ${describe(def.key)}`)
        this.typed(def.record, `${path}/record`)
        if (def.record.type !== 'object') throw this.error(`${path}/record/type`, `a record's schema is an object, not a ${def.record.type}`)
        return this.object(def.record, `${path}/record`)
      case 'query':
      case 'procedure':
      case 'subscription':
        return this.xrpc(def, path)
      default: // permission-set: not a data type; kept as given
    }
  }

  /**
   * @param {any} def
   * @param {string} path
   */
  xrpc (def, path) {
    if (def.parameters !== undefined) {
      this.typed(def.parameters, `${path}/parameters`)
      if (def.parameters.type !== 'params') throw this.error(`${path}/parameters/type`, `must be "params", not ${describe(def.parameters.type)}`)
      this.object(def.parameters, `${path}/parameters`)
    }
    for (const key of ['input', 'output', 'message']) {
      const body = def[key]
      if (body === undefined) continue
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw this.error(`${path}/${key}`, 'must be an object')
      if (body.schema !== undefined) this.field(body.schema, `${path}/${key}/schema`)
    }
  }

  /**
   * @param {any} def
   * @param {string} path
   */
  field (def, path) {
    this.typed(def, path)
    if (!FIELD.has(def.type)) throw this.error(`${path}/type`, `a ${def.type} cannot be a field's type${def.type === 'token' ? ' (a token is referred to by name, in knownValues)' : ''}`)
    this.definition(def, path)
  }

  /**
   * An object's (or params') properties, required and nullable.
   *
   * @param {any} def
   * @param {string} path
   */
  object (def, path) {
    const properties = def.properties ?? {}
    if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) throw this.error(`${path}/properties`, 'must be an object of property definitions by name')
    for (const [name, property] of Object.entries(properties)) {
      const at = `${path}/properties${segment(name)}`
      if (name === '') throw this.error(at, 'a property name is not empty')
      if (def.type === 'params') {
        this.typed(property, at)
        if (!PARAM.has(property.type)) throw this.error(`${at}/type`, `a params property is a boolean, integer, string, unknown or an array of those, not a ${property.type}`)
      }
      this.field(property, at)
    }
    for (const key of ['required', 'nullable']) {
      if (def[key] === undefined) continue
      this.list(def[key], `${path}/${key}`, (v, p) => {
        if (typeof v !== 'string' || !Object.prototype.hasOwnProperty.call(properties, v)) throw this.error(p, `${describe(v)} is not one of the properties`)
      })
    }
  }

  /**
   * @param {unknown} ref
   * @param {string} path
   * @param {boolean} union
   */
  ref (ref, path, union) {
    if (typeof ref !== 'string' || ref === '' || ref === '#') throw this.error(path, `a ref is "#name", "nsid" or "nsid#name", not ${describe(ref)}`)
    const m = REF.exec(ref)
    if (m === null || (m[1] !== undefined && !isNsid(m[1]))) throw this.error(path, `${JSON.stringify(ref)} is not a ref ("#name", "nsid" or "nsid#name")`)
    this.refs.push({ from: this.name, path, ref, union })
  }

  /**
   * @param {unknown} value
   * @param {string} path
   * @param {(value: unknown, path: string) => void} each
   */
  list (value, path, each) {
    if (!Array.isArray(value)) throw this.error(path, `must be an array, not ${describe(value)}`)
    value.forEach((v, i) => each(v, `${path}/${i}`))
  }

  /**
   * @param {unknown} value
   * @param {string} path
   */
  integer (value, path) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw this.error(path, `must be an integer, not ${describe(value)}`)
  }

  /**
   * @param {unknown} value
   * @param {string} path
   */
  count (value, path) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw this.error(path, `must be a non-negative integer, not ${describe(value)}`)
  }

  /**
   * @param {any} def
   * @param {string} path
   * @param {string} low
   * @param {string} high
   */
  order (def, path, low, high) {
    if (def[low] !== undefined && def[high] !== undefined && def[low] > def[high]) throw this.error(`${path}/${low}`, `${low} ${def[low]} is above ${high} ${def[high]}`)
  }

  /**
   * @param {any} def
   * @param {string} path
   */
  exclusive (def, path) {
    if (def.const !== undefined && def.default !== undefined) throw this.error(`${path}/default`, '"const" and "default" are mutually exclusive')
  }
}
