// @ipld/car's CarIndexedReader: a CAR file indexed once (where each section lies, in typed arrays:
// no object or string per block; each CID's bytes once, in a CidTable), then read block by block
// by position. Each block handed out is read from its own section into its own bytes and checked
// against its CID; a CID the CAR holds twice is two sections, each read and checked on its own.
import { asReadError } from '../core/read/read-errors.js'
import { DEFAULT_MAX_BLOCK_SIZE } from '../core/read/limits.js'
import { CidTable, grow } from '../core/graph/cid-table.js'
import { missing, loadFor } from '../core/check/on-demand.js'
import { checkBlockNow } from '../core/check/block-errors.js'
import { checkIteratorOptions } from '../core/run/reader-options.js'
import { indexStages } from '#index-stages'
import { openInput } from './input-source.js'

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {import('../core/read/source.js').Source} Source
 * @typedef {{ cid: CID, bytes: Uint8Array, offset: number }} Block
 * @typedef {{ verifyHashes?: boolean, allowUnverified?: boolean, maxBlockSize?: number }} IndexedReaderOptions
 * @typedef {object} SectionIndex where each section of the file lies, by its number in the file's order
 * @property {number} count how many sections
 * @property {CidTable} table every distinct CID's bytes
 * @property {Int32Array} cidIds per section: its CID's id in the table
 * @property {Float64Array} offsets per section: its byte offset; one more entry, where the last ends
 *   (sections lie back to back, so a section ends where the next begins)
 * @property {Float64Array} blockOffsets per section: its block's byte offset (the block runs to the section's end)
 * @property {Int32Array} lastSection per CID id: its last section, the one get() reads
 * @property {Source} source the file
 */

export class CarIndexedReader {
  /**
   * @param {number} version
   * @param {string} path
   * @param {CID[]} roots
   * @param {SectionIndex} index
   * @param {IndexedReaderOptions} [options]
   */
  constructor (version, path, roots, index, options = {}) {
    this._version = version
    this._path = path
    this._roots = roots
    this._index = index
    this._options = options
    this._closed = false
  }

  /** @returns {number} 1 or 2 */
  get version () {
    return this._version
  }

  /** @returns {Promise<CID[]>} from memory: still answers after close(), as @ipld/car's does */
  async getRoots () {
    return this._roots
  }

  /** @param {CID} key @returns {number} its id, or -1 */
  _find (key) {
    const bytes = /** @type {any} */ (key)?.bytes
    return bytes instanceof Uint8Array ? this._index.table.find(bytes, 0, bytes.length) : -1
  }

  /** @param {CID} key @returns {Promise<boolean>} from memory: still answers after close(), as @ipld/car's does */
  async has (key) {
    return this._find(key) >= 0
  }

  /**
   * The block, read from the file and checked against its CID; undefined when the CAR has none with
   * this CID. A CID the CAR holds more than once is read from its last section: @ipld/car's
   * CarIndexedReader keeps one place per CID in a Map, each later section's replacing the one before.
   * After close() it refuses, for any CID (@ipld/car's would answer undefined for a CID the CAR
   * lacks, and read through its closed handle, or reopen the file, for one it holds).
   *
   * @param {CID} key
   * @returns {Promise<Block | undefined>}
   */
  async get (key) {
    this._refuseIfClosed('get')
    const id = this._find(key)
    return id < 0 ? undefined : this._read('get', this._index.lastSection[id], indexStages().CID.asCID(key))
  }

  /** @param {string} method */
  _refuseIfClosed (method) {
    // the descriptor's number may belong to another file by now: reading through it would hand out
    // that file's bytes (or report a false hash mismatch)
    if (this._closed) throw new Error(`CarIndexedReader is closed: ${method}() cannot read ${this._path} after close(); open it again with CarIndexedReader.fromFile()`)
  }

  /**
   * @param {string} method the caller's, for the message when closed
   * @param {number} section its number in the file's order
   * @param {CID | null} [known] the CID, when the caller has it
   * @returns {Promise<Block>}
   */
  async _read (method, section, known) {
    const { table, cidIds, offsets, blockOffsets, source } = this._index
    const cid = known ?? indexStages().CID.decode(table.bytesOf(cidIds[section]).slice())
    const offset = offsets[section]
    const blockOffset = blockOffsets[section]
    const length = offsets[section + 1] - blockOffset
    this._refuseIfClosed(method)
    // a regular file's read ends at once: read in this thread, not through the thread pool (a
    // round trip per block, which costs more than the read); nothing can close the file meanwhile
    let bytes
    if (source.readRangeSync) {
      bytes = source.readRangeSync(blockOffset, length, new Uint8Array(length))
    } else {
      bytes = await source.readRange(blockOffset, length)
      this._refuseIfClosed(method) // closed while the read was under way: its bytes may be another file's
    }
    if (missing(cid.code, cid.multihash.code)) await loadFor(cid.code, cid.multihash.code)
    checkBlockNow(cid, bytes, offset, this._options)
    return { cid, bytes, offset }
  }

  /** @returns {AsyncGenerator<Block>} every section's block, in the file's order, each read from its own section */
  async * blocks () {
    this._refuseIfClosed('blocks') // a CAR with no blocks too
    for (let section = 0; section < this._index.count; section++) yield this._read('blocks', section)
  }

  /** @returns {AsyncGenerator<CID>} every section's CID, in the file's order */
  async * cids () {
    const { table, cidIds, count } = this._index
    // from memory, but refused as blocks() is: a closed reader reads nothing, and says so
    this._refuseIfClosed('cids')
    for (let section = 0; section < count; section++) {
      if (section > 0) this._refuseIfClosed('cids') // closed while its caller was iterating
      yield indexStages().CID.decode(table.bytesOf(cidIds[section]).slice())
    }
  }

  /** Closes the file; has() and getRoots() still answer (from memory), everything that reads refuses. A second call does nothing. */
  async close () {
    if (this._closed) return
    this._closed = true
    await this._index.source.close()
  }

  /**
   * @param {string} path
   * @param {IndexedReaderOptions} [options]
   * @returns {Promise<CarIndexedReader>}
   */
  static async fromFile (path, options = {}) {
    if (typeof path !== 'string') throw new TypeError('fromFile() requires a file path string')
    checkIteratorOptions('CarIndexedReader.fromFile', options) // before the file is opened
    const source = await openInput(path)
    if (!source.seekable) {
      await source.close()
      throw new TypeError(`fromFile() reads a regular file by position; ${path} is not one (a pipe or a device): read it with CarReader.fromIterable`)
    }
    const table = new CidTable()
    let cidIds = new Int32Array(1024)
    let offsets = new Float64Array(1024 + 1)
    let blockOffsets = new Float64Array(1024)
    let count = 0
    let end = 0
    const maxBlockSize = options.maxBlockSize ?? DEFAULT_MAX_BLOCK_SIZE
    const car = await indexStages().openForIndex(source, maxBlockSize)
    try {
      // the CIDs' bytes go into the table as they lie in the batch: no CID object kept per block
      const sections = indexStages().visitSections(car, maxBlockSize, (bytes, cidStart, cidEnd, offset, length, blockOffset) => {
        if (count === cidIds.length) {
          cidIds = grow(cidIds, count + 1)
          offsets = grow(offsets, count + 2)
          blockOffsets = grow(blockOffsets, count + 1)
        }
        cidIds[count] = table.add(bytes, cidStart, cidEnd)
        offsets[count] = offset
        blockOffsets[count] = blockOffset
        end = offset + length
        count++
      })
      while (!(await sections.next()).done); // count goes up in visit()
    } catch (err) {
      await source.close()
      throw asReadError(err, count, car.position())
    }
    offsets[count] = end
    const lastSection = new Int32Array(table.size)
    for (let section = 0; section < count; section++) lastSection[cidIds[section]] = section
    // trimmed to their length: a doubled array's unused half is not kept for the reader's life
    const index = { count, table, cidIds: cidIds.slice(0, count), offsets: offsets.slice(0, count + 1), blockOffsets: blockOffsets.slice(0, count), lastSection, source }
    return new this(car.version, path, car.roots, index, options)
  }
}
