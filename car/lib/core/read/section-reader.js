// The CAR reader: a CARv1, or a CARv2's inner v1 payload, read with bounded memory from a stream of
// chunks (and, given the same input as a file, by position). One object per input: its header
// (version, roots, the CARv2 fields), its blocks one by one (blocks()) or its sections in batches
// (sectionBatches()), where it has read to, and after the payload the CARv2 index. Every length
// the file claims is checked before anything is read or allocated, so a hostile claim costs
// nothing; sections are split here (varint length, CID, block bytes) rather than by @ipld/car,
// whose block reader allocates whatever a section claims before it can be checked.
import { CarReadError, sectionError, tooBig, describe } from './read-errors.js'
import { ByteReader, EndOfInput } from './byte-reader.js'
import { readHeader, V2_PRAGMA } from './header.js'
import { decodeSectionCid, readSectionAt } from './sections.js'
import { sectionBatches, BatchBuffer } from './section-batches.js'
import { DEFAULT_MAX_BLOCK_SIZE, MAX_MAX_BLOCK_SIZE, CID_ROOM, NON_MINIMAL_KEPT, bytesText } from './limits.js'

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {import('./header.js').V2Header} V2Header
 * @typedef {{ cid: CID, bytes: Uint8Array, offset: number }} Block a block, and the byte offset of its section
 * @typedef {{ readRange: (start: number, length: number, into?: Uint8Array) => Promise<Uint8Array>, readRangeSync?: (start: number, length: number, into: Uint8Array) => Uint8Array, stream: (start?: number) => AsyncIterable<Uint8Array>, size?: number }} SeekableFile
 * @typedef {{ bytes: Uint8Array, ends: Uint32Array, starts: Float64Array, first: number }} SectionBatch whole sections (length varint, CID, block bytes) end to end; where each ends in `bytes`; the file offset of each; how many sections came before
 * @typedef {object} ReaderOptions
 * @property {number} [size] the input's size in bytes, when known
 * @property {number} [maxBlockSize] the largest block read (limits.js DEFAULT_MAX_BLOCK_SIZE)
 * @property {SeekableFile} [file] the same input, to read by position (sectionBatches reads it directly)
 * @property {boolean} [shared] (default true) sectionBatches' buffers are SharedArrayBuffers where the
 *   runtime has them (for worker threads); false: ArrayBuffers (blocks handed to a caller, who may keep them)
 * @property {boolean} [reuse] (default: shared) buffers are made with room to be read into again (spare ones)
 * @property {(codec: number, hash: number) => Promise<void> | undefined} [ready] called for each block
 *   blocks() is about to hand out, with its codec and multihash code; a Promise it returns (a hasher
 *   or decoder loading: check/on-demand.js's readyFor) is awaited first
 */

/**
 * A CAR being read. Made by `CarFileReader.open` (or openCar), which reads the header. Its methods
 * are bound, so they can be handed around as functions (as callers did when it was a plain object).
 */
export class CarFileReader {
  /**
   * @param {AsyncIterable<Uint8Array>} chunks
   * @param {ReaderOptions} [options]
   * @returns {Promise<CarFileReader>}
   */
  static async open (chunks, options) {
    const car = new CarFileReader(chunks, options)
    const { roots, v2, nonMinimal } = await readHeader(car.input, { size: car.size, maxBlockSize: car.maxBlockSize })
    if (nonMinimal) car.noteNonMinimal(v2 ? v2.dataOffset : 0, 'header')
    car.roots = roots
    car.v2 = v2
    car.version = v2 ? 2 : 1
    car.payloadEnd = car.input.end // v2: the payload's end; v1: the file's size, if known
    car.container = v2 ? 'the CARv2 data payload' : car.size === undefined ? 'the input' : 'the file'
    return car
  }

  /**
   * Not read yet: `open` reads the header.
   *
   * @param {AsyncIterable<Uint8Array>} chunks
   * @param {ReaderOptions} [options]
   */
  constructor (chunks, { size, maxBlockSize = DEFAULT_MAX_BLOCK_SIZE, file, shared = true, reuse = shared, ready } = {}) {
    /** the stream reader; replaced when reads by position stop (streamFrom) */
    this.input = new ByteReader(chunks, size !== undefined)
    this.input.end = size
    this.size = size
    this.maxBlockSize = maxBlockSize
    /** the longest section claim taken: the block and room for its CID */
    this.maxSection = maxBlockSize + CID_ROOM
    this.file = file
    this.ready = ready
    /** @type {import('./section-batches.js').BatchKind} what a new batch buffer is made of, and whether it will be used again */
    this.batchKind = [shared ? BatchBuffer : ArrayBuffer, reuse]
    /** where a batch reader reading by position has read to, while it reads instead of `input` (-1: it does not) */
    this.directPos = -1
    /** 1, or 2 for a CARv2 (whose payload is read) */
    this.version = 1
    /** @type {CID[]} */
    this.roots = []
    /** @type {V2Header | null} */
    this.v2 = null
    /** @type {number | undefined} where the sections end: the CARv2 payload's end, or the file's size (when known) */
    this.payloadEnd = undefined
    /** what the sections lie in, for messages */
    this.container = 'the input'
    /**
     * The length varints (the header's and the sections') written longer than their shortest form,
     * which the multiformats unsigned-varint spec forbids: the readers read them, as @ipld/car does,
     * and verify reports them (check/car-checks.js). How many, and the first few by byte offset.
     */
    this.nonMinimal = { count: 0, first: /** @type {{ at: number, what: 'header' | 'section' }[]} */ ([]), last: -1 }
    this.blocks = this.blocks.bind(this)
    this.sectionBatches = this.sectionBatches.bind(this)
    this.position = this.position.bind(this)
    this.dataEnd = this.dataEnd.bind(this)
    this.stop = this.stop.bind(this)
    this.readIndex = this.readIndex.bind(this)
    this.trailingBytes = this.trailingBytes.bind(this)
    this.sectionAt = this.sectionAt.bind(this)
  }

  /** @returns {AsyncGenerator<Block>} the blocks, one by one, each checked as sectionBatches' are */
  async * blocks () {
    const { maxBlockSize, ready } = this
    let count = 0
    for (;;) {
      const next = await this.nextSection(count)
      if (next === null) break
      const { start, section } = next
      let cid, bytes
      try {
        [cid, bytes] = decodeSectionCid(section)
      } catch (err) {
        throw sectionError(start, count, 'cid', describe(err), 0, maxBlockSize)
      }
      if (bytes.length > maxBlockSize) throw sectionError(start, count, 'too-big', '', bytes.length, maxBlockSize)
      // every block handed out can be checked at once: the caller's `ready` loads its hasher and decoder
      if (ready !== undefined) {
        const loading = ready(cid.code, cid.multihash.code)
        if (loading !== undefined) await loading
      }
      yield { cid, bytes, offset: start }
      count++
    }
  }

  /**
   * Note a length varint that is not minimal (nonMinimal); one noted before (a section a chunk cut
   * short is split again from the next chunk) is not counted again.
   *
   * @param {number} at the byte offset of the header or section it starts
   * @param {'header' | 'section'} what
   */
  noteNonMinimal (at, what) {
    const noted = this.nonMinimal
    if (at <= noted.last) return
    noted.last = at
    noted.count++
    if (noted.first.length < NON_MINIMAL_KEPT) noted.first.push({ at, what })
  }

  /**
   * Whole sections in batches (section-batches.js).
   *
   * @param {number} batchBytes about this many bytes of sections in a batch (limits.js BATCH_BYTES)
   * @param {number} batchSections at most this many (limits.js BATCH_SECTIONS)
   * @param {SharedArrayBuffer[]} [spare] buffers of batches already checked, to read the next into
   * @returns {AsyncGenerator<SectionBatch>}
   */
  sectionBatches (batchBytes, batchSections, spare = []) {
    return sectionBatches(this, batchBytes, batchSections, spare)
  }

  /**
   * The next section (its start, and its bytes after the length varint: CID then block), after
   * checking its length claim; null at the end of the data. For blocks() and the batch readers.
   *
   * @param {number} count sections read before it
   * @returns {Promise<{ start: number, section: Uint8Array } | null>}
   */
  async nextSection (count) {
    const { input, payloadEnd, v2 } = this
    const start = input.pos
    /** @param {string} what */
    const corrupt = (what) => new CarReadError(`CAR is truncated or corrupt after ${count} complete blocks: the section at byte offset ${start} ${what}`, { blocks: count, offset: start })
    if (payloadEnd !== undefined && start >= payloadEnd) return null
    let varint
    try {
      varint = await input.peekVarint()
    } catch (err) {
      throw corrupt(`could not be read (${describe(err)})`)
    }
    if (varint === 'end') {
      if (v2) throw new CarReadError(`CARv2 payload is shorter than its stated size after ${count} complete blocks: the header says it ends at byte ${v2.dataOffset + v2.dataSize}, the input ends at byte ${start}`, { blocks: count, offset: start })
      if (payloadEnd !== undefined) throw corrupt(`is missing: the file shrank to ${start} bytes while it was read`)
      return null
    }
    if (varint === 'malformed') throw corrupt('has a malformed length varint')
    const length = varint.value
    if (length === 0) throw corrupt('has length 0')
    const left = payloadEnd === undefined ? Infinity : payloadEnd - start - varint.size
    if (length > left) throw corrupt(`claims ${length} bytes, but only ${left} are left in ${this.container}`)
    if (length > this.maxSection) throw tooBig(start, count, length, this.maxBlockSize)
    // a last byte 0 after the first (a 0 alone is length 0, refused above): not the shortest form
    if (input.buf[input.off + varint.size - 1] === 0 && varint.size > 1) this.noteNonMinimal(start, 'section')
    input.seek(varint.size)
    try {
      return { start, section: await input.exactly(length, true) }
    } catch (err) {
      // what was read is up to this section, not its length varint: the same position a summary
      // gives when the claim is checked against a known size instead (a file, a Blob)
      input.pos = start
      throw corrupt(`claims ${length} bytes, but ${err instanceof EndOfInput ? err.message : `could not be read (${describe(err)})`}`)
    }
  }

  /**
   * The stream reader takes over at `pos`, where reads by position stopped (ahead of them it had
   * read only the header).
   *
   * @param {SeekableFile} file
   * @param {number} pos
   */
  streamFrom (file, pos) {
    const end = this.input.end
    this.input = new ByteReader(file.stream(pos), true)
    this.input.pos = pos
    this.input.end = end
    this.directPos = -1
  }

  /** where reading has got to in the input (a batch reader reading by position: where it has read to) */
  position () {
    return this.directPos >= 0 ? this.directPos : this.input.pos
  }

  /** where the sections end: the CARv2 payload's end, the file's size, or (a stream) where reading is */
  dataEnd () {
    return this.payloadEnd ?? this.input.pos
  }

  /** Ends the underlying stream (a pipe read no further, e.g. after a CARv2 payload). */
  stop () {
    return this.input.stop()
  }

  /**
   * The section that starts at `offset`, read by position from the file the reader was given.
   *
   * @param {number} offset
   * @returns {Promise<{ cid: CID, bytes: Uint8Array }>}
   */
  sectionAt (offset) {
    if (!this.file) throw new TypeError('sectionAt needs the input as a file, read by position')
    return readSectionAt(this.file, offset, { size: this.size ?? Infinity, maxBlockSize: this.maxBlockSize })
  }

  /** @returns {Promise<Uint8Array>} the CARv2 index: from the index offset to the end of the input, read on after the payload */
  async readIndex () {
    const { v2, input } = this
    if (!v2 || v2.indexOffset === 0) return new Uint8Array(0)
    input.end = this.size
    try {
      await input.skip(v2.indexOffset - input.pos)
    } catch (err) {
      throw new CarReadError(`CARv2 index offset ${v2.indexOffset} is past the end of the input (${err instanceof EndOfInput ? err.at : '?'} bytes)`, { blocks: 0, offset: V2_PRAGMA.length })
    }
    const parts = []
    let length = 0
    for (;;) {
      await input.fill(1)
      const chunk = input.buf.subarray(input.off)
      if (chunk.length === 0) break
      length += chunk.length
      if (length > MAX_MAX_BLOCK_SIZE) throw new CarReadError(`CARv2 index at byte offset ${v2.indexOffset} is over ${bytesText(MAX_MAX_BLOCK_SIZE)}, more than this tool reads`, { blocks: 0, offset: v2.indexOffset })
      parts.push(chunk.slice())
      input.seek(chunk.length)
    }
    const index = new Uint8Array(length)
    let at = 0
    for (const p of parts) { index.set(p, at); at += p.length }
    return index
  }

  /** @returns {Promise<number>} how many bytes follow the CARv2 payload (reading a stream to its end to count them) */
  async trailingBytes () {
    const { v2, input } = this
    if (!v2) return 0
    const payloadEnd = v2.dataOffset + v2.dataSize
    if (this.size !== undefined) return this.size - payloadEnd
    input.end = undefined
    let count = 0
    for (;;) {
      await input.fill(1)
      const n = input.buf.length - input.off
      if (n === 0) return count
      count += n
      input.seek(n)
    }
  }
}
