// dag-cbor-fast/lexicon: typed codecs for AT Protocol records, compiled from their Lexicons.
//
//   import { compile } from 'dag-cbor-fast/lexicon'
//   const lexicons = compile(documents)          // Lexicon documents: parsed JSON (or JSON text)
//   const post = lexicons.record('app.bsky.feed.post')
//   post.decode(bytes)    // the record, every Lexicon rule checked as it is read (one pass)
//   post.validate(bytes)  // the same checks, nothing built
//   post.encode(value)    // checked, then canonical DAG-CBOR
//   toTypeScript(documents)  // the records' TypeScript types (a .d.ts module's text)
//   toJavaScript(documents, { records: ['app.bsky.feed.post'] })  // the text of a module with
//     those codecs, checked and resolved ahead of time (it imports dag-cbor-fast/lexicon/runtime)
//
// The documents are checked first (LexiconDocumentError: the document and the path in it). A
// record that breaks a rule is refused with the codec's DagCborDecodeError or DagCborEncodeError,
// whose `rule` is one of LEXICON_RULES (or a DAG-CBOR rule) and whose `path` is where in the
// record ('/embed/images/0/alt'). docs/lexicon.md says what each rule means, and what is done
// where the spec is silent. Nothing here generates code at run time: it runs under a
// Content-Security-Policy without 'unsafe-eval'.

import { loadDocuments } from './documents.js'
import { Compiler } from './compile.js'
import { recordCodec } from './runtime.js'

export { LEXICON_RULES } from './rules.js'
export { LexiconDocumentError } from './documents.js'
export { FORMATS } from './formats.js'
export { toTypeScript } from './typescript.js'
export { toJavaScript } from './aot.js'

/** @typedef {import('./runtime.js').DecodeOptions} DecodeOptions */
/**
 * @template [T=any]
 * @typedef {import('./runtime.js').RecordCodec<T>} RecordCodec
 */

/**
 * @typedef {object} Lexicons
 * @property {string[]} records - the NSIDs of the record types the documents define
 * @property {<T = any>(nsid: string) => RecordCodec<T>} record - the codec of one record type
 */

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
        codec = recordCodec(compiler.record(nsid))
        codecs.set(nsid, codec)
      }
      return codec
    }
  }
}
