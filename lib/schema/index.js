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
 * @property {number} [maxDepth] - nesting limit (default 1000)
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
 * @property {(bytes: Uint8Array|ArrayBuffer|ArrayBufferView, options?: TypedOptions) => import('../validate.js').ValidateResult} validate -
 *   what `decode` accepts, building no values; answers as dag-cbor-fast/validate does
 */

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
      try {
        return runWrite(value, node, options?.maxDepth ?? DEFAULT_MAX_DEPTH, finishBytes)
      } catch (e) {
        throw e instanceof DagCborEncodeError ? finishTyped(e, root) : e
      }
    },
    decode (bytes, options) {
      try {
        return runRead(toByteView(bytes), node, options?.maxDepth ?? DEFAULT_MAX_DEPTH, true)
      } catch (e) {
        throw e instanceof DagCborDecodeError ? finishTyped(e, root) : e
      }
    },
    validate (bytes, options) {
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
