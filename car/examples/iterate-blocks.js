// Iterate a CAR's blocks with their hashes verified (as @ipld/car's CarBlockIterator, plus the
// check), and classify each DAG-CBOR block: canonical, non-canonical or invalid.
//   node examples/iterate-blocks.js file.car
import { CarBlockIterator, CarBlockError } from 'dag-cbor-car'

const file = process.argv[2]
if (!file) throw new Error('usage: node examples/iterate-blocks.js file.car')

const iterator = await CarBlockIterator.fromIterable(file, { validate: true })
console.log(`CARv${iterator.version}, roots: ${(await iterator.getRoots()).join(', ') || 'none'}`)
/** @type {Record<string, number>} */
const statuses = {}
let blocks = 0
try {
  for await (const block of iterator) {
    blocks++
    const status = block.status ?? 'ok'
    statuses[status] = (statuses[status] ?? 0) + 1
    if (block.problem) console.log(`${block.cid} at byte ${block.offset}: ${status}, ${block.problem.message}`)
  }
} catch (err) {
  // a block whose bytes do not hash to its CID ends the iteration, at its byte offset
  if (err instanceof CarBlockError) console.log(`${err.kind} at byte ${err.offset}: ${err.message}`)
  throw err
}
console.log(`${blocks} blocks, every hash verified: ${Object.entries(statuses).map(([s, n]) => `${n} ${s}`).join(', ')}`)
