// The CLI's run over one input: the core's pipeline (core/run/pipeline.js) with the Node shell's parts
// plugged in: worker threads, the output CAR and --map file written atomically, the codec loaded by
// module URL (so worker threads load the same one; the bench swaps it), and the default number of
// threads from the input's size and the machine's cores.
// The library (index.js) imports this module for its worker threads; the pipeline and the CLI's
// words are loaded by the first run, so that a program that only reads blocks does not load them.
import { idleCores, availableCores } from './idle-cores.js'
import { setClock } from '../core/base/clock.js'

// runs are timed with process.uptime() rather than the global `performance`, whose first read loads
// perf_hooks; both count from the process's start (a time taken before this runs still compares)
setClock(() => process.uptime() * 1000)

/**
 * Our codec's module URL, which worker threads import (a bench passes another as codecUrl). Made
 * when a pool starts, not when this module loads: in the packed bundle import.meta.url is made
 * when first read, and a check in this thread alone never needs it.
 *
 * @returns {string}
 */
export const defaultCodecUrl = () => new URL('../core/check/dag-cbor.js', import.meta.url).href
/**
 * Below this size a run uses one thread by default: a worker thread starts (its isolate, then its
 * modules) in about the time this thread takes to check tens of MB, and until then it only takes
 * CPU from this one; bench/README.md has the measurements behind the figure.
 */
const SMALL_FILE = 96 * 1024 * 1024

/** Most worker threads worth running here: one per available core. */
export const maxWorkers = availableCores

/**
 * Worker count when the user gives none: 1 (inline) for inputs under SMALL_FILE or of unknown size; else, without
 * an output file, one thread per core that other processes leave idle (idle-cores.js; the main
 * thread checks batches too, see the pipeline's verifySections), and with one, one worker thread
 * less (the main thread reads and writes), at least one.
 *
 * @param {number | undefined} size input size in bytes
 * @param {boolean} [out] an output file is written
 */
export function defaultWorkers (size, out = false) {
  if (size === undefined || size < SMALL_FILE) return 1
  const cores = Math.min(maxWorkers(), idleCores())
  return out ? Math.max(1, cores - 1) : cores
}

/**
 * @typedef {object} NodeRunOptions
 * @property {string} [out] path of the CAR to write
 * @property {string} [mapFile] with canonicalize: also write every old -> new CID to this file
 * @property {string} [codecUrl] module URL of the codec (default: ours, ../core/check/dag-cbor.js)
 *
 * @typedef {Omit<import('../core/run/pipeline.js').RunOptions, 'output' | 'codec' | 'workerPool'> & NodeRunOptions} RunOptions
 */

/**
 * Run the tool over one source. A CarReadError (or any other failure) carries the summary of what
 * was read before it, as `err.summary`, so the caller can still print it.
 *
 * @param {RunOptions} options
 * @returns {Promise<import('../core/report/summary.js').Summary>}
 */
export async function roundTrip (options) {
  const { out, mapFile, codecUrl, ...rest } = options
  const workers = options.workers ?? defaultWorkers(options.source.size, out !== undefined)
  const canonicalize = !!options.canonicalize
  /** @param {number} threads */
  const startPool = async (threads) => (await import('./workers.js')).workerPool(threads, codecUrl ?? defaultCodecUrl(), { canonicalize })
  // the pipeline's worker threads (without an output, this thread is one of `workers`) start now,
  // before the codec is loaded and the header read: a thread takes longer to start than those, and
  // this one checks batches itself until one has
  const threads = out === undefined ? workers - 1 : workers
  /** @type {Promise<import('../core/run/pipeline.js').Processor> | null} */
  let early = threads > 0 ? startPool(threads) : null
  early?.catch(() => {}) // its failure, if any, is the run's when the run takes it
  try {
    const { runPipeline } = await import('../core/run/pipeline.js')
    return await runPipeline({
      ...rest,
      workers,
      // the default by its specifier, which the CLI's bundle (scripts/bundle.js) then carries
      codec: codecUrl === undefined ? await import('../core/check/dag-cbor.js') : await import(codecUrl),
      workerPool: (n) => {
        const pool = early !== null && n === threads ? early : startPool(n)
        if (pool === early) early = null
        return pool
      },
      output: out === undefined ? undefined : fileTarget(out, mapFile)
    })
  } catch (err) {
    throw (await import('./command-args.js')).inCommandWords(err) // the summary verify prints from it too
  } finally {
    // not taken: the run ended before it needed them (a header it could not read)
    if (early !== null) await early.then((pool) => pool.close(), () => {})
  }
}

/**
 * The output CAR (and --map file) as files written atomically (the CAR read back from its temporary file).
 *
 * @param {string} out
 * @param {string | undefined} mapFile
 * @returns {import('../core/run/pipeline.js').OutputTarget}
 */
function fileTarget (out, mapFile) {
  return {
    name: out,
    mapName: mapFile,
    open: async (roots) => (await import('./output.js')).openCarOutput(out, roots),
    writeMap: mapFile === undefined ? undefined : (mappings) => writeMap(mapFile, mappings)
  }
}

/**
 * --map FILE: one line per rewritten block, "old new why", in a temporary file until commit().
 *
 * @param {string} file
 * @param {{ old: string, new: string, why: string }[]} mappings
 */
async function writeMap (file, mappings) {
  const { openAtomicFile } = await import('./output.js')
  const out = await openAtomicFile(file)
  try {
    await out.handle.writeFile(mappings.map((m) => `${m.old} ${m.new} ${m.why}\n`).join(''))
  } catch (err) {
    await out.abort()
    throw out.cannotWrite(err)
  }
  return out
}
