// Records generated from Lexicon documents, for test/lexicon-differential.spec.js: valid records of
// a record type (seeded; every optional property present about half the time, union members drawn
// in turn) and, for each, mutations that each break exactly one rule of the spec at one place, with
// the rule and path the spec's reading gives (or none, for changes the spec says must be accepted:
// an unlisted member of an open union, a legacy blob, an unexpected property).
import { CID } from 'multiformats/cid'

const DID = 'did:plc:z72i7hdynmk6r22z27h6tvur'
const BLOB_CID = CID.parse('bafkreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm')
const LINK_CID = CID.parse('bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm')

/** Values of each string format, valid and not (the invalid ones break the format alone). */
const FORMATS = {
  datetime: {
    valid: ['2024-11-30T12:34:56.789Z', '1985-04-12T23:20:50.123Z', '2023-01-01T00:00:00+00:00', '2024-02-29T23:59:59-07:30'],
    invalid: ['2024-11-30T12:34:56.789', '2024-11-30', '2024-11-30 12:34:56Z', '2024-11-30T12:34:56z', '2024-13-01T00:00:00Z', '2024-11-30T12:34:56-00:00']
  },
  did: { valid: [DID, 'did:web:example.com'], invalid: ['alice.test', 'did:plc', 'DID:plc:abc'] },
  handle: { valid: ['alice.test', 'bob.bsky.social'], invalid: ['alice', 'alice..test', '-alice.test'] },
  'at-identifier': { valid: [DID, 'alice.test'], invalid: ['alice', 'at://alice.test', 'did:plc'] },
  'at-uri': {
    valid: [`at://${DID}/app.bsky.feed.post/3l6oveex3ii2l`, 'at://alice.test/app.bsky.graph.list/3k2aexample'],
    invalid: ['https://example.com/a', 'at://', `at://${DID}/not-an-nsid/x`]
  },
  nsid: { valid: ['app.bsky.feed.post', 'com.example.fooBar'], invalid: ['app', 'com..example', 'com.example.foo-'] },
  cid: { valid: ['bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm'], invalid: ['QmNotACid', 'bafy', 'not a cid'] },
  uri: { valid: ['https://example.com/a', 'mailto:alice@example.com'], invalid: ['not a uri', 'example.com'] },
  language: { valid: ['en', 'pt-BR', 'ja'], invalid: ['english!', '', 'e'] },
  tid: { valid: ['3l6oveex3ii2l', '3jzfcijpj2z2a'], invalid: ['3l6oveex3ii2', 'zzzzzzzzzzzzz', '3L6OVEEX3II2L'] },
  'record-key': { valid: ['self', '3l6oveex3ii2l'], invalid: ['.', 'a b', '..'] }
}

/** Graphemes of 1 to 18 UTF-8 bytes, for strings counted both ways. */
const GRAPHEMES = ['a', 'z', ' ', 'é', 'ß', '日', '本', '😀', '👍🏽', '👨‍👩‍👧']
const BYTES = new TextEncoder()

/**
 * @param {string} s
 * @returns {number}
 */
export function utf8Length (s) {
  return BYTES.encode(s).length
}

/**
 * @typedef {object} Site - a place in a generated record
 * @property {Array<string|number>} path
 * @property {any} doc - the document the definition is in
 * @property {any} def - its definition (a property's, an array's items', a union's, ...)
 * @property {'property'|'item'|'record'} role
 * @property {boolean} [required]
 * @property {boolean} [nullable]
 */

/**
 * @typedef {object} Mutation
 * @property {string} nsid
 * @property {string} kind - what was broken ('max-length', 'format', 'required', ...)
 * @property {string} what - the change, for messages
 * @property {string} path - JSON pointer of the place
 * @property {string|null} rule - the rule broken (a LEXICON_RULES name), or null: the spec accepts it
 * @property {any} value - the whole changed record
 * @property {any} [def] - the definition of the place
 */

/**
 * @param {any[]} documents - parsed Lexicon documents (every ref resolves among them)
 * @param {() => number} random
 */
export function recordGenerator (documents, random) {
  const byId = new Map(documents.map((doc) => [doc.id, doc]))
  /** @param {any[]} list */
  const pick = (list) => list[Math.floor(random() * list.length)]
  /** @param {number} lo @param {number} hi */
  const between = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1))
  /** @type {Map<string, number>} which union member comes next, per union */
  const turns = new Map()

  /**
   * @param {any} doc
   * @param {string} ref
   * @returns {{ doc: any, name: string, def: any, type: string }}
   */
  const resolve = (doc, ref) => {
    const [id, name = 'main'] = ref.startsWith('#') ? [doc.id, ref.slice(1)] : ref.split('#')
    const target = byId.get(id)
    if (target === undefined || target.defs[name] === undefined) throw new Error(`unresolved ref ${ref} in ${doc.id}`)
    return { doc: target, name, def: target.defs[name], type: name === 'main' ? id : `${id}#${name}` }
  }

  /**
   * @param {any} def - a string definition
   * @returns {string}
   */
  const string = (def) => {
    if (def.const !== undefined) return def.const
    if (def.enum !== undefined) return pick(def.enum)
    if (def.format !== undefined) return pick(FORMATS[/** @type {keyof typeof FORMATS} */ (def.format)].valid)
    if (def.knownValues !== undefined && random() < 0.5) return pick(def.knownValues)
    const maxGraphemes = Math.min(def.maxGraphemes ?? 12, 12)
    const minGraphemes = def.minGraphemes ?? 0
    let parts = []
    for (let n = between(Math.max(minGraphemes, 0), Math.max(minGraphemes, maxGraphemes)); n > 0; n--) parts.push(pick(GRAPHEMES))
    while (def.maxLength !== undefined && utf8Length(parts.join('')) > def.maxLength) parts = parts.slice(0, -1)
    let s = parts.join('')
    while (def.minLength !== undefined && utf8Length(s) < def.minLength) s += 'a'
    return s
  }

  /**
   * @param {any} def - an integer definition
   * @returns {number}
   */
  const integer = (def) => {
    if (def.const !== undefined) return def.const
    if (def.enum !== undefined) return pick(def.enum)
    return between(def.minimum ?? 0, Math.min(def.maximum ?? 1_000_000, (def.minimum ?? 0) + 1_000_000))
  }

  /**
   * @param {any} def - a blob definition
   * @returns {object}
   */
  const blob = (def) => {
    const accept = def.accept ?? ['*/*']
    const pattern = pick(accept)
    const mimeType = pattern === '*/*' ? 'application/octet-stream' : pattern.endsWith('/*') ? pattern.replace('*', 'x-test') : pattern
    return { $type: 'blob', ref: BLOB_CID, mimeType, size: between(1, def.maxSize ?? 1_000_000) }
  }

  /**
   * A value of `def`, the places in it added to `sites`.
   *
   * @param {any} doc
   * @param {any} def
   * @param {Array<string|number>} path
   * @param {Site[]} sites
   * @param {number} depth
   * @returns {any}
   */
  const value = (doc, def, path, sites, depth) => {
    switch (def.type) {
      case 'null': return null
      case 'boolean': return def.const ?? random() < 0.5
      case 'integer': return integer(def)
      case 'string': return string(def)
      case 'bytes': return Uint8Array.from({ length: between(def.minLength ?? 0, Math.min(def.maxLength ?? 16, 16)) }, (_, i) => i)
      case 'cid-link': return LINK_CID
      case 'blob': return blob(def)
      case 'unknown': return { $type: 'com.example.unknownThing', n: 1 }
      case 'array': {
        const n = between(def.minLength ?? 0, Math.min(def.maxLength ?? 3, (def.minLength ?? 0) + 3))
        return Array.from({ length: n }, (_, i) => {
          sites.push({ path: [...path, i], doc, def: def.items, role: 'item' })
          return value(doc, def.items, [...path, i], sites, depth + 1)
        })
      }
      case 'object': return object(doc, def, path, sites, depth)
      // a ref to a record: records always carry their $type
      case 'record': return { $type: doc.id, ...object(doc, def.record, path, sites, depth) }
      case 'ref': {
        const target = resolve(doc, def.ref)
        return value(target.doc, target.def, path, sites, depth)
      }
      case 'union': {
        // an open union with no refs holds any object with a $type
        if (def.refs.length === 0) return { $type: 'com.example.unlisted', n: 1 }
        const key = `${doc.id} ${def.refs.join(' ')}`
        const turn = turns.get(key) ?? Math.floor(random() * def.refs.length)
        turns.set(key, turn + 1)
        const target = resolve(doc, def.refs[turn % def.refs.length])
        return { $type: target.type, ...object(target.doc, target.def.type === 'record' ? target.def.record : target.def, path, sites, depth) }
      }
      default:
        throw new Error(`no generator for ${def.type} at /${path.join('/')}`)
    }
  }

  /**
   * @param {any} doc
   * @param {any} def - an object definition
   * @param {Array<string|number>} path
   * @param {Site[]} sites
   * @param {number} depth
   * @returns {Record<string, any>}
   */
  const object = (doc, def, path, sites, depth) => {
    /** @type {Record<string, any>} */
    const out = {}
    for (const [key, prop] of Object.entries(def.properties ?? {})) {
      const required = def.required?.includes(key) ?? false
      const nullable = def.nullable?.includes(key) ?? false
      if (!required && (depth > 6 || random() < 0.5)) continue
      sites.push({ path: [...path, key], doc, def: prop, role: 'property', required, nullable })
      out[key] = nullable && random() < 0.2 ? null : value(doc, prop, [...path, key], sites, depth + 1)
    }
    return out
  }

  /**
   * @param {string} nsid
   * @returns {{ value: any, sites: Site[] }} a valid record, and its places
   */
  function record (nsid) {
    const doc = byId.get(nsid)
    /** @type {Site[]} */
    const sites = [{ path: [], doc, def: doc.defs.main, role: 'record' }]
    return { value: { $type: nsid, ...object(doc, doc.defs.main.record, [], sites, 0) }, sites }
  }

  /**
   * Each change of `record` that breaks one rule at one place (or that the spec says is accepted).
   *
   * @param {string} nsid
   * @param {any} record
   * @param {Site[]} sites
   * @returns {Mutation[]}
   */
  function mutations (nsid, record, sites) {
    /** @type {Mutation[]} */
    const out = []
    for (const site of sites) {
      const pointer = site.path.length === 0 ? '' : '/' + site.path.join('/')
      const current = at(record, site.path)
      /**
       * @param {string} kind
       * @param {string} what
       * @param {string|null} rule
       * @param {(v: any) => any} change - the new value of the place (or DELETE)
       * @param {string} [path]
       */
      const add = (kind, what, rule, change, path = pointer) => {
        out.push({ nsid, kind, what, path, rule, value: replace(record, site.path, change(current)), def: site.def })
      }
      if (site.role === 'record') {
        add('record-type', 'another record type', 'lexicon-type', (v) => ({ ...v, $type: 'app.bsky.feed.like' === nsid ? 'app.bsky.feed.repost' : 'app.bsky.feed.like' }), '/$type')
        add('record-type', 'no $type', 'lexicon-type', (v) => { const { $type, ...rest } = v; return rest }, '')
        add('float', 'a float beside the properties', 'lexicon-float', (v) => ({ ...v, zzExtra: 0.5 }), '/zzExtra')
        add('unexpected', 'a property the Lexicon does not name', null, (v) => ({ ...v, zzExtra: 'kept' }))
        add('unexpected', 'a $-key the data model does not name', null, (v) => ({ ...v, $zzExtra: 1 }))
        continue
      }
      if (current === null) continue // a nullable property drawn null
      if (site.role === 'property' && site.required) add('required', 'absent', 'lexicon-required', () => DELETE)
      if (site.role === 'property' && !site.nullable) add('nullable', 'null', 'lexicon-nullable', () => null)
      if (site.role === 'item') add('nullable', 'a null item', 'lexicon-nullable', () => null)
      let { doc, def } = site
      if (def.type === 'ref') {
        const target = resolve(doc, def.ref)
        ;({ doc, def } = target)
        if (def.type === 'object') {
          add('ref-type', 'a $type naming the object\'s own definition', null, (v) => ({ ...v, $type: target.type }))
          add('ref-type', 'a $type naming another definition', 'lexicon-type', (v) => ({ ...v, $type: 'com.example.other#thing' }), `${pointer}/$type`)
        }
      }
      leafMutations(doc, def, current, pointer, add)
    }
    return out
  }

  /**
   * @param {any} doc
   * @param {any} def
   * @param {any} current
   * @param {string} where - the place's JSON pointer
   * @param {(kind: string, what: string, rule: string|null, change: (v: any) => any, path?: string) => void} add
   */
  function leafMutations (doc, def, current, where, add) {
    switch (def.type) {
      case 'string': {
        add('kind', 'an integer for a string', 'lexicon-kind', () => 42)
        if (def.const !== undefined) add('const', 'not the constant', 'lexicon-const', (v) => v + 'x')
        if (def.enum !== undefined) add('enum', 'not in the enum', 'lexicon-enum', () => 'notInTheEnum')
        if (def.knownValues !== undefined && def.format === undefined && def.enum === undefined && (def.maxLength ?? 99) >= 13) add('known-values', 'a value knownValues does not list', null, () => 'notAKnownOne')
        if (def.format !== undefined) {
          for (const bad of FORMATS[/** @type {keyof typeof FORMATS} */ (def.format)].invalid) add(`format ${def.format}`, `${JSON.stringify(bad)} as ${def.format}`, 'lexicon-format', () => bad)
        }
        // (bounds above 30,000 are left out: strings of megabytes make the run slow, and they
        // are checked as the smaller ones are)
        if (def.maxLength !== undefined && def.maxLength <= 30_000 && def.format === undefined && def.enum === undefined) {
          // over maxLength in bytes, within maxGraphemes: 18-byte graphemes
          const family = '👨‍👩‍👧'
          const n = Math.floor(def.maxLength / 18) + 1
          if (def.maxGraphemes === undefined || n <= def.maxGraphemes) add('max-length', `${n} graphemes of 18 bytes`, 'lexicon-max-length', () => family.repeat(n))
          else add('max-length', 'maxLength + 1 ASCII bytes', 'lexicon-max-length', () => 'a'.repeat(def.maxLength + 1))
        }
        if (def.maxLength !== undefined && def.maxLength <= 30_000 && def.format === undefined && def.enum === undefined && def.const === undefined && (def.maxGraphemes === undefined || def.maxGraphemes >= Math.ceil(def.maxLength / 18))) {
          // exactly maxLength bytes: 18-byte graphemes, then ASCII (accepted)
          add('at-bound', 'exactly maxLength bytes', null, () => '👨‍👩‍👧'.repeat(Math.floor(def.maxLength / 18)) + 'a'.repeat(def.maxLength % 18).slice(0, Math.max(0, (def.maxGraphemes ?? Infinity) - Math.floor(def.maxLength / 18))))
        }
        if (def.maxGraphemes !== undefined && def.maxGraphemes <= 30_000 && def.format === undefined && def.enum === undefined && def.const === undefined && def.maxGraphemes * 8 <= (def.maxLength ?? Infinity)) {
          // exactly maxGraphemes graphemes of several code points each (accepted)
          add('at-bound', 'exactly maxGraphemes graphemes', null, () => '👍🏽'.repeat(def.maxGraphemes))
        }
        if (def.maxGraphemes !== undefined && def.maxGraphemes <= 30_000 && def.format === undefined && def.enum === undefined && (def.maxLength === undefined || def.maxGraphemes < def.maxLength)) {
          // over maxGraphemes, within maxLength (a grapheme is at least a byte: only where
          // maxLength leaves room)
          add('max-graphemes', `${def.maxGraphemes + 1} graphemes`, 'lexicon-max-graphemes', () => 'a'.repeat(def.maxGraphemes + 1))
        }
        const free = def.format === undefined && def.enum === undefined && def.const === undefined
        if (free && def.minLength > 0 && (def.minGraphemes ?? 0) < def.minLength) add('min-length', 'shorter than minLength', 'lexicon-min-length', () => 'a'.repeat(def.minLength - 1))
        // fewer graphemes, enough bytes: 18-byte graphemes
        const fewer = (def.minGraphemes ?? 0) - 1
        if (free && fewer > 0 && fewer * 18 >= (def.minLength ?? 0) && fewer * 18 <= (def.maxLength ?? Infinity)) add('min-graphemes', `${fewer} graphemes of 18 bytes`, 'lexicon-min-graphemes', () => '👨‍👩‍👧'.repeat(fewer))
        break
      }
      case 'integer':
        add('kind', 'a string for an integer', 'lexicon-kind', () => '1')
        add('float', 'a float for an integer', 'lexicon-kind', (v) => v + 0.5)
        if (def.const !== undefined) add('const', 'not the constant', 'lexicon-const', (v) => v + 1)
        if (def.enum !== undefined) add('enum', 'not in the enum', 'lexicon-enum', () => Math.max(...def.enum) + 1)
        if (def.minimum !== undefined && def.enum === undefined && def.const === undefined) add('at-bound', `the minimum ${def.minimum}`, null, () => def.minimum)
        if (def.maximum !== undefined && def.enum === undefined && def.const === undefined) add('at-bound', `the maximum ${def.maximum}`, null, () => def.maximum)
        if (def.minimum !== undefined) add('minimum', `${def.minimum - 1}`, 'lexicon-minimum', () => def.minimum - 1)
        if (def.maximum === undefined && def.enum === undefined && def.const === undefined) {
          add('integer-range', '2^53, beyond the safe integers', null, () => 2n ** 53n)
          add('integer-range', '2^63, beyond signed 64 bits', 'lexicon-kind', () => 2n ** 63n)
        }
        if (def.maximum !== undefined) add('maximum', `${def.maximum + 1}`, 'lexicon-maximum', () => def.maximum + 1)
        break
      case 'boolean':
        add('kind', 'an integer for a boolean', 'lexicon-kind', () => 1)
        if (def.const !== undefined) add('const', 'not the constant', 'lexicon-const', () => !def.const)
        break
      case 'bytes':
        add('kind', 'a string for bytes', 'lexicon-kind', () => 'AAEC')
        if (def.maxLength !== undefined) add('at-bound', 'maxLength bytes', null, () => new Uint8Array(def.maxLength))
        if (def.maxLength !== undefined) add('max-length', 'maxLength + 1 bytes', 'lexicon-max-length', () => new Uint8Array(def.maxLength + 1))
        if (def.minLength !== undefined && def.minLength > 0) add('min-length', 'minLength - 1 bytes', 'lexicon-min-length', () => new Uint8Array(def.minLength - 1))
        break
      case 'cid-link':
        add('kind', 'a CID string for a link', 'lexicon-kind', (v) => v.toString())
        break
      case 'array':
        add('kind', 'an object for an array', 'lexicon-kind', () => ({}))
        if (def.maxLength !== undefined && current.length > 0) add('at-bound', `${def.maxLength} items`, null, (v) => Array.from({ length: def.maxLength }, (_, i) => v[i % v.length]))
        if (def.maxLength !== undefined && current.length > 0) add('max-length', `${def.maxLength + 1} items`, 'lexicon-max-length', (v) => Array.from({ length: def.maxLength + 1 }, (_, i) => v[i % v.length]))
        if (def.minLength !== undefined && def.minLength > 0) add('min-length', `${def.minLength - 1} items`, 'lexicon-min-length', (v) => v.slice(0, def.minLength - 1))
        break
      case 'blob': {
        add('kind', 'a string for a blob', 'lexicon-kind', () => 'blob')
        add('blob-shape', 'size 0', 'lexicon-blob', (v) => ({ ...v, size: 0 }))
        add('blob-shape', 'no mimeType', 'lexicon-blob', (v) => { const { mimeType, ...rest } = v; return rest })
        add('blob-shape', 'a ref that is a CID string', 'lexicon-blob', (v) => ({ ...v, ref: v.ref.toString() }))
        add('blob-extra', 'a blob with a key beside its four', null, (v) => ({ ...v, zzExtra: 'kept' }))
        if (def.accept !== undefined && !def.accept.includes('*/*')) add('blob-accept-case', 'an accepted MIME type in upper case', 'lexicon-blob-accept', (v) => ({ ...v, mimeType: v.mimeType.toUpperCase() }))
        add('blob-legacy', 'the legacy blob shape', null, (v) => ({ cid: v.ref.toString(), mimeType: v.mimeType }))
        add('blob-ref-codec', 'a ref of codec dag-cbor, not raw', null, (v) => ({ ...v, ref: LINK_CID }))
        if (def.accept !== undefined && !def.accept.includes('*/*')) add('blob-accept', 'a MIME type not accepted', 'lexicon-blob-accept', (v) => ({ ...v, mimeType: 'application/x-not-accepted' }))
        if (def.accept !== undefined && !def.accept.includes('*/*')) add('blob-legacy-accept', 'a legacy blob of a MIME type not accepted', 'lexicon-blob-accept', (v) => ({ cid: v.ref.toString(), mimeType: 'application/x-not-accepted' }))
        if (def.maxSize !== undefined) add('at-bound', 'a blob of maxSize bytes', null, (v) => ({ ...v, size: def.maxSize }))
        if (def.maxSize !== undefined) add('blob-size', 'maxSize + 1 bytes', 'lexicon-blob-size', (v) => ({ ...v, size: def.maxSize + 1 }))
        break
      }
      case 'unknown':
        add('unknown', 'a string for an unknown object', 'lexicon-unknown', () => 'x')
        add('unknown', 'a blob for an unknown object', 'lexicon-unknown', () => blob({}))
        add('unknown-float', 'a float inside an unknown object', 'lexicon-float', (v) => ({ ...v, inner: { x: 0.5 } }), `${where}/inner/x`)
        add('unknown-blob', 'a blob of size 0 inside an unknown object', 'lexicon-blob', (v) => ({ ...v, inner: { ...blob({}), size: 0 } }), `${where}/inner`)
        break
      case 'object':
        add('kind', 'a string for an object', 'lexicon-kind', () => 'x')
        break
      case 'record':
        add('kind', 'a string for a record', 'lexicon-kind', () => 'x')
        add('record-type', 'a record reached by ref, without $type', 'lexicon-type', (v) => { const { $type, ...rest } = v; return rest })
        break
      case 'union': {
        add('kind', 'a string for a union', 'lexicon-kind', () => 'x')
        add('union-type', 'a member without $type', 'lexicon-type', (v) => { const { $type, ...rest } = v; return rest })
        if (!current.$type.includes('#') && byId.has(current.$type)) {
          const memberIsRecord = byId.get(current.$type).defs.main.type === 'record'
          add('union-type', `a member $type ending in #main${memberIsRecord ? ' (a record member)' : ''}`, 'lexicon-type', (v) => ({ ...v, $type: v.$type + '#main' }))
        }
        if (def.closed) add('union-closed', 'a $type the closed union does not list', 'lexicon-union', () => ({ $type: 'com.example.unlisted' }))
        else add('union-open', 'a $type the open union does not list', null, () => ({ $type: 'com.example.unlisted', n: 1 }))
        break
      }
    }
  }

  return { record, mutations }
}

const DELETE = Symbol('delete')

/**
 * @param {any} value
 * @param {Array<string|number>} path
 * @returns {any}
 */
function at (value, path) {
  for (const key of path) value = value[key]
  return value
}

/**
 * A copy of `value` with the place at `path` replaced (or deleted); what is not on the path is
 * shared.
 *
 * @param {any} value
 * @param {Array<string|number>} path
 * @param {any} next
 * @returns {any}
 */
function replace (value, path, next) {
  if (path.length === 0) return next
  const [key, ...rest] = path
  const copy = Array.isArray(value) ? [...value] : { ...value }
  const inner = replace(value[key], rest, next)
  if (inner === DELETE) delete copy[key]
  else copy[key] = inner
  return copy
}
