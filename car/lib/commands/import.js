// dag-cbor-car import [LINES] --out x.car: the inverse of export. Reads JSON lines (block-json.js) from a
// file, or from standard input when none is named (or `-`) and it is not a terminal (as go-car does); encodes each block from its "value" (or takes its "bytes"), computes its
// CID (the line's CID's version and hash function; CIDv1 sha2-256 when the line has none) and checks
// it against the line's "cid". Writes a CARv1 atomically (output.js): nothing under the target's name
// unless every line was good. Exit: 0 written, 1 a block does not match its CID, 2 bad usage or a
// line that is not what export writes.
import { openInput } from '../node/input-source.js'
import { openCarOutput } from '../node/output.js'
import { parseHeaderLine, parseBlockLine, LineError } from '../core/report/block-json.js'
import { ToolError, UsageError } from '../core/base/errors.js'
import { parseCommand, COMMON_USAGE } from '../node/command-args.js'
import { createProgress } from '../node/progress.js'
import { loadHashers } from '../core/check/hash.js'

const USAGE = `usage: dag-cbor-car import [blocks.jsonl | -] --out out.car [--json]

  blocks.jsonl         JSON lines as export writes them; - or nothing reads standard input
  --out FILE           the CARv1 to write (atomically: a temporary file renamed when all is good)
${COMMON_USAGE}

exit status: 0 written; 1 a block's bytes do not match its line's CID (nothing written);
             2 bad usage, or a line that is not what export writes (nothing written)`

const SHOWN = 5

/**
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
export async function run (argv) {
  const args = parseCommand(argv, { out: { type: 'string' } }, USAGE, ['blocks.jsonl?'])
  if (!args) return 0 // --help
  const { values, positionals, maxBlockSize } = args
  if (!values.out) throw new UsageError('import needs --out FILE', USAGE)
  if (positionals.length === 0 && process.stdin.isTTY) throw new UsageError('missing blocks.jsonl: name a file of JSON lines, or pipe them in (dag-cbor-car export x.car | dag-cbor-car import --out y.car)', USAGE)
  const source = await openInput(positionals[0] ?? '-', { expected: 'JSON lines as export writes them' })
  // a line may hold a block in base64 or as DAG-JSON text, which can be several times its size
  const maxLine = 8 * maxBlockSize + 64 * 1024
  /** @type {Awaited<ReturnType<typeof openCarOutput>> | null} */
  let output = null
  /** @type {string[]} */
  const mismatches = []
  let mismatchCount = 0
  let blocks = 0
  let roots = 0
  // the line verify draws, over the JSON lines read (their bytes, and the blocks written)
  const progress = createProgress({ total: source.size })
  let bytesRead = 0
  await loadHashers() // a line's CID may name any hash function we verify with
  try {
    let n = 0
    for await (const line of lines(source.stream(), maxLine, source.name)) {
      n++
      bytesRead += line.length + 1
      progress.update(blocks, bytesRead)
      if (isBlank(line)) continue
      try {
        if (!output) {
          const header = parseHeaderLine(line, n)
          roots = header.length
          output = await openCarOutput(values.out, header)
          continue
        }
        const block = parseBlockLine(line, n)
        if (block.bytes.length > maxBlockSize) throw new LineError(`line ${n}: the block is ${block.bytes.length} bytes, more than the maximum block size (--max-block-size)`)
        if (block.mismatch) {
          if (mismatchCount++ < SHOWN) mismatches.push(block.mismatch)
          continue
        }
        blocks++
        await output.put(block.cid, block.bytes)
      } catch (err) {
        if (err instanceof LineError) throw new ToolError(`${source.name} is not JSON lines as export writes them: ${err.message}`)
        throw err
      }
    }
    if (!output) throw new ToolError(`${source.name} holds no JSON lines: expected the CAR header line first, as export writes it`)
    if (mismatchCount) {
      progress.done()
      await output.abort()
      for (const m of mismatches) process.stderr.write(`dag-cbor-car: ${source.name}: ${m}\n`)
      process.stderr.write(`dag-cbor-car: ${mismatchCount} block${mismatchCount === 1 ? ' does' : 's do'} not match ${mismatchCount === 1 ? 'its' : 'their'} CID; ${values.out} was not written\n`)
      return 1
    }
    await output.commit()
    progress.done(blocks, Math.min(bytesRead, source.size ?? bytesRead))
  } catch (err) {
    progress.done()
    await output?.abort()
    throw err
  } finally {
    await source.close()
  }
  const summary = { input: source.name, out: values.out, blocks, roots }
  if (values.json) process.stdout.write(JSON.stringify(summary) + '\n')
  else process.stdout.write(`wrote ${values.out}: ${blocks} blocks, ${roots} root${roots === 1 ? '' : 's'}\n`)
  return 0
}

/** @param {Uint8Array} line */
function isBlank (line) {
  for (let i = 0; i < line.length; i++) if (line[i] !== 0x20 && line[i] !== 0x09 && line[i] !== 0x0d) return false
  return true
}

/**
 * Split a byte stream into lines (without their newline), none longer than `max` bytes.
 *
 * @param {AsyncIterable<Uint8Array>} chunks
 * @param {number} max
 * @param {string} name
 * @returns {AsyncGenerator<Uint8Array>}
 */
async function * lines (chunks, max, name) {
  /** @type {Uint8Array[]} */
  let pending = []
  let pendingLength = 0
  let lineNumber = 1
  for await (const chunk of chunks) {
    let from = 0
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, from)) {
      const piece = chunk.subarray(from, nl)
      if (pendingLength + piece.length > max) throw tooLong(name, lineNumber, max)
      yield pending.length ? concat([...pending, piece], pendingLength + piece.length) : piece
      pending = []
      pendingLength = 0
      lineNumber++
      from = nl + 1
    }
    if (from < chunk.length) {
      pendingLength += chunk.length - from
      if (pendingLength > max) throw tooLong(name, lineNumber, max)
      pending.push(chunk.slice(from))
    }
  }
  if (pendingLength) yield concat(pending, pendingLength)
}

/** @param {string} name @param {number} n @param {number} max */
const tooLong = (name, n, max) => new ToolError(`${name}: line ${n} is longer than ${max} bytes (a block's line is at most about 8 times --max-block-size)`)

/** @param {Uint8Array[]} parts @param {number} length */
function concat (parts, length) {
  const out = new Uint8Array(length)
  let at = 0
  for (const p of parts) { out.set(p, at); at += p.length }
  return out
}
