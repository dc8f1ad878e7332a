// The Node shell's one pool of worker threads (worker.js), for every job the core hands to threads,
// one message kind each: verify's batches of sections ('sections': a SectionResult back) and of
// blocks ('blocks': one BlockResult per block), and the CarBlockIterator's batches of sections to
// hash ('hash': how many of their first blocks hash to their CIDs, and the batch's buffer back).
// Each job goes to the worker with the fewest waiting; the caller (the core's feed.js) takes the
// answers in the order it sent the jobs, so output and summary are the same whatever the number
// of workers.
import { pack, transferList } from '../core/run/batch.js'

/**
 * @typedef {import('../core/check/classify.js').BlockResult} BlockResult
 * @typedef {import('../core/run/section-checks.js').SectionResult} SectionResult
 * @typedef {import('../core/run/pipeline.js').Processor & { size: number, hash: (batch: import('../core/read/open-car.js').SectionBatch) => Promise<Hashed> }} Pool
 * @typedef {{ verified: number, bytes: Uint8Array }} Hashed a batch to hash back in this thread:
 *   its bytes, and how many of its first blocks hash to their CIDs
 */

/**
 * node:worker_threads is loaded here, when a run uses worker threads (a small file never does).
 *
 * @param {number} n number of worker threads (>= 1)
 * @param {string | null} codecUrl module URL of the codec the workers import for 'sections' and
 *   'blocks' jobs; null: a pool for 'hash' jobs, whose workers load only the hashers (they start
 *   sooner), and the codec at a first other job
 * @param {{ canonicalize?: boolean }} options
 * @returns {Promise<Pool>}
 */
export async function workerPool (n, codecUrl, options) {
  const { Worker } = await import('node:worker_threads')
  /** @type {Map<number, { resolve: (r: any) => void, reject: (e: Error) => void}>} */
  const pending = new Map()
  // per worker: [ready, batches checked], written by the worker itself: the main thread reads them
  // without waiting for messages, which its event loop delivers only when it next waits, and a main
  // thread busy checking batches of its own may not wait for a long time (a worker would sit idle,
  // its batches done, while it looked busy)
  const progress = new Int32Array(new SharedArrayBuffer(8 * n))
  const sent = new Array(n).fill(0)
  /** answers each worker has sent, whose messages this thread has taken */
  const taken = new Array(n).fill(0)
  /** @param {number} i */
  const queued = (i) => sent[i] - Atomics.load(progress, 2 * i + 1)
  let nextId = 0
  /** @type {Error|null} */
  let failed = null

  /** @param {Error} err */
  const failAll = (err) => {
    failed ??= err
    for (const p of pending.values()) p.reject(failed)
    pending.clear()
  }

  const workers = Array.from({ length: n }, (_, i) => {
    const w = new Worker(new URL('./worker.js', import.meta.url), {
      workerData: { codecUrl, canonicalize: !!options.canonicalize, progress, index: i }
    })
    w.on('message', (/** @type {{ id: number, result?: any, error?: string }} */ msg) => {
      if (++taken[i] === sent[i]) w.unref()
      const p = pending.get(msg.id)
      if (!p) return
      pending.delete(msg.id)
      if (msg.error !== undefined) p.reject(new Error(`worker failed: ${msg.error}`))
      else p.resolve(msg.result)
    })
    w.on('error', (err) => failAll(new Error(`worker failed: ${err.message}`)))
    w.on('exit', (code) => { if (pending.size) failAll(new Error(`worker exited (code ${code}) with work pending`)) })
    // held only while it has jobs: an iteration left unfinished does not keep the process alive
    w.unref()
    return w
  })

  /**
   * @param {object} message
   * @param {ArrayBuffer[]} transfer
   * @returns {Promise<any>}
   */
  const send = (message, transfer) => {
    if (failed) return Promise.reject(failed)
    let target = 0
    for (let i = 1; i < n; i++) if (queued(i) < queued(target)) target = i
    const id = nextId++
    if (sent[target]++ === taken[target]) workers[target].ref()
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject })
      workers[target].postMessage({ id, ...message }, transfer)
    })
  }

  return {
    size: n,
    submit (blocks) {
      const batch = pack(blocks)
      return send({ kind: 'blocks', batch }, transferList(batch))
    },
    submitSections (sections, maxBlockSize) {
      // the batch's bytes are in a SharedArrayBuffer: the worker reads them where they are. Nothing
      // is transferred either way: transferring detaches an ArrayBuffer, and the first detach in a
      // thread makes V8 throw away its optimized code and add a detach check to every typed array access
      return send({ kind: 'sections', sections, maxBlockSize }, [])
    },
    hash (batch) {
      // the iterator's batches are ArrayBuffers (its blocks are the caller's): transferred there and back
      return send({ kind: 'hash', bytes: batch.bytes, ends: batch.ends }, [/** @type {ArrayBuffer} */ (batch.bytes.buffer)])
    },
    pending: () => {
      let total = 0
      for (let i = 0; i < n; i++) total += queued(i)
      return total
    },
    ready: () => {
      let ready = 0
      for (let i = 0; i < n; i++) ready += Atomics.load(progress, 2 * i)
      return ready
    },
    async close () {
      await Promise.all(workers.map((w) => w.terminate()))
    }
  }
}
