// dag-cbor-fast/lexicon/runtime: what a module written by toJavaScript (dag-cbor-fast/lexicon)
// imports. It has the reader and the encoder's check, the node makers and the format checkers,
// but neither the document checker nor the compiler: that module holds the record types' nodes
// already checked and resolved, made at load by the makers below.
//
//   fs.writeFileSync('post-lexicon.js', toJavaScript(documents, { records: ['app.bsky.feed.post'] }))
//   import { decode, record } from './post-lexicon.js'
//   decode('app.bsky.feed.post', bytes)   // as compile(documents).record('app.bsky.feed.post').decode
//
// Each of decodeRecord, validateRecord and encodeRecord stands alone, so that a bundler drops what
// a program does not call (a decode-only program carries no encoder). Nothing here generates code
// at run time.

import { toByteView } from '../byte-view.js'
import { encode as encodeValue } from '../encode.js'
import { DagCborDecodeError, DagCborEncodeError } from '../errors.js'
import { DEFAULT_MAX_DEPTH } from '../limits.js'
import { run } from './read.js'
import { checkObject } from './write.js'

export { nullNode, booleanNode, integerNode, stringNode, bytesNode, linkNode, blobNode, arrayNode, objectNode, setProperties, unionNode, unknownNode, REQUIRED, NULLABLE } from './nodes.js'
// the format checkers, each by its own name: a module imports those its strings name
export * from './formats.js'
export * from './format-bytes.js'

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

/** @typedef {import('./compile.js').ObjectNode} RecordNode */

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
 * The record read from `bytes`, every rule of its Lexicon checked as it is read.
 *
 * @param {RecordNode} node - a record type's node
 * @param {Uint8Array|ArrayBuffer|ArrayBufferView} bytes
 * @param {DecodeOptions} [options]
 * @returns {any}
 */
export function decodeRecord (node, bytes, options) {
  const maxDepth = depthOption(options, 'decode')
  try {
    return run(toByteView(bytes), node, maxDepth, true)
  } catch (e) {
    throw e instanceof DagCborDecodeError ? finish(e, /** @type {string} */ (node.recordType)) : e
  }
}

/**
 * What decodeRecord checks, building nothing.
 *
 * @param {RecordNode} node
 * @param {Uint8Array|ArrayBuffer|ArrayBufferView} bytes
 * @param {DecodeOptions} [options]
 */
export function validateRecord (node, bytes, options) {
  const maxDepth = depthOption(options, 'validate')
  try {
    run(toByteView(bytes), node, maxDepth, false)
  } catch (e) {
    throw e instanceof DagCborDecodeError ? finish(e, /** @type {string} */ (node.recordType)) : e
  }
}

/**
 * Canonical DAG-CBOR of `value`, checked against the record type first.
 *
 * @param {RecordNode} node
 * @param {unknown} value
 * @returns {Uint8Array}
 */
export function encodeRecord (node, value) {
  const nsid = /** @type {string} */ (node.recordType)
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

/**
 * The codec of a record type's node: decode, validate and encode together.
 *
 * @param {RecordNode} node
 * @returns {RecordCodec}
 */
export function recordCodec (node) {
  return {
    nsid: /** @type {string} */ (node.recordType),
    decode: (bytes, options) => decodeRecord(node, bytes, options),
    validate: (bytes, options) => validateRecord(node, bytes, options),
    encode: (value) => encodeRecord(node, value)
  }
}

/**
 * The node of record type `nsid` among a module's (toJavaScript's `records`).
 *
 * @param {Map<string, RecordNode>} nodes
 * @param {string} nsid
 * @returns {RecordNode}
 */
export function recordNode (nodes, nsid) {
  const node = nodes.get(nsid)
  if (node === undefined) {
    const records = [...nodes.keys()]
    throw new TypeError(`dag-cbor-fast/lexicon: ${JSON.stringify(nsid)} is not a record type of this module (its record types: ${records.join(', ')}; toJavaScript's records option names those it writes)`)
  }
  return node
}
