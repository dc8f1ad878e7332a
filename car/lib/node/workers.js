// The Node shell's block processor: a pool of worker threads, with the core's Processor interface
// (the inline one is the core's, core/pipeline.js). It takes batches of blocks and returns per-block
// results for each batch; the caller awaits batches in submission order, so output and summary are
// identical whatever the number of workers.
import { pack, transferList } from '../core/run/batch.js'

/**
 * @typedef {import('../core/check/classify.js').BlockResult} BlockResult
 * @typedef {import('../core/run/sections.js').SectionResult} SectionResult
 * @typedef {import('../core/run/pipeline.js').Processor} Processor
 */

/**
 * node:worker_threads is loaded here, when a run uses worker threads (a small file never does).
 *
 * @param {number} n number of worker threads (>= 1)
 * @param {string} codecUrl module URL of the codec the workers import
 * @param {{ canonicalize?: boolean }} options
 * @returns {Promise<Processor>}
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
    w.on('message', (/** @type {{ id: number, results?: BlockResult[], sectionResult?: SectionResult, error?: string }} */ msg) => {
      const p = pending.get(msg.id)
      if (!p) return
      pending.delete(msg.id)
      if (msg.error !== undefined) p.reject(new Error(`worker failed: ${msg.error}`))
      else p.resolve(msg.sectionResult ?? msg.results)
    })
    w.on('error', (err) => failAll(new Error(`worker failed: ${err.message}`)))
    w.on('exit', (code) => { if (pending.size) failAll(new Error(`worker exited (code ${code}) with work pending`)) })
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
    sent[target]++
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject })
      workers[target].postMessage({ id, ...message }, transfer)
    })
  }

  return {
    submit (blocks) {
      const batch = pack(blocks)
      return send({ batch }, transferList(batch))
    },
    pending: () => {
      let total = 0
      for (let i = 0; i < n; i++) total += queued(i)
      return total
    },
    ready: () => {
      for (let i = 0; i < n; i++) if (Atomics.load(progress, 2 * i) === 1) return true
      return false
    },
    submitSections (sections, maxBlockSize) {
      // the batch's bytes are in a SharedArrayBuffer: the worker reads them where they are. Nothing
      // is transferred either way: transferring detaches an ArrayBuffer, and the first detach in a
      // thread makes V8 throw away its optimized code and add a detach check to every typed array access
      return send({ sections, maxBlockSize }, [])
    },
    async close () {
      await Promise.all(workers.map((w) => w.terminate()))
    }
  }
}
