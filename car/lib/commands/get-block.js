// dag-cbor-car get-block FILE CID (go-car's argument order): the block's bytes to standard output, or
// its value as DAG-JSON (--dag-json, --pretty), or, with --json, its export line (block-json.js) with
// its byte offset. Reading stops at the block. The block is checked first: bytes that do not hash to
// the CID are not written (exit 1). A block with other problems is written and its problem said on
// stderr (exit 0, or 1 with --strict): a non-canonical DAG-CBOR block's DAG-JSON is what relaxed
// decode reads.
import * as codec from 'dag-cbor-fast'
import { openCarInput } from '../node/car-input.js'
import { checkBlock, codecName, parseCid } from '../core/report/block-report.js'
import { blockLine, otherValueCodec } from '../core/report/block-json.js'
import { describeError } from '../core/check/classify.js'
import { exactDagJson } from '../core/report/block-view.js'
import { writeOut } from '../node/lines.js'
import { prettyJson } from '../pretty-json.js'
import { UsageError } from '../core/base/errors.js'
import { parseCommand, COMMON_USAGE, STRICT_OPTION, STRICT_USAGE } from '../node/command-args.js'
import { DAG_CBOR, RAW } from '../core/graph/links.js'

const USAGE = `usage: dag-cbor-car get-block <in.car | -> <CID> [--dag-json [--pretty] | --json] [--strict]

  in.car               CARv1 or CARv2 file; - reads standard input
  CID                  the block to get (base32, base58btc or base36)
  --dag-json           write the block's value as DAG-JSON instead of its bytes
  --pretty             with --dag-json: indented (a non-canonical DAG-CBOR block: what relaxed
                       decode reads, and stderr says it is not canonical)
${STRICT_USAGE}
${COMMON_USAGE}
                       (--json: {"cid","codec","value" or "bytes" (base64),"offset"} as export writes it)

exit status: 0 written (a problem with the block, such as non-canonical DAG-CBOR, is on stderr);
             1 nothing written: the CAR has no such block, its bytes do not hash to the CID, or
             (--dag-json) it has no DAG-JSON form; or, with --strict, the block has a problem;
             2 bad usage or unreadable input`

/**
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
export async function run (argv) {
  const args = parseCommand(argv, { 'dag-json': { type: 'boolean' }, pretty: { type: 'boolean' }, ...STRICT_OPTION }, USAGE, ['in.car', 'CID'])
  if (!args) return 0 // --help
  const { values, positionals, maxBlockSize } = args
  if (values.pretty && !values['dag-json']) throw new UsageError('--pretty needs --dag-json', USAGE)
  if (values.json && values['dag-json']) throw new UsageError('give --dag-json or --json, not both', USAGE)
  const wanted = parseCid(positionals[1], 'the CID argument', USAGE)
  if (!values['dag-json'] && !values.json && process.stdout.isTTY) {
    throw new UsageError('the block\'s bytes would go to the terminal: redirect them (> block.bin), or use --dag-json or --json', USAGE)
  }
  const { name, car, close } = await openCarInput(positionals[0], { maxBlockSize })
  try {
    for await (const block of car.blocks()) {
      if (!block.cid.equals(wanted)) continue
      return await write(block, values)
    }
  } finally {
    await car.stop()
    await close()
  }
  process.stderr.write(`dag-cbor-car: ${wanted} is not in ${name}\n`)
  return 1
}

/**
 * @param {import('../core/read/open-car.js').Block} block
 * @param {Record<string, any>} values
 * @returns {Promise<number>}
 */
async function write ({ cid, bytes, offset }, values) {
  const at = `${cid} (byte offset ${offset})`
  const check = checkBlock(cid, bytes)
  if (check.hash === 'mismatch') {
    process.stderr.write(`dag-cbor-car: ${at}: its bytes do not hash to the CID; not written\n`)
    return 1
  }
  /** the exit status once the output is written: its problem said on stderr, 1 only with --strict */
  const written = () => {
    if (!check.problem) return 0
    complain(at, check.problem.message)
    return values.strict ? 1 : 0
  }
  if (values.json) {
    const { line } = blockLine(cid, bytes)
    await writeOut(process.stdout, line.slice(0, -1) + `,"offset":${offset}}\n`)
    return written()
  }
  if (!values['dag-json']) {
    await writeOut(process.stdout, bytes)
    return written()
  }
  let value
  if (cid.code === DAG_CBOR && check.dagCbor === 'non-canonical') {
    // what relaxed decode reads: encoded again it gives the canonical form, under another CID
    value = codec.decode(bytes, { relaxed: true })
    const exact = exactDagJson(value)
    if (exact.error !== null) return complain(at, `${check.problem?.message}: ${exact.error}; nothing written (get its bytes without --dag-json)`)
    await writeOut(process.stdout, (values.pretty ? prettyJson(exact.json) : exact.json) + '\n')
    complain(at, `not canonical DAG-CBOR (${check.problem?.message}); the DAG-JSON written is what relaxed decode reads${check.result.lossless ? '' : ', which is not exactly the block\'s value (undefined is shown as null)'}: encoded again it would give other bytes and another CID`)
    return values.strict ? 1 : 0
  }
  if (cid.code === DAG_CBOR) {
    if (check.dagCbor !== 'canonical') {
      return complain(at, `${check.problem?.message ?? 'not DAG-CBOR'}; it has no DAG-JSON form (get its bytes without --dag-json)`)
    }
    value = codec.decode(bytes)
    if (check.result.jsFloats) process.stderr.write(`dag-cbor-car: note: ${at} holds float64 values that are integers; DAG-JSON shows them as integers\n`)
  } else if (otherValueCodec(cid.code)) {
    const other = /** @type {NonNullable<ReturnType<typeof otherValueCodec>>} */ (otherValueCodec(cid.code))
    try {
      value = other.decode(bytes)
    } catch (err) {
      return complain(at, `not ${other.name} (${describeError(err)})`)
    }
  } else if (cid.code === RAW) {
    value = bytes
  } else {
    return complain(at, `a ${codecName(cid.code)} block: this tool has no DAG-JSON form for that codec (get its bytes without --dag-json)`)
  }
  const exact = exactDagJson(value)
  if (exact.error !== null) return complain(at, `${exact.error}; nothing written (get its bytes without --dag-json)`)
  await writeOut(process.stdout, (values.pretty ? prettyJson(exact.json) : exact.json) + '\n')
  return written()
}

/** @param {string} at @param {string} message */
function complain (at, message) {
  process.stderr.write(`dag-cbor-car: ${at}: ${message}\n`)
  return 1
}
