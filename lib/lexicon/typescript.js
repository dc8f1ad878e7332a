// TypeScript declarations of the records Lexicon documents define, as the codecs decode them and
// take them to encode: `toTypeScript(documents)` returns the text of a .d.ts module with one
// exported type per record type and per named definition their refs reach, and `Records`, the
// record types by NSID (for `lexicons.record<Records['app.bsky.feed.post']>('app.bsky.feed.post')`).
// It reads the documents (checked as compile checks them), not compiled codecs, which keep no
// knownValues.

import { loadDocuments, resolve } from './documents.js'

/**
 * @param {string} name
 * @returns {string}
 */
function prop (name) {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name)
}

/**
 * A definition's type name: its NSID's segments and its name, each capitalised
 * ('app.bsky.embed.images#image' is AppBskyEmbedImagesImage).
 *
 * @param {string} fullName
 * @returns {string}
 */
function typeName (fullName) {
  return fullName.split(/[^A-Za-z0-9]+/).filter(Boolean).map((s) => s[0].toUpperCase() + s.slice(1)).join('')
}

/**
 * @param {unknown[]} values
 * @returns {string}
 */
function literals (values) {
  return values.map((v) => JSON.stringify(v)).join(' | ')
}

// A blob as decode gives it (the data model's form), and the legacy form readers must accept.
const BLOB_TYPES = `/** A blob, as the data model writes it. */
export interface BlobRef {
  $type: "blob"
  ref: CID
  mimeType: string
  size: number
}

/** A blob in the legacy form (no size), which readers accept and encode writes back as read. */
export interface LegacyBlobRef {
  cid: string
  mimeType: string
}
`

/**
 * TypeScript declarations of the record types the documents define, and of every definition
 * their refs and unions reach.
 *
 * Field types: string is string (a `const` its literal, a closed `enum` the union of its values,
 * `knownValues` their literals with `(string & {})`, since they never restrict); integer is number
 * (decode gives a BigInt beyond 2^53, which the type leaves out); bytes Uint8Array; cid-link CID;
 * blob BlobRef or LegacyBlobRef; a union its members, each with its `$type` required (an open one
 * also `{ $type: string }`); unknown `{ [k: string]: unknown }`. A property not in `required` is
 * optional (`?`), one in `nullable` may be null. A record's `$type` is its NSID; an object reached by
 * ref may carry its own name as `$type`, so it is optional there.
 *
 * @param {unknown[]} documents - Lexicon documents, as compile takes them (parsed JSON, or JSON text)
 * @returns {string} the text of a .d.ts module
 */
export function toTypeScript (documents) {
  const byId = loadDocuments(documents)
  /** @type {Map<string, string>} full definition name to its type name */
  const names = new Map()
  /** @type {Set<string>} */
  const taken = new Set(['BlobRef', 'LegacyBlobRef', 'Records', 'CID'])
  /** @type {Array<{ fullName: string, nsid: string, def: any }>} definitions still to write */
  const queue = []

  /**
   * The type name of the definition `ref` names from document `from`, queued to be written.
   *
   * @param {string} from
   * @param {string} ref
   * @returns {string}
   */
  const named = (from, ref) => {
    const target = /** @type {NonNullable<ReturnType<typeof resolve>>} */ (resolve(byId, from, ref)) // resolved when loaded
    let name = names.get(target.fullName)
    if (name === undefined) {
      const base = typeName(target.fullName)
      name = base
      for (let i = 2; taken.has(name); i++) name = `${base}${i}`
      taken.add(name)
      names.set(target.fullName, name)
      queue.push({ fullName: target.fullName, nsid: target.nsid, def: target.def })
    }
    return name
  }

  /**
   * @param {any} def - a checked object definition
   * @param {string} nsid - the document it is in
   * @param {string} indent
   * @param {string|null} $type - the `$type` line to put first, or null for none
   * @returns {string}
   */
  const object = (def, nsid, indent, $type) => {
    const required = new Set(def.required ?? [])
    const nullable = new Set(def.nullable ?? [])
    const lines = $type === null ? [] : [`${indent}  ${$type}`]
    for (const [name, property] of Object.entries(def.properties ?? {})) {
      if (name === '$type' && $type !== null) continue
      const type = field(property, nsid, indent + '  ') + (nullable.has(name) ? ' | null' : '')
      lines.push(`${indent}  ${prop(name)}${required.has(name) ? '' : '?'}: ${type}`)
    }
    return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : 'Record<string, never>'
  }

  /**
   * @param {any} def - a checked field definition
   * @param {string} nsid - the document it is in
   * @param {string} indent
   * @returns {string}
   */
  const field = (def, nsid, indent) => {
    switch (def.type) {
      case 'null': return 'null'
      case 'boolean': return def.const !== undefined ? String(def.const) : 'boolean'
      case 'integer': return def.const !== undefined ? String(def.const) : def.enum ? literals(def.enum) : 'number'
      case 'string':
        if (def.const !== undefined) return JSON.stringify(def.const)
        if (def.enum) return literals(def.enum)
        if (def.knownValues?.length) return `${literals(def.knownValues)} | (string & {})`
        return 'string'
      case 'bytes': return 'Uint8Array'
      case 'cid-link': return 'CID'
      case 'blob': return 'BlobRef | LegacyBlobRef'
      case 'array': {
        const items = field(def.items, nsid, indent)
        return `Array<${items}>`
      }
      case 'object': return object(def, nsid, indent, null)
      case 'ref': return named(nsid, def.ref)
      case 'union': {
        const members = def.refs.map((/** @type {string} */ ref) => {
          const target = /** @type {NonNullable<ReturnType<typeof resolve>>} */ (resolve(byId, nsid, ref))
          return `(${named(nsid, ref)} & { $type: ${JSON.stringify(target.fullName)} })`
        })
        if (def.closed !== true) members.push('{ $type: string; [k: string]: unknown }')
        return members.length ? members.join(' | ') : 'never'
      }
      default: return '{ [k: string]: unknown }' // unknown: an object
    }
  }

  /** @type {string[]} */
  const records = []
  for (const doc of byId.values()) {
    if (doc.defs.main?.type === 'record') records.push(doc.id)
  }
  records.sort()
  for (const nsid of records) named(nsid, nsid)
  let body = ''
  for (let i = 0; i < queue.length; i++) {
    const { fullName, nsid, def } = queue[i]
    const name = /** @type {string} */ (names.get(fullName))
    const description = typeof def.description === 'string' ? `/** ${def.description.replace(/\*\//g, '*\\/')} */\n` : ''
    if (def.type === 'record') {
      body += `\n${description}export interface ${name} ${object(def.record, nsid, '', `$type: ${JSON.stringify(nsid)}`)}\n`
    } else if (def.type === 'object') {
      body += `\n${description}export interface ${name} ${object(def, nsid, '', `$type?: ${JSON.stringify(fullName)}`)}\n`
    } else {
      body += `\n${description}export type ${name} = ${field(def, nsid, '')}\n`
    }
  }
  const map = records.map((nsid) => `  ${JSON.stringify(nsid)}: ${names.get(nsid)}`).join('\n')
  return '// Generated by toTypeScript (dag-cbor-fast/lexicon) from Lexicon documents: the records as decoded.\n' +
    "import type { CID } from 'multiformats/cid'\n\n" + BLOB_TYPES + body +
    `\n/** The record types, by NSID. */\nexport interface Records {${map ? `\n${map}\n` : ''}}\n`
}
