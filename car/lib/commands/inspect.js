// dag-cbor-car inspect FILE: what a CAR holds and how its DAG hangs together, in one streaming pass:
// version, roots (present or missing), blocks and bytes, codecs, hash functions, CID versions, block
// sizes, the DAG-CBOR classification (every block checked as `verify` checks it), and the DAG's shape:
// blocks reachable from the roots, blocks reachable from none, links to blocks the CAR lacks, the
// longest chain of links. Exit status (as go-car's inspect): 0 once the report is written, its
// problems in it, in --json and counted on stderr; 1 with --strict when there are problems; 2 unreadable.
import { openCarInput } from '../node/car-input.js'
import { DagIndex } from '../core/graph/dag-index.js'
import { checkBlock, codecName, SizeList } from '../core/report/block-report.js'
import { hashName } from '../core/check/hash.js'
import { nonMinimalVarints, carV2Problems } from '../core/check/car-checks.js'
import { cidText } from '../core/graph/links.js'
import { humanBytes } from '../core/report/units.js'
import { parseCommand, COMMON_OPTIONS, COMMON_USAGE, STRICT_OPTION, STRICT_USAGE } from '../node/command-args.js'

/** @type {{ partial: { type: 'boolean' }, strict: { type: 'boolean' } }} */
const OWN_OPTIONS = { partial: { type: 'boolean' }, ...STRICT_OPTION }
/** inspect's options (also read by many.js, to tell a flag's value from an input) */
export const OPTIONS = { ...COMMON_OPTIONS, ...OWN_OPTIONS }

const USAGE = `usage: dag-cbor-car inspect <in.car | -> [--partial] [--strict] [--json] [--max-block-size SIZE]
       dag-cbor-car inspect a.car b.car ... [--strict] [--json]   (several files, in parallel)

  in.car               CARv1 or CARv2 file; - reads standard input
  --partial            the CAR is part of a larger DAG: roots missing from it are not a problem
${STRICT_USAGE}
${COMMON_USAGE}

exit status: 0 the report was written (problems in the data are in it, in --json, and counted on
             stderr); 1 with --strict, problems found in the data; 2 bad usage or unreadable input`

const SHOWN = 5 // missing link targets and problems listed by CID
const MAX_PROBLEMS = 10

/**
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
export async function run (argv) {
  const args = parseCommand(argv, OWN_OPTIONS, USAGE, ['in.car'])
  if (!args) return 0 // --help
  const { values, positionals, maxBlockSize } = args
  const input = await openCarInput(positionals[0], { maxBlockSize })
  let report
  try {
    report = await inspect(input, { partial: !!values.partial })
  } finally {
    await input.close()
  }
  process.stdout.write((values.json ? JSON.stringify(report) : format(report)) + '\n')
  if (report.ok) return 0
  process.stderr.write(`dag-cbor-car: ${report.input}: ${plural(report.problemCount, 'problem')} in the data (listed in the report)\n`)
  return values.strict ? 1 : 0
}

/**
 * @param {import('../node/car-input.js').CarInput} input
 * @param {{ partial: boolean }} options
 */
export async function inspect ({ name, car }, { partial }) {
  const index = new DagIndex()
  const sizes = new SizeList()
  /** @type {Record<string, number>} */ const codecs = {}
  /** @type {Record<string, number>} */ const hashes = {}
  /** @type {Record<string, number>} */ const cidVersions = {}
  const hashCheck = { verified: 0, mismatched: 0, unverified: 0 }
  const dagCbor = { canonical: 0, nonCanonical: 0, invalid: 0 }
  /** @type {{ cid: string, kind: string, offset: number, message: string }[]} */
  const problems = []
  let problemCount = 0
  let blocks = 0
  let blockBytes = 0
  /** @param {{ cid: string, kind: string, offset: number, message: string }} p */
  const problem = (p) => {
    problemCount++
    if (problems.length < MAX_PROBLEMS) problems.push(p)
  }

  for await (const block of car.blocks()) {
    const { cid, bytes } = block
    blocks++
    blockBytes += bytes.length
    sizes.add(bytes.length)
    const codec = codecName(cid.code)
    codecs[codec] = (codecs[codec] ?? 0) + 1
    const hash = hashName(cid.multihash.code)
    hashes[hash] = (hashes[hash] ?? 0) + 1
    cidVersions[`v${cid.version}`] = (cidVersions[`v${cid.version}`] ?? 0) + 1
    const check = checkBlock(cid, bytes)
    if (check.hash === 'ok') hashCheck.verified++
    else if (check.hash === 'mismatch') hashCheck.mismatched++
    else hashCheck.unverified++
    if (check.dagCbor === 'canonical') dagCbor.canonical++
    else if (check.dagCbor === 'non-canonical') dagCbor.nonCanonical++
    else if (check.dagCbor === 'invalid') dagCbor.invalid++
    if (check.problem) problem({ cid: cid.toString(), kind: check.problem.kind, offset: block.offset, message: check.problem.message })
    const id = index.addBlock(cid.bytes, block.offset, car.position() - block.offset, cid.code, null)
    if (id >= 0) index.readLinks(id, cid.code, bytes) // a duplicate's links are its first copy's
  }
  const bytesRead = car.position()
  const present = index.blocks
  const missingIds = []
  let missingLinks = 0
  for (let e = 0; e < index.edgeTotal; e++) if (!index.has(index.edges[e])) missingLinks++
  for (let id = 0; id < index.size; id++) if (!index.has(id)) missingIds.push(id)

  const header = car.v2 ? car.v2.dataOffset : 0
  // the length varints written longer than their shortest form: verify's problems, with its offsets
  const varints = nonMinimalVarints(car)
  for (const { cid, kind, at, message } of varints.problems) problem({ cid, kind, offset: at, message })
  problemCount += varints.count - varints.problems.length
  const rootIds = car.roots.map((r) => index.cids.add(r.bytes, 0, r.bytes.length))
  const roots = car.roots.map((r, i) => ({ cid: r.toString(), present: index.has(rootIds[i]) }))
  if (roots.length === 0 && !partial) problem({ cid: '', kind: 'no-roots', offset: header, message: `the CAR header (byte offset ${header}) lists no roots; if this CAR is part of a larger DAG, --partial accepts it` })
  for (const r of roots) {
    if (!r.present && !partial) problem({ cid: r.cid, kind: 'missing-root', offset: header, message: `listed as a root in the CAR header (byte offset ${header}) but not present as a block; if its blocks are stored elsewhere, --partial accepts it` })
  }
  // the CARv2 header's problems, as verify finds them (the index's own check is verify's alone)
  for (const { cid, kind, at, message } of await carV2Problems(car)) problem({ cid, kind, offset: at, message })
  const reached = index.reach(rootIds)
  let reachable = 0
  for (let id = 0; id < reached.length; id++) if (reached[id] && index.has(id)) reachable++
  const deepest = index.deepest(rootIds)

  return {
    input: name,
    version: car.version,
    roots,
    blocks,
    uniqueBlocks: present,
    duplicates: index.duplicates,
    bytes: bytesRead,
    blockBytes,
    codecs,
    hashes,
    cidVersions,
    hashCheck,
    blockSizes: sizes.summary(),
    dagCbor,
    dag: {
      reachable,
      unreachable: present - reachable,
      links: index.edgeTotal,
      missing: { links: missingLinks, cids: missingIds.length, first: missingIds.slice(0, SHOWN).map((id) => cidText(index.cids.bytesOf(id))) },
      deepest: deepest.from < 0 ? null : { links: deepest.links, from: cidText(index.cids.bytesOf(deepest.from)), to: cidText(index.cids.bytesOf(deepest.to)) },
      linksNotRead: index.linksNotRead,
      cycles: deepest.cycles
    },
    partial,
    problemCount,
    problems,
    ok: problemCount === 0
  }
}

/** @param {Record<string, number>} o */
const counts = (o) => Object.entries(o).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'

/** @param {number} n @param {string} one @param {string} [many] */
const plural = (n, one, many = one + 's') => `${n} ${n === 1 ? one : many}`

/** @param {Awaited<ReturnType<typeof inspect>>} r */
function format (r) {
  const d = r.dag
  const s = r.blockSizes
  const lines = [
    `${r.input}: CARv${r.version}, ${plural(r.blocks, 'block')}, ${humanBytes(r.bytes)} (${humanBytes(r.blockBytes)} of block data)`,
    ...(r.roots.length ? r.roots.map((root, i) => `  ${i === 0 ? 'roots      ' : '           '} ${root.cid} (${root.present ? 'present' : 'MISSING'})`) : ['  roots       none listed in the header']),
    `  codecs      ${counts(r.codecs)}`,
    `  hashes      ${counts(r.hashes)}: ${r.hashCheck.verified} verified, ${r.hashCheck.mismatched} mismatched, ${r.hashCheck.unverified} unverified`,
    `  CIDs        ${counts(r.cidVersions)}${r.duplicates ? `; ${plural(r.duplicates, 'duplicate block')} (same CID again)` : ''}`,
    `  block size  ${s ? `min ${humanBytes(s.min)}, median ${humanBytes(s.median)}, max ${humanBytes(s.max)}` : 'no blocks'}`,
    `  dag-cbor    ${r.dagCbor.canonical} canonical, ${r.dagCbor.nonCanonical} non-canonical, ${r.dagCbor.invalid} invalid`,
    `  reachable   ${r.uniqueBlocks === 0 ? 'no blocks' : `${d.reachable} of ${r.uniqueBlocks} blocks from the roots; ${d.unreachable} from none`}`,
    `  links       ${d.links}; ${d.missing.links ? `${d.missing.links} to ${plural(d.missing.cids, 'block')} not in the CAR: ${d.missing.first.join(', ')}${d.missing.cids > d.missing.first.length ? ', ...' : ''}` : 'none to blocks missing from the CAR'}`
  ]
  if (d.linksNotRead) lines.push(`              ${plural(d.linksNotRead, 'block')} of a codec whose links this tool does not read (not dag-cbor, dag-pb, dag-json, raw or json): the reachability above leaves out their links`)
  if (d.deepest) lines.push(`  deepest     ${plural(d.deepest.links, 'link')} from ${d.deepest.from}${d.deepest.links ? ` to ${d.deepest.to}` : ''}`)
  if (r.problemCount) {
    lines.push(`  problems    ${r.problemCount}${r.problemCount > r.problems.length ? ` (first ${r.problems.length} shown)` : ''}:`)
    for (const p of r.problems) lines.push(`    ${p.cid ? p.cid + '  ' : ''}${p.kind} at byte offset ${p.offset}: ${p.message}`)
  }
  lines.push(r.ok
    ? `  result      OK: every block verified, every DAG-CBOR block canonical, ${r.partial ? 'roots not checked (--partial)' : 'every root present'}`
    : `  result      FAIL: ${plural(r.problemCount, 'problem')}`)
  return lines.join('\n')
}
