// @ipld/car's CarIndexer: where each block of a CAR lies ({ cid, offset, length, blockOffset,
// blockLength }: the section's byte offset and length, its block's byte offset and length), read in
// bounded memory with every length claim checked first (read/car-reader.js). It hands out no block
// bytes, and so checks no hash: a reader that reads the blocks at those places checks each
// (CarReader.readRaw, CarIndexedReader.get).
import { CID } from 'multiformats/cid'
import { openSource } from '../read/source.js'
import { openCar, asReadError } from '../read/car-reader.js'

/**
 * @typedef {import('../read/source.js').CarInput} CarInput
 * @typedef {import('../read/source.js').Source} Source
 * @typedef {{ cid: CID, offset: number, length: number, blockOffset: number, blockLength: number }} BlockIndex
 * @typedef {{ maxBlockSize?: number }} IndexerOptions
 */

/** @param {number} n @returns {number} the size of n as a varint */
export function varintSize (n) {
  let size = 1
  while (n >= 0x80) { n = Math.floor(n / 0x80); size++ }
  return size
}

/**
 * The index entries of an opened CAR's blocks.
 *
 * @param {import('../read/car-reader.js').Car} car
 * @param {Source} source closed at the end
 * @returns {AsyncGenerator<BlockIndex>}
 */
async function * indexOf (car, source) {
  let count = 0
  try {
    for await (const { cid, bytes, offset } of car.blocks()) {
      count++
      const cidLength = cid.bytes.length
      const sectionLength = cidLength + bytes.length
      const length = varintSize(sectionLength) + sectionLength
      // the CID's own bytes: not a view that keeps the chunk it was read from alive
      yield { cid: CID.decode(new Uint8Array(cid.bytes)), offset, length, blockOffset: offset + length - bytes.length, blockLength: bytes.length }
    }
  } catch (err) {
    throw asReadError(err, count, car.position())
  } finally {
    await car.stop().catch(() => {})
    await source.close()
  }
}

export class CarIndexer {
  /**
   * @param {number} version
   * @param {CID[]} roots
   * @param {AsyncGenerator<BlockIndex>} iterator
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
    return this.fromIterable(bytes, options)
  }

  /**
   * @param {CarInput} input an async iterable of bytes, as @ipld/car takes; or bytes, a Blob, a ReadableStream
   * @param {IndexerOptions} [options]
   * @returns {Promise<CarIndexer>}
   */
  static async fromIterable (input, options = {}) {
    const source = await this.source(input)
    let car
    try {
      car = await openCar(source.stream(), { size: source.size, maxBlockSize: options.maxBlockSize })
    } catch (err) {
      await source.close()
      throw asReadError(err, 0, 0)
    }
    return new this(car.version, car.roots, indexOf(car, source))
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
