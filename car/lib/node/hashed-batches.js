// The Node CarBlockIterator's batches with worker threads hashing (hash-workers.js): batches of
// sections are read ahead (by position, in this thread) and sent to the workers, transferred, which
// check their blocks' hashes and send them back. While the workers have HASHING_AHEAD batches each
// still to hash, or have not started yet, this thread checks the next batch read itself rather than
// wait (it learns both from counters the workers keep in shared memory, without turning its event
// loop). Batches are handed out in order, each once it is checked; a few more than the workers hold
// are read ahead (more only holds more memory).
//
// Blocks copied out (the default): a batch's buffer, back from its worker, is read into again once
// its blocks are copied out (`spare`), as with one thread: no fresh memory per batch. viewBytes:
// each batch is a buffer of its own, which the caller's blocks are views of.
import { sectionBatches } from '../core/run/iterate.js'
import { hashedSections } from '../core/run/hashed-sections.js'
import { hashWorkers } from './hash-workers.js'

/** batches a worker thread has or waits for, per worker */
const HASHING_AHEAD = 4
/** batches read and not yet handed out (each about 1 MB), beyond the workers' */
const READ_SPARE = 2

/**
 * @param {import('../core/read/car-reader.js').Car} car
 * @param {number} threads worker threads
 * @param {ArrayBufferLike[]} [spare] buffers of batches whose blocks were copied out, to read into again
 * @returns {AsyncGenerator<import('../core/run/iterate.js').HashedBatch>}
 */
export async function * hashedBatches (car, threads, spare) {
  const pool = hashWorkers(threads)
  /** @typedef {{ batch: import('../core/run/iterate.js').HashedBatch, hashed: Promise<void> | null }} Entry hashed: null once checked */
  /** @type {Entry[]} */
  const inFlight = []
  /** @param {Entry} entry */
  const toWorker = (entry) => {
    entry.hashed = pool.hash(entry.batch).then(({ verified, bytes }) => {
      entry.batch.bytes = bytes
      entry.batch.verified = verified
      entry.hashed = null
    })
  }
  const reading = sectionBatches(car, spare)
  let readingDone = false
  /** @type {unknown} */
  let readError = null
  try {
    for (;;) {
      while (inFlight.length > 0 && inFlight[0].hashed === null) yield /** @type {Entry} */ (inFlight.shift()).batch
      if (readingDone || inFlight.length >= HASHING_AHEAD * threads + READ_SPARE) {
        if (inFlight.length === 0) break
        await inFlight[0].hashed
        continue
      }
      let next
      try {
        next = await reading.next()
      } catch (err) {
        readError = err // it comes after the blocks before it
        readingDone = true
        continue
      }
      if (next.done) {
        readingDone = true
        continue
      }
      const { bytes, ends, starts, first } = next.value
      /** @type {Entry} */
      const entry = { batch: { bytes, ends, starts, first, verified: 0 }, hashed: null }
      if (pool.pending() < HASHING_AHEAD * pool.ready()) toWorker(entry)
      else entry.batch.verified = hashedSections(bytes, ends)
      inFlight.push(entry)
    }
    if (readError) throw readError
  } finally {
    for (const f of inFlight) f.hashed?.catch(() => {})
    await reading.return(undefined)
    await pool.close()
  }
}
