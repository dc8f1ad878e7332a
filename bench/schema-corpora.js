// The typed codec's bench rows (dag-cbor-fast/schema): which corpora of bench/corpora.js have a
// schema, the schema and root type for each, and the cells that time it, for bench/schema.js (Node)
// and bench/engines/measure.js (every engine of the cross-engine bench).
//
// Rows: `ours typed` (compile(schema, root).decode / .encode), `ours typed, ahead of time` (the same
// with the struct readers of the module toJavaScript writes, bench/generated/), `ours` (generic decode, which checks
// no shape; generic encode of the same representation), `@ipld/dag-cbor + toTyped` and `ours +
// toTyped` (generic decode, then @ipld/schema's create(schema, root).toTyped: the two passes a
// program makes today).
import { fromDSL } from '@ipld/schema/from-dsl.js'
import { create } from '@ipld/schema/typed.js'
import * as ref from '@ipld/dag-cbor'
import * as ours from '../index.js'
import { compile, toJavaScript } from '../lib/schema/index.js'
import { filecoinSchema } from '../examples/schemas/filecoin.js'
import { atprotoSchema } from '../examples/schemas/atproto.js'
import * as filecoinReaders from './generated/filecoin-bench.js'
import * as atprotoReaders from './generated/atproto.js'

export const TYPED_ROW = 'ours typed'
export const AOT_ROW = 'ours typed, ahead of time'
export const REF_TYPED_ROW = '@ipld/dag-cbor + toTyped'
export const OURS_TYPED_ROW = 'ours + toTyped'

/** bench/corpora.js's filecoin-header corpus writes BLSAggregate and BlockSig as [type, bytes]
 * lists where Lotus writes a Signature as its bytes (the schema's `Signature bytes`): its typed
 * rows use the schema with that one type as the corpus has it. */
const filecoinBenchSchema = filecoinSchema.replace(/^type Signature bytes$/m, 'type Signature struct {\n  Type Int\n  Data Bytes\n} representation tuple')

/** corpus name -> the schema (DSL) and root type its blocks are */
export const SCHEMA_CORPORA = /** @type {Record<string, { dsl: string, root: string, readers: { compileTyped: (root: string) => any } }>} */ ({
  'filecoin-header': { dsl: filecoinBenchSchema, root: 'BlockHeader', readers: filecoinReaders },
  'atproto-post': { dsl: atprotoSchema, root: 'Post', readers: atprotoReaders },
  'atproto-commit': { dsl: atprotoSchema, root: 'Commit', readers: atprotoReaders },
  'atproto-mst': { dsl: atprotoSchema, root: 'MSTNode', readers: atprotoReaders }
})

/**
 * What bench/generated/ must hold: file name -> the module toJavaScript writes for that schema.
 *
 * @returns {Record<string, string>}
 */
export function GENERATED () {
  const from = { from: '../../lib/schema/index.js' }
  return {
    'filecoin-bench.js': toJavaScript(fromDSL(filecoinBenchSchema), from),
    'atproto.js': toJavaScript(fromDSL(atprotoSchema), from)
  }
}

/**
 * The typed rows for a corpus, when it has a schema: decode cells over its blocks, encode cells
 * over its typed values (ours typed) and their representations (ours). Each row's results are
 * checked against the others first; a difference throws.
 *
 * @param {{ name: string, blocks: Uint8Array[], values: unknown[] }} corpus
 * @returns {{ decode: Array<{ name: string, fn: (x: any) => unknown, items: any[] }>, encode: Array<{ name: string, fn: (x: any) => unknown, items: any[] }> } | null}
 */
export function typedCells (corpus) {
  const entry = SCHEMA_CORPORA[corpus.name]
  if (!entry) return null
  const dmt = fromDSL(entry.dsl)
  const typed = compile(dmt, entry.root)
  const aot = entry.readers.compileTyped(entry.root)
  // @ipld/schema's typed form knows the Any type as `any`
  const reference = create(/** @type {any} */ (JSON.parse(JSON.stringify(dmt).replace(/"(type|valueType|fromType)":"Any"/g, '"$1":"any"'))), entry.root)
  const typedValues = corpus.blocks.map((b) => typed.decode(b))
  for (let i = 0; i < corpus.blocks.length; i++) {
    const want = reference.toTyped(ours.decode(corpus.blocks[i]))
    if (want === undefined) throw new Error(`${corpus.name} #${i}: @ipld/schema's toTyped rejects the block`)
    if (!sameBytes(ours.encode(reference.toRepresentation(typedValues[i])), corpus.blocks[i]) || !sameBytes(typed.encode(typedValues[i]), corpus.blocks[i])) {
      throw new Error(`${corpus.name} #${i}: typed encode does not write the block back`)
    }
    if (!sameBytes(typed.encode(aot.decode(corpus.blocks[i])), corpus.blocks[i])) throw new Error(`${corpus.name} #${i}: the ahead-of-time reader's value does not write the block back`)
  }
  return {
    decode: [
      { name: TYPED_ROW, fn: (b) => typed.decode(b), items: corpus.blocks },
      { name: AOT_ROW, fn: (b) => aot.decode(b), items: corpus.blocks },
      { name: REF_TYPED_ROW, fn: (b) => reference.toTyped(ref.decode(b)), items: corpus.blocks },
      { name: OURS_TYPED_ROW, fn: (b) => reference.toTyped(ours.decode(b)), items: corpus.blocks }
    ],
    encode: [
      { name: TYPED_ROW, fn: (v) => typed.encode(v), items: typedValues }
    ]
  }
}

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
function sameBytes (a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i])
}
