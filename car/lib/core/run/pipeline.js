// The round-trip pipeline: stream blocks out of a CAR, process them in ordered batches (inline, or
// on worker threads a shell provides), accumulate the summary in CAR order, and optionally write a
// CAR back out through an output a shell provides (the Node shell's is an atomic file; the core's
// own, write/memory-target.js, is bytes in memory). With canonicalize, rewritten blocks' parents are rewritten
// too (relink.js).
//
// runPipeline opens the CAR and hands it to one of two runs, each one function read top to bottom:
// verifyRun (no output) and rewriteRun (an output). Both check blocks through one loop, checkBlocks,
// which takes what to do with each block; a verify run goes by batches of whole sections
// (verifySections) instead, unless each block is reported while worker threads check them.
import { CID } from 'multiformats/cid'
import { openCar, CarReadError, sectionError, asReadError } from '../read/open-car.js'
import { DEFAULT_MAX_BLOCK_SIZE } from '../read/limits.js'
import { processBatch } from './batch.js'
import { createSummary, addBlock, mergeSummary, finishSummary, resultOf } from '../report/summary.js'
import { ToolError, aboutInput } from '../base/errors.js'
import { now } from '../base/clock.js'
import { createChecks } from '../check/car-checks.js'
import { processSections } from './section-checks.js'
import { codecOf } from '../check/classify.js'
import { checkLoading, readyFor } from '../check/on-demand.js'
import { grantJsSha256 } from '../check/hash.js'
import { feed } from './feed.js'

import { BATCH_BLOCKS, BATCH_BYTES, BATCH_SECTIONS as SECTION_BATCH } from '../read/limits.js'

/**
 * @typedef {import('../check/classify.js').BlockResult} BlockResult
 * @typedef {import('./section-checks.js').SectionResult} SectionResult
 * @typedef {{ submit: (blocks: import('./batch.js').Block[]) => Promise<BlockResult[]>, submitSections: (batch: import('../read/open-car.js').SectionBatch, maxBlockSize: number) => Promise<SectionResult>, pending: () => number, ready: () => number, close: () => Promise<void> }} Processor
 *   a shell's worker threads (feed.js's Pool): pending, batches submitted and not yet checked;
 *   ready, workers that have loaded their modules (a batch sent before then would wait behind that
 *   loading, so the main thread may better check it)
 * @typedef {{ put: (cid: CID, bytes: Uint8Array) => Promise<void>, finish: () => Promise<void>, reopen: () => Promise<import('../read/source.js').Source | null>, commit: () => Promise<void>, abort: () => Promise<void> }} CarOutput
 *   finish: everything put is written (and flushed), still under a temporary name; reopen (after
 *   finish): what was written, to read back and check (null: it cannot be, as a device); commit:
 *   the output takes its name; abort: nothing is left of it
 * @typedef {object} OutputTarget where a run writes its CAR (a shell's)
 * @property {string} name what the summary calls it (`output.file`)
 * @property {(roots: CID[]) => Promise<CarOutput>} open a new output (a later pass opens another, after aborting the first)
 * @property {(mappings: { old: string, new: string, why: string }[]) => Promise<{ commit: () => Promise<void>, abort: () => Promise<void> }>} [writeMap]
 *   with canonicalize: the old -> new CID map, committed right after the CAR
 * @property {string} [mapName] what the summary calls the map (`output.mapFile`)
 */

/**
 * @typedef {object} RunOptions
 * @property {import('../read/source.js').Source} source
 * @property {OutputTarget} [output] write a CAR there
 * @property {boolean} [canonicalize] write canonical forms of non-canonical blocks, and relink their parents
 * @property {number} [workers] threads checking blocks: 1 = inline; without `output`, N = this thread and N - 1 worker threads; with `output`, N worker threads
 * @property {(threads: number, options: { canonicalize?: boolean }) => Promise<Processor>} [workerPool] the shell's worker threads (without it, `workers` must be 1)
 * @property {import('../check/classify.js').Codec} [codec] the DAG-CBOR codec (default: ../check/dag-cbor.js)
 * @property {number} [maxBlockSize] largest block (and section length claim) accepted
 * @property {boolean} [relaxed] non-canonical DAG-CBOR blocks that relaxed decode reads losslessly are counted and listed, not a failure
 * @property {boolean} [partial] the CAR is part of a larger DAG: roots may be absent from its blocks, and the header may list none
 * @property {boolean} [mainThreadChecks] without `output`: false sends every batch to the worker threads, even while none has
 *   loaded yet (the tests use it, so that a small CAR reaches a worker)
 * @property {(blocks: number, bytes: number, label?: string) => void} [onProgress]
 * @property {import('./section-checks.js').OnSection} [onBlock] each block and its result, in CAR order; a block
 *   may come again (a batch checked again after a load): its index says so. With worker threads or an
 *   output, the run then reads block by block
 * @property {AbortSignal} [signal] stops the run between batches, with the signal's reason
 * @property {(summary: import('../report/summary.js').Summary) => boolean} [passes] whether the run passed, so
 *   that its output takes its name (default: result ok or fixed; the CLI's embedded sample passes
 *   when exactly its planted problems are found)
 */

/**
 * @typedef {object} Run what a run's stages share, once the CAR is open
 * @property {RunOptions} options
 * @property {import('../check/classify.js').Codec} codec
 * @property {import('../read/open-car.js').Car} car
 * @property {ReturnType<typeof createChecks>} checks the whole-CAR checks (roots, duplicates, index)
 * @property {import('../report/summary.js').Summary} summary
 * @property {Processor | null} pool the shell's worker threads (null: every batch is checked here)
 * @property {number} threads how many
 */

/**
 * Run the pipeline over one source: a verify run (verifyRun) without an output, a rewrite run
 * (rewriteRun) with one. A CarReadError (or any other failure) carries the summary of what was read
 * before it, as `err.summary`, so the caller can still print it.
 *
 * @param {RunOptions} options
 * @returns {Promise<import('../report/summary.js').Summary>}
 */
export async function runPipeline (options) {
  const { source, output: target, canonicalize = false, signal, maxBlockSize, partial = false, relaxed = false } = options
  const workers = options.workers ?? 1
  if (workers > 1 && !options.workerPool) throw new TypeError('workers > 1 needs a workerPool (the Node entry has one)')
  const codec = codecOf(options.codec ?? await import('../check/dag-cbor.js'))
  const start = now()
  const summary = createSummary()
  summary.input = source.name
  summary.workers = workers
  summary.relaxed = relaxed
  /** @type {import('../read/open-car.js').Car | null} */
  let car = null
  /** @type {{ output: CarOutput | null }} the output a rewrite run is writing, aborted on a failure */
  const writing = { output: null }
  /** @type {Processor | null} */
  let processor = null
  try {
    signal?.throwIfAborted()
    car = await openCar(source.stream(), { size: source.size, maxBlockSize, file: source.seekable ? source : undefined, ready: readyFor })
    summary.version = car.version
    summary.roots = car.roots.map(String)
    grantJsSha256(source.size)
    const checks = createChecks(car, { partial })
    // without an output, this thread checks batches too (verifySections): N threads are N - 1 workers and it
    const threads = target ? workers : workers - 1
    // (with an output and no worker threads to give the batches to, workers: 1 checks them inline)
    processor = threads > 0 && options.workerPool ? await options.workerPool(threads, { canonicalize }) : null
    const run = { options, codec, car, checks, summary, pool: processor, threads }
    if (!target) {
      await verifyRun(run)
      return finishSummary(summary, start) // its time ends before the worker threads close
    }
    await rewriteRun(run, target, writing)
  } catch (thrown) {
    await writing.output?.abort()
    const err = asReadError(thrown, summary.blocks, car ? car.position() : 0)
    if (err instanceof CarReadError) aboutInput(err, source.name)
    const e = /** @type {any} */ (err)
    if (e && typeof e === 'object') {
      if (car) summary.bytes = car.position()
      summary.error = { message: String(e.message ?? e), ...(e instanceof CarReadError ? { offset: e.offset, blocks: e.blocks } : {}) }
      e.summary = finishSummary(summary, start)
    }
    throw err
  } finally {
    await processor?.close()
  }
  return finishSummary(summary, start)
}

/**
 * A run without an output: every block checked and counted, then the whole-CAR checks. By batches
 * of whole sections (verifySections), unless each block is reported while worker threads check
 * them: then block by block, through the loop a rewrite run uses (checkBlocks).
 *
 * @param {Run} run
 */
async function verifyRun (run) {
  const { car, checks, summary, pool, options } = run
  if (!options.onBlock || pool === null) await verifySections(run)
  else await checkBlocks(run, null)
  await checks.finish(summary)
  summary.bytes = car.position()
  await car.stop()
}

/**
 * A run with an output: every block checked, counted and written as it is read, in canonical form
 * when canonicalize rewrote it; then, when some were, the blocks linking to them relinked up the
 * DAG (relinkAndRewrite, which may write the output again); then the output finished, read back
 * (with canonicalize) and given its name only when the run passed.
 *
 * @param {Run} run
 * @param {OutputTarget} target
 * @param {{ output: CarOutput | null }} writing set to the output being written, for runPipeline to abort
 */
async function rewriteRun (run, target, writing) {
  const { options, car, checks, summary } = run
  const { source, canonicalize = false, partial = false } = options
  let output = writing.output = await target.open(car.roots)
  summary.output = { file: target.name, blocks: 0, unchanged: 0, canonicalized: 0, relinked: 0, keptUnchanged: 0, rootsReplaced: 0, passes: 1, mappings: [], cannotRewrite: [] }
  const o = summary.output
  const { SEGMENT, cidKey, detach } = await import('../write/relink.js')
  /** @type {Map<string, import('../write/relink.js').Affected>} the blocks canonicalized in this pass */
  const seeds = new Map()
  /** @type {number[]} section offsets where the file's SEGMENTs start, for relinking passes */
  const segments = []
  await checkBlocks(run, (block, r) => {
    o.blocks++
    if (r.keptReason) o.keptUnchanged++
    if (r.out && r.newCid) {
      const newCid = CID.parse(r.newCid)
      o.canonicalized++
      o.mappings.push({ old: block.cid.toString(), new: r.newCid, why: 'canonicalized' })
      seeds.set(cidKey(block.cid.bytes), { cid: detach(block.cid), canonical: r.out }) // its links are spliced in resolve()
      return output.put(newCid, r.out)
    }
    // canonical blocks are written as read: strict validation accepts only canonical bytes
    o.unchanged++
    return output.put(block.cid, block.bytes)
  }, { starts: segments, size: SEGMENT })
  await checks.finish(summary)
  summary.bytes = car.position()
  if (seeds.size) {
    await source.checkUnchanged()
    output = writing.output = await relinkAndRewrite({ source, target, car, seeds, segments, summary, output, maxBlockSize: options.maxBlockSize, onProgress: options.onProgress })
  }
  await source.checkUnchanged()
  await output.finish()
  if (canonicalize && summary.dagCbor.nonCanonical > 0) o.check = await readBack(output, { ...options, partial })
  // the output takes its name only when the run passed (and a rewritten copy read back clean):
  // a copy of a CAR that fails, or a rewrite that does not pass, is no one's to keep
  if (!(options.passes ?? passedChecks)(summary)) {
    await output.abort()
    o.written = false
  } else {
    // the map is written and flushed first, renamed right after the CAR: both or neither
    const map = target.writeMap ? await target.writeMap(o.mappings) : null
    try {
      await output.commit()
    } catch (err) {
      await map?.abort()
      throw err
    }
    o.written = true
    if (map) {
      await map.commit()
      o.mapFile = target.mapName
    }
  }
  await car.stop()
}

/**
 * The loop of a run block by block, in this thread or on the worker threads (through feed.js, the
 * loop verifySections' batches go through too): each block's result is counted, the block given to
 * the whole-CAR checks and to onBlock, then to `step` (a rewrite run writes it there).
 *
 * @param {Run} run
 * @param {((block: import('../read/open-car.js').Block, result: BlockResult) => Promise<void>) | null} step
 * @param {{ starts: number[], size: number }} [segments] note where each segment of the file starts
 */
async function checkBlocks (run, step, segments) {
  const { car, codec, pool, threads, summary, checks, options: { canonicalize = false, onBlock, onProgress, signal } } = run
  // batches of blocks (block by block: an output is written from them, or each is reported), each
  // checked in this thread or by a worker thread
  const checked = feed(blockBatches(car, segments), {
    here: pool === null ? (blocks) => checkLoading(() => processBatch(codec, blocks, { canonicalize })) : null,
    send: pool === null ? null : (blocks) => pool.submit(blocks),
    ahead: pool === null ? 1 : 2 * threads,
    holds: (err) => err instanceof CarReadError // the blocks read completely before it are still classified and counted
  })
  for await (const { batch: blocks, result: rs } of checked) {
    signal?.throwIfAborted()
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i]
      const r = rs[i]
      addBlock(summary, block, r)
      checks.block(block)
      if (onBlock) {
        // a callback may abort the run: the blocks after it in the batch are not reported
        signal?.throwIfAborted()
        onBlock(block.cid.bytes, block.bytes, block.offset ?? 0, summary.blocks - 1, r)
      }
      if (step) await step(block, r)
    }
    // the bytes of the blocks counted, not the reader's position, which runs ahead of them
    onProgress?.(summary.blocks, blocks.length ? blocks[blocks.length - 1].offset : car.position())
  }
}

/**
 * The blocks of a CAR in batches (BATCH_BLOCKS, BATCH_BYTES), noting where each segment of the file
 * starts (for relinking passes), if asked. A reading error comes after a batch holding the blocks
 * before it.
 *
 * @param {import('../read/open-car.js').Car} car
 * @param {{ starts: number[], size: number }} [segments]
 * @returns {AsyncGenerator<import('../read/open-car.js').Block[]>}
 */
async function * blockBatches (car, segments) {
  /** @type {import('../read/open-car.js').Block[]} */
  let batch = []
  let batchBytes = 0
  let nextSegment = segments ? 0 : Infinity
  try {
    for await (const block of car.blocks()) {
      if (block.offset >= nextSegment) {
        segments?.starts.push(block.offset)
        nextSegment = block.offset + (segments?.size ?? Infinity)
      }
      batch.push(block)
      batchBytes += block.bytes.length
      if (batch.length >= BATCH_BLOCKS || batchBytes >= BATCH_BYTES) {
        yield batch
        batch = []
        batchBytes = 0
      }
    }
  } catch (err) {
    if (batch.length) yield batch
    throw err
  }
  if (batch.length) yield batch
}

/**
 * A verify run without output: the main thread splits the input into batches of whole sections (by
 * their length varints) and hands each to a worker, which reads the CIDs, checks the blocks and
 * counts them (section-checks.js), or, while every worker has four batches queued, checks the batch
 * itself (feed.js); so with N threads on N cores none waits for the others. The batches' summaries
 * are merged in CAR order, and the CIDs they send back go through the whole-CAR checks (roots,
 * duplicates, index).
 *
 * @param {Run} run its onBlock only without a pool
 */
async function verifySections ({ car, codec, pool, threads, summary, checks, options }) {
  const { onProgress, onBlock, signal, mainThreadChecks = true } = options
  const maxBlockSize = options.maxBlockSize ?? DEFAULT_MAX_BLOCK_SIZE
  // this thread checks batches too, unless told not to while there are worker threads
  const here = pool === null || mainThreadChecks
  /** @type {SharedArrayBuffer[]} the buffers of checked batches, which sectionBatches fills again */
  const spare = []
  const checked = feed(car.sectionBatches(BATCH_BYTES, SECTION_BATCH, spare), {
    here: here ? (batch) => checkLoading(() => processSections(codec, batch, { maxBlockSize, onSection: pool === null ? onBlock : undefined })) : null,
    send: pool === null ? null : (batch) => pool.submitSections(batch, maxBlockSize),
    pool,
    perWorker: 4,
    // the main thread may run a few batches ahead of the oldest one at a worker, no more: a
    // worker's batch keeps its buffer out of the spare ones until it comes out, in CAR order, so a
    // long run ahead cycles the reads through many buffers, which fall out of the caches between uses
    ahead: pool !== null && here ? 4 * threads + 4 : 2,
    // only an error of the reader is held back until the batches before it are counted: one a
    // batch reports is the first in the CAR, and ends the run at once
    holds: (err) => err instanceof CarReadError,
    checkedHere: (batch) => spare.push(/** @type {SharedArrayBuffer} */ (batch.bytes.buffer)) // checked: free at once
  })
  for await (const { batch, result: r, here: checkedHere } of checked) {
    const { starts, ends } = batch
    if (!checkedHere) spare.push(/** @type {SharedArrayBuffer} */ (batch.bytes.buffer))
    mergeSummary(summary, r.summary)
    checks.cids(r.cids, r.cidEnds, r.fingerprints, starts)
    if (r.error) throw sectionError(starts[r.error.index], summary.blocks, r.error.kind, r.error.detail, r.error.length, maxBlockSize)
    // the end of the batch just counted: the reader's position runs ahead of the batches in
    // flight, and the line would reach 100% with tens of thousands of blocks still to count
    const n = starts.length
    onProgress?.(summary.blocks, n ? starts[n - 1] + ends[n - 1] - (n > 1 ? ends[n - 2] : 0) : car.position())
    signal?.throwIfAborted()
  }
}

/**
 * Second half of --canonicalize: find the blocks that link to the canonicalized ones, compute the
 * new CIDs up the DAG, and write the output again if anything beyond the first pass's output changed.
 *
 * Its write pass is a loop of its own, not the one loop (feed.js): it gives no block to the checks
 * (each was judged in the first pass, and the output is read back and checked after), it only
 * copies the blocks in order and splices the affected ones, whose new CIDs it checks as it writes
 * them. Through feed.js it would only gain a batch array per MiB and an await per batch.
 *
 * @param {object} a
 * @param {import('../read/source.js').Source} a.source
 * @param {OutputTarget} a.target
 * @param {import('../read/open-car.js').Car} a.car
 * @param {Map<string, import('../write/relink.js').Affected>} a.seeds
 * @param {number[]} a.segments
 * @param {import('../report/summary.js').Summary} a.summary
 * @param {CarOutput} a.output the first pass's output
 * @param {number} [a.maxBlockSize]
 * @param {RunOptions['onProgress']} [a.onProgress]
 */
async function relinkAndRewrite ({ source, target, car, seeds, segments, summary, output, maxBlockSize, onProgress }) {
  const { cidKey, cidFor, findAffected, rewritten, resolve } = await import('../write/relink.js')
  const o = /** @type {NonNullable<typeof summary.output>} */ (summary.output)
  if (!source.seekable) throw new Error('--canonicalize needs an input it can read again')
  const affected = new Map(seeds)
  const found = await findAffected({
    source,
    segments,
    dataEnd: car.dataEnd(), // where the sections end (a CARv2: its payload; the reader may be past it, at the index)
    affected,
    onPass: (pass, added) => onProgress?.(summary.blocks, car.position(), `pass ${pass + 1}: ${added} more blocks link to rewritten blocks`)
  })
  o.passes = 1 + found.passes
  o.cannotRewrite = found.cannotRewrite
  await resolve(affected, source)
  const rootsChange = car.roots.some((r) => affected.has(cidKey(r.bytes)))
  const beyondFirstPass = [...affected.values()].some((e) => !e.canonical || e.linksChanged)
  if (!rootsChange && !beyondFirstPass) return output // the first pass wrote exactly this

  // write pass: the same blocks in the same order, affected ones replaced
  await output.abort()
  await source.checkUnchanged()
  const roots = car.roots.map((r) => affected.get(cidKey(r.bytes))?.newCid ?? r)
  const rewrite = await target.open(roots)
  try {
    o.passes++
    o.blocks = o.unchanged = o.canonicalized = o.relinked = 0
    o.rootsReplaced = car.roots.filter((r) => affected.has(cidKey(r.bytes))).length
    o.mappings = []
    /** @type {Set<string>} */
    const mapped = new Set()
    const again = await openCar(source.stream(), { size: source.size, maxBlockSize, ready: readyFor })
    let n = 0
    for await (const block of again.blocks()) {
      const key = cidKey(block.cid.bytes)
      const entry = affected.get(key)
      o.blocks++
      if (!entry) {
        o.unchanged++
        await rewrite.put(block.cid, block.bytes)
      } else {
        const newCid = /** @type {CID} */ (entry.newCid)
        const bytes = rewritten(affected, entry, block.bytes)
        // computed from the same bytes in resolve(); a difference means the file changed under us
        if (!bytes || !cidFor(entry.cid, bytes).equals(newCid)) throw new ToolError(`${source.name} changed during the run (block ${block.cid} at byte offset ${block.offset}); nothing was written`)
        if (entry.canonical) o.canonicalized++
        else o.relinked++
        if (!mapped.has(key)) {
          mapped.add(key)
          o.mappings.push({ old: block.cid.toString(), new: newCid.toString(), why: entry.canonical ? 'canonicalized' : 'relinked' })
        }
        await rewrite.put(newCid, bytes)
      }
      if ((++n & 1023) === 0) onProgress?.(n, again.position(), 'writing')
    }
    await again.stop()
  } catch (err) {
    await rewrite.abort()
    throw err
  }
  return rewrite
}

/** @param {import('../report/summary.js').Summary} summary */
const passedChecks = (summary) => resultOf(summary) === 'ok' || resultOf(summary) === 'fixed'

/**
 * With canonicalize: read the written CAR back and run every check on it, so that "fixed" (exit 0)
 * rests on the output as written, not on what the rewrite meant to write.
 *
 * @param {CarOutput} output finished, not yet committed
 * @param {RunOptions} options
 * @returns {Promise<{ result: string, problems: number }>}
 */
async function readBack (output, options) {
  let source
  try {
    source = await output.reopen()
  } catch {
    return { result: 'unreadable', problems: 0 }
  }
  if (!source) return { result: 'unreadable', problems: 0 }
  try {
    if (!source.seekable) return { result: 'unreadable', problems: 0 }
    const again = await runPipeline({ source, workers: options.workers, workerPool: options.workerPool, maxBlockSize: options.maxBlockSize, codec: options.codec, partial: options.partial, relaxed: options.relaxed })
    return { result: again.result, problems: again.problemCount }
  } catch (err) {
    return { result: 'incomplete', problems: 0 }
  } finally {
    await source.close()
  }
}
