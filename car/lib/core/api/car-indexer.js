// @ipld/car's CarIndexer: where each block of a CAR lies ({ cid, offset, length, blockOffset,
// blockLength }: the section's byte offset and length, its block's byte offset and length), read in
// bounded memory with every length claim checked first (read/open-car.js). It hands out no block
// bytes, and so checks no hash: a reader that reads the blocks at those places checks each
// (CarReader.readRaw, CarIndexedReader.get).
import { openSource } from '../read/source.js'
import { asReadError } from '../read/read-errors.js'
import { indexStages } from '#index-stages'
import { DEFAULT_MAX_BLOCK_SIZE } from '../read/limits.js'
import { checkIteratorOptions } from '../run/reader-options.js'

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {import('../read/source.js').CarInput} CarInput
 * @typedef {import('../read/source.js').Source} Source
 * @typedef {{ cid: CID, offset: number, length: number, blockOffset: number, blockLength: number }} BlockIndex
 * @typedef {{ maxBlockSize?: number }} IndexerOptions
 */

/** bytes of CIDs copied into one arena (each entry's CID a view of it) */
const ARENA = 16 * 1024

/**
 * A CID over `own`, its exact bytes (checked by read/section-places.js's visitSections), built as
 * multiformats builds it, with its multihash and digest views of the same bytes.
 *
 * @param {Uint8Array} own
 */
function cidOver (own) {
  if (own[0] === 0x12) return indexStages().CID.decode(own) // a CIDv0
  let p = 1
  const next = () => {
    let value = 0
    let scale = 1
    for (;;) {
      const b = own[p++]
      value += (b & 0x7f) * scale
      if (b < 0x80) return value
      scale *= 128
    }
  }
  const code = next()
  const mhStart = p
  const hashCode = next()
  const size = next()
  return new (indexStages().CID)(1, code, new (indexStages().Digest)(hashCode, size, own.subarray(p), own.subarray(mhStart)), own)
}

/**
 * The index entries of an opened CAR's blocks: an iterator whose next() answers at once while the
 * batch read last has entries left.
 *
 * @param {import('../read/open-car.js').Car} car
 * @param {Source} source closed at the end
 * @param {number} maxBlockSize
 * @returns {AsyncIterableIterator<BlockIndex>}
 */
function indexOf (car, source, maxBlockSize) {
  /** @type {BlockIndex[]} */
  let batch = []
  let i = 0
  let done = false
  let handedOut = 0
  // the CIDs' own bytes, copied into arenas of a few KiB: not views that keep a 1 MiB batch alive,
  // nor one small array each (multiformats looks at each one's buffer, which costs V8 a copy)
  let arena = new Uint8Array(0)
  let used = 0
  const batches = indexStages().visitSections(car, maxBlockSize, (bytes, cidStart, cidEnd, offset, length, blockOffset) => {
    const size = cidEnd - cidStart
    if (used + size > arena.length) {
      arena = new Uint8Array(Math.max(ARENA, size))
      used = 0
    }
    arena.set(bytes.subarray(cidStart, cidEnd), used)
    const cid = cidOver(arena.subarray(used, used + size))
    used += size
    batch.push({ cid, offset, length, blockOffset, blockLength: offset + length - blockOffset })
  })
  const finish = async () => {
    if (done) return
    done = true
    try {
      await batches.return(0)
      await car.stop()
    } finally {
      await source.close()
    }
  }
  /** @type {unknown} an error to throw once the entries read before it are handed out */
  let pending = null
  /** @returns {Promise<IteratorResult<BlockIndex>>} */
  const refill = async () => {
    for (;;) {
      if (done) return { value: undefined, done: true }
      if (pending !== null) {
        const err = pending
        pending = null
        await finish().catch(() => {})
        throw asReadError(err, handedOut, car.position())
      }
      batch = []
      i = 0
      let next
      try {
        next = await batches.next()
      } catch (err) {
        pending = err
      }
      handedOut += batch.length
      if (next?.done) {
        await finish()
        return { value: undefined, done: true }
      }
      if (batch.length > 0) return { value: batch[i++], done: false }
    }
  }
  /** @type {AsyncIterableIterator<BlockIndex>} */
  const iterator = {
    next: () => i < batch.length ? Promise.resolve({ value: batch[i++], done: false }) : refill(),
    return: async () => {
      batch = []
      await finish()
      return { value: undefined, done: true }
    },
    [Symbol.asyncIterator] () { return iterator }
  }
  return iterator
}

export class CarIndexer {
  /**
   * @param {number} version
   * @param {CID[]} roots
   * @param {AsyncIterator<BlockIndex>} iterator
   */
  constructor (version, roots, iterator) {
    this._version = version
    this._roots = roots
    this._iterator = iterator
  }

  /** @returns {number} 1 or 2 */
  get version () {
    return this._version
  }

  /** @returns {Promise<CID[]>} */
  async getRoots () {
    return this._roots
  }

  /** @returns {AsyncIterator<BlockIndex>} the blocks' places, in order (once) */
  [Symbol.asyncIterator] () {
    return this._iterator
  }

  /**
   * @param {Uint8Array} bytes
   * @param {IndexerOptions} [options]
   * @returns {Promise<CarIndexer>}
   */
  static async fromBytes (bytes, options = {}) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('fromBytes() requires a Uint8Array')
    checkIteratorOptions('CarIndexer.fromBytes', options)
    return this.fromIterable(bytes, options)
  }

  /**
   * @param {CarInput} input an async iterable of bytes, as @ipld/car takes; or bytes, a Blob, a ReadableStream
   * @param {IndexerOptions} [options]
   * @returns {Promise<CarIndexer>}
   */
  static async fromIterable (input, options = {}) {
    checkIteratorOptions('CarIndexer.fromIterable', options) // before a shell's source() opens the input
    const source = await this.source(input)
    const maxBlockSize = options.maxBlockSize ?? DEFAULT_MAX_BLOCK_SIZE
    const car = await indexStages().openForIndex(source, maxBlockSize)
    return new this(car.version, car.roots, indexOf(car, source, maxBlockSize))
  }

  /**
   * The input as a Source (a shell's subclass takes its own inputs here: Node, file paths).
   *
   * @param {CarInput} input
   * @returns {Source | Promise<Source>}
   */
  static source (input) {
    return openSource(input)
  }
}
