// dag-cbor-fast/schema: a typed DAG-CBOR codec compiled from an IPLD Schema.
//
//   import { compile } from 'dag-cbor-fast/schema'
//   const header = compile(schema, 'BlockHeader')   // schema: the parsed form (DMT)
//   header.decode(bytes)  // the typed value, checked against the schema as it is read
//   header.encode(value)  // the bytes generic encode writes for its representation
//   header.validate(bytes)
//
// DSL text needs @ipld/schema's parser, an optional peer dependency this module never imports (a
// program that passes the parsed form needs nothing else): pass it in,
//   import { fromDSL } from '@ipld/schema/from-dsl.js'
//   compile(text, 'BlockHeader', { fromDSL })
// Nothing here generates code at run time: it runs under a Content-Security-Policy without
// 'unsafe-eval'.

import { toByteView } from '../byte-view.js'
import { finish as finishBytes } from '../writer.js'
import { validate as validateBlock } from '../validate.js'
import { DagCborDecodeError, DagCborEncodeError } from '../errors.js'
import { DEFAULT_MAX_DEPTH } from '../limits.js'
import { Compiler } from './compile.js'
import { run as runRead } from './read.js'
import { run as runWrite } from './write.js'
import { finishTyped } from './errors.js'

export { SCHEMA_RULES } from './errors.js'
export { toTypeScript } from './typescript.js'
export { toJavaScript } from './aot.js'

/**
 * @typedef {object} CompileOptions
 * @property {Record<string, import('./compile.js').StructReaderFactory>} [readers] - struct readers
 *   written ahead of time by toJavaScript (the module it writes passes them)
 * @property {(text: string) => any} [fromDSL] - @ipld/schema's parser (`@ipld/schema/from-dsl.js`),
 *   needed only when `schema` is DSL text
 */

/**
 * @typedef {object} TypedOptions
 * @property {number} [maxDepth] - nesting limit (default 1000), a positive integer
 */

/**
 * @typedef {object} TypedValidateOptions
 * @property {number} [maxDepth] - nesting limit (default 1000), a positive integer
 * @property {boolean} [links] - also list where each link's CID bytes are, as dag-cbor-fast/validate does
 */

/**
 * @template T
 * @typedef {object} TypedCodec
 * @property {string} name - the root type's name
 * @property {(value: T, options?: TypedOptions) => Uint8Array} encode - the representation of
 *   `value` as canonical DAG-CBOR; rejects a value the schema rules out (DagCborEncodeError)
 * @property {(bytes: Uint8Array|ArrayBuffer|ArrayBufferView, options?: TypedOptions) => T} decode -
 *   strict decode straight into the typed form; rejects bytes generic strict decode rejects or
 *   the schema rules out (DagCborDecodeError, with `typePath`)
 * @property {(bytes: Uint8Array|ArrayBuffer|ArrayBufferView, options?: TypedValidateOptions) => import('../validate.js').ValidateResult} validate -
 *   what `decode` accepts, building no values; answers as dag-cbor-fast/validate does
 */

/**
 * The options object of `call`, checked: undefined, or an object whose keys are all in `known`,
 * each checked by its function (which throws a TypeError or RangeError naming it). A misspelt or
 * misplaced option would otherwise be ignored, and a bad limit (maxDepth NaN) turn the limit off.
 *
 * @param {unknown} options
 * @param {string} call - 'decode', for messages
 * @param {Record<string, (value: unknown, name: string) => void>} known
 */
function checkOptions (options, call, known) {
  if (options === undefined) return
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`dag-cbor-fast/schema: ${call}: options must be an object (or left out), not ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`)
  }
  for (const key of Object.keys(options)) {
    if (!Object.prototype.hasOwnProperty.call(known, key)) {
      throw new TypeError(`dag-cbor-fast/schema: ${call}: unknown option ${JSON.stringify(key)} (its options: ${Object.keys(known).join(', ')})`)
    }
    const value = /** @type {Record<string, unknown>} */ (options)[key]
    if (value !== undefined) known[key](value, `${call}: options.${key}`)
  }
}

/**
 * @param {unknown} value
 * @param {string} name
 */
function positiveInteger (value, name) {
  if (typeof value !== 'number') throw new TypeError(`dag-cbor-fast/schema: ${name} must be a positive integer (a number), not ${typeof value === 'object' ? String(value) : typeof value}`)
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`dag-cbor-fast/schema: ${name} must be a positive integer (the nesting limit), not ${value}`)
}

/**
 * @param {unknown} value
 * @param {string} name
 */
function boolean (value, name) {
  if (typeof value !== 'boolean') throw new TypeError(`dag-cbor-fast/schema: ${name} must be a boolean, not ${typeof value}`)
}

/**
 * @param {unknown} value
 * @param {string} name
 */
function aFunction (value, name) {
  if (typeof value !== 'function') throw new TypeError(`dag-cbor-fast/schema: ${name} must be a function, not ${value === null ? 'null' : typeof value}`)
}

/**
 * @param {unknown} value
 * @param {string} name
 */
function readersByType (value, name) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError(`dag-cbor-fast/schema: ${name} must be an object of struct readers by type name (as toJavaScript's module passes it)`)
  for (const [type, reader] of Object.entries(value)) aFunction(reader, `${name}.${type}`)
}

const COMPILE_OPTIONS = { readers: readersByType, fromDSL: aFunction }
const CODEC_OPTIONS = { maxDepth: positiveInteger }
const VALIDATE_OPTIONS = { maxDepth: positiveInteger, links: boolean }

/**
 * Compile a schema into a typed codec for its type `root`.
 *
 * @template [T=any]
 * @param {string|{ types: Record<string, any> }} schema - the parsed schema (DMT), or DSL text with `options.fromDSL`
 * @param {string} root - the name of the type the blocks are
 * @param {CompileOptions} [options]
 * @returns {TypedCodec<T>}
 */
export function compile (schema, root, options) {
  checkOptions(options, 'compile', COMPILE_OPTIONS)
  if (typeof schema === 'string') {
    const fromDSL = options?.fromDSL
    if (typeof fromDSL !== 'function') {
      throw new TypeError("dag-cbor-fast/schema: DSL text needs @ipld/schema's parser: import { fromDSL } from '@ipld/schema/from-dsl.js' and call compile(text, root, { fromDSL }), or pass the parsed schema")
    }
    schema = fromDSL(schema)
  }
  if (typeof root !== 'string' || root === '') throw new TypeError('dag-cbor-fast/schema: compile(schema, root) needs the root type\'s name')
  const node = new Compiler(/** @type {any} */ (schema), options?.readers).node(root, 'the root')

  return {
    name: root,
    encode (value, options) {
      checkOptions(options, 'encode', CODEC_OPTIONS)
      try {
        return runWrite(value, node, options?.maxDepth ?? DEFAULT_MAX_DEPTH, finishBytes)
      } catch (e) {
        throw e instanceof DagCborEncodeError ? finishTyped(e, root) : e
      }
    },
    decode (bytes, options) {
      checkOptions(options, 'decode', CODEC_OPTIONS)
      try {
        return runRead(toByteView(bytes), node, options?.maxDepth ?? DEFAULT_MAX_DEPTH, true)
      } catch (e) {
        throw e instanceof DagCborDecodeError ? finishTyped(e, root) : e
      }
    },
    validate (bytes, options) {
      checkOptions(options, 'validate', VALIDATE_OPTIONS)
      const input = toByteView(bytes)
      const result = validateBlock(input, options)
      try {
        runRead(input, node, options?.maxDepth ?? DEFAULT_MAX_DEPTH, false)
      } catch (e) {
        throw e instanceof DagCborDecodeError ? finishTyped(e, root) : e
      }
      return result
    }
  }
}
