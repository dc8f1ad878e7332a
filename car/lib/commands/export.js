// dag-cbor-car export FILE: the CAR as JSON lines (block-json.js): the header first, then one line
// per block in CAR order, each a DAG-JSON value where that gives back the block's exact bytes, else
// its bytes in base64 with a note saying why. `import` is the inverse: export | import gives back a
// byte-identical CARv1. A block that is not canonical or fails its hash is still exported, as bytes
// (nothing is lost), and said on stderr, as are verify's other problems it sees (long length
// varints, roots missing or none): exit 0, or 1 with --strict; 2 unreadable input.
import * as codec from 'dag-cbor-fast'
import { openCarInput } from '../node/car-input.js'
import { headerLine, blockLine } from '../core/report/block-json.js'
import { createLineWriter } from '../node/lines.js'
import { sameBytes } from '../core/base/bytes.js'
import { CidTable } from '../core/graph/cid-table.js'
import { parseCommand, COMMON_USAGE, STRICT_OPTION, STRICT_USAGE } from '../node/command-args.js'
import { nonMinimalVarints } from '../core/check/car-checks.js'

const USAGE = `usage: dag-cbor-car export <in.car | -> [--partial] [--strict] [--max-block-size SIZE] > blocks.jsonl

  in.car               CARv1 or CARv2 file; - reads standard input
  --partial            the CAR is part of a larger DAG: roots missing from it are not a problem
${STRICT_USAGE}
${COMMON_USAGE}
                       (the output is always JSON lines; --json is accepted and changes nothing)

lines: {"roots":[{"/":"<cid>"}],"version":1}, then per block {"cid":"<cid>","codec":"dag-cbor","value":<DAG-JSON>}
       or {"cid":"<cid>","codec":"raw","bytes":"<base64>"}; rebuild the CAR with dag-cbor-car import
exit status: 0 exported (blocks with problems are exported as bytes with a "note", and said on
             stderr); 1 with --strict, problems found in the data; 2 bad usage or unreadable input`

const SHOWN = 5

/**
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
export async function run (argv) {
  const args = parseCommand(argv, { partial: { type: 'boolean' }, ...STRICT_OPTION }, USAGE, ['in.car'])
  if (!args) return 0 // --help
  const { values, positionals, maxBlockSize } = args
  const { name, car, prefix, close } = await openCarInput(positionals[0], { maxBlockSize, stdoutListing: true })
  const out = createLineWriter()
  /** @type {string[]} */
  const notes = []
  let problems = 0
  let problemsShown = 0
  /** @param {string} note @param {boolean} [problem] one of the problems counted (they are said up to SHOWN lines in all) */
  const note = (note, problem = false) => {
    if (notes.length >= SHOWN) return
    notes.push(note)
    if (problem) problemsShown++
  }
  let asBytes = 0
  // the roots, numbered; each marked when a block has its CID (the memory is the roots', not the CAR's)
  const roots = new CidTable()
  for (const root of car.roots) roots.add(root.bytes, 0, root.bytes.length)
  const present = new Uint8Array(roots.size)
  try {
    const differences = headerDifference(car, prefix)
    if (differences) note(differences)
    await out.line(headerLine(car.roots))
    for await (const block of car.blocks()) {
      const { cid, bytes } = block
      const root = roots.size ? roots.find(cid.bytes, 0, cid.bytes.length) : -1
      if (root >= 0) present[root] = 1
      const exported = blockLine(cid, bytes)
      if (exported.problem) {
        problems++
        note(`${cid} at byte offset ${block.offset}: ${exported.problem}`, true)
      } else if (exported.note) {
        asBytes++
      }
      await out.line(exported.line)
    }
  } finally {
    await out.flush() // what was listed before an error in the input stays listed
    await close()
  }
  // verify's problems with the framing (the reader notes each long length varint, the header's
  // too): --strict fails on them as on a block's
  const varints = nonMinimalVarints(car)
  problems += varints.count
  for (const p of varints.problems) note(p.message, true)
  if (varints.count) note(`${varints.count} of its length varints are longer than needed; import writes the shortest form, so its CAR will differ there`)
  // the roots, as verify and ls check them: import writes them as they are
  if (!values.partial) {
    if (car.roots.length === 0) {
      problems++
      note('the CAR header lists no roots (--partial accepts that)', true)
    }
    for (const root of car.roots) {
      if (present[roots.find(root.bytes, 0, root.bytes.length)]) continue
      problems++
      note(`root ${root} is listed in the CAR header but not present as a block (--partial accepts that)`, true)
    }
  }
  if (asBytes) note(`${asBytes} blocks of a codec with values were exported as bytes because DAG-JSON cannot carry their value exactly (see their "note")`)
  for (const line of notes) process.stderr.write(`dag-cbor-car: export of ${name}: ${line}\n`)
  if (problems > problemsShown) process.stderr.write(`dag-cbor-car: export of ${name}: ${problems} problems in all (blocks with problems are exported as bytes with a "note"; \`dag-cbor-car verify\` lists them)\n`)
  return problems && values.strict ? 1 : 0
}

/**
 * Why import would not write this CAR's header byte for byte (it writes a canonical CARv1 header).
 *
 * @param {import('../core/read/open-car.js').Car} car
 * @param {Uint8Array} prefix the first bytes of the input
 * @returns {string | null}
 */
function headerDifference (car, prefix) {
  if (car.v2) return 'it is a CARv2: import writes its CARv1 payload (the same blocks and roots), without the CARv2 wrapper and index'
  const end = car.position()
  if (end > prefix.length) return null // a header of over 64 KiB: not compared
  // the DAG-CBOR after the length varint; a varint longer than needed is the reader's to note
  // (nonMinimalVarints, with the sections')
  let start = 0
  while (prefix[start] >= 0x80) start++
  if (sameBytes(codec.encode({ roots: car.roots, version: 1 }), prefix.subarray(start + 1, end))) return null
  return 'its header is not in canonical DAG-CBOR form: import writes the same roots canonically, so the first bytes will differ'
}
