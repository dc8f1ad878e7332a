// The large-map decode floors: what building the decoded object of a block that is one flat map
// of more than LARGE_MAP short ASCII keys (the map-10k-keys corpus) costs when nothing is parsed
// or checked. Past LARGE_MAP keys an engine keeps an object as a hash table, and inserting a key
// string not seen before costs far more there than one already in the engine's string table, so:
// - 'fresh-key floor': a `{}` filled with keys made from the block's bytes by lib/utf8.js's
//   shortAscii (the decoder's own primitive) and ready-made values: every key a new string, as a
//   decoder without a 10,000-key cache makes them on every decode;
// - 'interned-key floor': the same with the keys ready-made (and so in the string table after the
//   first run): what any cache holding every key of the block could at best reach.
// bench/engines/measure.js adds both rows where a corpus's blocks are such maps; run alone,
//   node|bun|deno bench/map-floor.js [--rounds=7] [--ms=40] [--warm=150]
// (in Bun and Deno with CBOR_NATIVE_ACCELERATION_DISABLED=true, as bench/engines/run.js runs them)
// prints, for map-10k-keys, ratios to @ipld/dag-cbor measured in the same run, with ours, cbor-x
// and JSON.parse beside. It only prints; it asserts nothing.
import { shortAscii, SHORT_TEXT } from '../lib/utf8.js'
import { LARGE_MAP } from '../lib/decode.js'

export const FRESH_ROW = 'fresh-key floor'
export const INTERNED_ROW = 'interned-key floor'

/**
 * @typedef {{ src: Uint8Array, starts: Int32Array, lengths: Int32Array, keys: string[], values: unknown[] }} FlatMap
 */

/**
 * Where each key of a block that is one flat map lies, and its values, ready-made; null when
 * the block is not one map of more than LARGE_MAP keys, each short ASCII text, with scalar values.
 *
 * @param {Uint8Array} src
 * @param {unknown} value - the block's decoded value
 * @returns {FlatMap | null}
 */
export function flatMapOf (src, value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array) return null
  const entries = Object.entries(value)
  if (entries.length <= LARGE_MAP || entries.some(([, v]) => v !== null && typeof v === 'object')) return null
  const head = src[0]
  if (head >> 5 !== 5) return null
  let pos = 1 + ((head & 31) < 24 ? 0 : 1 << ((head & 31) - 24))
  const n = entries.length
  const starts = new Int32Array(n)
  const lengths = new Int32Array(n)
  const keys = []
  const values = []
  for (let i = 0; i < n; i++) {
    const k = src[pos]
    if (k < 0x60 || k >= 0x78) return null // keys of at most 23 bytes, one-byte heads
    const length = k & 31
    if (length > SHORT_TEXT) return null
    for (let j = 0; j < length; j++) if (src[pos + 1 + j] >= 0x80) return null
    starts[i] = pos + 1
    lengths[i] = length
    const key = shortAscii(src, pos + 1, length)
    keys.push(key)
    values.push(/** @type {any} */ (value)[key])
    pos += 1 + length
    pos = skipScalar(src, pos)
    if (pos < 0) return null
  }
  return { src, starts, lengths, keys, values }
}

/**
 * The offset after the scalar item at src[pos] (an integer, text, or simple value), or -1.
 *
 * @param {Uint8Array} src
 * @param {number} pos
 * @returns {number}
 */
function skipScalar (src, pos) {
  const initial = src[pos]
  const major = initial >> 5
  const info = initial & 31
  const size = info < 24 ? 0 : info < 28 ? 1 << (info - 24) : -1
  if (size < 0) return -1
  if (major === 0 || major === 1 || major === 7) return pos + 1 + size
  if (major !== 2 && major !== 3) return -1
  let length = info
  if (size > 0) {
    length = 0
    for (let j = 1; j <= size; j++) length = length * 256 + src[pos + j]
  }
  return pos + 1 + size + length
}

/**
 * A `{}` of fresh keys: each made from the block's bytes, as the decoder makes it.
 *
 * @param {FlatMap} m
 * @returns {Record<string, unknown>}
 */
export function buildFresh (m) {
  const { src, starts, lengths, values } = m
  /** @type {Record<string, unknown>} */
  const map = {}
  for (let i = 0; i < values.length; i++) map[shortAscii(src, starts[i], lengths[i])] = values[i]
  return map
}

/**
 * A `{}` of ready-made keys.
 *
 * @param {FlatMap} m
 * @returns {Record<string, unknown>}
 */
export function buildInterned (m) {
  const { keys, values } = m
  /** @type {Record<string, unknown>} */
  const map = {}
  for (let i = 0; i < values.length; i++) map[keys[i]] = values[i]
  return map
}

/**
 * The floor cells for a corpus, or none when any of its blocks is not a flat map.
 *
 * @param {Uint8Array[]} blocks
 * @param {unknown[]} values
 * @returns {Array<{ name: string, fn: (m: FlatMap) => unknown, items: FlatMap[] }>}
 */
export function floorCells (blocks, values) {
  const maps = blocks.map((b, i) => flatMapOf(b, values[i]))
  if (maps.length === 0 || maps.some((m) => m === null)) return []
  const items = /** @type {FlatMap[]} */ (maps)
  return [{ name: FRESH_ROW, fn: buildFresh, items }, { name: INTERNED_ROW, fn: buildInterned, items }]
}

/** the standalone run: map-10k-keys in whatever engine runs this file */
async function main () {
  const g = /** @type {any} */ (globalThis)
  // Bun has no V8 gc(); the harness's untimed collection between runs is Bun's own
  if (typeof g.gc !== 'function' && g.Bun) g.gc = () => g.Bun.gc(false)
  const [{ loadCorpora }, { runInterleaved, median }, ours, { makePeers, dagJsonForm }] = await Promise.all([
    import('./corpora.js'), import('./harness.js'), import('../index.js'), import('./peers.js')])
  const peers = makePeers(ours)
  /** @param {string} name */
  const peer = (name) => /** @type {any} */ (peers.find((p) => p.name === name))
  const args = process.argv.slice(2)
  /** @param {string} name @param {number} fallback */
  const opt = (name, fallback) => Number((args.find((a) => a.startsWith(`--${name}=`)) || '').slice(name.length + 3) || fallback)
  const [c] = await loadCorpora({ quick: true, filter: (n) => n === 'map-10k-keys' })
  const texts = c.values.map((/** @type {unknown} */ v) => dagJsonForm(v).text)
  const floors = floorCells(c.blocks, c.values)
  for (const m of floors[0].items) {
    const a = JSON.stringify(buildFresh(m))
    if (a !== JSON.stringify(ours.decode(m.src)) || a !== JSON.stringify(buildInterned(m))) throw new Error('a floor does not build what ours decodes')
  }
  const cells = [
    { name: '@ipld/dag-cbor', fn: peer('@ipld/dag-cbor').decode, items: c.blocks },
    { name: 'ours', fn: (/** @type {Uint8Array} */ b) => ours.decode(b), items: c.blocks },
    { name: 'cbor-x', fn: peer('cbor-x').decode, items: c.blocks },
    { name: 'JSON.parse', fn: JSON.parse, items: texts },
    ...floors
  ]
  const rounds = opt('rounds', 7)
  const rates = runInterleaved(/** @type {any} */ (cells), { rounds, roundMs: opt('ms', 40), warmMs: opt('warm', 150), chunk: 1 })
  const engine = g.Bun ? `Bun ${g.Bun.version}` : g.Deno ? `Deno ${g.Deno.version.deno}` : `Node ${process.version}`
  console.log(`map-10k-keys decode, ${engine}: ratio to @ipld/dag-cbor (median of ${rounds} rounds, min-max), and time per decode`)
  for (let i = 0; i < cells.length; i++) {
    const rs = rates[i].map((r, k) => r / rates[0][k])
    const us = 1e6 / median(rates[i])
    console.log(`  ${cells[i].name.padEnd(20)} ${median(rs).toFixed(2)} (${Math.min(...rs).toFixed(2)}-${Math.max(...rs).toFixed(2)})  ${(us / 1000).toFixed(2)} ms`)
  }
}

if (import.meta.url.endsWith(String(process.argv[1]).split('/').pop() || '\0')) await main()
