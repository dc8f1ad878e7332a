// dag-cbor-car diff a.car b.car: which blocks are only in a, which only in b, and whether the roots
// changed. a's CIDs are kept in a CidTable (a few tens of bytes per block), then b is streamed against
// it. Every block of both is hash-checked: equal CIDs mean equal bytes only when the hashes hold.
// Exit 0 when both hold the same blocks (by CID, in any order, duplicates aside) and the same roots,
// 1 when they differ or a block fails its hash check, 2 bad usage or unreadable input.
import { openCarInput } from '../node/car-input.js'
import { CidTable } from '../core/graph/cid-table.js'
import { verifyBlock } from '../core/check/hash.js'
import { cidText } from '../core/graph/links.js'
import { createLineWriter } from '../node/lines.js'
import { parseCommand, COMMON_USAGE } from '../node/command-args.js'

const USAGE = `usage: dag-cbor-car diff <a.car | -> <b.car | -> [--json]

  a.car, b.car         CARv1 or CARv2 files; - reads standard input (for one of them)
${COMMON_USAGE}

output: "- CID" for each block only in a, "+ CID" for each block only in b, then the roots and a
        summary line; --json: one object with the lists
exit status: 0 same blocks and roots; 1 they differ, or a block does not hash to its CID;
             2 bad usage or unreadable input`

const SHOWN = 5

/**
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
export async function run (argv) {
  const args = parseCommand(argv, {}, USAGE, ['a.car', 'b.car'])
  if (!args) return 0 // --help
  const { values, positionals, maxBlockSize } = args
  /** @type {string[]} */
  const badHashes = []
  let badCount = 0
  /** @param {string} name @param {import('../core/read/open-car.js').Block} block */
  const checkHash = (name, block) => {
    const hash = verifyBlock(block.cid, block.bytes)
    if (hash !== 'ok' && badCount++ < SHOWN) badHashes.push(`${name}: ${block.cid} at byte offset ${block.offset}: ${hash === 'mismatch' ? 'its bytes do not hash to the CID' : 'its hash function is not one this tool can check'}`)
  }

  const inA = new CidTable()
  const a = await openCarInput(positionals[0], { maxBlockSize })
  try {
    for await (const block of a.car.blocks()) {
      checkHash(a.name, block)
      inA.add(block.cid.bytes, 0, block.cid.bytes.length)
    }
  } finally {
    await a.close()
  }
  const alsoInB = new Uint8Array(inA.size)
  const onlyInB = new CidTable()
  const out = createLineWriter()
  /** @type {string[]} */
  const onlyInBList = []
  const b = await openCarInput(positionals[1], { maxBlockSize })
  try {
    for await (const block of b.car.blocks()) {
      checkHash(b.name, block)
      const bytes = block.cid.bytes
      const id = inA.find(bytes, 0, bytes.length)
      if (id >= 0) {
        alsoInB[id] = 1
        continue
      }
      const before = onlyInB.size
      if (onlyInB.add(bytes, 0, bytes.length) < before) continue // listed already
      if (values.json) onlyInBList.push(block.cid.toString())
      else await out.line(`+ ${block.cid}`)
    }
  } finally {
    await b.close()
  }
  /** @type {string[]} */
  const onlyInAList = []
  let both = 0
  for (let id = 0; id < inA.size; id++) {
    if (alsoInB[id]) { both++; continue }
    const cid = cidText(inA.bytesOf(id))
    if (values.json) onlyInAList.push(cid)
    else await out.line(`- ${cid}`)
  }
  const rootsA = a.car.roots.map(String)
  const rootsB = b.car.roots.map(String)
  const sameRoots = rootsA.length === rootsB.length && rootsA.every((r, i) => r === rootsB[i])
  const onlyA = inA.size - both
  const same = onlyA === 0 && onlyInB.size === 0 && sameRoots
  for (const p of badHashes) process.stderr.write(`dag-cbor-car: ${p}\n`)
  if (values.json) {
    await out.line(JSON.stringify({ a: a.name, b: b.name, same, sameRoots, roots: { a: rootsA, b: rootsB }, both, onlyInA: onlyInAList, onlyInB: onlyInBList, hashProblems: badCount }))
  } else {
    await out.line(sameRoots ? `roots: the same (${rootsA.join(', ') || 'none'})` : `roots: ${a.name} has ${rootsA.join(', ') || 'none'}; ${b.name} has ${rootsB.join(', ') || 'none'}`)
    await out.line(`${same ? 'same' : 'different'}: ${both} blocks in both, ${onlyA} only in ${a.name} (-), ${onlyInB.size} only in ${b.name} (+)${badCount ? `; ${badCount} blocks fail their hash check` : ''}`)
  }
  await out.flush()
  return same && badCount === 0 ? 0 : 1
}
