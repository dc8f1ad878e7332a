// The fuzzer's engine: input sources, the invariants checked for every input, and outcome counting.
// test/fuzz/fuzz.js is the command line around it; test/fuzz.spec.js calls runFuzz() directly.
import fs from 'node:fs'
import path from 'node:path'
import crypto from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { CarReader } from '@ipld/car'
import * as oracle from '@ipld/dag-cbor'
import * as codec from '../../index.js'
import { Rng } from './prng.js'
import { walk, toHex } from './cbor.js'
import { mutate } from './mutate.js'
import { randomBytes, randomCbor } from './random-cbor.js'
import { seededGarbage, PLANTS, implant, makeCircular } from './values.js'
import { bytesEqual, dataModelDiff } from '../helpers/ipld-equal.js'
import { hasNegZero, stripLeadingBom } from './equal.js'
import { ownsExactly, ownershipProblem } from '../helpers/ownership.js'

const TEST_DATA = new URL('../fixtures/', import.meta.url)
const FIXTURES = fileURLToPath(new URL('codec-fixtures/', TEST_DATA))
const DATA = fileURLToPath(new URL('cars/', TEST_DATA))
export const FAILURE_DIR = fileURLToPath(new URL('../../.fuzz-failures/', import.meta.url))
export const SOURCES = ['random-bytes', 'random-cbor', 'mutation', 'garbage']
const SAVE_PER_KIND = 20
/** decoded values compare with strict JS types: plain Uint8Array bytes, plain-object maps */
const PLAIN = { plain: true }

/** @typedef {{ name: string, bytes: Uint8Array, items?: ReturnType<typeof walk> }} Seed */

/** @type {Promise<Seed[]>|undefined} */
let corpusPromise

/**
 * Valid blocks to mutate: every codec-fixtures *.dag-cbor file and every DAG-CBOR block of the real CARs.
 * Throws when test/fixtures/ is incomplete (never silently fuzzes without its corpus).
 * @returns {Promise<Seed[]>}
 */
export function loadCorpus () {
  corpusPromise ??= (async () => {
    /** @type {Seed[]} */
    const seeds = []
    const files = fs.readdirSync(FIXTURES, { recursive: true }).map(String).filter((f) => f.endsWith('.dag-cbor')).sort()
    for (const f of files) seeds.push({ name: `fixture:${f}`, bytes: new Uint8Array(fs.readFileSync(path.join(FIXTURES, f))) })
    const cars = fs.readdirSync(DATA).filter((f) => f.endsWith('.car')).sort()
    for (const f of cars) {
      const reader = await CarReader.fromBytes(fs.readFileSync(path.join(DATA, f)))
      for await (const { cid, bytes } of reader.blocks()) {
        // plain Uint8Array copies: @ipld/car hands out Buffer views, and a Buffer input is a separate check below
        if (cid.code === oracle.code) seeds.push({ name: `${f}:${cid}`, bytes: Uint8Array.from(bytes) })
      }
    }
    if (files.length < 100 || cars.length < 2) throw new Error(`fuzz corpus incomplete: ${files.length} fixtures, ${cars.length} CARs under ${fileURLToPath(TEST_DATA)}`)
    return seeds
  })()
  return corpusPromise
}

/**
 * Whether `bytes` hold a float64 whose value is a safe integer (not -0): valid DAG-CBOR, which strict decode
 * accepts, but which our encoder writes back as an integer (the spec's "JavaScript Numbers" limitation).
 * @param {Uint8Array} bytes
 * @returns {boolean}
 */
function holdsIntegralFloat64 (bytes) {
  const items = walk(bytes)
  if (items === null) return false
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return items.some((item) => {
    if (item.major !== 7 || item.ai !== 27) return false
    const value = view.getFloat64(item.start + 1)
    return Number.isSafeInteger(value) && !Object.is(value, -0)
  })
}

/**
 * A strictly decoded value re-encodes to its input's bytes, or, only when the input holds an integral float64,
 * to bytes that decode strictly to the same value and re-encode to themselves.
 * @param {Uint8Array} re
 * @param {Uint8Array} bytes
 * @param {unknown} value
 * @returns {boolean}
 */
function reencodesFaithfully (re, bytes, value) {
  if (bytesEqual(re, bytes)) return true
  if (!holdsIntegralFloat64(bytes)) return false
  const back = codec.decode(re)
  return dataModelDiff(value, back, PLAIN) === null && bytesEqual(codec.encode(back), re)
}

/** @param {Seed} s */
function seedItems (s) {
  if (s.items === undefined) s.items = walk(s.bytes)
  return s.items
}

/** @param {any} e */
function errText (e) {
  if (!(e instanceof Error)) return `non-Error thrown: ${String(e)}`
  const frame = (e.stack || '').split('\n').slice(1, 3).map((s) => s.trim()).join(' | ')
  return `${e.name}: ${e.message.slice(0, 200)}${frame ? ` @ ${frame}` : ''}`
}

/** short description of a value for failure records (never throws, bounded) */
export function describe (v, depth = 0, seen = new Set()) {
  if (depth > 12) return '…'
  if (typeof v === 'string') return JSON.stringify(v.length > 80 ? v.slice(0, 80) + '…' : v)
  if (typeof v === 'bigint') return `${v}n`
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v)
  if (typeof v !== 'object' || v === null) return typeof v === 'function' ? 'function' : String(v)
  if (seen.has(v)) return '<circular>'
  seen.add(v)
  try {
    if (v instanceof Uint8Array) return `Uint8Array(${toHex(v.subarray(0, 32))}${v.length > 32 ? '…' : ''})`
    if (v.asCID === v) return `CID(${v})`
    if (v instanceof Map) return `Map{${[...v].slice(0, 20).map(([k, x]) => `${describe(k, depth + 1, seen)}=>${describe(x, depth + 1, seen)}`).join(', ')}}`
    if (Array.isArray(v)) return `[${v.slice(0, 20).map((x) => describe(x, depth + 1, seen)).join(', ')}${v.length > 20 ? ', …' : ''}]`
    const proto = Object.getPrototypeOf(v)
    const name = proto === Object.prototype ? '' : (proto?.constructor?.name ?? 'null-proto') + ' '
    return `${name}{${Object.keys(v).slice(0, 20).map((k) => `${JSON.stringify(k)}: ${describe(v[k], depth + 1, seen)}`).join(', ')}}`
  } finally {
    seen.delete(v)
  }
}

class Stats {
  constructor () {
    /** @type {Record<string, number>} inputs per source */
    this.inputs = Object.fromEntries(SOURCES.map((s) => [s, 0]))
    /** @type {Record<string, number>} */
    this.outcomes = {}
    /** @type {Record<string, number>} oracle (@ipld/dag-cbor) accepts, our strict decode rejects; by our rule */
    this.converse = {}
    /** @type {Record<string, Array<{ detail: string, hex: string }>>} first examples per converse rule */
    this.converseExamples = {}
    /** @type {Record<string, number>} oracle encodes, we reject; by our rule */
    this.encodeConverse = {}
    /** @type {Record<string, number>} */
    this.failures = {}
    /** @type {object[]} first failure records */
    this.failureRecords = []
    this.total = 0
    this.elapsedMs = 0
  }

  /** @param {string} k */
  count (k, table = this.outcomes) { table[k] = (table[k] || 0) + 1 }

  get failureCount () { return Object.values(this.failures).reduce((a, b) => a + b, 0) }
}

/**
 * The checks for one byte input. Every invariant that fails calls ctx.fail(kind, detail).
 * @param {Uint8Array} bytes
 * @param {Rng} r
 * @param {{ stats: Stats, fail: (kind: string, detail: string) => void, all?: boolean }} ctx  all: run every optional check
 */
export function checkDecode (bytes, r, ctx) {
  const { stats, fail } = ctx
  const maybe = (/** @type {number} */ p) => ctx.all || r.chance(p)
  const clean = (/** @type {any} */ e, /** @type {string} */ what) => {
    if (!(e instanceof codec.DagCborDecodeError)) {
      fail(`${what}-unclean-error`, errText(e))
      return false
    }
    if (typeof e.rule !== 'string' || !e.rule || !Number.isInteger(e.offset) || e.offset < 0 || e.offset > bytes.length ||
        typeof e.path !== 'string' || typeof e.relaxable !== 'boolean') {
      fail(`${what}-error-shape`, `rule=${e.rule} offset=${e.offset} path=${e.path} relaxable=${e.relaxable} (${e.message})`)
      return false
    }
    return true
  }

  // strict decode: a value that re-encodes to the same bytes, or a clean DagCborDecodeError
  let strict, sErr
  try { strict = codec.decode(bytes) } catch (e) { sErr = e || new Error('falsy throw') }
  if (sErr) {
    if (!clean(sErr, 'decode')) sErr = null
    else stats.count(`decode-rejected:${sErr.rule}`)
  } else {
    stats.count('decode-ok')
    const shared = ownershipProblem(strict)
    if (shared) fail('decode-shares-memory', shared)
    try {
      const re = codec.encode(strict)
      if (!ownsExactly(re)) fail('encode-shares-memory', `${re.length} bytes at ${re.byteOffset} of a ${re.buffer.byteLength}-byte buffer`)
      if (!bytesEqual(re, bytes)) stats.count('reencode-js-numbers')
      if (!reencodesFaithfully(re, bytes, strict)) fail('reencode-mismatch', `strict decode accepted, encode gave ${toHex(re.subarray(0, 64))}`)
    } catch (e) {
      fail('reencode-threw', errText(e))
    }
  }
  const strictOk = sErr === undefined
  if (sErr === null) return // unclean: already a failure; the rest would only repeat it

  // relaxed decode: a superset of strict, returning the same value where strict accepts
  let relaxed, rErr
  try { relaxed = codec.decode(bytes, { relaxed: true }) } catch (e) { rErr = e || new Error('falsy throw') }
  if (rErr) {
    if (clean(rErr, 'relaxed')) {
      stats.count(`relaxed-rejected:${rErr.rule}`)
      if (strictOk) fail('relaxed-rejects-strict-accepted', `${rErr.rule} at ${rErr.offset}`)
      else if (sErr.relaxable && rErr.rule === sErr.rule && rErr.offset === sErr.offset) fail('relaxable-but-relaxed-rejects', `${sErr.rule} at ${sErr.offset}`)
    }
  } else {
    stats.count('relaxed-ok')
    const shared = ownershipProblem(relaxed)
    if (shared) fail('relaxed-shares-memory', shared)
    if (strictOk) {
      const d = dataModelDiff(strict, relaxed, PLAIN)
      if (d) fail('relaxed-differs-from-strict', d)
    } else if (!sErr.relaxable) {
      fail('not-relaxable-but-relaxed-accepts', `${sErr.rule} at ${sErr.offset}`)
    }
    // relaxed value re-encodes with escapedBytes, is stable under relaxed decode, and the encoding is canonical
    // apart from the escaped raw bytes (strict decode accepts it or objects only to invalid UTF-8)
    let esc
    try { esc = codec.encode(relaxed, { escapedBytes: true }) } catch (e) { fail('relaxed-value-encode-threw', errText(e)) }
    if (esc) {
      if (strictOk && !reencodesFaithfully(esc, bytes, relaxed)) fail('escaped-reencode-mismatch', toHex(esc.subarray(0, 64)))
      try {
        const back = codec.decode(esc, { relaxed: true })
        const d = dataModelDiff(relaxed, back, PLAIN)
        if (d) fail('escaped-roundtrip-differs', d)
      } catch (e) { fail('escaped-roundtrip-rejected', errText(e)) }
      try { codec.decode(esc) } catch (e) {
        if (!(e instanceof codec.DagCborDecodeError) || e.rule !== 'invalid-utf8') fail('escaped-reencode-not-canonical', errText(e))
      }
    }
  }

  // decodeFirst agrees: it returns exactly when strict decode accepted or objected only to trailing bytes
  if (maybe(0.25)) {
    try {
      const [v, rest] = codec.decodeFirst(bytes)
      if (!strictOk && sErr.rule !== 'trailing-bytes') fail('decodeFirst-accepts-strict-rejected', `strict: ${sErr.rule} at ${sErr.offset}`)
      else if (!(rest instanceof Uint8Array) || rest.length >= bytes.length || (strictOk && rest.length !== 0)) fail('decodeFirst-rest', `rest length ${rest?.length} of ${bytes.length}`)
      else {
        const re = codec.encode(v)
        if (!reencodesFaithfully(re, bytes.subarray(0, bytes.length - rest.length), v)) fail('decodeFirst-reencode-mismatch', toHex(re.subarray(0, 64)))
      }
    } catch (e) {
      if (clean(e, 'decodeFirst') && (strictOk || sErr.rule === 'trailing-bytes')) fail('decodeFirst-rejects', `${e.rule} at ${e.offset}`)
    }
  }

  // the same bytes as a view at an offset into a bigger buffer, as an ArrayBuffer, as a Node Buffer, and with
  // viewBytes; the default decode copies byte strings, so overwriting the input afterwards changes nothing
  if (maybe(0.15)) {
    const pad = r.int(9)
    const big = r.bytes(bytes.length + pad + r.int(9))
    big.set(bytes, pad)
    const view = big.subarray(pad, pad + bytes.length)
    /** @type {Array<[string, any, object|undefined]>} */
    const variants = [['viewBytes', view, { viewBytes: true }], ['view-at-offset', view, undefined],
      ['node-buffer', Buffer.from(big.buffer, pad, bytes.length), undefined]]
    if (pad === 0 && big.length === bytes.length) variants.push(['arraybuffer', big.buffer, undefined])
    /** @type {Array<[string, any]>} */
    const results = []
    for (const [label, input, opts] of variants) {
      try {
        const v = codec.decode(input, opts)
        if (!strictOk) fail(`${label}-accepts`, `plain input rejected with ${sErr.rule}`)
        else if (label === 'viewBytes') {
          const d = dataModelDiff(strict, v, PLAIN)
          if (d) fail(`${label}-differs`, d)
        } else results.push([label, v])
      } catch (e) {
        if (!clean(e, label)) continue
        if (strictOk) fail(`${label}-rejects`, `${e.rule} at ${e.offset}`)
        else if (e.rule !== sErr.rule || e.offset !== sErr.offset) fail(`${label}-other-error`, `${e.rule}@${e.offset} vs ${sErr.rule}@${sErr.offset}`)
      }
    }
    big.fill(0xa5)
    for (const [label, v] of results) {
      const d = dataModelDiff(strict, v, PLAIN)
      if (d) fail(`${label}-differs`, `${d} (after overwriting the input)`)
    }
  }

  // differential against @ipld/dag-cbor
  let o, oErr
  try { o = oracle.decode(bytes) } catch (e) { oErr = e || new Error('falsy throw') }
  if (strictOk) {
    const d = oErr ? `oracle rejects: ${String(oErr.message).slice(0, 120)}` : dataModelDiff(o, strict, PLAIN)
    if (d) {
      // cborg's TextDecoder drops a leading U+FEFF from every string; we keep it (it is valid UTF-8 text).
      // Count that as a known divergence only when it explains the difference exactly.
      const s = stripLeadingBom(strict)
      const explained = oErr ? s.collision && /repeat map key/.test(oErr.message) : !s.collision && !dataModelDiff(o, s.value, PLAIN)
      if (explained) stats.count('oracle-divergence:bom-stripped-by-cborg')
      else fail('oracle-disagrees', d)
    }
  } else if (!oErr) {
    stats.count(sErr.rule, stats.converse)
    const examples = (stats.converseExamples[sErr.rule] ??= [])
    if (examples.length < 5) examples.push({ detail: `${sErr.detail ?? sErr.message} (offset ${sErr.offset})`, hex: toHex(bytes.subarray(0, 4096)) })
  }
}

/**
 * The checks for one data-model value (or a hostile one).
 * @param {any} value
 * @param {{ plant?: string, bad: boolean }} meta
 * @param {Rng} r
 * @param {{ stats: Stats, fail: (kind: string, detail: string) => void }} ctx
 * @returns {Uint8Array|undefined} our encoding, when there is one
 */
export function checkEncode (value, meta, r, ctx) {
  const { stats, fail } = ctx
  let b, err
  try { b = codec.encode(value) } catch (e) { err = e || new Error('falsy throw') }
  let ob, oErr
  try { ob = oracle.encode(value) } catch (e) { oErr = e || new Error('falsy throw') }
  if (err) {
    if (!(err instanceof codec.DagCborEncodeError) || typeof err.rule !== 'string' || !err.rule || typeof err.path !== 'string') {
      fail('encode-unclean-error', errText(err))
    } else {
      stats.count(`encode-rejected:${err.rule}`)
      if (!meta.bad) fail('encode-rejects-valid', `${err.rule} at ${err.path}: ${err.message.slice(0, 120)}`)
      if (!oErr) stats.count(`${err.rule}${meta.plant ? ` (${meta.plant})` : ''}`, stats.encodeConverse)
    }
  } else {
    stats.count('encode-ok')
    if (meta.bad) fail('encode-accepts-invalid', `${meta.plant} encoded as ${toHex(b.subarray(0, 48))}`)
    try {
      const d = dataModelDiff(value, codec.decode(b), { encoderInput: true })
      if (d) fail('encode-roundtrip-differs', d)
    } catch (e) { fail('encode-output-rejected', errText(e)) }
    if (oErr) stats.count(`encode-ok-oracle-rejects${meta.plant ? `:${meta.plant}` : ''}`)
    else if (!bytesEqual(b, ob)) {
      if (hasNegZero(value)) stats.count('encode-known-diff:-0')
      else fail('encode-mismatch', `ours ${toHex(b.subarray(0, 48))} oracle ${toHex(ob.subarray(0, 48))}`)
    }
    if (typeof codec.encodedLength === 'function' && r.chance(0.2)) {
      try {
        const n = codec.encodedLength(value)
        if (n !== b.length) fail('encodedLength-mismatch', `${n} vs ${b.length}`)
      } catch (e) { fail('encodedLength-threw', errText(e)) }
    }
  }
  // escapedBytes: identical output for values without escapable surrogates; otherwise relaxed decode gives the value back
  if (r.chance(0.3) || meta.plant === 'escapable-surrogates') {
    let eb, eErr
    try { eb = codec.encode(value, { escapedBytes: true }) } catch (e) { eErr = e }
    if (b && !eb) fail('escapedBytes-rejects', errText(eErr))
    else if (b && !bytesEqual(b, eb)) fail('escapedBytes-changes-output', toHex(eb.subarray(0, 48)))
    else if (!b && eb) {
      try {
        const d = dataModelDiff(value, codec.decode(eb, { relaxed: true }), { encoderInput: true })
        if (d) fail('escapedBytes-roundtrip-differs', d)
        else stats.count('escaped-encode-ok')
      } catch (e) { fail('escapedBytes-output-rejected', errText(e)) }
    } else if (eErr && !(eErr instanceof codec.DagCborEncodeError)) fail('escapedBytes-unclean-error', errText(eErr))
  }
  return b
}

/**
 * Run the fuzzer.
 * @param {{ iterations: number, seed: number, start?: number, corpus?: Seed[], saveDir?: string|null,
 *   sources?: string[], onProgress?: (stats: Stats, done: number) => void, progressEveryMs?: number }} opts
 * @returns {Promise<Stats>}
 */
export async function runFuzz (opts) {
  const { iterations, seed, start = 0, saveDir = null, onProgress, progressEveryMs = 5000 } = opts
  const sources = opts.sources ?? SOURCES
  const corpus = opts.corpus ?? await loadCorpus()
  const stats = new Stats()
  const t0 = performance.now()
  let lastProgress = t0
  for (let i = start; i < start + iterations; i++) {
    const r = new Rng(seed, i)
    const source = pickSource(r, sources)
    stats.inputs[source]++
    stats.total++
    /** @type {Uint8Array|null} */
    let input = null
    /** @type {any} */
    let value
    let ops = ''
    let failed = false
    const fail = (/** @type {string} */ kind, /** @type {string} */ detail) => {
      failed = true
      stats.count(kind, stats.failures)
      const record = { kind, detail, source, seed, iteration: i, ops, replay: `npm run fuzz -- --seed ${seed} --start ${i} --iterations 1` }
      if (stats.failureRecords.length < 50) stats.failureRecords.push({ ...record, hex: input ? toHex(input.subarray(0, 256)) : undefined, value: input ? undefined : describe(value) })
      // at most SAVE_PER_KIND files per failure kind and run, so one common bug does not flood the disk
      if (saveDir && stats.failures[kind] <= SAVE_PER_KIND) saveFailure(saveDir, input ?? new TextEncoder().encode(describe(value)), { ...record, input: input ? 'bytes' : 'value-description' })
    }
    const ctx = { stats, fail }
    try {
      if (source === 'garbage') {
        value = seededGarbage(r, 1 + r.size(300))
        const meta = { plant: undefined, bad: false }
        if (r.chance(0.35)) {
          const [name, kind, make] = r.pick(PLANTS)
          meta.plant = name
          meta.bad = kind === 'bad'
          value = implant(r, value, make(r))
        } else if (r.chance(0.03)) {
          meta.plant = 'circular'
          meta.bad = true
          value = makeCircular(r, value)
        }
        ops = meta.plant ?? ''
        const b = checkEncode(value, meta, r, ctx)
        if (b && !failed && r.chance(0.2)) { input = b; checkDecode(b, r, ctx) }
      } else {
        if (source === 'random-bytes') input = randomBytes(r)
        else if (source === 'random-cbor') input = randomCbor(r)
        else {
          const s = corpus[r.int(corpus.length)]
          const other = corpus[r.int(corpus.length)]
          const m = mutate(r, { bytes: s.bytes, items: seedItems(s) }, { bytes: other.bytes, items: seedItems(other) })
          input = m.bytes
          ops = `${s.name} ${m.ops.join(',')}`
        }
        checkDecode(input, r, ctx)
      }
    } catch (e) {
      fail('fuzzer-internal', errText(e))
    }
    if (onProgress && (i & 1023) === 0) {
      const now = performance.now()
      if (now - lastProgress > progressEveryMs) { lastProgress = now; onProgress(stats, i - start) }
    }
  }
  stats.elapsedMs = performance.now() - t0
  return stats
}

/** @param {Rng} r @param {string[]} sources */
function pickSource (r, sources) {
  // weights: random-bytes 15, random-cbor 20, mutation 45, garbage 20
  const w = { 'random-bytes': 15, 'random-cbor': 20, mutation: 45, garbage: 20 }
  let tot = 0
  for (const s of sources) tot += w[s]
  let x = r.float() * tot
  for (const s of sources) { x -= w[s]; if (x < 0) return s }
  return sources[sources.length - 1]
}

/**
 * @param {string} dir
 * @param {Uint8Array} bytes
 * @param {object} record
 */
function saveFailure (dir, bytes, record) {
  fs.mkdirSync(dir, { recursive: true })
  const sha = crypto.createHash('sha256').update(bytes).digest('hex')
  fs.writeFileSync(path.join(dir, `${sha}.bin`), bytes)
  fs.appendFileSync(path.join(dir, 'failures.jsonl'), JSON.stringify({ sha256: sha, file: `${sha}.bin`, ...record }) + '\n')
}

/**
 * Re-run the decode checks on one saved input (a .bin file).
 * @param {Uint8Array} bytes
 */
export function replayBytes (bytes) {
  const stats = new Stats()
  /** @type {object[]} */
  const found = []
  checkDecode(bytes, new Rng(0, 0), { all: true, stats, fail: (kind, detail) => { stats.count(kind, stats.failures); found.push({ kind, detail }) } })
  return { stats, found }
}
