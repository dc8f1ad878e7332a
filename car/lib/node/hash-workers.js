// The Node CarBlockIterator's worker threads (hash-worker.js): batches of sections go out, each to
// the worker with the fewest waiting, and come back, with how many of their blocks were verified.
import { Worker } from 'node:worker_threads'

/**
 * @typedef {{ verified: number, bytes: Uint8Array }} Hashed a batch back in this thread: its bytes,
 *   and how many of its first blocks hash to their CIDs
 */

/**
 * @param {number} n worker threads
 */
export function hashWorkers (n) {
  /** @type {Map<number, { resolve: (r: Hashed) => void, reject: (e: Error) => void }>} */
  const pending = new Map()
  /** batches sent to each worker */
  const sent = new Array(n).fill(0)
  /** batches each worker has answered, whose messages this thread has taken */
  const taken = new Array(n).fill(0)
  let nextId = 0
  // [0]: workers started; [1 + i]: batches worker i has hashed. Counted by the workers
  // (hash-worker.js), read here without turning the event loop, which this thread does not turn
  // while it has batches to read and hand out (the answers' messages wait till then)
  const counts = new Int32Array(new SharedArrayBuffer(4 * (1 + n)))
  /** @type {Error | null} */
  let failed = null
  const workers = Array.from({ length: n }, (_, i) => {
    const w = new Worker(new URL('./hash-worker.js', import.meta.url), { workerData: { counts, index: 1 + i } })
    w.on('message', (/** @type {{ id: number } & Hashed} */ { id, verified, bytes }) => {
      if (++taken[i] === sent[i]) w.unref()
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
  /** @param {number} i */
  const hashing = (i) => sent[i] - Atomics.load(counts, 1 + i)
  return {
    /** batches sent and not hashed yet, over all workers */
    pending () {
      let n = 0
      for (let i = 0; i < sent.length; i++) n += hashing(i)
      return n
    },
    /** worker threads started, taking batches */
    ready: () => Atomics.load(counts, 0),
    /**
     * @param {import('../core/read/car-reader.js').SectionBatch} batch its buffer is transferred
     * @returns {Promise<Hashed>}
     */
    hash (batch) {
      if (failed) return Promise.reject(failed)
      let target = 0
      for (let i = 1; i < n; i++) if (hashing(i) < hashing(target)) target = i
      if (sent[target]++ === taken[target]) workers[target].ref()
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
