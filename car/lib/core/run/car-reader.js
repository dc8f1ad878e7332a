// @ipld/car's CarReader: a whole CAR read into memory, its blocks looked up by CID. The blocks are
// CarBlockIterator's: each checked against its CID, owning its bytes and carrying its section's
// byte offset. `get` and `has` look the CID up in an index of the CIDs' bytes (BlockTable), where
// @ipld/car searches a list of strings.
import { CarBlockIterator } from './block-iterator.js'
import { BlockTable } from '../graph/block-table.js'

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {import('../read/source.js').CarInput} CarInput
 * @typedef {import('./block-iterator.js').Block} Block
 * @typedef {import('./block-iterator.js').IteratorOptions} IteratorOptions
 */

export class CarReader {
  /**
   * @param {{ version: number, roots: CID[] }} header
   * @param {Block[]} blocks
   */
  constructor (header, blocks) {
    this._header = header
    this._blocks = blocks
    this._index = new BlockTable()
    for (let i = 0; i < blocks.length; i++) this._index.add(blocks[i].cid, i)
  }

  /** @returns {number} 1 or 2 */
  get version () {
    return this._header.version
  }

  /** @returns {Promise<CID[]>} */
  async getRoots () {
    return this._header.roots
  }

  /** @param {CID} key @returns {Promise<boolean>} */
  async has (key) {
    return this._index.find(key) >= 0
  }

  /** @param {CID} key @returns {Promise<Block | undefined>} the block, or undefined when the CAR has none with this CID */
  async get (key) {
    const i = this._index.find(key)
    return i < 0 ? undefined : this._blocks[i]
  }

  /** @returns {AsyncGenerator<Block>} every block, in order */
  async * blocks () {
    yield * this._blocks
  }

  /** @returns {AsyncGenerator<CID>} every block's CID, in order */
  async * cids () {
    for (const block of this._blocks) yield block.cid
  }

  /**
   * @param {Uint8Array} bytes
   * @param {IteratorOptions} [options]
   * @returns {Promise<CarReader>}
   */
  static async fromBytes (bytes, options = {}) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('fromBytes() requires a Uint8Array')
    return this.fromIterable(bytes, options)
  }

  /**
   * @param {CarInput} input an async iterable of bytes, as @ipld/car takes; or bytes, a Blob, a ReadableStream
   * @param {IteratorOptions} [options]
   * @returns {Promise<CarReader>}
   */
  static async fromIterable (input, options = {}) {
    const iterator = await this.blockIterator(input, options)
    /** @type {Block[]} */
    const blocks = []
    for await (const block of iterator) blocks.push(block)
    return new this({ version: iterator.version, roots: await iterator.getRoots() }, blocks)
  }

  /**
   * The blocks a reader is made of (a shell's subclass takes its own inputs here: Node, file paths).
   *
   * @param {CarInput} input
   * @param {IteratorOptions} options
   * @returns {Promise<CarBlockIterator>}
   */
  static blockIterator (input, options) {
    return CarBlockIterator.fromIterable(input, { ...options, validate: false, decode: false })
  }
}
