// The run's summary: counts accumulated block by block (in CAR order), then printed for humans or as JSON.
import { hashName } from './verify.js'

const MAX_PROBLEMS = 10
const SHOWN_MAPPINGS = 20 // printed in the human summary (the JSON has them all)
const FLOAT_EXAMPLES = 5 // blocks listed with their integral-float paths

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
    dagCbor: { canonical: 0, nonCanonical: 0, invalid: 0, rules: /** @type {Record<string, number>} */ ({}) },
    problemCount: 0,
    /** @type {Problem[]} first few problems, in CAR order */ problems: [],
    /** canonical blocks holding float64 integers, which JavaScript re-encodes as integers */
    integralFloats: { blocks: 0, values: 0, examples: /** @type {{ cid: string, paths: string[] }[]} */ ([]) },
    /** @type {null | Output} */
    output: null,
    /** worker threads used (1: inline) */
    workers: 1,
    /** @type {null | { message: string, offset?: number, blocks?: number }} set when the run stopped on an error */
    error: null,
    seconds: 0,
    mbPerSec: 0
  }
}

/**
 * @typedef {object} Output
 * @property {string} file
 * @property {number} blocks blocks written
 * @property {number} unchanged blocks written as read (same bytes, same CID)
 * @property {number} canonicalized non-canonical blocks written in canonical form (new CID)
 * @property {number} relinked blocks rewritten only because they link to rewritten blocks (new CID)
 * @property {number} keptUnchanged non-canonical blocks that have no canonical form (copied)
 * @property {number} rootsReplaced header roots replaced by their new CIDs
 * @property {number} passes times the input was read
 * @property {{ old: string, new: string, why: 'canonicalized' | 'relinked' }[]} mappings every old -> new CID, in CAR order
 * @property {{ cid: string, reason: string }[]} cannotRewrite blocks linking to rewritten blocks that could not be rewritten (their links dangle)
 * @property {string} [mapFile] where the mappings were also written (--map)
 */

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
  if (r.jsFloats) {
    const f = s.integralFloats
    f.blocks++
    f.values += r.jsFloats
    if (f.examples.length < FLOAT_EXAMPLES) f.examples.push({ cid: cid.toString(), paths: r.jsFloatPaths ?? [] })
  }
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
 * @param {number} start performance.now() at the start of the run
 */
export function finishSummary (s, start) {
  s.seconds = (performance.now() - start) / 1000
  s.mbPerSec = s.seconds > 0 ? s.bytes / 1e6 / s.seconds : 0
  return s
}

/** @param {Summary} s */
export function problemsFound (s) {
  return s.hashMismatches + s.unverified + s.dagCbor.nonCanonical + s.dagCbor.invalid
}

/**
 * 2: the run stopped on an error; 1: problems found in the data; 0: all verified and canonical.
 *
 * @param {Summary} s
 */
export function exitCode (s) {
  if (s.error) return 2
  return problemsFound(s) === 0 ? 0 : 1
}

const mb = (/** @type {number} */ n) => `${(n / 1e6).toFixed(2)} MB`
const counts = (/** @type {Record<string, number>} */ o) => Object.entries(o).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'

/**
 * @param {Summary} s
 * @param {{ result?: string[] }} [options] result: lines that replace the result line (the sample's verdict)
 * @returns {string}
 */
export function formatSummary (s, options = {}) {
  const d = s.dagCbor
  const lines = [
    `${s.input} (CARv${s.version}, ${s.roots.length} root${s.roots.length === 1 ? '' : 's'})`,
    `  blocks      ${s.blocks} (${mb(s.blockBytes)} of block data, ${mb(s.bytes)} read)`,
    `  codecs      ${counts(s.codecs)}`,
    `  hashes      ${counts(s.hashes)}: ${s.verified} verified, ${s.hashMismatches} mismatched, ${s.unverified} unverified`,
    `  dag-cbor    ${d.canonical} canonical, ${d.nonCanonical} non-canonical, ${d.invalid} invalid` +
      (Object.keys(d.rules).length ? ` (${counts(d.rules)})` : ''),
    `  time        ${s.seconds.toFixed(2)} s, ${s.mbPerSec.toFixed(1)} MB/s, ${s.workers} worker${s.workers === 1 ? '' : 's'}`
  ]
  const f = s.integralFloats
  if (f.blocks) {
    lines.push(`  floats      ${f.blocks} canonical block${f.blocks === 1 ? ' holds' : 's hold'} ${f.values} float64 integer${f.values === 1 ? '' : 's'} (valid DAG-CBOR, as Go and Rust write 1.0); JavaScript decodes them to Numbers and would re-encode them as integers, so they are copied byte for byte:`)
    for (const e of f.examples) lines.push(`    ${e.cid}  at ${e.paths.join(', ')}`)
    if (f.blocks > f.examples.length) lines.push(`    ... ${f.blocks - f.examples.length} more blocks`)
  }
  if (s.problemCount) {
    lines.push(`  problems    ${s.problemCount}${s.problemCount > s.problems.length ? ` (first ${s.problems.length} shown)` : ''}:`)
    for (const p of s.problems) lines.push(`    ${p.cid}  ${p.kind}: ${p.message}`)
  }
  const o = s.output
  if (o && !s.error) {
    lines.push(`  output      ${o.file}: ${o.blocks} blocks; ${o.unchanged} written as read` +
      (o.canonicalized ? `, ${o.canonicalized} canonicalized` : '') +
      (o.relinked ? `, ${o.relinked} rewritten for their links` : '') +
      `; ${o.rootsReplaced ? `${o.rootsReplaced} root${o.rootsReplaced === 1 ? '' : 's'} replaced` : 'same roots'}` +
      (o.passes > 1 ? ` (${o.passes} passes over the input)` : ''))
    if (o.keptUnchanged) lines.push(`              ${o.keptUnchanged} non-canonical blocks have no canonical form and were copied unchanged (see problems)`)
    if (o.cannotRewrite.length) {
      lines.push(`              ${o.cannotRewrite.length} blocks link to rewritten blocks but could not be rewritten; those links dangle:`)
      for (const c of o.cannotRewrite.slice(0, MAX_PROBLEMS)) lines.push(`    ${c.cid}  ${c.reason}`)
    }
    if (o.mappings.length) {
      lines.push('  new CIDs    old -> new (links to them rewritten up to the roots)')
      for (const m of o.mappings.slice(0, SHOWN_MAPPINGS)) lines.push(`    ${m.old} -> ${m.new}  (${m.why})`)
      if (o.mappings.length > SHOWN_MAPPINGS) lines.push(`    ... ${o.mappings.length - SHOWN_MAPPINGS} more: --json lists all ${o.mappings.length}${o.mapFile ? `, and so does ${o.mapFile}` : ', or write them to a file with --map FILE'}`)
      else if (o.mapFile) lines.push(`    (also written to ${o.mapFile})`)
    }
  }
  if (options.result) return [...lines, ...options.result].join('\n')
  const code = exitCode(s)
  lines.push(s.error
    ? `  result      INCOMPLETE: the run stopped after ${s.blocks} blocks${s.error.offset !== undefined ? `, at byte offset ${s.error.offset}` : ''} (the error is on stderr)${o ? '; no output was written' : ''}`
    : code === 0
      ? '  result      OK: every block verified, every DAG-CBOR block canonical'
      : `  result      FAIL: ${[
        s.hashMismatches && `${s.hashMismatches} hash mismatches`,
        s.unverified && `${s.unverified} blocks with unverifiable hashes`,
        d.nonCanonical && `${d.nonCanonical} non-canonical`,
        d.invalid && `${d.invalid} invalid`
      ].filter(Boolean).join(', ')}`)
  return lines.join('\n')
}
