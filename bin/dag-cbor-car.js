#!/usr/bin/env node
// dag-cbor-car: stream a CAR, verify every block's hash, round-trip every DAG-CBOR block through this
// repo's codec, classify it (canonical / non-canonical / invalid), optionally write a CAR back out.
// Exit: 0 all verified and canonical, 1 problems found, 2 bad usage or unreadable input.
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'

// The tool's modules need @ipld/car and @multiformats/blake2 (and ipld-garbage for the sample), which
// are dev dependencies of the codec package: load them here so a missing one gives a message, not a trace.
/** @type {typeof import('./lib/errors.js')} */ let errors
/** @type {typeof import('./lib/read.js')} */ let read
/** @type {typeof import('./lib/run.js')} */ let run
/** @type {typeof import('./lib/summary.js')} */ let summaryLib
/** @type {typeof import('./lib/progress.js')} */ let progressLib
async function load () {
  [errors, read, run, summaryLib, progressLib] = await Promise.all([
    import('./lib/errors.js'), import('./lib/read.js'), import('./lib/run.js'), import('./lib/summary.js'), import('./lib/progress.js')])
}

const USAGE = `usage: dag-cbor-car [in.car] [--out out.car [--canonicalize]] [--json] [--workers N]

  in.car          CARv1 or CARv2 file; without it, a generated sample CAR is used
  --out FILE      write a CAR with the same roots (canonical blocks re-encoded, others copied)
  --canonicalize  with --out: write non-canonical blocks in canonical form (new CIDs; links to them are not rewritten)
  --json          print the summary as one JSON object
  --workers N     worker threads (default: 1 below 8 MB, else cores - 1)
  -h, --help      this help

exit status: 0 all blocks verified and canonical, 1 problems found, 2 bad usage or unreadable input`

class UsageError extends Error {}

/** @param {string[]} argv */
function parse (argv) {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        canonicalize: { type: 'boolean' },
        json: { type: 'boolean' },
        workers: { type: 'string' },
        help: { type: 'boolean', short: 'h' }
      }
    })
  } catch (err) {
    throw new UsageError(/** @type {Error} */ (err).message)
  }
  const { values, positionals } = parsed
  if (positionals.length > 1) throw new UsageError(`expected at most one input file, got ${positionals.length}`)
  let workers
  if (values.workers !== undefined) {
    workers = Number(values.workers)
    if (!/^\d+$/.test(values.workers) || workers < 1 || workers > 256) throw new UsageError(`--workers must be a whole number from 1 to 256, got "${values.workers}"`)
  }
  if (values.canonicalize && !values.out) throw new UsageError('--canonicalize needs --out FILE')
  if (values.out === '') throw new UsageError('--out needs a file name')
  return { input: positionals[0], out: values.out, canonicalize: !!values.canonicalize, json: !!values.json, workers, help: !!values.help }
}

/** @param {string} a @param {string} b */
function sameFile (a, b) {
  try {
    const sa = fs.statSync(a)
    const sb = fs.statSync(b)
    return sa.dev === sb.dev && sa.ino === sb.ino
  } catch {
    return path.resolve(a) === path.resolve(b)
  }
}

async function main () {
  const args = parse(process.argv.slice(2))
  if (args.help) {
    process.stdout.write(USAGE + '\n')
    return 0
  }
  await load()
  const { openFile, chunksOf } = read
  let source
  if (args.input) {
    if (args.out && sameFile(args.input, args.out)) throw new UsageError('--out must not be the input file')
    source = await openFile(args.input)
  } else {
    const { sampleCar, SAMPLE_SEED } = await import('./lib/sample.js')
    const bytes = await sampleCar(SAMPLE_SEED)
    source = { name: `embedded sample CAR (generated in memory, seed ${SAMPLE_SEED})`, size: bytes.length, chunks: chunksOf(bytes) }
  }
  const workers = args.workers ?? run.defaultWorkers(source.size)
  const progress = progressLib.createProgress({ total: source.size })
  let summary
  try {
    summary = await run.roundTrip({ source, out: args.out, canonicalize: args.canonicalize, workers, onProgress: progress.update })
  } finally {
    progress.done()
  }
  process.stdout.write((args.json ? JSON.stringify(summary) : summaryLib.formatSummary(summary, { workers })) + '\n')
  return summaryLib.exitCode(summary)
}

main().then((code) => {
  process.exitCode = code
}, (err) => {
  if (err instanceof UsageError) {
    process.stderr.write(`dag-cbor-car: ${err.message}\n${USAGE}\n`)
  } else if (errors && err instanceof errors.ToolError) {
    process.stderr.write(`dag-cbor-car: ${err.message}\n`)
  } else if (err?.code === 'ERR_MODULE_NOT_FOUND') {
    process.stderr.write(`dag-cbor-car: a module the tool needs is missing (${String(err.message).split('\n')[0]}); run npm install in the package\n`)
  } else if (err?.syscall) {
    process.stderr.write(`dag-cbor-car: ${err.syscall} ${err.path ?? ''} failed: ${err.code ?? err.message}\n`)
  } else {
    process.stderr.write(`dag-cbor-car: internal error: ${err?.message ?? err}\n`)
  }
  process.exitCode = 2
})
