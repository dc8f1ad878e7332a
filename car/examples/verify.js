// Verify a whole CAR: every check the CLI's `dag-cbor-car verify` makes, to the same summary object
// its --json prints (hashes, strict canonical DAG-CBOR, roots, duplicates, the CARv2 index).
//   node examples/verify.js file.car
import { verifyCar } from 'dag-cbor-car'

const file = process.argv[2]
if (!file) throw new Error('usage: node examples/verify.js file.car')

const summary = await verifyCar(file, {
  onProgress: (blocks, bytes) => process.stderr.write(`\r${blocks} blocks, ${bytes} bytes`)
})
process.stderr.write('\n')
console.log(`${summary.result}: ${summary.blocks} blocks, ${summary.verified} hashes verified, ` +
  `${summary.dagCbor.canonical} canonical / ${summary.dagCbor.nonCanonical} non-canonical / ${summary.dagCbor.invalid} invalid DAG-CBOR`)
for (const problem of summary.problems.slice(0, 5)) console.log(`  ${problem.message}`)
process.exitCode = summary.result === 'ok' ? 0 : 1
