// The CAR reader's entry: openCar, and what callers import from here, re-exported from the files
// it is spread over (section-reader.js the type, header.js, byte-reader.js, sections.js, section-batches.js,
// read-errors.js; every limit and default in limits.js).
//
// openCar also watches its input: an error the input itself throws (a stream that errors, a read
// refused by a disk or a network) is not a fault of the CAR, yet the reader, which judges bytes,
// would report the bytes it then lacked ("truncated or corrupt") or let the error through unnamed.
// Whatever the reader throws after the input failed comes out of the reader as an InputFailedError
// (a CarReadError) saying so, with the input's error as its `cause` and its `code`.
import { CarFileReader } from './section-reader.js'
import { CarReadError, InputFailedError } from './read-errors.js'
import { FAILURE_TAKEN } from './byte-reader.js'
import { ToolError } from '../base/errors.js'

export { CarFileReader } from './section-reader.js'
export { CarReadError, InputFailedError }
export { asReadError, sectionError } from './read-errors.js'
export { readVarint } from './byte-reader.js'
export { decodeSectionCid, readSectionAt, scanSections } from './sections.js'

/**
 * @typedef {CarFileReader} Car
 * @typedef {import('./section-reader.js').Block} Block
 * @typedef {import('./section-reader.js').SectionBatch} SectionBatch
 * @typedef {import('./section-reader.js').SeekableFile} SeekableFile
 * @typedef {import('./section-reader.js').ReaderOptions} ReaderOptions
 * @typedef {import('./header.js').V2Header} V2Header
 */

/**
 * Read a CAR's header from a stream of chunks: the reader of its blocks, positioned at the first.
 *
 * @param {AsyncIterable<Uint8Array>} chunks
 * @param {ReaderOptions} [options]
 * @returns {Promise<Car>}
 */
export async function openCar (chunks, options = {}) {
  const watch = watchInput()
  const file = options.file && watch.file(options.file)
  let car
  try {
    car = await CarFileReader.open(watch.chunks(chunks, 0), { ...options, file })
  } catch (err) {
    throw watch.blame(err, 0)
  }
  guard(car, watch)
  return car
}

/**
 * @typedef {object} Failure an error the input threw
 * @property {unknown} error as thrown
 * @property {number} at the byte offset it was reading at
 * @property {boolean} taken the reader waited on the read it failed (not a read ahead, which no one may take)
 */

/**
 * What the input threw, and the error the reader's callers get for it.
 */
function watchInput () {
  /** @type {Failure[]} */
  const failures = []
  /** @param {unknown} error @param {number} at */
  const record = (error, at) => {
    // the tool's own words about an input (a chunk that is not bytes, a Blob shorter than its
    // size) already say what is wrong, where: they go on as they are (asReadError)
    if (!(error instanceof ToolError)) failures.push({ error, at, taken: false })
  }
  return {
    /**
     * The chunks, watched: a read that fails is recorded, where it was, and fails as it did.
     *
     * @param {AsyncIterable<Uint8Array>} chunks
     * @param {number} start the byte offset of the first chunk
     * @returns {AsyncIterable<Uint8Array>}
     */
    chunks (chunks, start) {
      const iterator = chunks[Symbol.asyncIterator]()
      let at = start
      /** @type {AsyncIterableIterator<Uint8Array> & { [FAILURE_TAKEN]: (error: unknown) => void }} */
      const watched = {
        async next () {
          try {
            const next = await iterator.next()
            if (!next.done) at += next.value.length
            return next
          } catch (err) {
            record(err, at)
            throw err
          }
        },
        async return () {
          await iterator.return?.()
          return { done: true, value: undefined }
        },
        // the byte reader says which failure it waited on (read ahead, one may be left untaken)
        [FAILURE_TAKEN] (error) {
          for (const f of failures) if (f.error === error) f.taken = true
        },
        [Symbol.asyncIterator] () { return watched }
      }
      return watched
    },

    /**
     * The input read by position, watched the same way.
     *
     * @param {SeekableFile} file
     * @returns {SeekableFile}
     */
    file (file) {
      const { readRangeSync } = file
      return {
        size: file.size,
        stream: (start = 0) => this.chunks(file.stream(start), start),
        readRange: async (start, length, into) => {
          try {
            return await file.readRange(start, length, into)
          } catch (err) {
            record(err, start)
            throw err
          }
        },
        readRangeSync: readRangeSync && ((start, length, into) => {
          try {
            return readRangeSync.call(file, start, length, into)
          } catch (err) {
            record(err, start)
            throw err
          }
        })
      }
    },

    /**
     * The error a reader's caller gets for `err`: an InputFailedError when the input failed under
     * it (a failure the reader waited on, or `err` itself), else `err` as it is.
     *
     * @param {unknown} err
     * @param {number} blocks complete blocks read before it, when `err` does not say
     */
    blame (err, blocks) {
      if (err instanceof InputFailedError) return err
      const failure = failures.find((f) => f.taken || f.error === err)
      if (!failure) return err
      return new InputFailedError(failure.error, { blocks: err instanceof CarReadError ? err.blocks : blocks, offset: failure.at })
    }
  }
}

/**
 * The reader's reading methods, each giving the error watch.blame makes of what it throws.
 *
 * @param {Car} car
 * @param {ReturnType<typeof watchInput>} watch
 */
function guard (car, watch) {
  let blocks = 0 // handed out by blocks() or sectionBatches(), for an error that does not say
  const { blocks: blockList, sectionBatches, readIndex, trailingBytes, sectionAt } = car
  car.blocks = () => guardedIterator(blockList(), watch, () => blocks, () => { blocks++ })
  car.sectionBatches = (batchBytes, batchSections, spare) => guardedIterator(sectionBatches(batchBytes, batchSections, spare), watch, () => blocks, (batch) => { blocks = batch.first + batch.ends.length })
  car.readIndex = guardedCall(readIndex, watch, () => blocks)
  car.trailingBytes = guardedCall(trailingBytes, watch, () => blocks)
  car.sectionAt = guardedCall(sectionAt, watch, () => blocks)
}

/**
 * @template T
 * @param {AsyncGenerator<T>} inner
 * @param {ReturnType<typeof watchInput>} watch
 * @param {() => number} count
 * @param {(value: T) => void} handedOut
 * @returns {AsyncGenerator<T>}
 */
function guardedIterator (inner, watch, count, handedOut) {
  // made once, not per item: blocks() hands out one item per block
  /** @param {IteratorResult<T>} next */
  const onValue = (next) => {
    if (!next.done) handedOut(next.value)
    return next
  }
  /** @param {unknown} err */
  const onError = (err) => { throw watch.blame(err, count()) }
  const iterator = {
    /** @param {any} [value] */
    next: (value) => inner.next(value).then(onValue, onError),
    /** @param {any} [value] */
    return: (value) => inner.return(value),
    /** @param {any} [err] */
    throw: (err) => inner.throw(err).then(onValue, onError),
    [Symbol.asyncIterator] () { return iterator }
  }
  return /** @type {AsyncGenerator<T>} */ (/** @type {unknown} */ (iterator))
}

/**
 * @template {any[]} A, R
 * @param {(...args: A) => Promise<R>} call
 * @param {ReturnType<typeof watchInput>} watch
 * @param {() => number} count
 * @returns {(...args: A) => Promise<R>}
 */
function guardedCall (call, watch, count) {
  return async (...args) => {
    try {
      return await call(...args)
    } catch (err) {
      throw watch.blame(err, count())
    }
  }
}
