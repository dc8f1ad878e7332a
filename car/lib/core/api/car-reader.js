// @ipld/car's CarReader: a whole CAR in memory, its blocks looked up by CID. As @ipld/car's, it
// holds the caller's bytes (fromBytes) or one buffer the input was collected into (fromIterable),
// and no copy of the blocks: the framing is read at once (read/in-memory.js: every length claim
// checked, a truncated CAR refused here), and each section indexed by its CID (BlockTable, which
// keeps a copy of the CIDs' bytes) and by where it lies. A block is cut out when it is handed out (get, blocks): a copy that owns its
// bytes, checked against its CID at that moment (so bytes the caller changed since are refused
// then, with a CarBlockError) and carrying its section's offset. Peak memory: the CAR and the index.
import { openSource } from '../read/source.js'
import { readStages } from '#read-stages'
import { checkBlockNow } from '../check/block-errors.js'
import { missing, loadFor } from '../check/on-demand.js'
import { checkIteratorOptions } from '../run/reader-options.js'

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {import('../graph/block-table.js').BlockTable} BlockTable
 * @typedef {import('../read/source.js').CarInput} CarInput
 * @typedef {import('../read/source.js').Source} Source
 * @typedef {import('./car-block-iterator.js').Block} Block
 * @typedef {import('./car-block-iterator.js').IteratorOptions} IteratorOptions
 */

/**
 * Where each section lies in the CAR (its start, its block's start and its end) and the id of its
 * CID in the reader's table, by section number.
 */
class Places {
  constructor () {
    this.n = 0
    this.offsets = new Float64Array(256)
    this.ids = new Int32Array(256)
    this.blockOffsets = new Float64Array(256)
    this.ends = new Float64Array(256)
  }

  /** @param {number} offset @param {number} id @param {number} blockOffset @param {number} end */
  push (offset, id, blockOffset, end) {
    if (this.n === this.offsets.length) {
      this.offsets = grown(this.offsets)
      this.ids = grown(this.ids)
      this.blockOffsets = grown(this.blockOffsets)
      this.ends = grown(this.ends)
    }
    this.offsets[this.n] = offset
    this.ids[this.n] = id
    this.blockOffsets[this.n] = blockOffset
    this.ends[this.n] = end
    this.n++
  }

  /** the arrays cut to their length, once all sections are in */
  trim () {
    this.offsets = this.offsets.slice(0, this.n)
    this.ids = this.ids.slice(0, this.n)
    this.blockOffsets = this.blockOffsets.slice(0, this.n)
    this.ends = this.ends.slice(0, this.n)
  }
}

/**
 * @template {Float64Array | Int32Array} T
 * @param {T} a
 * @returns {T}
 */
function grown (a) {
  const next = /** @type {T} */ (new /** @type {any} */ (a.constructor)(a.length * 2))
  next.set(a)
  return next
}

export class CarReader {
  /**
   * @param {{ version: number, roots: CID[] }} header
   * @param {Uint8Array} bytes the CAR, held (not copied)
   * @param {Places} places where each section lies
   * @param {BlockTable} index CID to section number
   * @param {IteratorOptions} options how blocks are checked when handed out
   */
  constructor (header, bytes, places, index, options) {
    this._header = header
    // a plain Uint8Array over the same memory (a Buffer's slice is a view; a plain one's a copy)
    this._bytes = bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this._places = places
    this._index = index
    this._options = options
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
    if (i < 0) return undefined
    const cid = /** @type {CID} */ (key)
    if (missing(cid.code, cid.multihash.code)) await loadFor(cid.code, cid.multihash.code)
    return this._block(i)
  }

  /** @returns {AsyncGenerator<Block>} every block, in order */
  async * blocks () {
    for (let i = 0; i < this._places.n; i++) {
      const cid = this._cid(i)
      if (missing(cid.code, cid.multihash.code)) await loadFor(cid.code, cid.multihash.code)
      yield this._block(i, cid)
    }
  }

  /** @returns {AsyncGenerator<CID>} every block's CID, in order */
  async * cids () {
    for (let i = 0; i < this._places.n; i++) yield this._cid(i)
  }

  /**
   * The CID of section i, as the CAR held it when it was read (the index keeps a copy of its bytes).
   *
   * @param {number} i
   */
  _cid (i) {
    const table = this._index.table
    const id = this._places.ids[i]
    const { plainCid, CID } = readStages()
    return plainCid(table.arena, table.starts[id], table.starts[id + 1], true) ?? CID.decode(table.bytesOf(id).slice())
  }

  /**
   * Section i's block, copied out of the CAR and checked against its CID now.
   *
   * @param {number} i
   * @param {CID} [cid] its CID, when already made
   * @returns {Block}
   */
  _block (i, cid = this._cid(i)) {
    const offset = this._places.offsets[i]
    const bytes = readStages().ownedCopy(this._bytes, this._places.blockOffsets[i], this._places.ends[i])
    checkBlockNow(cid, bytes, offset, this._options)
    return { cid, bytes, offset }
  }

  /**
   * The reader of a CAR in memory: its framing read and indexed at once (a truncated or corrupt
   * CAR throws its CarReadError here); its blocks checked when handed out. The bytes are held, not
   * copied: changing them after changes nothing handed out, and a block changed is refused at get.
   *
   * @param {Uint8Array} bytes
   * @param {IteratorOptions} [options]
   * @returns {Promise<CarReader>}
   */
  static async fromBytes (bytes, options = {}) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('fromBytes() requires a Uint8Array')
    checkIteratorOptions('CarReader.fromBytes', options)
    const { readCarHeader, BlockTable, forEachSection } = readStages()
    const header = readCarHeader(bytes, options)
    const places = new Places()
    const index = new BlockTable()
    forEachSection(bytes, header.dataStart, header.dataEnd, (cid, offset, cidStart, blockOffset, end, n) => {
      places.push(offset, index.addBytes(bytes, cidStart, blockOffset, n), blockOffset, end)
    }, { maxBlockSize: options.maxBlockSize, version: header.version, cids: 'none' })
    places.trim()
    return (new this({ version: header.version, roots: header.roots }, bytes, places, index, options))
  }

  /**
   * The input collected into one buffer (its chunks listed, then copied once into a buffer of
   * their total size, as @ipld/car does; a file or Blob of known size read straight into one),
   * then read as fromBytes reads it.
   *
   * @param {CarInput} input an async iterable of bytes, as @ipld/car takes; or bytes, a Blob, a ReadableStream
   * @param {IteratorOptions} [options]
   * @returns {Promise<CarReader>}
   */
  static async fromIterable (input, options = {}) {
    checkIteratorOptions('CarReader.fromIterable', options) // before a shell's source() opens the input
    if (input instanceof Uint8Array) return this.fromBytes(input, options)
    if (input instanceof ArrayBuffer) return this.fromBytes(new Uint8Array(input), options)
    const source = await this.source(input)
    let bytes
    try {
      bytes = await readWhole(source)
    } finally {
      await source.close()
    }
    return this.fromBytes(bytes, options)
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

/**
 * A source's bytes in one buffer.
 *
 * @param {Source} source
 * @returns {Promise<Uint8Array>}
 */
async function readWhole (source) {
  if (source.seekable && source.size !== undefined) return source.readRange(0, source.size, new Uint8Array(source.size))
  /** @type {Uint8Array[]} */
  const chunks = []
  let total = 0
  for await (const chunk of source.stream()) {
    chunks.push(chunk)
    total += chunk.length
  }
  if (chunks.length === 1) return chunks[0]
  const bytes = new Uint8Array(total)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.length
  }
  return bytes
}
