// The Node CarBlockIterator's batches with worker threads hashing: the core's one loop over the
// iterator's batches (iterate.js hashedBatches, feed.js), given the Node shell's one worker pool
// (workers.js), whose 'hash' jobs check a batch's hashes and send its buffer back. Its workers load
// only the hashers: they start sooner than verify's.
import { hashedBatches as batchesOf } from '../core/run/iterate.js'
import { workerPool } from './workers.js'

/**
 * @param {import('../core/read/open-car.js').Car} car
 * @param {number} threads worker threads
 * @param {ArrayBufferLike[]} [spare] buffers of batches whose blocks were copied out, to read into again
 * @param {typeof workerPool} [makePool] the pool's maker: a test wraps the one pool to see and steer
 *   which batches go to the worker (test/node/hashed-batches.spec.js); called once per iteration
 * @returns {AsyncGenerator<import('../core/run/iterate.js').HashedBatch>}
 */
export async function * hashedBatches (car, threads, spare, makePool = workerPool) {
  const pool = await makePool(threads, null, {})
  try {
    yield * batchesOf(car, spare, pool)
  } finally {
    await pool.close()
  }
}
