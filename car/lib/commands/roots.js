// dag-cbor-car roots FILE: the roots listed in the CAR's header, one per line (--json: one object).
// Only the header is read: this says what the CAR claims, not whether the blocks are there (inspect
// and verify say that). A header that lists no roots is said on stderr (exit 1 with --strict).
import { openCarInput } from '../node/car-input.js'
import { parseCommand, COMMON_USAGE, STRICT_OPTION, STRICT_USAGE } from '../node/command-args.js'

const USAGE = `usage: dag-cbor-car roots <in.car | -> [--strict] [--json]

  in.car               CARv1 or CARv2 file; - reads standard input
${STRICT_USAGE}
${COMMON_USAGE}

exit status: 0 the roots were written (a header that lists none is said on stderr); 1 with
             --strict, the header lists none; 2 bad usage or unreadable input`

/**
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
export async function run (argv) {
  const args = parseCommand(argv, STRICT_OPTION, USAGE, ['in.car'])
  if (!args) return 0 // --help
  const { values, positionals, maxBlockSize } = args
  const { name, car, close } = await openCarInput(positionals[0], { maxBlockSize })
  try {
    const roots = car.roots.map(String)
    if (values.json) process.stdout.write(JSON.stringify({ input: name, version: car.version, roots }) + '\n')
    else if (roots.length) process.stdout.write(roots.join('\n') + '\n')
    if (roots.length === 0) process.stderr.write(`dag-cbor-car: the header of ${name} lists no roots\n`)
    return roots.length === 0 && values.strict ? 1 : 0
  } finally {
    await car.stop()
    await close()
  }
}
