// One corpus, measured in whatever engine runs this: the corpora of bench/corpora.js, the peers of
// bench/peers.js and the interleaved rounds of bench/harness.js, as `npm run bench` uses them, with
// the encode and decode directions only. Runs unchanged in Node, Bun and Deno, and bundled by esbuild
// in browsers (bench/engines/run.js swaps the node: modules the harness and corpora use for
// browser ones). Returns plain JSON: per direction, each row's rate in every round.
import { loadCorpora } from '../corpora.js'
import { makePeers, dagJsonForm } from '../peers.js'
import { runInterleaved } from '../harness.js'
import { bytesDiff, valueDiff, viewsOf } from '../check.js'
import * as ours from '../../index.js'
import * as ref from '@ipld/dag-cbor'
import { isNativeAccelerationEnabled } from 'cbor-x'
import { floorCells } from '../map-floor.js'
import { typedCells } from '../schema-corpora.js'

/** the decode row with { viewBytes: true }, which cbor-x (views of the input) is compared with */
export const VIEW_ROW = 'ours { viewBytes }'
/** the encode row with { pool: true }, which peers whose results are views (of a shared buffer or
 * of an over-sized chunk) are compared with */
export const POOL_ROW = 'ours { pool }'
/** the encode row of a copy-bound corpus (bytes-1MiB) that copies its payload by slice() */
export const SLICE_ROW = 'Uint8Array.slice (ref)'
const POOL = { pool: true }
const RELAXED = { relaxed: true }
const VIEWS = { viewBytes: true }
const RELAXED_VIEWS = { relaxed: true, viewBytes: true }

/**
 * @typedef {{ rows: string[], rates: number[][] }} Direction - rates[row][round], ops/s
 * @typedef {{ corpus: string, items: number, avgBytes: number, cborxNative: boolean, notes: string[], encodeViews: Record<string, { views: number, results: number, buffers: number }>, encode?: Direction, decode?: Direction }} CorpusResult
 */

/**
 * @param {any[]} items
 * @param {(item: any, i: number) => any} fn - returns a difference (string) or null
 * @returns {string | null} the first failure, with how many failed
 */
function firstFailure (items, fn) {
  let fails = 0
  let first = ''
  for (let i = 0; i < items.length; i++) {
    let d
    try { d = fn(items[i], i) } catch (e) { d = 'threw ' + String(/** @type {any} */ (e)?.message ?? e).split('\n')[0].slice(0, 100) }
    if (d) { fails++; if (!first) first = `item ${i}: ${d}` }
  }
  return fails ? `${fails}/${items.length} items; first ${first}` : null
}

/**
 * Measures one corpus of bench/corpora.js.
 *
 * @param {string} name - a corpus name (CORPUS_NAMES)
 * @param {{ rounds: number, roundMs: number, warmMs: number, quick: boolean }} cfg
 * @returns {Promise<CorpusResult>}
 */
export async function measureCorpus (name, { rounds, roundMs, warmMs, quick }) {
  const [c] = await loadCorpora({ quick, filter: (n) => n === name })
  if (!c) throw new Error(`corpus ${name} could not be made`)
  /** @type {string[]} */
  const notes = []
  // Real blocks: strict decoding where it accepts the block, { relaxed: true } where it does not
  // (as bench/run.js does).
  const relaxedSet = new Set()
  if (c.real) {
    for (const b of c.blocks) { try { ours.decode(b) } catch { relaxedSet.add(b) } }
    if (relaxedSet.size) notes.push(`ours decodes ${relaxedSet.size}/${c.blocks.length} blocks with { relaxed: true } (strict rejects them)`)
  }
  const oursDecode = relaxedSet.size ? (/** @type {Uint8Array} */ b) => ours.decode(b, relaxedSet.has(b) ? RELAXED : undefined) : (/** @type {Uint8Array} */ b) => ours.decode(b)
  const viewDecode = (/** @type {Uint8Array} */ b) => ours.decode(b, relaxedSet.has(b) ? RELAXED_VIEWS : VIEWS)

  let json = null
  try {
    const forms = c.values.map(dagJsonForm)
    json = { texts: forms.map((f) => f.text), plains: forms.map((f) => f.plain) }
  } catch (e) { notes.push(`JSON n/a: @ipld/dag-json could not encode: ${/** @type {Error} */ (e).message}`) }

  // what encode must write: @ipld/dag-cbor's bytes for the same value (a real block may not be canonical)
  const refBlocks = c.real ? c.values.map((/** @type {any} */ v) => ref.encode(v)) : c.blocks
  /** @type {{ encode: any[], decode: any[] }} */
  const cells = { encode: [], decode: [] }
  /** per peer, how many of its encode results on this corpus, in this engine, are views
   * @type {CorpusResult['encodeViews']} */
  const encodeViews = {}
  for (const p of makePeers(ours)) {
    if (p.ceiling) {
      if (!json) continue
      cells.encode.push({ name: 'JSON', fn: p.encode, items: json.plains })
      cells.decode.push({ name: 'JSON', fn: p.decode, items: json.texts })
      continue
    }
    const decode = p.ours ? oursDecode : p.decode
    // a row is timed only where it runs on every item; its output is checked first, and a
    // difference is reported beside the table (cbor-x's bytes differ by design: bench/README.md)
    const encodeProblem = firstFailure(c.values, (v) => { p.encode(v); return null })
    if (encodeProblem) notes.push(`${p.name} encode n/a: ${encodeProblem}`)
    else {
      const differs = p.name === '@ipld/dag-cbor' ? null : firstFailure(c.values, (v, i) => bytesDiff(p.encode(v), refBlocks[i]))
      if (differs && p.ours) notes.push(`! ours encode differs from @ipld/dag-cbor's bytes on ${differs}`)
      else if (differs && p.name !== 'cbor-x') notes.push(`${p.name} encode differs from @ipld/dag-cbor's bytes on ${differs}`)
      cells.encode.push({ name: p.ours ? 'ours' : p.name, fn: p.encode, items: c.values })
      if (p.ours) {
        const pooled = (/** @type {unknown} */ v) => ours.encode(v, POOL)
        const poolDiffers = firstFailure(c.values, (v) => bytesDiff(pooled(v), ours.encode(v)))
        if (poolDiffers) notes.push(`! ours { pool } encode differs from ours on ${poolDiffers}`)
        else cells.encode.push({ name: POOL_ROW, fn: pooled, items: c.values })
      } else {
        encodeViews[p.name] = { ...viewsOf(c.values.map((/** @type {unknown} */ v) => p.encode(v))), results: c.values.length }
      }
    }
    const decodeProblem = firstFailure(c.blocks, (b) => { decode(b); return null })
    if (decodeProblem) notes.push(`${p.name} decode n/a: ${decodeProblem}`)
    else {
      // ours in relaxed mode keeps invalid UTF-8 as U+DCxx where @ipld/dag-cbor gives U+FFFD
      const differs = c.real && p.ours ? null : firstFailure(c.blocks, (b, i) => valueDiff(decode(b), c.values[i]))
      if (differs) notes.push(`${p.ours ? '! ' : ''}${p.name} decode differs from @ipld/dag-cbor's values on ${differs}`)
      cells.decode.push({ name: p.ours ? 'ours' : p.name, fn: decode, items: c.blocks })
      if (p.ours) {
        const viewDiffers = firstFailure(c.blocks, (b) => valueDiff(viewDecode(b), oursDecode(b)))
        if (viewDiffers) notes.push(`! ours { viewBytes } decode differs from ours on ${viewDiffers}`)
        else cells.decode.push({ name: VIEW_ROW, fn: viewDecode, items: c.blocks })
      }
    }
  }
  // a copy-bound corpus: its payload copied by slice(), the bound ours is held to (bench/run.js)
  if (c.bytesCorpus && cells.encode.length) cells.encode.push({ name: SLICE_ROW, fn: (/** @type {any} */ v) => v.data.slice(), items: c.values })
  // where every block is one large flat map (map-10k-keys): what building that object alone costs
  if (!c.real && cells.decode.length) cells.decode.push(...floorCells(c.blocks, c.values))
  // corpora with a schema: the typed codec's rows (bench/schema-corpora.js)
  try {
    const typed = typedCells(c)
    if (typed) {
      cells.decode.push(...typed.decode)
      cells.encode.push(...typed.encode)
    }
  } catch (e) { notes.push(`! typed rows n/a: ${/** @type {Error} */ (e).message}`) }
  /** @type {CorpusResult} */
  const result = { corpus: c.name, items: c.blocks.length, avgBytes: c.avgBytes, cborxNative: isNativeAccelerationEnabled, notes, encodeViews }
  for (const dir of /** @type {const} */ (['encode', 'decode'])) {
    if (!cells[dir].some((/** @type {any} */ x) => x.name === '@ipld/dag-cbor')) continue
    const rates = runInterleaved(cells[dir], { rounds, roundMs, warmMs, chunk: c.chunk })
    result[dir] = { rows: cells[dir].map((/** @type {any} */ x) => x.name), rates }
  }
  return result
}
