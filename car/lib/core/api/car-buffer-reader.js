// @ipld/car's CarBufferReader: a CAR in memory, read at once and synchronously, with every block
// checked against its CID, owning its bytes (a copy, not a view of the CAR) and carrying its
// section's byte offset; `get` and `has` look the CID up in an index, not through a list.
import { readStages } from '#read-stages'
import { loadHashers } from '../check/hash.js'
import { checkBlockNow } from '../check/block-errors.js'
import { checkIteratorOptions } from '../run/reader-options.js'

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {import('../graph/block-table.js').BlockTable} BlockTable
 * @typedef {{ cid: CID, bytes: Uint8Array, offset: number }} Block a block, and the byte offset of its section in the CAR
 * @typedef {object} ReaderOptions
 * @property {boolean} [verifyHashes] check each block's bytes against its CID's hash (default true):
 *   a mismatch throws a CarBlockError, and so does a hash this library does not compute, unless `allowUnverified`
 * @property {boolean} [allowUnverified] take blocks whose hash function this library does not compute, unchecked
 * @property {number} [maxBlockSize] the largest block (and section length claim) accepted
 * @typedef {import('../check/block-errors.js').HashNow} HashNow
 */

export class CarBufferReader {
  /**
   * @param {{ version: number, roots: CID[] }} header
   * @param {Block[]} blocks
   */
  constructor (header, blocks) {
    this._header = header
    this._blocks = blocks
    /** @type {CID[] | undefined} */
    this._cids = undefined
    this._index = new (readStages().BlockTable)()
    for (let i = 0; i < blocks.length; i++) this._index.add(blocks[i].cid, i)
  }

  /** @returns {number} 1 or 2 */
  get version () {
    return this._header.version
  }

  /** @returns {CID[]} */
  getRoots () {
    return this._header.roots
  }

  /** @param {CID} key @returns {boolean} */
  has (key) {
    return this._index.find(key) >= 0
  }

  /** @param {CID} key @returns {Block | undefined} the block, or undefined when the CAR has none with this CID */
  get (key) {
    const i = this._index.find(key)
    return i < 0 ? undefined : this._blocks[i]
  }

  /** @returns {Block[]} every block, in order */
  blocks () {
    return this._blocks
  }

  /** @returns {CID[]} every block's CID, in order */
  cids () {
    if (!this._cids) this._cids = this._blocks.map((b) => b.cid)
    return this._cids
  }

  /**
   * A synchronous digest for a hash whose hasher is not loaded yet (the core has none: `ready()`
   * loads them; the Node entry's computes blake2b-256 in JavaScript until its WebAssembly is loaded).
   *
   * @type {HashNow | undefined}
   */
  static hashNow = undefined

  /**
   * Load the hash functions a synchronous read may need (blake2b-256, and sha2-256 outside Node),
   * so that fromBytes can check every block at once.
   *
   * @returns {Promise<void>}
   */
  static ready () {
    return loadHashers()
  }

  /**
   * @param {Uint8Array} bytes
   * @param {ReaderOptions} [options]
   * @returns {CarBufferReader}
   */
  static fromBytes (bytes, options = {}) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('fromBytes() requires a Uint8Array')
    checkIteratorOptions('CarBufferReader.fromBytes', options)
    const { readCarHeader, forEachSection, ownedCopy } = readStages()
    const header = readCarHeader(bytes, options)
    /** @type {Block[]} */
    const blocks = []
    const hashNow = this.hashNow
    // each CID and block copied out of the CAR: arrays of their own
    forEachSection(bytes, header.dataStart, header.dataEnd, (cid, offset, cidStart, blockOffset, end) => {
      const block = { cid: /** @type {CID} */ (cid), bytes: ownedCopy(bytes, blockOffset, end), offset }
      checkBlockNow(block.cid, block.bytes, offset, options, hashNow)
      blocks.push(block)
    }, { maxBlockSize: options.maxBlockSize, version: header.version, cids: 'copy' })
    return new this({ version: header.version, roots: header.roots }, blocks)
  }
}
