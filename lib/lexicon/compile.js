// Checked Lexicon definitions into the nodes the reader (read.js) and the encoder's check
// (write.js) walk: one plain object per field type (made by nodes.js), its constraints
// precomputed (formats as functions, properties in a Map). A ref is replaced by the node of what
// it names, made once per definition, so recursive definitions give a cyclic graph. Nothing is
// generated as code.

import { FORMATS, isDatetimeBytes } from './formats.js'
import { resolve } from './documents.js'
import { isAtUriBytes, isCidV1Bytes, isDidBytes, isLanguageBytes, isUriBytes } from './format-bytes.js'
import { nullNode, booleanNode, integerNode, stringNode, bytesNode, linkNode, blobNode, arrayNode, objectNode, setProperties, unionNode, unknownNode, REQUIRED, NULLABLE } from './nodes.js'

/**
 * The formats checked on the UTF-8 itself first: a pass settles it; on a fail the string is made
 * and the full checker decides (format-bytes.js's checks accept only the common spellings).
 *
 * @type {Record<string, (src: Uint8Array, start: number, n: number) => boolean>}
 */
const FORMAT_BYTES = { datetime: isDatetimeBytes, cid: isCidV1Bytes, 'at-uri': isAtUriBytes, did: isDidBytes, language: isLanguageBytes, uri: isUriBytes }

/** @typedef {{ kind: 'null' }} NullNode */
/** @typedef {{ kind: 'boolean', const: boolean|undefined }} BooleanNode */
/** @typedef {{ kind: 'integer', const: number|undefined, enum: number[]|null, minimum: number|undefined, maximum: number|undefined }} IntegerNode */
/**
 * @typedef {object} StringNode
 * @property {'string'} kind
 * @property {string|undefined} const
 * @property {string[]|null} enum
 * @property {number|undefined} minLength - UTF-8 bytes
 * @property {number|undefined} maxLength
 * @property {number|undefined} minGraphemes
 * @property {number|undefined} maxGraphemes
 * @property {((s: string) => boolean)|null} format
 * @property {string} formatName
 * @property {boolean} plain - no check needs the text: only its byte length is checked
 * @property {boolean} countsOnly - no check but the grapheme counts needs the text
 * @property {((src: Uint8Array, start: number, n: number) => boolean)|null} formatBytes - the
 *   format checked on the UTF-8 itself, when it is the only check that needs the text: true
 *   settles it (validate then makes no string); false leaves it to `format` on the text
 */
/** @typedef {{ kind: 'bytes', minLength: number|undefined, maxLength: number|undefined }} BytesNode */
/** @typedef {{ kind: 'cid-link' }} LinkNode */
/** @typedef {{ kind: 'blob', accept: string[]|null, maxSize: number|undefined }} BlobNode */
/** @typedef {{ kind: 'array', items: Node, minLength: number|undefined, maxLength: number|undefined }} ArrayNode */
/**
 * @typedef {object} Property
 * @property {string} name
 * @property {Node} node
 * @property {boolean} required
 * @property {boolean} nullable
 * @property {number} seen - the stamp of the last object read that had it (read.js)
 */
/**
 * @typedef {object} ObjectNode
 * @property {'object'} kind
 * @property {string} name - the definition's full name ('app.bsky.embed.images#image'), or '' inline
 * @property {Uint8Array} nameBytes - its UTF-8: the only `$type` the object may carry
 * @property {Int32Array} nameWords - the same, four bytes a word (wordsOf)
 * @property {string|null} recordType - a record's NSID: its `$type` must be that
 * @property {Map<string, Property>} properties
 * @property {Property[]} required
 * @property {Key[]} keys - the properties' keys and "$type", in canonical order (by UTF-8
 *   length, then bytewise), as a canonical map's keys come: the reader matches each key read
 *   against them without making its string
 */
/**
 * @typedef {object} Key
 * @property {Uint8Array} bytes - its UTF-8
 * @property {Int32Array} words - the same, four bytes a word (wordsOf)
 * @property {string} name
 * @property {Property|null} property - null for "$type" (when no property has that name)
 */
/** @typedef {{ kind: 'union', closed: boolean, members: Map<string, ObjectNode>, names: string[] }} UnionNode */
/** @typedef {{ kind: 'unknown' }} UnknownNode */
/** @typedef {NullNode|BooleanNode|IntegerNode|StringNode|BytesNode|LinkNode|BlobNode|ArrayNode|ObjectNode|UnionNode|UnknownNode} Node */

export class Compiler {
  /**
   * @param {Map<string, import('./documents.js').LoadedDocument>} byId - checked documents
   */
  constructor (byId) {
    this.byId = byId
    /** @type {Map<string, Node>} by full definition name */
    this.made = new Map()
  }

  /**
   * The node of a record definition (its object, with `$type` required to be the NSID).
   *
   * @param {string} nsid
   * @returns {ObjectNode}
   */
  record (nsid) {
    const target = resolve(this.byId, nsid, nsid)
    if (target === undefined || target.def.type !== 'record') {
      const records = this.records()
      throw new TypeError(`dag-cbor-fast/lexicon: ${JSON.stringify(nsid)} is not a record type of the documents given${records.length ? ` (their record types: ${records.slice(0, 20).join(', ')}${records.length > 20 ? ', ...' : ''})` : ' (they define no record)'}`)
    }
    return /** @type {ObjectNode} */ (this.named(nsid, nsid))
  }

  /** @returns {string[]} the NSIDs of every record definition */
  records () {
    return [...this.byId.values()].filter((d) => d.defs.main?.type === 'record').map((d) => d.id)
  }

  /**
   * The node of the definition `ref` names, from inside document `from` (made once).
   *
   * @param {string} from
   * @param {string} ref
   * @returns {Node}
   */
  named (from, ref) {
    const target = /** @type {NonNullable<ReturnType<typeof resolve>>} */ (resolve(this.byId, from, ref)) // resolved when loaded
    const made = this.made.get(target.fullName)
    if (made !== undefined) return made
    const def = target.def.type === 'record' ? target.def.record : target.def
    if (def.type === 'object') {
      // registered before its properties are made: a property may refer back to it
      const node = objectNode(target.fullName, target.def.type === 'record' ? target.nsid : null)
      this.made.set(target.fullName, node)
      this.fill(node, def, target.nsid)
      return node
    }
    const node = this.field(def, target.nsid)
    this.made.set(target.fullName, node)
    return node
  }

  /**
   * @param {ObjectNode} node
   * @param {any} def
   * @param {string} nsid - the document it is in, for its refs
   */
  fill (node, def, nsid) {
    const required = new Set(def.required ?? [])
    const nullable = new Set(def.nullable ?? [])
    setProperties(node, Object.entries(def.properties ?? {}).map(([name, property]) =>
      [name, this.field(property, nsid), (required.has(name) ? REQUIRED : 0) | (nullable.has(name) ? NULLABLE : 0)]))
  }

  /**
   * @param {any} def - a checked field definition
   * @param {string} nsid - the document it is in
   * @returns {Node}
   */
  field (def, nsid) {
    switch (def.type) {
      case 'null': return nullNode()
      case 'boolean': return booleanNode(def)
      case 'integer': return integerNode(def)
      case 'string': return stringNode(def, def.format === undefined ? null : /** @type {Record<string, (s: string) => boolean>} */ (FORMATS)[def.format], FORMAT_BYTES[def.format] ?? null)
      case 'bytes': return bytesNode(def)
      case 'cid-link': return linkNode()
      case 'blob': return blobNode(def)
      case 'array': return arrayNode(this.field(def.items, nsid), def)
      case 'object': {
        const node = objectNode('', null)
        this.fill(node, def, nsid)
        return node
      }
      case 'ref': return this.named(nsid, def.ref)
      case 'union': return unionNode(def.closed === true, def.refs.map((/** @type {string} */ ref) => /** @type {ObjectNode} */ (this.named(nsid, ref))))
      default: return unknownNode()
    }
  }
}
