// The round-trip pipeline: stream blocks out of a CAR, process them in ordered batches (inline or on
// worker threads), accumulate the summary in CAR order, and optionally stream a CAR back out.
import fs from 'node:fs'
import os from 'node:os'
import { once } from 'node:events'
import { finished } from 'node:stream/promises'
import { CarWriter } from '@ipld/car/writer'
import { CID } from 'multiformats/cid'
import { openCar } from './read.js'
import { ToolError, systemReason } from './errors.js'
import { inlineProcessor, workerPool } from './workers.js'
import { createSummary, addBlock, addMapping } from './summary.js'

/** Our codec, imported by module URL so worker threads can load the same one (the bench swaps it). */
export const defaultCodecUrl = new URL('../../index.js', import.meta.url).href
const SMALL_FILE = 8 * 1024 * 1024
const BATCH_BLOCKS = 512
const BATCH_BYTES = 1 << 20

/**
 * Worker count when the user gives none: 1 (inline) for small inputs, else cores - 1.
 *
 * @param {number} size input size in bytes
 */
export function defaultWorkers (size) {
  return size < SMALL_FILE ? 1 : Math.max(1, os.availableParallelism() - 1)
}

/**
 * @typedef {object} RunOptions
 * @property {{ name: string, size: number, chunks: AsyncIterable<Uint8Array> }} source
 * @property {string} [out] path of the CAR to write
 * @property {boolean} [canonicalize] write canonical forms of non-canonical blocks
 * @property {number} [workers] 1 = inline; more = that many worker threads
 * @property {string} [codecUrl] module URL of the codec (default: this repo's index.js)
 * @property {(blocks: number, bytes: number) => void} [onProgress]
 */

/**
 * @param {RunOptions} options
 * @returns {Promise<import('./summary.js').Summary>}
 */
export async function roundTrip (options) {
  const { source, out, canonicalize = false, codecUrl = defaultCodecUrl, onProgress } = options
  const workers = options.workers ?? defaultWorkers(source.size)
  const start = performance.now()
  const car = await openCar(source.chunks)
  const summary = createSummary()
  summary.input = source.name
  summary.version = car.version
  summary.roots = car.roots.map(String)

  const processor = workers > 1
    ? workerPool(workers, codecUrl, { canonicalize })
    : inlineProcessor(await import(codecUrl), { canonicalize })
  const maxInFlight = workers > 1 ? 2 * workers : 1
  /** @type {Awaited<ReturnType<typeof openOutput>> | null} */
  let output = null

  /** @type {{ blocks: import('./batch.js').Block[], results: Promise<import('./classify.js').BlockResult[]> }[]} */
  const inFlight = []
  const drainOne = async () => {
    const { blocks, results } = /** @type {typeof inFlight[0]} */ (inFlight.shift())
    const rs = await results
    for (let i = 0; i < blocks.length; i++) {
      addBlock(summary, blocks[i], rs[i])
      if (output) await output.write(summary, blocks[i], rs[i])
    }
    onProgress?.(summary.blocks, car.position())
  }

  try {
    if (out) {
      output = await openOutput(out, car.roots)
      summary.output = { file: out, blocks: 0, reencoded: 0, copied: 0, canonicalized: 0, keptUnchanged: 0, mappings: [] }
    }
    /** @type {import('./batch.js').Block[]} */
    let batch = []
    let batchBytes = 0
    const submit = async () => {
      inFlight.push({ blocks: batch, results: processor.submit(batch) })
      batch = []
      batchBytes = 0
      while (inFlight.length >= maxInFlight) await drainOne()
    }
    for await (const block of car.blocks()) {
      batch.push(block)
      batchBytes += block.bytes.length
      if (batch.length >= BATCH_BLOCKS || batchBytes >= BATCH_BYTES) await submit()
    }
    if (batch.length) await submit()
    while (inFlight.length) await drainOne()
    await output?.close()
  } catch (err) {
    inFlight.forEach((f) => f.results.catch(() => {}))
    await output?.abort()
    throw err
  } finally {
    await processor.close()
  }
  summary.bytes = car.position()
  summary.seconds = (performance.now() - start) / 1000
  summary.mbPerSec = summary.seconds > 0 ? summary.bytes / 1e6 / summary.seconds : 0
  return summary
}

/**
 * A streamed CarWriter into a file; `abort` removes the partial file (regular files only).
 *
 * @param {string} path
 * @param {CID[]} roots
 */
async function openOutput (path, roots) {
  const cannotWrite = (/** @type {unknown} */ err) => new ToolError(`cannot write ${path}: ${systemReason(err)}`)
  const handle = await fs.promises.open(path, 'w').catch((err) => { throw cannotWrite(err) })
  const regularFile = (await handle.stat()).isFile() // never remove a device such as /dev/null on abort
  const file = handle.createWriteStream({ highWaterMark: 1 << 20 })
  const { writer, out } = CarWriter.create(roots)
  const chunks = out[Symbol.asyncIterator]()
  /** @type {unknown} */
  let failure = null
  // CarWriter.put() resolves once its chunks are taken from `chunks`; if the file fails, keep
  // taking (and dropping) them so no put() waits forever, and let put() report the failure.
  file.on('error', (err) => { failure ??= cannotWrite(err) })
  const pump = (async () => {
    try {
      for (let c = await chunks.next(); !c.done; c = await chunks.next()) {
        if (failure) throw failure
        if (!file.write(c.value) && !failure) await once(file, 'drain')
      }
      file.end()
      await finished(file)
    } catch (err) {
      failure ??= cannotWrite(err)
      file.destroy()
      while (!(await chunks.next()).done);
    }
  })()
  const put = async (/** @type {import('./batch.js').Block} */ b) => {
    await writer.put(b)
    if (failure) throw failure
  }
  return {
    /**
     * Canonical blocks are written as our codec re-encoded them; processBlock proved those bytes
     * identical to the input, so the input bytes are written (no copy back from workers).
     *
     * @param {import('./summary.js').Summary} s
     * @param {import('./batch.js').Block} block
     * @param {import('./classify.js').BlockResult} r
     */
    async write (s, block, r) {
      const o = /** @type {NonNullable<typeof s.output>} */ (s.output)
      o.blocks++
      if (r.out && r.newCid) {
        o.canonicalized++
        addMapping(s, { old: block.cid.toString(), new: r.newCid })
        await put({ cid: CID.parse(r.newCid), bytes: r.out })
        return
      }
      if (r.cls === 'canonical') o.reencoded++
      else o.copied++
      if (r.keptReason) o.keptUnchanged++
      await put(block)
    },
    async close () {
      await writer.close()
      await pump
      if (failure) throw failure
    },
    async abort () {
      await writer.close().catch(() => {})
      await pump
      if (regularFile) await fs.promises.rm(path, { force: true })
    }
  }
}
