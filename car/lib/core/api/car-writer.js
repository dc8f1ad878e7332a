// Stage 6: @ipld/car's CarWriter (its writer-browser.js and writer.js, version 5.4), written with
// this library's codec: the same names, methods and behaviour, so a script switches by changing its
// import. `create(roots)` gives `{ writer, out }`; a put() or close() resolves once the reader of
// `out` has taken its bytes (close(): once the reader has been told the CAR ended); `out` can be read
// once. What this adds to @ipld/car's: every root and CID is checked to be a CID whose bytes are one
// (a bad root is refused by create() with a TypeError, a bad CID by put()), a block whose bytes do not
// hash to its CID (sha2-256, blake2b-256, identity: what the readers check) is refused by put()
// unless create()'s or createAppender()'s `{ verifyHashes: false }`, a section is one chunk
// of fresh bytes (the caller's block bytes are copied, so the chunks are the reader's to keep or
// transfer), and the queue of unread chunks costs nothing per chunk taken (no Array#shift).
// updateRootsInFile takes a FileHandle (or any object with FileHandle's read and write) everywhere;
// a numeric file descriptor needs the Node entry (lib/node/writer-file-descriptors.js), which installs fs.read and
// fs.write with write/file-descriptors.js's installFileDescriptors().
import { writeStages } from '#write-stages'
import { headerStages } from '#header-stages'
import { CarWriterOut } from '../write/car-writer-out.js'
import { fileDescriptors } from '../write/file-descriptors.js'

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {{ cid: CID, bytes: Uint8Array }} Block
 * @typedef {object} WriterOptions
 * @property {boolean} [verifyHashes] refuse a block whose bytes do not hash to its CID, where the hash is
 *   one the readers compute: sha2-256, blake2b-256, identity (default true; false writes every block
 *   unchecked, as @ipld/car does)
 * @typedef {{ bytes: Uint8Array, taken: (() => void) | null }} Chunk
 * @typedef {{ read: (buffer: Uint8Array, offset: number, length: number, position: number) => Promise<{ bytesRead: number }>, write: (buffer: Uint8Array, offset: number, length: number, position: number) => Promise<unknown> }} FileLike
 *   what updateRootsInFile needs of a file: Node's FileHandle has both (fs.promises.open(path, 'r+'))
 */

const CAR_V1_VERSION = 1

/** Taken chunks kept at the front of the queue before it is compacted. */
const COMPACT_AT = 1024

/**
 * create()'s roots as a list of CIDs: none, one CID, or an array of them; anything else a TypeError
 * (@ipld/car's message, then which root and why).
 *
 * @param {CID[] | CID | void} roots
 * @returns {CID[]}
 */
function toRoots (roots) {
  if (roots === undefined) return []
  const list = Array.isArray(roots) ? roots : [roots]
  return list.map((root, i) => {
    const cid = writeStages().asCid(root)
    if (typeof cid === 'string') throw new TypeError(`roots must be a single CID or an array of CIDs: ${Array.isArray(roots) ? `roots[${i}]` : 'the root'} is ${cid}`)
    return cid
  })
}

/**
 * @typedef {{ writer: CarWriter, out: CarWriterOut }} WriterChannel
 */

/**
 * create()'s and createAppender()'s options: their verifyHashes (default true).
 *
 * @param {WriterOptions | undefined} options
 * @param {string} where
 * @returns {boolean}
 */
function verifyHashesOption (options, where) {
  return writeStages().booleanOption(writeStages().optionsObject(options, where).verifyHashes, `${where}'s verifyHashes`, true)
}

/**
 * Writes a CARv1 as an async iterable of chunks (`out`), as @ipld/car's CarWriter does. The channel
 * gives backpressure: the Promise of a put() resolves once the reader of `out` has taken that block's
 * bytes, and close()'s once the reader has been told the CAR ended. So await put() only while
 * something reads `out` (start reading first), or put() without awaiting and let the chunks queue.
 */
export class CarWriter {
  /**
   * A `{ writer, out }` pair: `writer` takes blocks, `out` yields the CAR's bytes.
   *
   * @param {CID[] | CID | void} [roots] none, one CID, or an array of CIDs; anything else is a TypeError
   * @param {WriterOptions} [options]
   * @returns {WriterChannel}
   */
  static create (roots, options) {
    const verifyHashes = verifyHashesOption(options, 'CarWriter.create()')
    const list = toRoots(roots)
    const writer = new CarWriter(list, writeStages().headerBytes(list), verifyHashes)
    return { writer, out: new CarWriterOut(writer) }
  }

  /**
   * A `{ writer, out }` pair that writes no header: blocks to append to a CAR that has one.
   *
   * @param {WriterOptions} [options]
   * @returns {WriterChannel}
   */
  static createAppender (options) {
    const writer = new CarWriter([], null, verifyHashesOption(options, 'CarWriter.createAppender()'))
    return { writer, out: new CarWriterOut(writer) }
  }

  /**
   * Overwrite the roots in the header of a CAR held in `bytes`, in place, and return `bytes`. The
   * CAR's length does not change: the new header must be as long as the old one (a rejection, and
   * `bytes` untouched, if not).
   *
   * @param {Uint8Array} bytes
   * @param {CID[]} roots
   * @returns {Promise<Uint8Array>}
   */
  static async updateRootsInBytes (bytes, roots) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('updateRootsInBytes() needs the CAR\'s bytes as a Uint8Array')
    const header = newHeader(roots)
    const old = await oldHeaderLength(async (at, length) => bytes.subarray(at, at + length))
    sameLength(old, header)
    bytes.set(header, 0)
    return bytes
  }

  /**
   * Overwrite the roots in the header of a CAR file, in place: `fd` is a FileHandle (Node's
   * `fs.promises.open(path, 'r+')`, or any object with its read and write), or, from the Node entry,
   * a file descriptor number (`fs.open(path, 'r+')`). The new header must be as long as the old one
   * (a rejection, and the file untouched, if not).
   *
   * @param {FileLike | number} fd
   * @param {CID[]} roots
   * @returns {Promise<void>}
   */
  static async updateRootsInFile (fd, roots) {
    /** @type {FileLike} */
    let file
    if (typeof fd === 'number') {
      const access = fileDescriptors()
      if (access === null) throw new TypeError('Bad fd: a file descriptor number needs the Node entry (dag-cbor-car or dag-cbor-car/writer in Node); pass a FileHandle')
      file = { read: (buffer, offset, length, position) => access.read(fd, buffer, offset, length, position), write: (buffer, offset, length, position) => access.write(fd, buffer, offset, length, position) }
    } else if (fd !== null && typeof fd === 'object' && typeof fd.read === 'function' && typeof fd.write === 'function') {
      file = fd
    } else {
      throw new TypeError('Bad fd')
    }
    const header = newHeader(roots)
    const old = await oldHeaderLength(async (at, length) => {
      const into = new Uint8Array(length)
      let got = 0
      while (got < length) {
        const { bytesRead } = await file.read(into, got, length - got, at + got)
        if (!bytesRead) break
        got += bytesRead
      }
      return into.subarray(0, got)
    })
    sameLength(old, header)
    await file.write(header, 0, header.length, 0)
  }

  /**
   * @param {CID[]} roots
   * @param {Uint8Array | null} header the header's bytes (null: an appender, no header)
   * @param {boolean} [verifyHashes] put() refuses a block whose bytes do not hash to its CID
   */
  constructor (roots, header, verifyHashes = true) {
    void roots // in the header already; kept as @ipld/car's constructor's first argument
    /** @private */
    this.verifyHashes = verifyHashes
    /** @private @type {(Chunk | undefined)[]} the chunks not yet read, from `head` on */
    this.queue = []
    /** @private */
    this.head = 0
    /** @private @type {((result: IteratorResult<Uint8Array, undefined>) => void) | null} the reader, waiting for a chunk */
    this.waiting = null
    /** @private */
    this.ended = false
    /** @private */
    this.endTaken = false
    /** @private @type {(() => void) | null} close(), waiting for the reader to be told the CAR ended */
    this.closed = null
    if (header) this.queue.push({ bytes: header, taken: null })
  }

  /**
   * Write a block. Resolves once the reader of `out` has taken the block's bytes; rejects (and writes
   * nothing) when its bytes do not hash to its CID, unless the writer was made with `verifyHashes: false`.
   *
   * @param {Block} block a `{ cid, bytes }` pair
   * @returns {Promise<void>}
   */
  async put (block) {
    if (block === null || typeof block !== 'object' || !(block.bytes instanceof Uint8Array) || !block.cid) {
      throw new TypeError('Can only write {cid, bytes} objects')
    }
    if (this.ended) throw new Error('Already closed')
    const cid = writeStages().asCid(block.cid)
    if (typeof cid === 'string') throw new TypeError(`Can only write {cid, bytes} objects: the cid is ${cid}`)
    if (this.verifyHashes) {
      const problem = writeStages().blockHashProblem(cid, block.bytes)
      if (problem !== null) throw new Error(`CarWriter.put(): the block's bytes do not hash to its CID ${cid}: ${problem}. Put the bytes the CID was made from (or the CID made from these bytes); create the writer with { verifyHashes: false } to write such a block unchecked`)
    }
    const bytes = writeStages().sectionBytes(cid, block.bytes)
    return new Promise((resolve) => this.push({ bytes, taken: () => resolve(undefined) }))
  }

  /**
   * No more blocks: `out` ends once what is queued is read. Resolves once the reader has been told
   * the CAR ended; a second close() rejects.
   *
   * @returns {Promise<void>}
   */
  async close () {
    if (this.ended) throw new Error('Already closed')
    this.ended = true
    /** @type {Promise<void>} */
    const done = new Promise((resolve) => { this.closed = () => resolve(undefined) })
    if (this.waiting) this.takeWaiting()(this.take())
    return done
  }

  /** The CAR version written: 1. */
  version () {
    return CAR_V1_VERSION
  }

  /**
   * @private
   * @param {Chunk} chunk
   */
  push (chunk) {
    this.queue.push(chunk)
    if (this.waiting) this.takeWaiting()(this.take())
  }

  /**
   * The waiting reader's resolve, taken off (so that it is resolved once).
   *
   * @private
   * @returns {(result: IteratorResult<Uint8Array, undefined>) => void}
   */
  takeWaiting () {
    const resolve = /** @type {(result: IteratorResult<Uint8Array, undefined>) => void} */ (this.waiting)
    this.waiting = null
    return resolve
  }

  /**
   * The reader's next chunk: the next one queued, the end once closed and all is read, or else a
   * wait for either.
   *
   * @returns {Promise<IteratorResult<Uint8Array, undefined>>}
   */
  _read () {
    if (this.head < this.queue.length || this.ended) return Promise.resolve(this.take())
    if (this.waiting) return Promise.reject(new Error('CarWriter: next() called again before its last call resolved'))
    return new Promise((resolve) => { this.waiting = resolve })
  }

  /**
   * The next chunk queued, or the end (the queue is empty and close() was called).
   *
   * @private
   * @returns {IteratorResult<Uint8Array, undefined>}
   */
  take () {
    if (this.head < this.queue.length) {
      const chunk = /** @type {Chunk} */ (this.queue[this.head])
      this.queue[this.head++] = undefined
      if (this.head === this.queue.length) {
        this.queue.length = 0
        this.head = 0
      } else if (this.head >= COMPACT_AT && this.head * 2 >= this.queue.length) {
        this.queue.splice(0, this.head)
        this.head = 0
      }
      chunk.taken?.()
      return { done: false, value: chunk.bytes }
    }
    if (!this.endTaken) {
      this.endTaken = true
      this.finished()
    }
    return { done: true, value: undefined }
  }

  /**
   * close() resolves after the reader has been told the CAR ended, a turn of the event loop later,
   * so that whatever the reader does on the end (a loop's last lines, a Promise it settles) is done.
   *
   * @private
   */
  finished () {
    const closed = this.closed
    this.closed = null
    if (closed) setTimeout(closed, 0)
  }
}

/**
 * @param {CID[]} roots
 * @returns {Uint8Array}
 */
function newHeader (roots) {
  if (!Array.isArray(roots)) throw new TypeError('roots must be an array of CIDs')
  return writeStages().headerBytes(toRoots(roots))
}

/**
 * @param {number} old
 * @param {Uint8Array} header
 */
function sameLength (old, header) {
  if (old !== header.length) {
    throw new Error(`updateRoots() can only overwrite a header of the same length (old header is ${old} bytes, new header is ${header.length} bytes)`)
  }
}

/**
 * The length of a CARv1's header (its length varint and the DAG-CBOR { roots, version: 1 }), read
 * and checked as @ipld/car's readHeader checks it, with its messages.
 *
 * @param {(at: number, length: number) => Promise<Uint8Array>} read up to `length` bytes at `at`
 * @returns {Promise<number>}
 */
async function oldHeaderLength (read) {
  const start = await read(0, 10)
  let length = 0
  let size = 0
  for (let scale = 1; ; scale *= 128) {
    if (size >= start.length) throw new Error(size === 10 ? 'Invalid CAR header (its length varint is too long)' : 'Unexpected end of data')
    const b = start[size++]
    length += (b & 0x7f) * scale
    if (b < 0x80) break
  }
  if (length === 0) throw new Error('Invalid CAR header (zero length)')
  if (!Number.isSafeInteger(length)) throw new Error('Invalid CAR header (its length is not a safe integer)')
  const bytes = await read(size, length)
  if (bytes.length < length) throw new Error('Unexpected end of data')
  /** @type {any} */
  let header
  try {
    header = headerStages().decode(bytes, { relaxed: true })
  } catch (err) {
    throw new Error(`Invalid CAR header: not DAG-CBOR (${/** @type {Error} */ (err)?.message})`)
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header) || header instanceof Uint8Array || headerStages().CID.asCID(header) || typeof header.version !== 'number') {
    throw new Error('Invalid CAR header format')
  }
  if (header.version === 2) throw new Error('updateRoots() can only overwrite a CARv1 header: this is a CARv2, whose roots are in the CARv1 payload it holds')
  if (header.version !== 1) throw new Error(`Invalid CAR version: ${header.version}`)
  if (!Array.isArray(header.roots) || !header.roots.every((/** @type {unknown} */ root) => headerStages().CID.asCID(root) !== null) ||
    Object.keys(header).some((key) => key !== 'roots' && key !== 'version')) throw new Error('Invalid CAR header format')
  return size + length
}
