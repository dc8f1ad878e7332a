// The other Lexicon validators, each given a record's DAG-CBOR bytes as its own stack reads them,
// for test/lexicon-differential.spec.js:
//  - @atproto/lexicon: @ipld/dag-cbor decode, ipldToLex (blobs to BlobRefs, as @atproto/repo's
//    cborToLexRecord does), Lexicons.assertValidRecord;
//  - @atproto/lex-schema: @atproto/lex-cbor decode, then the record's schema built from the same
//    documents (schemasFromDocuments: a synchronous form of @atproto/lex-document's
//    LexiconSchemaBuilder, which is not a dependency here), validated strictly (its default);
//  - @atcute/lexicons: @atcute/cbor decode, safeParse with @atcute/bluesky's compiled schemas
//    (app.bsky.*, chat.bsky.*: it builds none from documents), strict.
// Each answers true (accepted) or false (refused); a decoder that throws is a refusal.
import { decode as ipldDecode } from '@ipld/dag-cbor'
import { Lexicons, ipldToLex } from '@atproto/lexicon'
import { l } from '@atproto/lex-schema'
import { decode as lexCborDecode } from '@atproto/lex-cbor'
import { decode as atcuteDecode } from '@atcute/cbor'
import * as v from '@atcute/lexicons/validations'
import * as atcuteBluesky from '@atcute/bluesky'

/**
 * @atcute/bluesky's compiled schema of a record type (app.bsky.*, chat.bsky.*), or undefined.
 *
 * @param {string} nsid
 * @returns {any}
 */
export function atcuteSchema (nsid) {
  if (nsid === 'com.example.lexdiff.formats') return ATCUTE_FORMATS
  const name = nsid.split('.').map((part) => part[0].toUpperCase() + part.slice(1)).join('')
  return /** @type {Record<string, any>} */ (atcuteBluesky)[name]?.mainSchema
}

/** helpers/lexicon-everything.js's FORMATS_DOCUMENT, written with @atcute/lexicons' validators */
const ATCUTE_FORMATS = v.record(v.tidString(), v.object({
  $type: v.literal('com.example.lexdiff.formats'),
  'at-identifier': v.optional(v.actorIdentifierString()),
  'at-uri': v.optional(v.resourceUriString()),
  cid: v.optional(v.cidString()),
  datetime: v.optional(v.datetimeString()),
  did: v.optional(v.didString()),
  handle: v.optional(v.handleString()),
  language: v.optional(v.languageCodeString()),
  nsid: v.optional(v.nsidString()),
  'record-key': v.optional(v.recordKeyString()),
  tid: v.optional(v.tidString()),
  uri: v.optional(v.genericUriString())
}))

export const PEERS = ['@atproto/lexicon', '@atproto/lex-schema', '@atcute/lexicons']

/**
 * @param {() => unknown} run
 * @returns {boolean}
 */
function accepts (run) {
  try {
    return run() !== false
  } catch {
    return false
  }
}

/**
 * @param {any[]} documents - parsed Lexicon documents
 * @returns {(peer: string, nsid: string, bytes: Uint8Array) => boolean}
 */
export function peerVerdicts (documents) {
  // Lexicons rewrites the documents' refs in place (to lex: URIs): each peer gets its own copy
  const lexicons = new Lexicons(structuredClone(documents))
  const schemas = schemasFromDocuments(structuredClone(documents))
  return (peer, nsid, bytes) => {
    switch (peer) {
      case '@atproto/lexicon':
        return accepts(() => lexicons.assertValidRecord(nsid, ipldToLex(ipldDecode(bytes))))
      case '@atproto/lex-schema':
        return accepts(() => schemas(`${nsid}#main`).safeParse(lexCborDecode(bytes)).success)
      case '@atcute/lexicons': {
        const schema = atcuteSchema(nsid)
        if (schema === undefined) throw new Error(`no @atcute/bluesky schema for ${nsid}`)
        return accepts(() => v.safeParse(schema, atcuteDecode(bytes), { strict: true }).ok)
      }
      default:
        throw new Error(`no peer ${peer}`)
    }
  }
}

/**
 * @atproto/lex-schema validators of Lexicon documents, built as @atproto/lex-document's
 * LexiconSchemaBuilder builds them (the same l.* calls per definition type), but synchronously:
 * refs are looked up when first validated.
 *
 * @param {any[]} documents
 * @returns {(fullRef: string) => any} the schema of `nsid#name`
 */
export function schemasFromDocuments (documents) {
  const byId = new Map(documents.map((doc) => [doc.id, doc]))
  /** @type {Map<string, any>} */
  const built = new Map()
  /** @param {any} doc @param {string} ref */
  const fullRef = (doc, ref) => ref.startsWith('#') ? `${doc.id}${ref}` : ref.includes('#') ? ref : `${ref}#main`
  /** @param {string} ref */
  const build = (ref) => {
    let schema = built.get(ref)
    if (schema === undefined) {
      const [nsid, hash] = ref.split('#')
      const doc = byId.get(nsid)
      const def = doc?.defs[hash]
      if (def === undefined) throw new Error(`no definition ${ref}`)
      schema = compileDef(doc, hash, def)
      built.set(ref, schema)
    }
    return schema
  }
  /** @param {any} doc @param {string} hash @param {any} def */
  const compileDef = (doc, hash, def) => {
    switch (def.type) {
      case 'token': return l.token(doc.id, hash)
      case 'record': return l.record(def.key, doc.id, compileObject(doc, def.record))
      case 'object': return l.typedObject(doc.id, hash, compileObject(doc, def))
      default: return compileLeaf(doc, def)
    }
  }
  /** @param {any} doc @param {any} def @returns {any} */
  const compileLeaf = (doc, def) => {
    if (def.const !== undefined && def.enum != null && !def.enum.includes(def.const)) return l.never()
    switch (def.type) {
      case 'string':
      case 'integer': {
        const base = def.type === 'string' ? l.string(def) : l.integer(def)
        const result = def.const != null ? l.literal(def.const) : def.enum != null ? l.enum(def.enum) : base
        return def.default != null ? l.withDefault(result, def.default) : result
      }
      case 'boolean': {
        const result = def.const != null ? l.literal(def.const) : l.boolean()
        return def.default != null ? l.withDefault(result, def.default) : result
      }
      case 'blob': return l.blob(def)
      case 'cid-link': return l.cid()
      case 'bytes': return l.bytes(def)
      case 'unknown': return l.lexMap()
      case 'array': return l.array(compileLeaf(doc, def.items), def)
      case 'ref': {
        const ref = fullRef(doc, def.ref)
        return l.ref(() => build(ref))
      }
      case 'union':
        return l.typedUnion(def.refs.map((/** @type {string} */ r) => {
          const ref = fullRef(doc, r)
          return l.typedRef(() => build(ref))
        }), def.closed ?? false)
      default:
        throw new Error(`lex-schema builder: no leaf type ${def.type}`)
    }
  }
  /** @param {any} doc @param {any} def */
  const compileObject = (doc, def) => {
    /** @type {Record<string, any>} */
    const props = {}
    for (const [key, propDef] of Object.entries(def.properties)) {
      let schema = compileLeaf(doc, propDef)
      if (def.nullable?.includes(key)) schema = l.nullable(schema)
      if (!def.required?.includes(key)) schema = l.optional(schema)
      props[key] = schema
    }
    return l.object(props)
  }
  return build
}
