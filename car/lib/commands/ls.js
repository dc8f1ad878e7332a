// dag-cbor-car ls FILE: one line per block, in CAR order: CID, codec, size, hash check, DAG-CBOR status
// (canonical, non-canonical, invalid; - for other codecs); --links adds the CIDs the block links to.
// With --json, one JSON object per block (JSON lines). Every block is checked as `verify` checks it;
// as go-car's ls, the exit status is 0 once the listing is written (problems in its columns, and
// counted on stderr), 1 with --strict when there were problems, 2 for unreadable input.
import { openCarInput } from '../node/car-input.js'
import { CidTable } from '../core/graph/cid-table.js'
import { checkBlock, codecName } from '../core/report/block-report.js'
import { linksOf } from '../core/graph/links.js'
import { createLineWriter } from '../node/lines.js'
import { parseCommand, COMMON_USAGE, STRICT_OPTION, STRICT_USAGE } from '../node/command-args.js'
import { nonMinimalVarints } from '../core/check/car-checks.js'

const USAGE = `usage: dag-cbor-car ls <in.car | -> [--links] [--partial] [--strict] [--json] [--max-block-size SIZE]

  in.car               CARv1 or CARv2 file; - reads standard input
  --links              add each block's links (the CIDs it names)
  --partial            the CAR is part of a larger DAG: roots missing from it are not a problem
${STRICT_USAGE}
${COMMON_USAGE}

columns: CID, codec, size in bytes, hash (ok, mismatch, unverified), dag-cbor status (- for other codecs)
exit status: 0 the listing was written (problems in its columns, with --json in "problem", and
             counted on stderr); 1 with --strict, problems found in the data; 2 bad usage or unreadable input`

/**
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
export async function run (argv) {
  const args = parseCommand(argv, { links: { type: 'boolean' }, partial: { type: 'boolean' }, ...STRICT_OPTION }, USAGE, ['in.car'])
  if (!args) return 0 // --help
  const { values, positionals, maxBlockSize } = args
  const { name, car, close } = await openCarInput(positionals[0], { maxBlockSize, stdoutListing: true })
  const out = createLineWriter()
  let problems = 0
  let blockProblems = 0
  try {
    const seen = new CidTable()
    for await (const block of car.blocks()) {
      const { cid, bytes } = block
      const check = checkBlock(cid, bytes)
      if (check.problem) blockProblems++
      const before = seen.size
      const duplicate = seen.add(cid.bytes, 0, cid.bytes.length) < before
      const links = values.links ? linksOf(cid.code, bytes) : undefined
      if (values.json) {
        /** @type {Record<string, any>} */
        const entry = { cid: cid.toString(), codec: codecName(cid.code), size: bytes.length, offset: block.offset, hash: check.hash }
        if (check.dagCbor) entry.dagCbor = check.dagCbor
        if (check.problem) entry.problem = check.problem.message
        if (duplicate) entry.duplicate = true
        if (links !== undefined) entry.links = links === null ? null : links.map(String)
        await out.line(JSON.stringify(entry))
      } else {
        let line = `${cid}\t${codecName(cid.code)}\t${bytes.length}\t${check.hash}\t${check.dagCbor ?? '-'}`
        if (duplicate) line += '\tduplicate'
        if (links !== undefined) line += `\tlinks: ${links === null ? '(not read for this codec)' : links.join(' ') || '-'}`
        await out.line(line)
      }
    }
    // the length varints written longer than their shortest form: verify's problems, said as it says them
    const varints = nonMinimalVarints(car)
    problems += varints.count
    for (const p of varints.problems) process.stderr.write(`dag-cbor-car: ${p.message}\n`)
    if (varints.count > varints.problems.length) process.stderr.write(`dag-cbor-car: ${varints.count} length varints in all are longer than their shortest form (\`dag-cbor-car verify\` counts them)\n`)
    if (!values.partial) {
      if (car.roots.length === 0) {
        problems++
        process.stderr.write('dag-cbor-car: the CAR header lists no roots (--partial accepts that)\n')
      }
      for (const root of car.roots) {
        if (seen.find(root.bytes, 0, root.bytes.length) >= 0) continue
        problems++
        process.stderr.write(`dag-cbor-car: root ${root} is listed in the CAR header but not present as a block (--partial accepts that)\n`)
      }
    }
  } finally {
    await out.flush() // what was listed before an error in the input stays listed
    await close()
  }
  if (blockProblems) process.stderr.write(`dag-cbor-car: ${name}: ${blockProblems} block${blockProblems === 1 ? ' has a problem' : 's have problems'} (the hash and dag-cbor columns say which; dag-cbor-car verify says why)\n`)
  return (problems || blockProblems) && values.strict ? 1 : 0
}
