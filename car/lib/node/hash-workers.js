// The Node CarBlockIterator's worker threads (hash-worker.js): batches of sections go out, each to
// the worker with the fewest waiting, and come back, with how many of their blocks were verified.
import { Worker } from 'node:worker_threads'

/**
 * @param {number} n worker threads
 */
export function hashWorkers (n) {
  /** @type {Map<number, { resolve: (r: { verified: number, bytes: Uint8Array }) => void, reject: (e: Error) => void }>} */
  const pending = new Map()
  const waiting = new Array(n).fill(0)
  let nextId = 0
  /** @type {Error | null} */
  let failed = null
  const workers = Array.from({ length: n }, (_, i) => {
    const w = new Worker(new URL('./hash-worker.js', import.meta.url))
    w.on('message', (/** @type {{ id: number, verified: number, bytes: Uint8Array }} */ { id, verified, bytes }) => {
      if (--waiting[i] === 0) w.unref()
      const p = pending.get(id)
      pending.delete(id)
      p?.resolve({ verified, bytes })
    })
    w.on('error', (err) => {
      failed ??= new Error(`a hashing worker failed: ${err.message}`)
      for (const p of pending.values()) p.reject(failed)
      pending.clear()
    })
    w.unref() // held only while it has batches: an iteration left unfinished does not keep the process alive
    return w
  })
  return {
    /** batches sent and not answered yet */
    pending: () => pending.size,
    /**
     * @param {import('../core/read.js').SectionBatch} batch its buffer is transferred
     * @returns {Promise<{ verified: number, bytes: Uint8Array }>} the batch's bytes, back in this thread
     */
    hash (batch) {
      if (failed) return Promise.reject(failed)
      let target = 0
      for (let i = 1; i < n; i++) if (waiting[i] < waiting[target]) target = i
      if (waiting[target]++ === 0) workers[target].ref()
      const id = nextId++
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject })
        workers[target].postMessage({ id, bytes: batch.bytes, ends: batch.ends }, [/** @type {ArrayBuffer} */ (batch.bytes.buffer)])
      })
    },
    async close () {
      await Promise.all(workers.map((w) => w.terminate()))
    }
  }
}
