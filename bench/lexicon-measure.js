// The Lexicon bench's measurements (bench/lexicon.js runs them in Node or Bun; bench/engines/lexicon.js
// in a browser too): corpora, pipelines, checks and the interleaved rounds; see bench/lexicon.js.
import { CarReader } from '@ipld/car'
import * as ipld from '@ipld/dag-cbor'
import * as atcuteCbor from '@atcute/cbor'
import { is } from '@atcute/lexicons/validations'
import { AppBskyFeedPost, AppBskyFeedLike, AppBskyActorProfile } from '@atcute/bluesky'
import { Lexicons, ipldToLex } from '@atproto/lexicon'
import { decode, encode } from '../index.js'
import { compile } from '../lib/lexicon/index.js'
import { runInterleaved, median } from './harness.js'
import { lexiconCorpora } from './lexicon-corpora.js'

/** @type {Record<string, any>} */
const ATCUTE = { 'app.bsky.feed.post': AppBskyFeedPost.mainSchema, 'app.bsky.feed.like': AppBskyFeedLike.mainSchema, 'app.bsky.actor.profile': AppBskyActorProfile.mainSchema }
const STRICT = { strict: true }
const LEX_STRICT = { strict: true }

const LEX_DECODE = 'ours lexicon decode'
const LEX_VALIDATE = 'ours lexicon validate'
const GENERIC = 'ours generic decode'
const ATCUTE_ROW = '@atcute/cbor + @atcute/lexicons strict'
const ATCUTE_DECODE_ROW = '@atcute/cbor decode alone'
const ATPROTO_ROW = '@ipld/dag-cbor + @atproto/lexicon'
const LEX_SCHEMA_ROW = '@atproto/lex-cbor + @atproto/lex-schema'

/**
 * A record to read: its bytes, its type, and each pipeline's compiled form of that type.
 *
 * @typedef {{ bytes: Uint8Array, nsid: string, codec: import('../lib/lexicon/index.js').RecordCodec, atcute: any, lexSchema: any }} Item
 */

/** @typedef {{ name: string, fn: (it: Item) => unknown, loose?: { name: string, fn: (it: Item) => unknown } }} Pipeline */

/**
 * @param {import('@atproto/lexicon').Lexicons} atproto
 * @returns {Pipeline[]}
 */
const pipelines = (atproto) => [
  { name: LEX_DECODE, fn: (it) => it.codec.decode(it.bytes) },
  { name: LEX_VALIDATE, fn: (it) => it.codec.validate(it.bytes) },
  { name: GENERIC, fn: (it) => decode(it.bytes) },
  {
    name: ATCUTE_ROW,
    fn: (it) => {
      const value = atcuteCbor.decode(it.bytes)
      if (!is(it.atcute, value, STRICT)) throw new Error(`@atcute/lexicons refuses it as ${it.nsid}`)
      return value
    },
    // strict mode refuses legacy blobs (the real records have one): then timed without it
    loose: {
      name: '@atcute/cbor + @atcute/lexicons (not strict)',
      fn: (/** @type {Item} */ it) => {
        const value = atcuteCbor.decode(it.bytes)
        if (!is(it.atcute, value)) throw new Error(`@atcute/lexicons refuses it as ${it.nsid}`)
        return value
      }
    }
  },
  { name: ATPROTO_ROW, fn: (it) => atproto.assertValidRecord(it.nsid, ipldToLex(ipld.decode(it.bytes))) },
  // no check: with our generic decode, the floor under the @atcute target (see the ratios below)
  { name: ATCUTE_DECODE_ROW, fn: (it) => atcuteCbor.decode(it.bytes) }
]

/**
 * @param {number[]} a - rates (ops/s) of one row, per round
 * @param {number[]} b - of another, the same rounds
 * @returns {string} the time of a over the time of b (b's rate over a's): median (min-max)
 */
function timeRatio (a, b) {
  const rs = []
  for (let r = 0; r < Math.min(a.length, b.length); r++) rs.push(b[r] / a[r])
  return `${median(rs).toFixed(2)} (${Math.min(...rs).toFixed(2)}-${Math.max(...rs).toFixed(2)})`
}

/**
 * @param {Uint8Array[]} cars
 */
async function realRecords (cars) {
  /** @type {Array<{ bytes: Uint8Array, nsid: string }>} */
  const found = []
  for (const car of cars) {
    const reader = await CarReader.fromBytes(car)
    for await (const block of reader.blocks()) {
      if (block.cid.code !== 0x71) continue
      const value = decode(block.bytes)
      if (value !== null && typeof value === 'object' && ATCUTE[value.$type] !== undefined) found.push({ bytes: new Uint8Array(block.bytes), nsid: value.$type })
    }
  }
  return found
}

/**
 * Every corpus (or those whose name holds `only`), each pipeline interleaved, printed by `log`.
 *
 * @param {object} options
 * @param {boolean} options.quick - fewer records, shorter rounds
 * @param {string} options.only
 * @param {string[]} options.documents - the Lexicon documents, as JSON text
 * @param {Uint8Array[]} options.cars - repo CARs, whose post, like and profile records are a corpus
 * @param {string} options.engine - the engine's name and version, for the heading
 * @param {(line: string) => void} options.log
 */
export async function measureLexicon ({ quick, only, documents, cars, engine, log }) {
  const cfg = quick ? { rounds: 5, roundMs: 25, warmMs: 30 } : { rounds: 15, roundMs: 60, warmMs: 120 }
  // each its own parse: new Lexicons() rewrites the refs of the documents it is given
  const parsed = () => documents.map((text) => JSON.parse(text))
  const ours = compile(parsed())
  const PIPELINES = pipelines(new Lexicons(parsed()))
  const corpora = [...lexiconCorpora(quick), { name: 'real records', description: 'the posts and profile of the repo CARs of car/test/fixtures/atproto/', records: await realRecords(cars) }]
  const lexSchemas = await import('./lexicon-schema.js').then((m) => m.recordSchemas(parsed()), (e) => { log(`  (${LEX_SCHEMA_ROW} not run: ${e.message})`); return null })
  if (lexSchemas !== null) {
    const lexCbor = await import('@atproto/lex-cbor')
    PIPELINES.push({
      name: LEX_SCHEMA_ROW,
      fn: (it) => it.lexSchema.validate(lexCbor.decode(it.bytes), LEX_STRICT),
      loose: { name: '@atproto/lex-cbor + @atproto/lex-schema (not strict)', fn: (it) => it.lexSchema.validate(lexCbor.decode(it.bytes)) }
    })
  }

  log(`Lexicon record codecs (${quick ? 'quick' : 'full'} run; ${engine}; median of ${cfg.rounds} interleaved rounds)`)
  log('µs per record; then time ratios, median (min-max) over rounds: lexicon decode / generic decode (target ≤ 1.5), validate / generic decode (≤ 0.67), @atcute / lexicon decode (≥ 2), @atproto/lexicon / lexicon decode (≥ 10)')
  for (const corpus of corpora) {
    if (only && !corpus.name.includes(only)) continue
    /** @type {Item[]} */
    const items = corpus.records.map(({ bytes, nsid }) => ({ bytes, nsid, codec: ours.record(nsid), atcute: ATCUTE[nsid], lexSchema: lexSchemas?.[nsid] }))
    const avg = items.reduce((s, it) => s + it.bytes.length, 0) / items.length
    log(`\n== ${corpus.name}: ${corpus.description} — ${items.length} record(s), avg ${avg.toFixed(0)} B`)
    // every pipeline on every record first; our decode also against generic decode, by re-encoding
    const cells = []
    for (const pipeline of PIPELINES) {
      for (const p of [pipeline, pipeline.loose]) {
        if (p === undefined) continue
        let refused = 0
        let first = ''
        for (const it of items) {
          try {
            p.fn(it)
            if (p.name === LEX_DECODE && !sameBytes(encode(p.fn(it)), it.bytes)) throw new Error('decoded a value other than generic decode\'s')
          } catch (e) {
            if (refused++ === 0) first = String(/** @type {Error} */ (e).message).split('\n')[0].slice(0, 160)
          }
        }
        if (refused > 0) {
          log(`  ! ${p.name} refuses ${refused} of ${items.length} records (not timed here); the first: ${first}`)
          continue
        }
        cells.push({ name: p.name, fn: p.fn, items })
        break
      }
    }
    const rates = runInterleaved(cells, { ...cfg, chunk: 64 })
    /** @param {string} name */
    const rate = (name) => rates[cells.findIndex((c) => c.name === name)]
    for (let c = 0; c < cells.length; c++) log(`  ${cells[c].name.padEnd(46)} ${(1e6 / median(rates[c])).toFixed(2).padStart(8)} µs`)
    const lex = rate(LEX_DECODE)
    if (lex === undefined) continue
    /**
     * @param {string} label
     * @param {string} a - a row, or a pipeline's strict row (its loose row standing in when timed instead)
     * @param {string} b
     * @param {string} target
     */
    const line = (label, a, b, target) => {
      const loose = PIPELINES.find((p) => p.name === a)?.loose?.name
      const timed = rate(a) !== undefined ? a : loose !== undefined && rate(loose) !== undefined ? loose : undefined
      if (timed !== undefined && rate(b) !== undefined) log(`  ${(timed === a ? label : `${label} (not strict)`).padEnd(46)} ${timeRatio(rate(timed), rate(b)).padStart(17)}  target ${target}`)
    }
    line('lexicon decode / generic decode', LEX_DECODE, GENERIC, '≤ 1.5')
    line('lexicon validate / generic decode', LEX_VALIDATE, GENERIC, '≤ 0.67')
    line('@atcute / lexicon decode', ATCUTE_ROW, LEX_DECODE, '≥ 2')
    line('@atproto/lexicon / lexicon decode', ATPROTO_ROW, LEX_DECODE, '≥ 10')
    line('@atproto/lex-schema / lexicon decode', LEX_SCHEMA_ROW, LEX_DECODE, '(none)')
    // the floor: @atcute's time is its decode's times its check's share; 2x needs our lexicon
    // decode at half that product of generic decode's, whatever the lexicon reader does
    line('@atcute/cbor alone / generic decode', ATCUTE_DECODE_ROW, GENERIC, '(floor)')
    line('@atcute / @atcute/cbor alone', ATCUTE_ROW, ATCUTE_DECODE_ROW, '(floor)')
  }
}

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
function sameBytes (a, b) {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
