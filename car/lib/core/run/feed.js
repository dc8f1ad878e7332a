// The one loop that feeds batches of blocks to the checks, with worker threads or without: verify's
// batches of sections (pipeline.js: inline, on a shell's worker threads, or both), verify's batches
// of blocks when it writes a CAR or reports each block (pipeline.js), and the iterator's batches of
// sections (iterate.js: hashed here, or on a shell's worker threads).
//
// Batches are read in order; each is checked in this thread (`here`) or given to the pool
// (`send`), and comes back out in order, as soon as it and those before it are checked. This thread
// checks a batch itself when it has no pool, or while the pool's ready workers each have
// `perWorker` batches waiting or none is ready yet (it learns both from the pool's counters, without
// waiting on its event loop, which it turns only every EVENT_LOOP_TURN_MS of checking). At most `ahead`
// batches are in flight: a batch keeps its buffer until it comes out, so reading far ahead cycles
// through many buffers, which fall out of the caches between uses.

import { now } from '../base/clock.js'
import { EVENT_LOOP_TURN_MS } from '../read/limits.js'

/** A turn of the event loop: what waits there (signal handlers, timers, I/O) runs first. */
const turn = () => new Promise((resolve) => setTimeout(resolve, 0))

/**
 * @typedef {object} Pool what the loop needs to know of a shell's worker threads
 * @property {() => number} pending batches sent and not yet checked, over all workers
 * @property {() => number} ready workers started and taking batches
 */

/**
 * @template B, R
 * @typedef {object} FeedOptions
 * @property {((batch: B) => R | Promise<R>) | null} here check a batch in this thread (a Promise: it
 *   waited for something to load; the batches after it wait for it); null: every batch goes to the pool
 * @property {((batch: B) => Promise<R>) | null} [send] give a batch to the pool; null: no pool
 * @property {Pool | null} [pool]
 * @property {number} [perWorker] batches waiting at each ready worker before this thread checks one itself
 * @property {number} [ahead] most batches in flight (read and not yet out)
 * @property {(err: unknown) => boolean} [holds] an error of reading that comes out after the batches
 *   read before it (default: every one); any other ends the loop at once
 * @property {(batch: B) => void} [checkedHere] called as soon as this thread has checked a batch
 *   (its buffer may be read into again: the result does not hold it)
 */

/**
 * @template B, R
 * @param {AsyncGenerator<B>} batches read in order; returned (stopped) when the loop ends
 * @param {FeedOptions<B, R>} options
 * @returns {AsyncGenerator<{ batch: B, result: R, here: boolean }>} each batch with its result, in order
 */
export async function * feed (batches, options) {
  const { here, send = null, pool = null, perWorker = 4, ahead = 2, holds = () => true, checkedHere } = options
  if (here === null && send === null) throw new TypeError('feed needs here() or send()')
  /** @typedef {{ batch: B, result: R | undefined, settled: boolean, here: boolean, error: unknown, checked: Promise<void> | null }} Entry */
  /** @type {Entry[]} */
  const inFlight = []
  let reading = true
  /** @type {unknown} */
  let readError = null
  let lastTurn = now()
  try {
    for (;;) {
      while (inFlight.length > 0 && inFlight[0].settled) {
        const { batch, result, here, error } = /** @type {Entry} */ (inFlight.shift())
        if (error !== null) throw error
        yield { batch, result: /** @type {R} */ (result), here }
      }
      if (!reading || inFlight.length >= ahead) {
        if (inFlight.length === 0) break
        await inFlight[0].checked
        continue
      }
      let next
      try {
        next = await batches.next()
      } catch (err) {
        if (!holds(err)) throw err
        readError = err // it comes out after the batches before it
        reading = false
        continue
      }
      if (next.done) {
        reading = false
        continue
      }
      const batch = next.value
      /** @type {Entry} */
      const entry = { batch, result: undefined, settled: false, here: false, error: null, checked: null }
      if (send === null || (here !== null && pool !== null && pool.pending() >= perWorker * pool.ready())) {
        const checking = /** @type {NonNullable<typeof here>} */ (here)(batch)
        entry.result = checking instanceof Promise ? await checking : checking
        entry.settled = entry.here = true
        checkedHere?.(batch)
        // batches read and checked here go on in microtasks alone: a turn of the event loop now and
        // then, or a Ctrl-C, timers and I/O would wait until the run ends
        if (now() - lastTurn >= EVENT_LOOP_TURN_MS) {
          await turn()
          lastTurn = now()
        }
      } else {
        entry.checked = send(batch).then((r) => { entry.result = r }, (err) => { entry.error = err }).then(() => { entry.settled = true })
      }
      inFlight.push(entry)
    }
    if (readError !== null) throw readError
  } finally {
    for (const e of inFlight) e.checked?.catch(() => {})
    await batches.return(undefined) // stops reading ahead
  }
}
