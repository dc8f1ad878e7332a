// @ipld/car's CarIndexedReader: a CAR file indexed once (where each block lies, kept as its CID's
// bytes in a CidTable and two numbers, not as strings in a Map), then read block by block by
// position. Each block `get` hands out is read into its own bytes and checked against its CID.
import { CID } from 'multiformats/cid'
import { asReadError } from '../core/read/open-car.js'
import { DEFAULT_MAX_BLOCK_SIZE } from '../core/read/limits.js'
import { CidTable } from '../core/graph/cid-table.js'
import { missing, loadFor } from '../core/check/on-demand.js'
import { checkBlockNow } from '../core/run/buffer-reader.js'
import { openForIndex, visitSections } from '../core/run/indexer.js'
import { openInput } from './source.js'

/**
 * @typedef {import('../core/read/source.js').Source} Source
 * @typedef {{ cid: CID, bytes: Uint8Array, offset: number }} Block
 * @typedef {{ verifyHashes?: boolean, allowUnverified?: boolean, maxBlockSize?: number }} IndexedReaderOptions
 */

export class CarIndexedReader {
  /**
   * @param {number} version
   * @param {string} path
   * @param {CID[]} roots
   * @param {{ table: CidTable, offsets: number[], blockOffsets: number[], blockLengths: number[], order: number[], source: Source }} index
   *   per CID (its id in the table): its section's offset, its block's offset and length; `order`: the ids, in the file's order
   * @param {IndexedReaderOptions} [options]
   */
  constructor (version, path, roots, index, options = {}) {
    this._version = version
    this._path = path
    this._roots = roots
    this._index = index
    this._options = options
  }

  /** @returns {number} 1 or 2 */
  get version () {
    return this._version
  }

  /** @returns {Promise<CID[]>} */
  async getRoots () {
    return this._roots
  }

  /** @param {CID} key @returns {number} its id, or -1 */
  _find (key) {
    const bytes = /** @type {any} */ (key)?.bytes
    return bytes instanceof Uint8Array ? this._index.table.find(bytes, 0, bytes.length) : -1
  }

  /** @param {CID} key @returns {Promise<boolean>} */
  async has (key) {
    return this._find(key) >= 0
  }

  /**
   * The block, read from the file and checked against its CID; undefined when the CAR has none with this CID.
   *
   * @param {CID} key
   * @returns {Promise<Block | undefined>}
   */
  async get (key) {
    const id = this._find(key)
    return id < 0 ? undefined : this._read(id, CID.asCID(key))
  }

  /**
   * @param {number} id
   * @param {CID | null} [known] the CID, when the caller has it
   * @returns {Promise<Block>}
   */
  async _read (id, known) {
    const { table, offsets, blockOffsets, blockLengths, source } = this._index
    const cid = known ?? CID.decode(table.bytesOf(id).slice())
    // a regular file's read ends at once: read in this thread, not through the thread pool (a
    // round trip per block, which costs more than the read)
    const bytes = source.readRangeSync
      ? source.readRangeSync(blockOffsets[id], blockLengths[id], new Uint8Array(blockLengths[id]))
      : await source.readRange(blockOffsets[id], blockLengths[id])
    if (missing(cid.code, cid.multihash.code)) await loadFor(cid.code, cid.multihash.code)
    checkBlockNow(cid, bytes, offsets[id], this._options)
    return { cid, bytes, offset: offsets[id] }
  }

  /** @returns {AsyncGenerator<Block>} every block, in the file's order */
  async * blocks () {
    for (const id of this._index.order) yield this._read(id)
  }

  /** @returns {AsyncGenerator<CID>} every block's CID, in the file's order */
  async * cids () {
    const { table, order } = this._index
    for (const id of order) yield CID.decode(table.bytesOf(id).slice())
  }

  /** Closes the file. */
  async close () {
    await this._index.source.close()
  }

  /**
   * @param {string} path
   * @param {IndexedReaderOptions} [options]
   * @returns {Promise<CarIndexedReader>}
   */
  static async fromFile (path, options = {}) {
    if (typeof path !== 'string') throw new TypeError('fromFile() requires a file path string')
    const source = await openInput(path)
    if (!source.seekable) {
      await source.close()
      throw new TypeError(`fromFile() reads a regular file by position; ${path} is not one (a pipe or a device): read it with CarReader.fromIterable`)
    }
    const table = new CidTable()
    /** @type {number[]} */ const offsets = []
    /** @type {number[]} */ const blockOffsets = []
    /** @type {number[]} */ const blockLengths = []
    /** @type {number[]} */ const order = []
    const maxBlockSize = options.maxBlockSize ?? DEFAULT_MAX_BLOCK_SIZE
    const car = await openForIndex(source, maxBlockSize)
    let count = 0
    try {
      // the CIDs' bytes go into the table as they lie in the batch: no CID object kept per block
      const sections = visitSections(car, maxBlockSize, (bytes, cidStart, cidEnd, offset, length, blockOffset) => {
        const id = table.add(bytes, cidStart, cidEnd)
        if (id === offsets.length) {
          offsets.push(offset)
          blockOffsets.push(blockOffset)
          blockLengths.push(offset + length - blockOffset)
        }
        order.push(id)
      })
      for await (const n of sections) count = n
    } catch (err) {
      await source.close()
      throw asReadError(err, count, car.position())
    }
    return new this(car.version, path, car.roots, { table, offsets, blockOffsets, blockLengths, order, source }, options)
  }
}
