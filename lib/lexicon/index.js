// dag-cbor-fast/lexicon: typed codecs for AT Protocol records, compiled from their Lexicons.
//
//   import { compile } from 'dag-cbor-fast/lexicon'
//   const lexicons = compile(documents)          // Lexicon documents: parsed JSON (or JSON text)
//   const post = lexicons.record('app.bsky.feed.post')
//   post.decode(bytes)    // the record, every Lexicon rule checked as it is read (one pass)
//   post.validate(bytes)  // the same checks, nothing built
//   post.encode(value)    // checked, then canonical DAG-CBOR
//   toTypeScript(documents)  // the records' TypeScript types (a .d.ts module's text)
//
// The documents are checked first (LexiconDocumentError: the document and the path in it). A
// record that breaks a rule is refused with the codec's DagCborDecodeError or DagCborEncodeError,
// whose `rule` is one of LEXICON_RULES (or a DAG-CBOR rule) and whose `path` is where in the
// record ('/embed/images/0/alt'). docs/lexicon.md says what each rule means, and what is done
// where the spec is silent. Nothing here generates code at run time: it runs under a
// Content-Security-Policy without 'unsafe-eval'.

import { toByteView } from '../byte-view.js'
import { encode as encodeValue } from '../encode.js'
import { DagCborDecodeError, DagCborEncodeError } from '../errors.js'
import { DEFAULT_MAX_DEPTH } from '../limits.js'
import { loadDocuments } from './documents.js'
import { Compiler } from './compile.js'
import { run } from './read.js'
import { checkObject } from './write.js'

export { LEXICON_RULES } from './rules.js'
export { LexiconDocumentError } from './documents.js'
export { FORMATS } from './formats.js'
export { toTypeScript } from './typescript.js'

/**
 * @typedef {object} DecodeOptions
 * @property {number} [maxDepth] - nesting limit (default 1000), a positive integer
 */

/**
 * @template [T=any]
 * @typedef {object} RecordCodec
 * @property {string} nsid - the record type
 * @property {(bytes: Uint8Array|ArrayBuffer|ArrayBufferView, options?: DecodeOptions) => T} decode -
 *   the record, as generic decode builds it, checked against the Lexicon as it is read
 * @property {(bytes: Uint8Array|ArrayBuffer|ArrayBufferView, options?: DecodeOptions) => void} validate -
 *   what decode checks, building nothing; throws where decode throws
 * @property {(value: T) => Uint8Array} encode - canonical DAG-CBOR of a value the Lexicon accepts
 */

/**
 * @typedef {object} Lexicons
 * @property {string[]} records - the NSIDs of the record types the documents define
 * @property {<T = any>(nsid: string) => RecordCodec<T>} record - the codec of one record type
 */

/**
 * @param {unknown} options
 * @param {string} call
 * @returns {number}
 */
function depthOption (options, call) {
  if (options === undefined) return DEFAULT_MAX_DEPTH
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new TypeError(`dag-cbor-fast/lexicon: ${call}: options must be an object (or left out)`)
  for (const key of Object.keys(options)) {
    if (key !== 'maxDepth') throw new TypeError(`dag-cbor-fast/lexicon: ${call}: unknown option ${JSON.stringify(key)} (its options: maxDepth)`)
  }
  const maxDepth = /** @type {{ maxDepth?: unknown }} */ (options).maxDepth
  if (maxDepth === undefined) return DEFAULT_MAX_DEPTH
  if (typeof maxDepth !== 'number' || !Number.isInteger(maxDepth) || maxDepth < 1) throw new RangeError(`dag-cbor-fast/lexicon: ${call}: options.maxDepth must be a positive integer, not ${String(maxDepth)}`)
  return maxDepth
}

/**
 * Finish an error at the top: its path, then the message, which names the record type, the
 * place in the record and the rule ('... /embed/images/0/alt: longer than 2,000 bytes [rule:
 * lexicon-max-length]').
 *
 * @template {DagCborDecodeError|DagCborEncodeError} E
 * @param {E} e
 * @param {string} nsid
 * @returns {E}
 */
function finish (e, nsid) {
  e.finish()
  const where = e instanceof DagCborDecodeError ? `Lexicon decode of ${nsid}${e.offset >= 0 ? ` at byte ${e.offset}` : ''}` : `Lexicon encode of ${nsid}`
  const path = e.path.length > 160 ? `${e.path.slice(0, 60)}…${e.path.slice(-60)}` : e.path
  e.message = `${where}, ${path === '' ? 'the record' : path}: ${e.detail} [rule: ${e.rule}]`
  return e
}

/**
 * Check Lexicon documents and compile them: a codec for each record type they define, on demand.
 *
 * @param {unknown[]} documents - Lexicon documents, as published (parsed JSON objects, or JSON
 *   text); refs across them (`#def`, `nsid`, `nsid#def`) must all resolve
 * @returns {Lexicons}
 */
export function compile (documents) {
  const compiler = new Compiler(loadDocuments(documents))
  /** @type {Map<string, RecordCodec>} */
  const codecs = new Map()
  return {
    records: compiler.records(),
    record (nsid) {
      let codec = codecs.get(nsid)
      if (codec === undefined) {
        codec = recordCodec(nsid, compiler.record(nsid))
        codecs.set(nsid, codec)
      }
      return codec
    }
  }
}

/**
 * @param {string} nsid
 * @param {import('./compile.js').ObjectNode} node
 * @returns {RecordCodec}
 */
function recordCodec (nsid, node) {
  return {
    nsid,
    decode (bytes, options) {
      const maxDepth = depthOption(options, 'decode')
      try {
        return run(toByteView(bytes), node, maxDepth, true)
      } catch (e) {
        throw e instanceof DagCborDecodeError ? finish(e, nsid) : e
      }
    },
    validate (bytes, options) {
      const maxDepth = depthOption(options, 'validate')
      try {
        run(toByteView(bytes), node, maxDepth, false)
      } catch (e) {
        throw e instanceof DagCborDecodeError ? finish(e, nsid) : e
      }
    },
    encode (value) {
      try {
        checkObject(value, node, null, 0)
      } catch (e) {
        throw e instanceof DagCborEncodeError ? finish(e, nsid) : e
      }
      try {
        return encodeValue(value)
      } catch (e) {
        // generic encode finished it already; the message is made ours
        throw e instanceof DagCborEncodeError ? finish(e, nsid) : e
      }
    }
  }
}
