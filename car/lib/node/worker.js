// Worker thread of the Node shell's one pool (workers.js): one message kind per job. 'sections': a
// batch of whole sections (verify without output), answered with a SectionResult; 'blocks': a
// packed batch of blocks, answered with one BlockResult per block, in order; 'hash': a batch of
// sections of the CarBlockIterator's, answered with how many of its first blocks hash to their
// CIDs and the batch's buffer (transferred both ways: the blocks are the caller's).
import { parentPort, workerData } from 'node:worker_threads'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { hashedSections } from '../core/run/hashed-sections.js'
import { loadHasher } from '../core/check/hash.js'

/** @type {Int32Array} [ready, batches checked] per worker, read by the main thread (workers.js) */
const progress = workerData.progress
const at = 2 * workerData.index
const options = { canonicalize: workerData.canonicalize }
const ownCodecUrl = new URL('../core/check/dag-cbor.js', import.meta.url).href

/**
 * What 'sections' and 'blocks' jobs need, loaded once: before the worker says it is ready in a pool
 * started for them (workerData.codecUrl), else at the first such job (a pool for 'hash' jobs starts
 * with the hashers only, sooner). No top-level await: the packed bundle is CommonJS.
 * The codec: this build's own when it is the main thread's default (run.js's defaultCodecUrl), so
 * that a bundled thread runs the bundle's; another (a bench's) by require.
 */
const load = () => (loading ??= Promise.all([
  !workerData.codecUrl || workerData.codecUrl === ownCodecUrl ? import('../core/check/dag-cbor.js') : createRequire(import.meta.url)(fileURLToPath(workerData.codecUrl)),
  import('../core/run/section-checks.js'),
  import('../core/run/batch.js'),
  import('../core/check/on-demand.js'),
  import('../core/check/classify.js')
]).then(([codec, sections, batch, onDemand, classify]) => {
  /** @type {Modules} */
  const loaded = { codec: classify.codecOf(codec), processSections: sections.processSections, unpack: batch.unpack, processBatch: batch.processBatch, checkLoading: onDemand.checkLoading }
  modules = loaded
  return loaded
}))
/**
 * @typedef {{ codec: any, processSections: typeof import('../core/run/section-checks.js').processSections, unpack: typeof import('../core/run/batch.js').unpack, processBatch: typeof import('../core/run/batch.js').processBatch, checkLoading: typeof import('../core/check/on-demand.js').checkLoading }} Modules
 */
/** @type {Modules | null} */
let modules = null
/** @type {Promise<Modules> | null} */
let loading = null

/**
 * @typedef {{ id: number, kind: 'sections', sections: import('../core/read/open-car.js').SectionBatch, maxBlockSize: number }
 *   | { id: number, kind: 'blocks', batch: import('../core/run/batch.js').PackedBatch }
 *   | { id: number, kind: 'hash', bytes: Uint8Array, ends: Uint32Array }} Message
 */

/** @param {object} reply @param {ArrayBuffer[]} [transfer] */
const answer = (reply, transfer) => {
  Atomics.add(progress, at + 1, 1) // counted before the answer is sent: the main thread may read it first
  parentPort?.postMessage(reply, transfer)
}

/** @param {Message} msg */
function check (msg) {
  if (msg.kind === 'hash') {
    let verified = 0
    try {
      verified = hashedSections(msg.bytes, msg.ends)
    } catch {} // the thread handing the blocks out checks them again and reports what is wrong
    answer({ id: msg.id, result: { verified, bytes: msg.bytes } }, [/** @type {ArrayBuffer} */ (msg.bytes.buffer)])
    return
  }
  const failed = (/** @type {any} */ err) => answer({ id: msg.id, error: String(err?.message ?? err) })
  if (modules === null) {
    load().then(() => check(msg), failed)
    return
  }
  const { codec, processSections, unpack, processBatch, checkLoading } = modules
  try {
    // loads, in this thread, what the batch's blocks need (on-demand.js): then a Promise
    const result = checkLoading(() => msg.kind === 'sections'
      ? { id: msg.id, result: processSections(codec, msg.sections, { maxBlockSize: msg.maxBlockSize }) }
      // results are cloned, not transferred: an encoder's output may be a view on a buffer it reuses
      : { id: msg.id, result: processBatch(codec, unpack(msg.batch), options) })
    if (result instanceof Promise) result.then(answer, failed)
    else answer(result)
  } catch (err) {
    failed(err)
  }
}

parentPort?.on('message', check)
// the main thread checks every batch itself until a worker can take some: it sees this without
// turning its event loop, which it may not do while it has batches to read and hand out
const ready = () => Atomics.store(progress, at, 1)
if (workerData.codecUrl) {
  // ready once it can check: a batch sent before would wait behind the loading
  load().then(ready, ready) // (a failed load fails each job, with its message)
} else {
  // a pool for 'hash' jobs: blake2b-256 (sha2-256 is node:crypto's, there from the start) loads
  // meanwhile; until it has, hashedSections stops at a blake2b-256 block and leaves it to the main thread
  loadHasher(0xb220).catch(() => {})
  ready()
}
