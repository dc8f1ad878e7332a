// The run's summary: counts accumulated block by block (in CAR order), then printed for humans or as JSON.
import { hashName, unverifiedReason } from '../check/hash.js'
import { humanBytes, humanRate, humanSeconds } from './units.js'
import { now } from '../base/clock.js'

const MAX_PROBLEMS = 10
const SHOWN_MAPPINGS = 20 // printed in the human summary (the JSON has them all)
const FLOAT_EXAMPLES = 5 // blocks listed with their integral-float paths

const codecNames = new Map([[0x71, 'dag-cbor'], [0x55, 'raw'], [0x70, 'dag-pb'], [0x0129, 'dag-json'], [0x0200, 'json']])

/** @param {number} code */
export const codecName = (code) => codecNames.get(code) ?? `0x${code.toString(16)}`

/**
 * @typedef {object} Problem
 * @property {string} cid
 * @property {string} kind 'hash-mismatch' | 'unverified' | 'non-canonical' | 'invalid' | 'unknown-codec' | 'missing-root' | 'no-roots' | 'index' | 'car-v2' | 'varint'
 * @property {number} at byte offset in the CAR the problem is about (a block's section, the header, an index entry)
 * @property {string} [rule]
 * @property {string} [path]
 * @property {number} [offset] byte offset within the block (from the decoder)
 * @property {boolean} [lossless] for a non-canonical block: relaxed decode reads its value exactly (--relaxed accepts it)
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
    /**
     * lossless: the non-canonical blocks relaxed decode reads exactly (accepted by --relaxed);
     * noCanonicalForm: those holding text that is not valid UTF-8 (--canonicalize cannot fix them)
     */
    dagCbor: { canonical: 0, nonCanonical: 0, lossless: 0, noCanonicalForm: 0, invalid: 0, rules: /** @type {Record<string, number>} */ ({}) },
    /** --relaxed: non-canonical blocks that relaxed decode reads losslessly are counted and listed, not a failure */
    relaxed: false,
    /** blocks of other codecs: not what their codec says (dag-pb, dag-json, json), or of a codec this tool does not know */
    otherCodecs: { invalid: 0, unknown: 0 },
    /** roots listed in the header and not present as blocks (a problem unless partial) */
    /** @type {string[]} */ missingRoots: [],
    /** --partial: missing roots and an empty root list are accepted */
    partial: false,
    /** blocks whose CID appeared earlier in the CAR (reported, not a problem) */
    duplicates: 0,
    /** @type {null | import('../read/carv2-index.js').IndexCheck} the CARv2 index, when the file has one */
    index: null,
    /** problems with the CAR as a whole (roots, index), counted in problemCount too */
    carProblems: 0,
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
    mbPerSec: 0,
    /** @type {'ok' | 'fixed' | 'fail' | 'incomplete'} what the run concluded (resultOf); the exit status follows from it */
    result: /** @type {'ok' | 'fixed' | 'fail' | 'incomplete'} */ ('incomplete')
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
 * @property {{ result: string, problems: number }} [check] with --canonicalize: the written CAR read back and checked
 * @property {boolean} [written] whether the CAR took its name (only when the run passed, or was fixed
 *   and read back clean; otherwise nothing is left of it)
 */

/** @typedef {ReturnType<typeof createSummary>} Summary */

/**
 * @param {Summary} s
 * @param {import('../run/batch.js').Block & { offset?: number }} block
 * @param {import('../check/classify.js').BlockResult} r
 */
export function addBlock (s, block, r) {
  const { cid, bytes } = block
  const at = block.offset ?? 0
  countBlocks(s, cid.code, cid.multihash.code, 1, bytes.length)
  const hash = hashName(cid.multihash.code)
  if (r.hash === 'ok') s.verified++
  else if (r.hash === 'unverified') s.unverified++
  else {
    s.hashMismatches++
    problem(s, { cid: cid.toString(), kind: 'hash-mismatch', at, message: `block at byte offset ${at}: its bytes do not hash to its CID (${hash})` })
  }
  if (r.hash === 'unverified') problem(s, { cid: cid.toString(), kind: 'unverified', at, message: `block at byte offset ${at}: ${unverifiedReason(cid)}, so its bytes were not checked` })
  if (r.content) {
    if (r.content === 'invalid') s.otherCodecs.invalid++
    else s.otherCodecs.unknown++
    problem(s, { cid: cid.toString(), kind: r.content === 'invalid' ? 'invalid' : 'unknown-codec', at, message: `block at byte offset ${at}: ${r.reason}` })
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
  if (r.lossless) s.dagCbor.lossless++
  if (r.noCanonicalForm) s.dagCbor.noCanonicalForm++
  s.dagCbor.rules[r.rule ?? 'error'] = (s.dagCbor.rules[r.rule ?? 'error'] ?? 0) + 1
  problem(s, {
    cid: cid.toString(),
    kind: r.cls === 'invalid' ? 'invalid' : 'non-canonical',
    at,
    rule: r.rule,
    path: r.path,
    offset: r.offset,
    ...(r.cls === 'nonCanonical' ? { lossless: !!r.lossless } : {}),
    message: `block at byte offset ${at}: ${r.reason ?? ''}${r.cls === 'nonCanonical' && !r.lossless ? '; --relaxed does not accept it (relaxed decode would not read its value exactly)' : ''}${r.keptReason ? `; ${r.keptReason}` : ''}`
  })
}

/**
 * The counts each block adds (addBlock's first step; run/section-checks.js's fast path adds the rest itself),
 * for `blocks` blocks of one codec and hash.
 *
 * @param {Summary} s
 * @param {number} codecCode the CID's codec
 * @param {number} hashCode its multihash code
 * @param {number} blocks
 * @param {number} size the blocks' bytes
 */
export function countBlocks (s, codecCode, hashCode, blocks, size) {
  s.blocks += blocks
  s.blockBytes += size
  const codec = codecName(codecCode)
  s.codecs[codec] = (s.codecs[codec] ?? 0) + blocks
  const hash = hashName(hashCode)
  s.hashes[hash] = (s.hashes[hash] ?? 0) + blocks
}

/**
 * Add a summary of later blocks (a worker's batch, counted by addBlock) to `s`, as if each of its
 * blocks had been added to `s` in turn: counts summed, the first problems and examples kept.
 *
 * @param {Summary} s
 * @param {Summary} part
 */
export function mergeSummary (s, part) {
  s.blocks += part.blocks
  s.blockBytes += part.blockBytes
  s.verified += part.verified
  s.hashMismatches += part.hashMismatches
  s.otherCodecs.invalid += part.otherCodecs.invalid
  s.otherCodecs.unknown += part.otherCodecs.unknown
  s.unverified += part.unverified
  addCounts(s.codecs, part.codecs)
  addCounts(s.hashes, part.hashes)
  const d = s.dagCbor
  d.canonical += part.dagCbor.canonical
  d.nonCanonical += part.dagCbor.nonCanonical
  d.lossless += part.dagCbor.lossless
  d.noCanonicalForm += part.dagCbor.noCanonicalForm
  d.invalid += part.dagCbor.invalid
  addCounts(d.rules, part.dagCbor.rules)
  s.problemCount += part.problemCount
  for (const p of part.problems) if (s.problems.length < MAX_PROBLEMS) s.problems.push(p)
  const f = s.integralFloats
  f.blocks += part.integralFloats.blocks
  f.values += part.integralFloats.values
  for (const e of part.integralFloats.examples) if (f.examples.length < FLOAT_EXAMPLES) f.examples.push(e)
}

/** @param {Record<string, number>} into @param {Record<string, number>} from */
function addCounts (into, from) {
  for (const k in from) into[k] = (into[k] ?? 0) + from[k]
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
 * @param {number} start now() (base/clock.js) at the start of the run
 */
export function finishSummary (s, start) {
  const seconds = (now() - start) / 1000
  // rounded: a script reads 0.232, not 0.23176159999999998
  s.seconds = Math.round(seconds * 1000) / 1000
  s.mbPerSec = seconds > 0 ? Math.round(s.bytes / 1e6 / seconds * 10) / 10 : 0
  s.result = resultOf(s)
  return s
}

/**
 * The problems that fail the run: every one found, less the non-canonical blocks --relaxed accepts.
 *
 * @param {Summary} s
 */
export function problemsFound (s) {
  return (s.relaxed ? -s.dagCbor.lossless : 0) + s.hashMismatches + s.unverified + s.dagCbor.nonCanonical + s.dagCbor.invalid + s.otherCodecs.invalid + s.otherCodecs.unknown + s.carProblems
}

/**
 * What a run concluded: 'ok' (every check passed), 'fixed' (the only problems were non-canonical
 * blocks, --canonicalize rewrote every one, and the written CAR was read back and passed every check),
 * 'fail' (problems found in the data), 'incomplete' (the run stopped on an error).
 *
 * @param {Summary} s
 * @returns {'ok' | 'fixed' | 'fail' | 'incomplete'}
 */
export function resultOf (s) {
  if (s.error) return 'incomplete'
  const found = problemsFound(s)
  if (found === 0) return 'ok'
  const o = s.output
  const onlyNonCanonical = found === s.dagCbor.nonCanonical - (s.relaxed ? s.dagCbor.lossless : 0)
  if (o && onlyNonCanonical && o.keptUnchanged === 0 && o.cannotRewrite.length === 0 && o.check?.result === 'ok') return 'fixed'
  return 'fail'
}

/**
 * 2: the run stopped on an error; 1: problems found in the data (and not all fixed); 0: all verified
 * and canonical, or every problem fixed in the written CAR (see resultOf).
 *
 * @param {Summary} s
 */
export function exitCode (s) {
  const result = resultOf(s)
  return result === 'incomplete' ? 2 : result === 'fail' ? 1 : 0
}

/** @param {Summary} s */
function rootsLine (s) {
  if (s.roots.length === 0) return s.partial ? 'none listed (accepted: --partial)' : 'none listed in the header'
  const present = s.roots.length - s.missingRoots.length
  if (s.missingRoots.length === 0) return `${s.roots.length === 1 ? 'the root is present as a block' : `all ${s.roots.length} are present as blocks`}`
  return `${present} of ${s.roots.length} present as blocks; missing: ${s.missingRoots.slice(0, 3).join(', ')}${s.missingRoots.length > 3 ? ` and ${s.missingRoots.length - 3} more` : ''}` +
    (s.partial ? ' (accepted: --partial)' : '')
}

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
    `  blocks      ${s.blocks} (${humanBytes(s.blockBytes)} of block data, ${humanBytes(s.bytes)} read)` +
      (s.duplicates ? `; ${s.duplicates} duplicate${s.duplicates === 1 ? '' : 's'} (a CID seen earlier in the CAR)` : ''),
    `  roots       ${rootsLine(s)}`,
    `  codecs      ${counts(s.codecs)}`,
    `  hashes      ${counts(s.hashes)}: ${s.verified} verified, ${s.hashMismatches} mismatched, ${s.unverified} unverified`,
    `  dag-cbor    ${d.canonical} canonical, ${d.nonCanonical} non-canonical, ${d.invalid} invalid` +
      (Object.keys(d.rules).length ? ` (${counts(d.rules)})` : ''),
    `  time        ${humanSeconds(s.seconds)}, ${humanRate(s.bytes, s.seconds)}, ${s.workers} worker${s.workers === 1 ? '' : 's'}`
  ]
  if (s.index) lines.splice(lines.length - 1, 0, `  index       CARv2 ${s.index.format}, ${s.index.entries} entries: ${s.index.problems ? `${s.index.problems} problem${s.index.problems === 1 ? '' : 's'} (see problems: records that do not match the blocks or are out of order)` : 'matches the blocks'}`)
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
  if (o && !s.error && o.written === false) {
    lines.push(`  output      ${o.file}: not written, since the run did not pass${o.check && o.check.result !== 'ok' ? ` (the copy written did not pass when read back: ${o.check.result})` : ''}; nothing is left of it`)
  } else if (o && !s.error) {
    lines.push(`  output      ${o.file}: ${o.blocks} blocks; ${o.unchanged} written as read` +
      (o.canonicalized ? `, ${o.canonicalized} canonicalized` : '') +
      (o.relinked ? `, ${o.relinked} rewritten for their links` : '') +
      `; ${o.rootsReplaced ? `${o.rootsReplaced} root${o.rootsReplaced === 1 ? '' : 's'} replaced` : 'same roots'}` +
      (o.passes > 1 ? ` (${o.passes} passes over the input)` : ''))
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
  const result = resultOf(s)
  if (result === 'incomplete') {
    lines.push(`  result      INCOMPLETE: the run stopped after ${s.blocks} blocks${s.error?.offset !== undefined ? `, at byte offset ${s.error.offset}` : ''} (the error is on stderr)${o ? '; no output was written' : ''}`)
  } else if (result === 'ok' && s.relaxed && d.nonCanonical) {
    lines.push(`  result      OK (--relaxed): every block verified, ${d.nonCanonical} non-canonical DAG-CBOR block${d.nonCanonical === 1 ? '' : 's'} accepted (relaxed decode reads ${d.nonCanonical === 1 ? 'it' : 'them'} losslessly; listed above), every other DAG-CBOR block canonical, ${s.roots.length ? 'every root present' : 'no roots (--partial)'}${s.missingRoots.length ? ' except those missing (--partial)' : ''}${s.index ? ', the index matches' : ''}`)
  } else if (result === 'ok') {
    lines.push(`  result      OK: every block verified, every DAG-CBOR block canonical, ${s.roots.length ? 'every root present' : 'no roots (--partial)'}${s.missingRoots.length ? ' except those missing (--partial)' : ''}${s.index ? ', the index matches' : ''}`)
  } else if (result === 'fixed' && o) {
    lines.push(`  result      FIXED: ${d.nonCanonical} non-canonical block${d.nonCanonical === 1 ? '' : 's'} canonicalized` +
      `${o.relinked ? `, ${o.relinked} rewritten for their links` : ''}${o.rootsReplaced ? `, ${o.rootsReplaced} root${o.rootsReplaced === 1 ? '' : 's'} replaced` : ''}; ` +
      `${o.file} was read back: every block verified and canonical, every root present`)
  } else {
    const missingRoots = s.partial ? 0 : s.missingRoots.length
    const other = s.carProblems - missingRoots
    lines.push(`  result      FAIL: ${[
      s.hashMismatches && `${s.hashMismatches} hash mismatch${s.hashMismatches === 1 ? '' : 'es'}`,
      s.unverified && `${s.unverified} block${s.unverified === 1 ? '' : 's'} with unverifiable hashes`,
      (d.nonCanonical - (s.relaxed ? d.lossless : 0)) && `${d.nonCanonical - (s.relaxed ? d.lossless : 0)} non-canonical${s.relaxed ? ' that relaxed decode does not read exactly' : ''}`,
      d.invalid && `${d.invalid} invalid`,
      s.otherCodecs.invalid && `${s.otherCodecs.invalid} block${s.otherCodecs.invalid === 1 ? '' : 's'} not valid for their codec`,
      s.otherCodecs.unknown && `${s.otherCodecs.unknown} block${s.otherCodecs.unknown === 1 ? '' : 's'} of a codec this tool does not know`,
      missingRoots && `${missingRoots} root${missingRoots === 1 ? '' : 's'} not present as a block`,
      other && `${other} other problem${other === 1 ? '' : 's'} with the CAR (see problems)`,
      o?.check && o.check.result !== 'ok' && !o.keptUnchanged && !o.cannotRewrite.length && `the written CAR did not pass when read back (${o.check.result})`
    ].filter(Boolean).join(', ')}` +
      (!o ? nonCanonicalAdvice(s) : ''))
  }
  return lines.join('\n')
}

/**
 * What a FAIL line on non-canonical blocks offers: --relaxed accepts those relaxed decode reads
 * exactly (historical data whose CIDs must not change), --canonicalize rewrites them, unless one
 * holds text that is not valid UTF-8: that has no canonical form, so a rewrite would fail, and the
 * line says so instead. Only when they are the only problems: neither fixes a hash mismatch, an
 * invalid block or a missing root.
 *
 * @param {Summary} s
 */
function nonCanonicalAdvice (s) {
  const d = s.dagCbor
  if (d.nonCanonical === 0 || problemsFound(s) !== d.nonCanonical - (s.relaxed ? d.lossless : 0)) return ''
  const relaxed = !s.relaxed && d.lossless
    ? `; --relaxed accepts ${d.lossless === d.nonCanonical ? (d.lossless === 1 ? 'it as it is' : 'them as they are') : `the ${d.lossless} of them that relaxed decode reads losslessly`}${d.lossless === d.nonCanonical ? ` (relaxed decode reads ${d.lossless === 1 ? 'it' : 'them'} losslessly)` : ''}`
    : ''
  const n = d.noCanonicalForm
  const which = n === d.nonCanonical ? (n === 1 ? 'it: it holds' : 'them: they hold') : `the ${n} of them that ${n === 1 ? 'holds' : 'hold'}`
  if (n > 0) return `${relaxed}; --canonicalize cannot fix ${which} text that is not valid UTF-8, which has no canonical form`
  return `${relaxed}; --out FILE --canonicalize writes a copy with them in canonical form`
}
