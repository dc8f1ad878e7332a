// The run's summary: counts accumulated block by block (in CAR order), then printed for humans or as JSON.
import { hashName } from './verify.js'

const MAX_PROBLEMS = 10
const MAX_MAPPINGS = 1000 // kept in the summary (JSON)
const SHOWN_MAPPINGS = 20 // printed in the human summary

const codecNames = new Map([[0x71, 'dag-cbor'], [0x55, 'raw'], [0x70, 'dag-pb'], [0x0129, 'dag-json'], [0x0200, 'json']])

/** @param {number} code */
export const codecName = (code) => codecNames.get(code) ?? `0x${code.toString(16)}`

/**
 * @typedef {object} Problem
 * @property {string} cid
 * @property {string} kind 'hash-mismatch' | 'non-canonical' | 'invalid'
 * @property {string} [rule]
 * @property {string} [path]
 * @property {number} [offset]
 * @property {string} message
 */

export function createSummary () {
  return {
    /** @type {string} */ input: '',
    version: 0,
    /** @type {string[]} */ roots: [],
    blocks: 0,
    /** CAR bytes read */ bytes: 0,
    /** sum of block data sizes */ blockBytes: 0,
    /** @type {Record<string, number>} */ codecs: {},
    /** @type {Record<string, number>} */ hashes: {},
    verified: 0,
    hashMismatches: 0,
    unverified: 0,
    dagCbor: { canonical: 0, nonCanonical: 0, invalid: 0, /** @type {Record<string, number>} */ rules: {} },
    problemCount: 0,
    /** @type {Problem[]} first few problems, in CAR order */ problems: [],
    /** @type {null | { file: string, blocks: number, reencoded: number, copied: number, canonicalized: number, keptUnchanged: number, mappings: { old: string, new: string }[] }} */
    output: null,
    seconds: 0,
    mbPerSec: 0
  }
}

/** @typedef {ReturnType<typeof createSummary>} Summary */

/**
 * @param {Summary} s
 * @param {import('./batch.js').Block} block
 * @param {import('./classify.js').BlockResult} r
 */
export function addBlock (s, block, r) {
  const { cid, bytes } = block
  s.blocks++
  s.blockBytes += bytes.length
  const codec = codecName(cid.code)
  s.codecs[codec] = (s.codecs[codec] ?? 0) + 1
  const hash = hashName(cid.multihash.code)
  s.hashes[hash] = (s.hashes[hash] ?? 0) + 1
  if (r.hash === 'ok') s.verified++
  else if (r.hash === 'unverified') s.unverified++
  else {
    s.hashMismatches++
    problem(s, { cid: cid.toString(), kind: 'hash-mismatch', message: `bytes do not hash to the CID (${hash})` })
  }
  if (!r.cls) return
  s.dagCbor[r.cls]++
  if (r.cls === 'canonical') return
  s.dagCbor.rules[r.rule ?? 'error'] = (s.dagCbor.rules[r.rule ?? 'error'] ?? 0) + 1
  problem(s, {
    cid: cid.toString(),
    kind: r.cls === 'invalid' ? 'invalid' : 'non-canonical',
    rule: r.rule,
    path: r.path,
    offset: r.offset,
    message: (r.reason ?? '') + (r.keptReason ? `; ${r.keptReason}` : '')
  })
}

/**
 * @param {Summary} s
 * @param {Problem} p
 */
function problem (s, p) {
  s.problemCount++
  if (s.problems.length < MAX_PROBLEMS) s.problems.push(p)
}

/**
 * @param {Summary} s
 * @param {{ old: string, new: string }} m
 */
export function addMapping (s, m) {
  if (s.output && s.output.mappings.length < MAX_MAPPINGS) s.output.mappings.push(m)
}

/** @param {Summary} s */
export function exitCode (s) {
  const bad = s.hashMismatches + s.unverified + s.dagCbor.nonCanonical + s.dagCbor.invalid
  return bad === 0 ? 0 : 1
}

const mb = (/** @type {number} */ n) => `${(n / 1e6).toFixed(2)} MB`
const counts = (/** @type {Record<string, number>} */ o) => Object.entries(o).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'

/**
 * @param {Summary} s
 * @param {{ workers?: number }} [extra]
 * @returns {string}
 */
export function formatSummary (s, extra = {}) {
  const d = s.dagCbor
  const lines = [
    `${s.input} (CARv${s.version}, ${s.roots.length} root${s.roots.length === 1 ? '' : 's'})`,
    `  blocks      ${s.blocks} (${mb(s.blockBytes)} of block data, ${mb(s.bytes)} read)`,
    `  codecs      ${counts(s.codecs)}`,
    `  hashes      ${counts(s.hashes)}: ${s.verified} verified, ${s.hashMismatches} mismatched, ${s.unverified} unverified`,
    `  dag-cbor    ${d.canonical} canonical, ${d.nonCanonical} non-canonical, ${d.invalid} invalid` +
      (Object.keys(d.rules).length ? ` (${counts(d.rules)})` : ''),
    `  time        ${s.seconds.toFixed(2)} s, ${s.mbPerSec.toFixed(1)} MB/s` +
      (extra.workers ? `, ${extra.workers} worker${extra.workers === 1 ? '' : 's'}` : '')
  ]
  if (s.problemCount) {
    lines.push(`  problems    ${s.problemCount}${s.problemCount > s.problems.length ? ` (first ${s.problems.length} shown)` : ''}:`)
    for (const p of s.problems) lines.push(`    ${p.cid}  ${p.kind}: ${p.message}`)
  }
  const o = s.output
  if (o) {
    lines.push(`  output      ${o.file}: ${o.blocks} blocks, same roots; ${o.reencoded} canonical blocks re-encoded, ${o.copied} copied unchanged` +
      (o.canonicalized || o.keptUnchanged ? `, ${o.canonicalized} canonicalized` : ''))
    if (o.keptUnchanged) lines.push(`              ${o.keptUnchanged} non-canonical blocks could not be canonicalized and were copied unchanged (see problems)`)
    if (o.canonicalized) {
      lines.push(`  new CIDs    (old -> new; links pointing at the old CIDs are NOT rewritten)`)
      for (const m of o.mappings.slice(0, SHOWN_MAPPINGS)) lines.push(`    ${m.old} -> ${m.new}`)
      if (o.canonicalized > SHOWN_MAPPINGS) lines.push(`    ... ${o.canonicalized - SHOWN_MAPPINGS} more (--json lists up to ${MAX_MAPPINGS})`)
    }
  }
  const code = exitCode(s)
  lines.push(code === 0
    ? '  result      OK: every block verified, every DAG-CBOR block canonical'
    : `  result      FAIL: ${[
        s.hashMismatches && `${s.hashMismatches} hash mismatches`,
        s.unverified && `${s.unverified} blocks with unverifiable hashes`,
        d.nonCanonical && `${d.nonCanonical} non-canonical`,
        d.invalid && `${d.invalid} invalid`
      ].filter(Boolean).join(', ')}`)
  return lines.join('\n')
}
