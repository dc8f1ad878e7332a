// @ipld/car's CarCIDIterator: a CAR's CIDs, in order, each the CID of a block CarBlockIterator
// checked (a CID is handed out only once its block hashes to it; `verifyHashes: false` skips that).
import { CarBlockIterator } from './car-block-iterator.js'
import { checkIteratorOptions } from '../run/reader-options.js'

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {import('../read/source.js').CarInput} CarInput
 * @typedef {import('./car-block-iterator.js').IteratorOptions} IteratorOptions
 */

export class CarCIDIterator {
  /** @param {CarBlockIterator} blocks */
  constructor (blocks) {
    this._blocks = blocks
    this._decoded = false
  }

  /** @returns {number} 1 or 2 */
  get version () {
    return this._blocks.version
  }

  /** @returns {Promise<CID[]>} */
  getRoots () {
    return this._blocks.getRoots()
  }

  /** @returns {AsyncIterator<CID>} */
  [Symbol.asyncIterator] () {
    if (this._decoded) throw new Error('a CarCIDIterator cannot be iterated more than once')
    this._decoded = true
    const blocks = this._blocks[Symbol.asyncIterator]()
    return {
      async next () {
        const next = await blocks.next()
        return next.done ? { done: true, value: undefined } : { done: false, value: next.value.cid }
      },
      async return () {
        await blocks.return?.()
        return { done: true, value: undefined }
      }
    }
  }

  /**
   * @param {Uint8Array} bytes
   * @param {IteratorOptions} [options]
   * @returns {Promise<CarCIDIterator>}
   */
  static async fromBytes (bytes, options = {}) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('fromBytes() requires a Uint8Array')
    return this.fromIterable(bytes, options)
  }

  /**
   * @param {CarInput} input an async iterable of bytes, as @ipld/car takes; or bytes, a Blob, a ReadableStream
   * @param {IteratorOptions} [options]
   * @returns {Promise<CarCIDIterator>}
   */
  static async fromIterable (input, options = {}) {
    checkIteratorOptions('CarCIDIterator.fromIterable', options) // before a shell's blockIterator opens the input
    return new this(await this.blockIterator(input, options))
  }

  /**
   * The blocks whose CIDs it hands out (a shell's subclass takes its own inputs here: Node, file paths).
   *
   * @param {CarInput} input
   * @param {IteratorOptions} options
   * @returns {Promise<CarBlockIterator>}
   */
  static blockIterator (input, options) {
    return CarBlockIterator.fromIterable(input, { ...options, validate: false, decode: false })
  }
}
