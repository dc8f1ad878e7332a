// The Node entry's CarBlockIterator, in a module of its own so that 'dag-cbor-car/iterator'
// (lib/node/iterator-entry.js) gives it without loading the rest of the entry (node-library.js).
import { CarBlockIterator as CoreCarBlockIterator } from '../core/api/car-block-iterator.js'
import { checkIteratorOptions } from '../core/run/reader-options.js'
import { openNodeInput } from './readers.js'
import { maxWorkers } from './run.js'

/**
 * @typedef {import('../core/read/source.js').CarInput | string | URL} NodeCarInput a CarInput, or a file path or file: URL
 * @typedef {import('../core/index.js').IteratorOptions} IteratorOptions
 */

/**
 * The core's CarBlockIterator, whose fromIterable also takes a file path or file: URL, and
 * `workers`: threads hashing blocks (default 1, this thread, as verifyCar's; N: N - 1 worker threads
 * hash batches of blocks while this thread reads ahead and hands the blocks out, in order). Worker
 * threads are asked for, not assumed: they cost memory (the batches they hold) and CPU for a
 * modest gain, and the buffers they are sent are transferred away from the caller's thread.
 */
export class CarBlockIterator extends CoreCarBlockIterator {
  /**
   * @param {NodeCarInput} input
   * @param {IteratorOptions & { workers?: number }} [options]
   */
  static async fromIterable (input, options = {}) {
    checkIteratorOptions('CarBlockIterator.fromIterable', options) // before the input is opened
    const { workers } = options
    if (workers !== undefined && (!Number.isInteger(workers) || workers < 1)) throw new RangeError(`workers must be a whole number of at least 1, got ${workers}`)
    const source = await openNodeInput(input)
    const threads = Math.min(workers ?? 1, maxWorkers())
    // worker threads only where they would hash something
    const hashing = threads > 1 && options.verifyHashes !== false
    const iterator = await this.fromSource(source, options, false)
    iterator.hashingThreads = hashing ? threads - 1 : 0
    return iterator
  }

  /**
   * @param {import('../core/read/open-car.js').Car} car
   * @param {IteratorOptions} options
   * @param {import('../core/read/source.js').Source} [source]
   */
  constructor (car, options, source) {
    super(car, options, source)
    /** worker threads hashing the blocks (0: this thread hashes them) */
    this.hashingThreads = 0
  }

  /**
   * With worker threads: batches hashed by them and by this thread, handed out in order (hashed-batches.js).
   *
   * @param {ArrayBufferLike[]} [spare] buffers to read into again (blocks copied out of their batches)
   * @returns {AsyncGenerator<import('../core/run/iterate.js').HashedBatch>}
   */
  async * sectionBatches (spare) {
    if (this.hashingThreads === 0) yield * super.sectionBatches(spare)
    else yield * (await import('./hashed-batches.js')).hashedBatches(this.car, this.hashingThreads, spare)
  }
}
