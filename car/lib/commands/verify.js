// dag-cbor-car verify (also a bare `dag-cbor-car [file]`): stream a CAR, verify every block's hash,
// check every DAG-CBOR block strictly and classify it (canonical / non-canonical / invalid), check the
// roots and a CARv2 index, optionally write a CAR back out. Exit: 0 every check passed (or, with
// --canonicalize, every problem fixed), 1 problems found in the data, 2 bad usage or unreadable input. See the tool's README.md for the options, the JSON fields and the
// memory bounds.
import { parseOptions } from '../node/args.js'
import { maxBlockSizeOption, refuseOutputOverInput, refuseDirectoryStdin, stdinIsDirectory } from '../node/command-args.js'
import { ToolError, UsageError, errorLine } from '../core/base/errors.js'
import { openInput, bytesSource, stdinKind } from '../node/input-source.js'
import { DEFAULT_MAX_BLOCK_SIZE, bytesText } from '../core/read/limits.js'
import { roundTrip, defaultWorkers, maxWorkers } from '../node/run.js'
import { formatSummary, exitCode, createSummary, finishSummary } from '../core/report/summary.js'
import { createProgress } from '../node/progress.js'
import { writeText } from '../node/stdio.js'
import { now } from '../core/base/clock.js'

// a function: it names the machine's available parallelism, which a run that prints no usage does not ask for (node:os)
const usage = () => `usage: dag-cbor-car [verify] [in.car | -] [--out out.car [--canonicalize [--map map.txt]]] [--json]
                    [--relaxed] [--partial] [--workers N] [--max-block-size SIZE]
       dag-cbor-car --version
       dag-cbor-car help          (the other commands: inspect, ls, get-block, get-dag, export, ...)

  in.car               CARv1 or CARv2 file, FIFO or device; - reads standard input;
                       without it, standard input when it is a pipe or a file (< in.car), else
                       (a terminal, /dev/null, closed) an embedded sample CAR is checked
  --out FILE           write a CAR with the same blocks and roots (written to a temporary file,
                       renamed over FILE only when the run passes: OK, or FIXED and read back
                       clean; otherwise nothing is left at FILE or beside it)
  --canonicalize       with --out: write non-canonical blocks in canonical form; blocks linking to
                       them (and the roots) are rewritten too, up the DAG (needs a file, not a pipe)
  --map FILE           with --canonicalize: also write every old -> new CID to FILE
  --json               print the summary as one JSON object
  --relaxed            accept non-canonical DAG-CBOR blocks that relaxed decode reads losslessly
                       (keys out of order, integers or lengths longer than needed, 32-bit floats),
                       as historical data such as Filecoin genesis blocks holds; they are still
                       counted and listed. Hash mismatches, invalid blocks, missing roots still fail
  --partial            the CAR is part of a larger DAG: accept roots that are not among its
                       blocks, and a header that lists no roots
  --workers N          threads checking blocks (default: 1 below 96 MiB or from a pipe, else one
                       per core that other processes leave idle, or one worker thread less
                       with --out; at most the machine's available parallelism, ${maxWorkers()} here)
  --max-block-size S   largest block accepted, in bytes or with K/M/G (KiB/MiB/GiB); default ${bytesText(DEFAULT_MAX_BLOCK_SIZE)}
  -h, --help           this help

exit status: 0 every check passed (or, with --canonicalize, every problem was a non-canonical
               block, all were rewritten, and the written CAR passed every check when read back;
               with --relaxed, the only problems were non-canonical blocks it accepts)
             1 problems found in the data (hashes, DAG-CBOR, roots, CARv2 index)
             2 bad usage, or input that is unreadable or malformed (no output file is left)`

/** verify's options (also read by many.js, to tell a flag's value from an input) */
export const OPTIONS = /** @type {const} */ ({
  out: { type: 'string' },
  canonicalize: { type: 'boolean' },
  map: { type: 'string' },
  json: { type: 'boolean' },
  relaxed: { type: 'boolean' },
  partial: { type: 'boolean' },
  workers: { type: 'string' },
  'max-block-size': { type: 'string' },
  help: { type: 'boolean', short: 'h' }
})

/** @param {string[]} argv */
function parse (argv) {
  const { values: v, positionals } = parseOptions(argv, OPTIONS)
  const values = /** @type {{ out?: string, canonicalize?: boolean, map?: string, json?: boolean, relaxed?: boolean, partial?: boolean, workers?: string, 'max-block-size'?: string, help?: boolean }} */ (v)
  if (positionals.length > 1) throw new UsageError(`expected at most one input file, got ${positionals.length}`)
  let workers
  if (values.workers !== undefined) {
    workers = Number(values.workers)
    if (!/^\d+$/.test(values.workers) || workers < 1) throw new UsageError(`--workers must be a whole number of at least 1, got "${values.workers}"`)
  }
  const maxBlockSize = maxBlockSizeOption(values['max-block-size'])
  if (values.out === '') throw new UsageError('--out needs a file name')
  if (values.canonicalize && !values.out) throw new UsageError('--canonicalize needs --out FILE')
  if (values.map !== undefined && !values.canonicalize) throw new UsageError('--map needs --canonicalize')
  if (values.map === '') throw new UsageError('--map needs a file name')
  return { input: positionals[0], out: values.out, canonicalize: !!values.canonicalize, map: values.map, json: !!values.json, relaxed: !!values.relaxed, partial: !!values.partial, workers, maxBlockSize, help: !!values.help }
}

/** @type {ReturnType<typeof createProgress> | null} */
let progress = null

/**
 * @param {string[]} argv the arguments after the command name
 * @returns {Promise<number>} the exit status
 */
export async function run (argv) {
  let args
  try {
    args = parse(argv)
  } catch (err) {
    if (err instanceof UsageError) err.usage = usage()
    throw err
  }
  if (args.help) {
    writeText(1, usage() + '\n')
    return 0
  }
  const started = now()
  try {
    return await check(args)
  } catch (err) {
    // --json: a run that stopped before it had a summary (an input it cannot open) still prints its line
    if (args.json && !(/** @type {any} */ (err)?.summary)) {
      const summary = createSummary()
      summary.input = args.input === undefined || args.input === '-' ? 'standard input' : args.input
      summary.error = { message: errorLine(err) }
      writeText(1, JSON.stringify(finishSummary(summary, started)) + '\n')
    }
    throw err
  }
}

/**
 * @param {ReturnType<typeof parse>} args
 * @returns {Promise<number>} the exit status
 */
async function check (args) {
  /** @type {import('../node/input-source.js').Source} */
  let source
  /** @type {import('../node/sample.js').SampleExpectation | null} */
  let expected = null
  // no file named: what is piped in is the input; the sample only when nothing is (a directory
  // given with < is not nothing: it is refused)
  if ((args.input === undefined || args.input === '-') && stdinIsDirectory()) refuseDirectoryStdin()
  const stdin = args.input === undefined ? stdinKind() : 'piped'
  if (stdin === 'piped') args.input ??= '-'
  refuseOutputOverInput([['--out', args.out], ['--map', args.map]], [args.input])
  if (args.input !== undefined) {
    source = await openInput(args.input)
  } else {
    const [{ sampleCar }, { loadHasher }] = await Promise.all([import('../node/sample.js'), import('../core/check/hash.js')])
    // the sample holds blake2b-256 blocks: its hasher loads first, rather than when the first such
    // block stops a batch, which is then checked again from its start
    await loadHasher(0xb220)
    const sample = sampleCar()
    expected = { ...sample.expected, why: `no file was named and standard input is ${stdin}, not a pipe or a file` }
    source = bytesSource('embedded sample CAR (lib/node/sample.car)', sample.bytes)
  }
  try {
    if (args.canonicalize && !source.seekable) {
      throw new ToolError(`--canonicalize needs an input it can read more than once (to rewrite the blocks that link to rewritten ones), and ${source.name} is a stream; save it to a file first`)
    }
    let workers = args.workers ?? defaultWorkers(source.size, args.out !== undefined)
    if (workers > 1 && workers > maxWorkers()) { // one thread: never more than the machine has
      writeText(2, `dag-cbor-car: --workers ${workers} is more than this machine's available parallelism; using ${maxWorkers()}\n`)
      workers = maxWorkers()
    }
    progress = createProgress({ total: source.size })
    let summary
    try {
      const sample = expected
      summary = await roundTrip({ source, out: args.out, canonicalize: args.canonicalize, mapFile: args.map, partial: args.partial, relaxed: args.relaxed, workers, maxBlockSize: args.maxBlockSize, onProgress: progress.update, passes: sample ? (s) => sampleCheck(s, sample).ok : undefined })
    } catch (err) {
      progress.done()
      const partial = /** @type {any} */ (err)?.summary
      // what was read before the failure: always in JSON; as text once blocks were read (an output
      // file that cannot be opened stops the run before any: its one-line error says it all)
      if (partial && err instanceof ToolError && (args.json || partial.blocks > 0)) writeText(1, render(partial, args.json, null) + '\n')
      throw err
    }
    progress.done(summary.blocks, summary.bytes) // its last line: the summary's count
    writeText(1, render(summary, args.json, expected) + '\n')
    return expected ? sampleExitCode(summary, expected) : exitCode(summary)
  } finally {
    await source.close()
  }
}

/**
 * @param {import('../core/report/summary.js').Summary} summary
 * @param {boolean} json
 * @param {import('../node/sample.js').SampleExpectation | null} expected
 */
function render (summary, json, expected) {
  if (expected) {
    const check = sampleCheck(summary, expected)
    if (json) return JSON.stringify({ ...summary, sample: { expected: expected.problems, asExpected: check.ok, why: expected.why } })
    return formatSummary(summary, { result: check.lines })
  }
  return json ? JSON.stringify(summary) : formatSummary(summary)
}

/**
 * The sample holds planted problems on purpose. Its run passes (exit 0) when the tool finds exactly
 * those, and fails (exit 1) if it misses one or finds another: the newcomer's first command checks
 * the tool, and a real file with the same problems still exits 1.
 *
 * @param {import('../core/report/summary.js').Summary} s
 * @param {import('../node/sample.js').SampleExpectation} expected
 */
function sampleCheck (s, expected) {
  const found = s.problems.map((p) => `${p.cid} ${p.kind}`).sort()
  const want = expected.problems.map((p) => `${p.cid} ${p.kind}`).sort()
  const floats = s.integralFloats.examples.map((e) => e.cid).sort()
  const ok = s.problemCount === want.length && found.join() === want.join() &&
    s.hashMismatches === 0 && s.unverified === 0 && floats.join() === [...expected.integralFloats].sort().join()
  const why = `  sample      ${expected.why}: this is the embedded sample; name a file, or pipe a CAR in, to check yours`
  const lines = ok
    ? [why, `  result      OK for the sample: it plants ${want.length} non-canonical blocks and ${expected.integralFloats.length} block of Go-style float64 integers,`,
        '              and the tool found exactly those. In a real CAR, non-canonical blocks are a FAIL (exit status 1).',
        '              Next: npx dag-cbor-car your.car   (dag-cbor-car help lists the other commands)']
    : [why, `  result      FAIL: the sample's planted problems were not found as expected: planted ${want.join('; ')}; found ${found.join('; ') || 'nothing'}`]
  return { ok, lines }
}

/**
 * @param {import('../core/report/summary.js').Summary} s
 * @param {import('../node/sample.js').SampleExpectation} expected
 */
function sampleExitCode (s, expected) {
  if (s.error) return 2
  return sampleCheck(s, expected).ok ? 0 : 1
}

/** for the signal handler in bin/: stop drawing the progress line */
export function stopProgress () {
  progress?.done()
}
