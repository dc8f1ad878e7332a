// Stage 0: where the CAR bytes come from, as one Source whatever the input: bytes in memory, a
// Blob or File (read by position through slice(), never held whole), a ReadableStream or any
// async iterable of Uint8Array chunks (read once, front to back, size unknown). The Node shell
// adds its own Sources (a file read by position, standard input, a pipe: lib/node/input-source.js).
import { ToolError } from '../base/errors.js'
import { STREAM_CHUNK as CHUNK } from './limits.js'

/**
 * @typedef {object} Source
 * @property {string} name what the summary calls it
 * @property {number | undefined} size bytes, when known
 * @property {boolean} seekable `stream` may be called again and `readRange` works
 * @property {(start?: number) => AsyncIterable<Uint8Array>} stream the bytes from `start` (default 0) to the end
 * @property {(start: number, length: number, into?: Uint8Array) => Promise<Uint8Array>} readRange exactly `length` bytes at `start` (seekable only), into `into` when given
 * @property {(start: number, length: number, into: Uint8Array) => Uint8Array} [readRangeSync] the same, in the calling thread
 *   (a file, or bytes in memory: reads that always end): a sequential reader of sections reads with it, so that the bytes it copies are in this
 *   core's cache when they are hashed, and no thread of a pool copies them for it (see section-batches.js directSectionBatches)
 * @property {() => Promise<void>} checkUnchanged throws if the input changed since it was opened (a file)
 * @property {() => Promise<void>} close
 *
 * @typedef {AsyncIterable<Uint8Array> | Iterable<Uint8Array> | ReadableStream<Uint8Array> | Blob | Uint8Array | ArrayBuffer | Source} CarInput
 */

/** The input could not be opened or is unusable. Exit code 2. */
export class InputError extends ToolError {
  /** @param {string} message */
  constructor (message) {
    super(message)
    this.name = 'InputError'
  }
}

/**
 * @param {CarInput} input
 * @param {{ name?: string }} [options] name: what the summary calls the input
 * @returns {Source}
 */
export function openSource (input, { name } = {}) {
  if (input instanceof Uint8Array) return bytesSource(name ?? 'bytes', input)
  if (input instanceof ArrayBuffer) return bytesSource(name ?? 'bytes', new Uint8Array(input))
  if (isSource(input)) return input
  if (typeof Blob === 'function' && input instanceof Blob) return blobSource(name ?? (/** @type {any} */ (input).name || 'blob'), input)
  if (isReadableStream(input)) return onceSource(name ?? 'stream', () => readableChunks(input))
  if (input && (typeof (/** @type {any} */ (input))[Symbol.asyncIterator] === 'function' || typeof (/** @type {any} */ (input))[Symbol.iterator] === 'function')) {
    return onceSource(name ?? 'stream', () => iteratorChunks(/** @type {AsyncIterable<unknown> | Iterable<unknown>} */ (input)))
  }
  throw new TypeError('a CAR input must be a Uint8Array, an ArrayBuffer, a Blob or File, a ReadableStream or an (async) iterable of Uint8Array chunks')
}

/** @param {any} x @returns {x is Source} */
function isSource (x) {
  return x !== null && typeof x === 'object' && typeof x.stream === 'function' && typeof x.readRange === 'function' && typeof x.seekable === 'boolean'
}

/** @param {any} x @returns {x is ReadableStream<Uint8Array>} */
function isReadableStream (x) {
  return x !== null && typeof x === 'object' && typeof x.getReader === 'function'
}

/**
 * @typedef {{ iterable: AsyncIterable<Uint8Array>, cancel: () => void }} Chunks a stream's chunks, and
 *   how to stop it at once: even while a read waits on it (an aborted run does not wait for that read)
 */

/**
 * A ReadableStream's chunks through its reader (not every runtime makes the stream itself async
 * iterable); stopping early cancels the stream.
 *
 * @param {ReadableStream<Uint8Array>} stream
 * @returns {Chunks}
 */
function readableChunks (stream) {
  const reader = stream.getReader()
  let finished = false
  const cancel = () => {
    if (finished) return
    finished = true
    // a read waiting on the stream ends (done) when it is cancelled
    reader.cancel().catch(() => {}).finally(() => reader.releaseLock())
  }
  return chunksOf(async () => {
    if (finished) return { done: true, value: undefined }
    const next = await reader.read()
    if (next.done) { finished = true; reader.releaseLock() }
    return next
  }, cancel)
}

/**
 * An async (or plain) iterable's chunks; stopping early calls its iterator's `return`, without
 * waiting for it (an async generator runs its `return` only after the step it is waiting in).
 *
 * @param {AsyncIterable<unknown> | Iterable<unknown>} input
 * @returns {Chunks}
 */
function iteratorChunks (input) {
  const iterator = Symbol.asyncIterator in input ? input[Symbol.asyncIterator]() : input[Symbol.iterator]()
  let finished = false
  const cancel = () => {
    if (finished) return
    finished = true
    try {
      Promise.resolve(iterator.return?.()).catch(() => {})
    } catch {}
  }
  return chunksOf(async () => {
    if (finished) return { done: true, value: undefined }
    const next = await iterator.next()
    if (next.done) finished = true
    return next
  }, cancel)
}

/**
 * @param {() => Promise<IteratorResult<unknown>>} read the next chunk, as it came
 * @param {() => void} cancel
 * @returns {Chunks}
 */
function chunksOf (read, cancel) {
  /** @type {AsyncIterableIterator<Uint8Array>} */
  const iterator = {
    async next () {
      const next = await read()
      if (next.done) return { done: true, value: undefined }
      try {
        return { done: false, value: asBytes(next.value) }
      } catch (err) {
        cancel()
        throw err
      }
    },
    async return () {
      cancel()
      return { done: true, value: undefined }
    },
    [Symbol.asyncIterator] () { return iterator }
  }
  return { iterable: iterator, cancel }
}

/** @param {unknown} chunk */
function asBytes (chunk) {
  if (chunk instanceof Uint8Array) return chunk
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk)
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
  throw new InputError(`the input gave a chunk that is not bytes (${chunk === null ? 'null' : Array.isArray(chunk) ? 'an array' : typeof chunk}); a CAR input yields Uint8Array chunks`)
}

/**
 * A stream that can be read only once; a second read is a bug in the caller, said plainly.
 * Closing it cancels the stream.
 *
 * @param {string} name
 * @param {() => Chunks} make
 * @returns {Source}
 */
function onceSource (name, make) {
  /** @type {Chunks | null} */
  let chunks = null
  return {
    name,
    size: undefined,
    seekable: false,
    stream: (start = 0) => {
      if (chunks || start !== 0) throw new InputError(`${name} is a stream and cannot be read twice`)
      chunks = make()
      return chunks.iterable
    },
    readRange: async () => { throw new InputError(`${name} is a stream: it cannot be read again by position; give a Blob, a File or bytes`) },
    checkUnchanged: async () => {},
    close: async () => { chunks?.cancel() }
  }
}

/**
 * Bytes in memory as a seekable source.
 *
 * @param {string} name
 * @param {Uint8Array} bytes
 * @returns {Source}
 */
export function bytesSource (name, bytes) {
  return {
    name,
    size: bytes.length,
    seekable: true,
    async * stream (start = 0) {
      for (let i = start; i < bytes.length; i += CHUNK) yield bytes.subarray(i, Math.min(i + CHUNK, bytes.length))
    },
    readRange: async (start, length, into) => {
      if (start + length > bytes.length) throw new InputError(`${name} ends at byte ${bytes.length}, before ${start + length}`)
      if (!into) return bytes.slice(start, start + length)
      into.set(bytes.subarray(start, start + length))
      return into.subarray(0, length)
    },
    // bytes in memory, like a file, are read in this thread: no read ahead, no promise per batch
    readRangeSync: (start, length, into) => {
      if (start + length > bytes.length) throw new InputError(`${name} ends at byte ${bytes.length}, before ${start + length}`)
      into.set(bytes.subarray(start, start + length))
      return into.subarray(0, length)
    },
    checkUnchanged: async () => {},
    close: async () => {}
  }
}

/**
 * A Blob or File: read by position through slice(), so the whole file is never held in memory.
 *
 * @param {string} name
 * @param {Blob} blob
 * @returns {Source}
 */
export function blobSource (name, blob) {
  const size = blob.size
  /** @param {number} start @param {number} end */
  const read = async (start, end) => new Uint8Array(await blob.slice(start, end).arrayBuffer())
  return {
    name,
    size,
    seekable: true,
    async * stream (start = 0) {
      for (let at = start; at < size; at += CHUNK) {
        const length = Math.min(CHUNK, size - at)
        const bytes = await read(at, at + length)
        if (bytes.length !== length) throw shortBlob(name, size, at, length, bytes.length)
        yield bytes
      }
    },
    async readRange (start, length, into) {
      const bytes = await read(start, start + length)
      if (bytes.length !== length) throw shortBlob(name, size, start, length, bytes.length)
      if (!into) return bytes
      into.set(bytes)
      return into.subarray(0, length)
    },
    checkUnchanged: async () => {},
    close: async () => {}
  }
}

/**
 * A Blob whose reads give fewer bytes than its `size` promised (a Blob made over a file that shrank,
 * or a Blob-like object whose `size` is wrong).
 *
 * @param {string} name @param {number} size @param {number} start @param {number} length @param {number} got
 */
function shortBlob (name, size, start, length, got) {
  return new InputError(`${name} says it holds ${size} bytes, but reading ${length} bytes at byte offset ${start} gave ${got}: it holds ${start + got} bytes or fewer (it changed, or its size is wrong)`)
}
