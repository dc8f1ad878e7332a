// Streaming CAR input (CARv1, and CARv2's inner v1 payload) with bounded memory.
// Every length the file claims (header length, section length, CARv2 data offset and size) is checked
// against what is left of the input (when its size is known) and against the maximum block size
// BEFORE anything is read or allocated, so a hostile claim costs nothing. The v1 header is read
// and validated by @ipld/car's readHeader (but for the common one: see canonicalHeader); sections
// are split here (varint length, CID, block bytes) because @ipld/car's block reader allocates
// whatever a section claims before it can be checked.
import { CID } from 'multiformats/cid'
import { decode } from 'dag-cbor-fast'
import { ToolError } from '../base/errors.js'
import { InputError } from './source.js'
import { DEFAULT_MAX_BLOCK_SIZE, MAX_MAX_BLOCK_SIZE, bytesText } from './limits.js'

/** Room for the CID in a section's length claim, on top of the block (identity CIDs inline data). */
const CID_ROOM = 4096
const V2_PRAGMA = Uint8Array.from([0x0a, 0xa1, 0x67, 0x76, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e, 0x02])
const V2_FIXED_HEADER = 40
const V2_HEADER_END = V2_PRAGMA.length + V2_FIXED_HEADER
/** reads in flight at once when sections are read from a file by position (directSectionBatches) */
const READS_AHEAD = 4
/** room before each chunk read by position for the start of a section the previous chunk cut short */
const HEADROOM = 64 * 1024

/** A CAR that could not be read to the end: not a CAR, a bad header, a bad claim, or cut short. Exit code 2. */
export class CarReadError extends ToolError {
  /**
   * @param {string} message
   * @param {{ blocks: number, offset: number }} where blocks read completely, and the byte offset where reading failed
   */
  constructor (message, { blocks, offset }) {
    super(message)
    this.name = 'CarReadError'
    this.blocks = blocks
    this.offset = offset
  }
}

/**
 * An input's own failure while its CAR was read (a Blob that gives fewer bytes than its size says, a
 * chunk that is not bytes) as the CarReadError the library's callers get, with where reading was.
 *
 * @param {unknown} err
 * @param {number} blocks blocks read completely before it
 * @param {number} offset where reading was
 */
export function asReadError (err, blocks, offset) {
  if (!(err instanceof InputError)) return err
  return new CarReadError(`${err.message} (after ${blocks} complete blocks, reading at byte offset ${offset})`, { blocks, offset })
}

/** Thrown by ByteReader when the input ends before the bytes asked for. */
class EndOfInput extends Error {
  /** @param {number} at */
  constructor (at) {
    super(`the input ends at byte ${at}`)
    this.at = at
  }
}

/**
 * A position-keeping byte reader over a stream of chunks, with the BytesReader interface @ipld/car's
 * readHeader takes. Holds the current chunk and, while a request spans chunks, the request's bytes.
 */
class ByteReader {
  /**
   * @param {AsyncIterable<Uint8Array>} chunks
   * @param {boolean} readAhead ask for the next chunk as soon as one arrives, so reading overlaps
   *   the work on it: only for a regular file, whose reads always end (a pipe's might wait on its writer)
   */
  constructor (chunks, readAhead) {
    this.iterator = chunks[Symbol.asyncIterator]()
    this.readAhead = readAhead
    /** @type {Promise<IteratorResult<Uint8Array>> | null} the chunk asked for ahead */
    this.ahead = null
    /** @type {Uint8Array | null} what follows `buf` in the input, from a chunk a request took part of */
    this.rest = null
    /** @type {Uint8Array} */
    this.buf = new Uint8Array(0)
    this.off = 0
    this.pos = 0
    this.eof = false
    /** @type {number | undefined} where the readable data ends, when known */
    this.end = undefined
  }

  /**
   * Make at least n bytes available from pos, if the input has them. A request that spans chunks
   * gets a buffer of exactly n bytes: the rest of the last chunk is kept aside (`rest`), to be the
   * next buffer as it is, rather than copied along with the request.
   *
   * @param {number} n
   */
  async fill (n) {
    let have = this.buf.length - this.off
    if (have >= n || (this.eof && this.rest === null)) return
    const parts = have ? [this.buf.subarray(this.off)] : []
    while (have < n) {
      let chunk = this.rest
      this.rest = null
      if (chunk === null) {
        if (this.eof) break
        const next = await (this.ahead ?? this.iterator.next())
        this.ahead = null
        if (next.done) { this.eof = true; break }
        if (this.readAhead) {
          this.ahead = this.iterator.next()
          this.ahead.catch(() => {}) // its error, if any, is thrown where it is awaited
        }
        chunk = next.value
      }
      if (chunk.length === 0) continue
      parts.push(chunk)
      have += chunk.length
    }
    if (parts.length === 1) this.buf = parts[0]
    else {
      if (have > n && parts.length > 1) {
        const last = parts[parts.length - 1]
        const keep = last.length - (have - n)
        this.rest = last.subarray(keep)
        parts[parts.length - 1] = last.subarray(0, keep)
        have = n
      }
      this.buf = new Uint8Array(have)
      let at = 0
      for (const p of parts) { this.buf.set(p, at); at += p.length }
    }
    this.off = 0
  }

  /** bytes available now, not past `end` */
  available () {
    const inBuffer = this.buf.length - this.off
    return this.end === undefined ? inBuffer : Math.min(inBuffer, this.end - this.pos)
  }

  /** @param {number} n */
  async upTo (n) {
    await this.fill(n)
    return this.buf.subarray(this.off, this.off + Math.min(n, this.available()))
  }

  /** @param {number} n @param {boolean} [seek] */
  async exactly (n, seek = false) {
    await this.fill(n)
    if (this.available() < n) throw new EndOfInput(this.pos + this.available())
    const out = this.buf.subarray(this.off, this.off + n)
    if (seek) this.seek(n)
    return out
  }

  /**
   * Peek the varint at pos, asking the stream for more only while it is incomplete (a pipe left
   * open after a short claim must not make us wait for bytes the varint does not need).
   *
   * @returns {Promise<{ value: number, size: number } | 'end' | 'malformed'>}
   */
  async peekVarint () {
    for (let want = 1; ; want++) {
      await this.fill(want)
      const have = this.available()
      if (have === 0) return 'end'
      const bytes = this.buf.subarray(this.off, this.off + Math.min(have, 9))
      const varint = readVarint(bytes)
      if (varint) return varint
      if (have < want || bytes.length === 9 || bytes.some((b) => b < 0x80)) return 'malformed'
      want = have
    }
  }

  /** @param {number} n bytes already made available */
  seek (n) {
    this.off += n
    this.pos += n
  }

  /** @param {number} n discard n bytes, reading through the stream */
  async skip (n) {
    while (n > 0) {
      await this.fill(1)
      const k = Math.min(this.buf.length - this.off, n)
      if (k === 0) throw new EndOfInput(this.pos)
      this.seek(k)
      n -= k
    }
  }

  /** Ends the underlying stream (a pipe we stop reading early, e.g. after a CARv2 payload). */
  async stop () {
    await this.iterator.return?.()
  }
}

/**
 * An unsigned LEB128 varint as CAR uses it (at most 9 bytes, a safe integer).
 *
 * @param {Uint8Array} bytes
 * @returns {{ value: number, size: number } | null} null when malformed or cut short
 */
export function readVarint (bytes) {
  let value = 0
  for (let i = 0; i < bytes.length && i < 9; i++) {
    value += (bytes[i] & 0x7f) * 2 ** (7 * i)
    if (bytes[i] < 0x80) return Number.isSafeInteger(value) ? { value, size: i + 1 } : null
  }
  return null
}

/**
 * The CID a section starts with, and the block's bytes after it, accepted only when the CID is
 * byte for byte what the section holds: multiformats' reader takes a version byte of 0
 * (`00 70 12 20 ...`) for a CIDv0, dropping the prefix (or the codec, `00 71 ...`) from the CID
 * it hands back, and reads varints written longer than needed, so its CID would not be the file's.
 * A CIDv0 is a bare sha2-256 multihash (`12 20` and 32 bytes), with no version byte.
 *
 * @param {Uint8Array} section the section's bytes after its length varint
 * @returns {[CID, Uint8Array]}
 * @throws {Error} why the CID is not one (for sectionError's detail)
 */
export function decodeSectionCid (section) {
  let specs
  try {
    specs = CID.inspectBytes(section)
  } catch (err) {
    const version = /Invalid CID version (\d+)/.exec(describe(err))
    throw new Error(version ? `its version is ${version[1]}: a CID is version 1 (01 ...) or a bare sha2-256 multihash (12 20 ..., a CIDv0)` : `its varints cannot be read (${describe(err)})`)
  }
  if (specs.size > section.length) throw new Error(`its multihash claims a ${specs.digestSize}-byte digest, which runs past the end of the ${section.length}-byte section`)
  let cid, rest
  try {
    [cid, rest] = CID.decodeFirst(section)
  } catch (err) {
    throw new Error(`multiformats cannot make a CID of it (${describe(err)})`)
  }
  const length = section.length - rest.length
  const own = cid.bytes
  let same = own.length === length
  for (let i = 0; same && i < length; i++) same = own[i] === section[i]
  if (same) return [cid, rest]
  if (section[0] === 0) throw new Error(`its version byte is 00, which no CID has: a CIDv0 is a bare sha2-256 multihash (12 20 ...) with no version byte; multiformats would read these ${length} bytes as the ${own.length}-byte ${cid}`)
  throw new Error(`its ${length} bytes are not the CID's one valid form (a varint written longer than needed); multiformats would read them as the ${own.length}-byte ${cid}`)
}

/**
 * @typedef {{ cid: CID, bytes: Uint8Array, offset: number }} Block a block, and the byte offset of its section
 * @typedef {{ dataOffset: number, dataSize: number, indexOffset: number, characteristics: Uint8Array }} V2Header
 *   characteristics: the 16-byte bitfield at byte offset 11 (checks.js checks it)
 * @typedef {{ readRange: (start: number, length: number, into?: Uint8Array) => Promise<Uint8Array>, readRangeSync?: (start: number, length: number, into: Uint8Array) => Uint8Array, stream: (start?: number) => AsyncIterable<Uint8Array> }} SeekableFile
 * @typedef {{ bytes: Uint8Array, ends: Uint32Array, starts: Float64Array, first: number }} SectionBatch whole sections (length varint, CID, block bytes) end to end; where each ends in `bytes`; the file offset of each; how many sections came before
 * @typedef {{ version: number, roots: CID[], v2: V2Header | null, blocks: () => AsyncGenerator<Block>, sectionBatches: (batchBytes: number, batchSections: number, spare?: SharedArrayBuffer[]) => AsyncGenerator<SectionBatch>, position: () => number, dataEnd: () => number, stop: () => Promise<void>, readIndex: () => Promise<Uint8Array>, trailingBytes: () => Promise<number> }} Car
 *   readIndex and trailingBytes: CARv2 only, after the last block (they read on past the payload)
 */

/**
 * Read a CAR's header from a stream of chunks, and return a generator of its blocks.
 *
 * @param {AsyncIterable<Uint8Array>} chunks
 * @param {{ size?: number, maxBlockSize?: number, file?: SeekableFile, shared?: boolean, reuse?: boolean, ready?: (codec: number, hash: number) => Promise<void> | undefined }} [options] size: the input's size
 *   in bytes, when known; file: the same input, to read by position (sectionBatches reads it directly);
 *   shared (default true): sectionBatches' buffers are SharedArrayBuffers where the runtime has them
 *   (for worker threads); false: ArrayBuffers (blocks handed to a caller, who may keep them);
 *   reuse (default: shared): buffers are made with room to be read into again (spare ones);
 *   ready: called for each block blocks() is about to hand out, with its codec and multihash code;
 *   a Promise it returns (a hasher or decoder loading: check/on-demand.js's readyFor) is awaited first
 * @returns {Promise<Car>}
 */
export async function openCar (chunks, { size, maxBlockSize = DEFAULT_MAX_BLOCK_SIZE, file, shared = true, reuse = shared, ready } = {}) {
  /** @type {BatchKind} what a new batch buffer is made of, and whether it will be used again */
  const batchKind = [shared ? BatchBuffer : ArrayBuffer, reuse]
  let reader = new ByteReader(chunks, size !== undefined)
  /** where directSectionBatches has read to, while it reads instead of `reader` (-1: it does not) */
  let directPos = -1
  reader.end = size
  const maxSection = maxBlockSize + CID_ROOM
  const where = size === undefined ? 'the input' : 'the file'
  /** @param {string} what */
  const badHeader = (what) => new CarReadError(`not a CAR file: bad header (${what})`, { blocks: 0, offset: 0 })

  /** Check a header length claim before anything reads it (readHeader then reads and validates it). */
  const checkHeaderClaim = async (/** @type {string} */ context) => {
    const start = reader.pos
    const varint = await reader.peekVarint()
    if (varint === 'end') throw badHeader(start === 0 ? 'the input is empty' : `${context}: the input ends at byte ${start}`)
    if (varint === 'malformed') throw badHeader(`${context}: malformed length varint at byte ${start}`)
    const length = varint.value
    if (length === 0) throw badHeader(`${context}: length 0 at byte ${start}`)
    const left = reader.end === undefined ? Infinity : reader.end - start - varint.size
    if (length > left) throw badHeader(`${context} at byte ${start} claims ${length} bytes, but only ${left} are left in ${where}`)
    if (length > maxSection) throw badHeader(`${context} at byte ${start} claims ${length} bytes, more than the maximum block size (${bytesText(maxBlockSize)}, --max-block-size)`)
  }

  /** @type {any} */
  let header
  /** @type {V2Header | null} */
  let v2 = null
  await checkHeaderClaim('header')
  const pragma = await reader.upTo(V2_PRAGMA.length)
  if (pragma.length === V2_PRAGMA.length && pragma.every((b, i) => b === V2_PRAGMA[i])) {
    reader.seek(V2_PRAGMA.length)
    let fixed
    try {
      fixed = await reader.exactly(V2_FIXED_HEADER, true)
    } catch {
      throw badHeader(`CARv2 header cut short: the input ends before byte ${V2_HEADER_END}`)
    }
    v2 = checkV2Header(fixed, size)
    try {
      await reader.skip(v2.dataOffset - V2_HEADER_END)
    } catch (err) {
      throw badHeader(`CARv2 data offset ${v2.dataOffset} is past the end of the input${err instanceof EndOfInput ? `, which ends at byte ${err.at}` : ''}`)
    }
    reader.end = v2.dataOffset + v2.dataSize
    await checkHeaderClaim('CARv2 payload header')
  }
  try {
    header = await canonicalHeader(reader) ?? await (await import('@ipld/car/decoder')).readHeader(reader, 1)
  } catch (err) {
    if (err instanceof EndOfInput) throw badHeader(`cut short: ${err.message}`)
    const message = describe(err)
    const version = /Invalid CAR version: (\d+)/.exec(message)
    const at = `the header at byte offset ${v2 ? v2.dataOffset : 0}`
    throw badHeader(version
      ? `${at}: CAR version ${version[1]}; this tool reads versions 1 and 2`
      : /^CBOR decode error|^Unexpected end of data/.test(message)
        ? `${at} does not decode as DAG-CBOR; a CAR starts with a length varint and a DAG-CBOR map { roots, version }`
        : /^Invalid CAR header format/.test(message)
          ? `${at} is DAG-CBOR, but not the map { roots: [CID, ...], version: 1 } a CARv1 header is`
          : `${at}: ${message}`)
  }
  const dataEnd = reader.end // v2: the payload's end; v1: the file's size, if known
  const container = v2 ? 'the CARv2 data payload' : where

  /**
   * The next section (its start, and its bytes after the length varint: CID then block), after
   * checking its length claim; null at the end of the data. `count`: sections read before it.
   *
   * @param {number} count
   * @returns {Promise<{ start: number, section: Uint8Array } | null>}
   */
  async function nextSection (count) {
    const start = reader.pos
    /** @param {string} what */
    const corrupt = (what) => new CarReadError(`CAR is truncated or corrupt after ${count} complete blocks: the section at byte offset ${start} ${what}`, { blocks: count, offset: start })
    if (dataEnd !== undefined && start >= dataEnd) return null
    let varint
    try {
      varint = await reader.peekVarint()
    } catch (err) {
      throw corrupt(`could not be read (${describe(err)})`)
    }
    if (varint === 'end') {
      if (v2) {
        throw new CarReadError(`CARv2 payload is shorter than its stated size after ${count} complete blocks: the header says it ends at byte ${v2.dataOffset + v2.dataSize}, the input ends at byte ${start}`, { blocks: count, offset: start })
      }
      if (dataEnd !== undefined) throw corrupt(`is missing: the file shrank to ${start} bytes while it was read`)
      return null
    }
    if (varint === 'malformed') throw corrupt('has a malformed length varint')
    const length = varint.value
    if (length === 0) throw corrupt('has length 0')
    const left = dataEnd === undefined ? Infinity : dataEnd - start - varint.size
    if (length > left) throw corrupt(`claims ${length} bytes, but only ${left} are left in ${container}`)
    if (length > maxSection) throw tooBig(start, count, length, maxBlockSize)
    reader.seek(varint.size)
    let section
    try {
      section = await reader.exactly(length, true)
    } catch (err) {
      // what was read is up to this section, not its length varint: the same position a summary
      // gives when the claim is checked against a known size instead (a file, a Blob)
      reader.pos = start
      throw corrupt(`claims ${length} bytes, but ${err instanceof EndOfInput ? err.message : `could not be read (${describe(err)})`}`)
    }
    return { start, section }
  }

  async function * blocks () {
    let count = 0
    for (;;) {
      const next = await nextSection(count)
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
   * Whole sections in batches of about `batchBytes`, each in one SharedArrayBuffer (to hand to a
   * worker thread, which reads the CIDs: see sections.js), with the file offset of each section and
   * the length varints left in. A file given as `file` is read by position straight into the
   * batches (directSectionBatches); any other input is copied out of its stream's chunks
   * (copiedSectionBatches). Either way every error is the one blocks() gives.
   *
   * @param {number} batchBytes
   * @param {number} batchSections
   * @param {SharedArrayBuffer[]} [spare] buffers of batches already checked, to copy the next batches into
   *   rather than into fresh memory (which the system must first map in, page by page)
   * @returns {AsyncGenerator<SectionBatch>}
   */
  async function * sectionBatches (batchBytes, batchSections, spare = []) {
    if (file?.readRangeSync && dataEnd !== undefined) yield * inThreadSectionBatches(file, file.readRangeSync, dataEnd, batchBytes, batchSections, spare)
    else if (file && dataEnd !== undefined) yield * directSectionBatches(file, dataEnd, batchBytes, batchSections, spare)
    else yield * copiedSectionBatches(batchBytes, batchSections, spare, 0)
  }

  /**
   * The stream reader takes over at `pos`, where reads by position stopped (ahead of them it had
   * read only the header).
   *
   * @param {SeekableFile} file
   * @param {number} pos
   */
  function streamFrom (file, pos) {
    const readerEnd = reader.end
    reader = new ByteReader(file.stream(pos), true)
    reader.pos = pos
    reader.end = readerEnd
    directPos = -1
  }

  /**
   * sectionBatches for a file this thread can read by position itself (readRangeSync): each chunk
   * is read when it is needed, from where the next section starts, so the bytes it copies are in
   * this core's cache when the blocks are hashed, and no thread of a pool is woken to copy them.
   * The section a chunk cuts short is read again at the start of the next chunk; one too big for a
   * chunk is read whole, as a batch of one. At the first claim that is not a plain whole section
   * (one to report, as nextSection does), and at the end, the stream reader takes over at that
   * position, so every error and what follows the data are as blocks() gives them.
   *
   * @param {SeekableFile} file
   * @param {NonNullable<SeekableFile['readRangeSync']>} read
   * @param {number} end where the sections end
   * @param {number} batchBytes
   * @param {number} batchSections
   * @param {SharedArrayBuffer[]} spare
   * @returns {AsyncGenerator<SectionBatch>}
   */
  async function * inThreadSectionBatches (file, read, end, batchBytes, batchSections, spare) {
    let pos = reader.pos // where the next section starts
    let count = 0
    let claimToReport = false
    const split = new Split(batchSections)
    directPos = pos
    try {
      while (pos < end) {
        const length = Math.min(batchBytes, end - pos)
        const buffer = batchBuffer(spare, length, batchBytes, batchKind)
        read(pos, length, buffer)
        splitSections(buffer, 0, length, pos, end, maxSection, split)
        const { n, i } = split
        // nothing whole and nothing too big for a chunk: a claim to report (a varint the data's end cuts short)
        claimToReport = split.claim || (n === 0 && split.cutShort === 0)
        if (n > 0) {
          yield { bytes: buffer.subarray(0, i), ends: split.ends.slice(0, n), starts: split.starts.slice(0, n), first: count }
          count += n
          pos += i
          directPos = pos
        } else {
          spare.push(/** @type {SharedArrayBuffer} */ (buffer.buffer))
        }
        if (claimToReport) break
        if (n === 0) { // the section at pos is longer than a chunk
          const size = split.cutShort
          const bytes = read(pos, size, batchBuffer(spare, size, batchBytes, batchKind))
          yield { bytes, ends: Uint32Array.of(size), starts: Float64Array.of(pos), first: count }
          count++
          pos += size
          directPos = pos
        }
      }
    } finally {
      streamFrom(file, pos)
    }
    if (claimToReport) yield * copiedSectionBatches(batchBytes, batchSections, spare, count)
  }

  /**
   * sectionBatches for a file read by position: the data is read in chunks of `batchBytes` at fixed
   * positions, READS_AHEAD of them at a time (one read at a time leaves this thread waiting on each
   * while the cores are busy), each into a spare buffer with HEADROOM bytes before the chunk. The
   * whole sections in a chunk are handed out as they were read, with no copy; the section a chunk
   * cuts short is copied into the headroom of the next, in front of its rest. A section too big
   * for that is read on its own, as a batch of one. At the first claim that is not a plain whole
   * section (one to report, as nextSection does), and at the end, the stream reader takes over at
   * that position, so every error and what follows the data are as blocks() gives them.
   *
   * @param {SeekableFile} file
   * @param {number} end where the sections end
   * @param {number} batchBytes
   * @param {number} batchSections
   * @param {SharedArrayBuffer[]} spare
   * @returns {AsyncGenerator<SectionBatch>}
   */
  async function * directSectionBatches (file, end, batchBytes, batchSections, spare) {
    let pos = reader.pos // where the next section starts
    let count = 0
    let claimToReport = false
    /** @type {{ at: number, length: number, buffer: Uint8Array, read: Promise<Uint8Array> }[]} */
    const reads = []
    let readAt = pos
    const readAhead = () => {
      while (reads.length < READS_AHEAD && readAt < end) {
        const length = Math.min(batchBytes, end - readAt)
        const buffer = batchBuffer(spare, HEADROOM + length, HEADROOM + batchBytes, batchKind)
        reads.push({ at: readAt, length, buffer, read: file.readRange(readAt, length, buffer.subarray(HEADROOM)) })
        readAt += length
      }
    }
    /** @type {Uint8Array | null} the start of the section the last chunk cut short (file bytes [pos, that chunk's end)) */
    let carry = null
    const split = new Split(batchSections)
    directPos = pos
    try {
      readAhead()
      while (reads.length > 0 && !claimToReport) {
        const chunk = /** @type {typeof reads[0]} */ (reads.shift())
        await chunk.read
        readAhead()
        const buffer = chunk.buffer
        const limit = HEADROOM + chunk.length
        if (pos >= chunk.at + chunk.length) { // inside a big section read on its own
          spare.push(/** @type {SharedArrayBuffer} */ (buffer.buffer))
          continue
        }
        const first = HEADROOM + pos - chunk.at // where this batch starts in `buffer`: before HEADROOM with a carry
        if (carry) {
          buffer.set(carry, first)
          carry = null
        }
        splitSections(buffer, first, limit, chunk.at - HEADROOM, end, maxSection, split)
        const { n, i } = split
        claimToReport = split.claim
        const bigSection = split.cutShort > HEADROOM ? split.cutShort : 0
        pos = chunk.at + i - HEADROOM
        directPos = pos
        if (!claimToReport && bigSection === 0 && i < limit) carry = buffer.slice(i, limit)
        if (n > 0) {
          yield { bytes: buffer.subarray(first, i), ends: split.ends.slice(0, n), starts: split.starts.slice(0, n), first: count }
          count += n
        } else {
          spare.push(/** @type {SharedArrayBuffer} */ (buffer.buffer))
        }
        if (bigSection > 0) {
          const bytes = await file.readRange(pos, bigSection, batchBuffer(spare, bigSection, batchBytes, batchKind))
          yield { bytes, ends: Uint32Array.of(bigSection), starts: Float64Array.of(pos), first: count }
          count++
          pos += bigSection
          directPos = pos
        }
      }
    } finally {
      for (const r of reads) r.read.catch(() => {}) // reads ahead no one will take
      streamFrom(file, pos)
    }
    if (claimToReport) yield * copiedSectionBatches(batchBytes, batchSections, spare, count)
  }

  /**
   * sectionBatches for any input, copying each batch's sections out of the stream's chunks. A
   * section that lies whole in the chunk at hand and whose length claim passes the checks
   * nextSection makes is taken as it is, with no object made for it, and runs of such sections are
   * copied at once; any other (one that spans chunks, or a claim to report) goes through
   * nextSection, so every error is the one blocks() gives.
   *
   * @param {number} batchBytes
   * @param {number} batchSections
   * @param {SharedArrayBuffer[]} spare
   * @param {number} count sections read before
   * @returns {AsyncGenerator<SectionBatch>}
   */
  async function * copiedSectionBatches (batchBytes, batchSections, spare, count) {
    for (;;) {
      /** @type {[Uint8Array, number, number][]} byte ranges to copy into the batch, in order */
      const runs = []
      const ends = new Uint32Array(batchSections)
      const starts = new Float64Array(batchSections)
      let n = 0
      let size = 0
      /** @type {Uint8Array | null} */
      let runBuf = null
      let runFrom = 0
      let runTo = 0
      let failure = null
      let done = false
      while (size < batchBytes && n < batchSections) {
        const buf = reader.buf
        const off = reader.off
        const start = reader.pos
        if (dataEnd !== undefined && start >= dataEnd) { done = true; break }
        const avail = reader.available()
        let length = 0
        let scale = 1
        let varintSize = 0
        for (let i = 0; i < 9 && i < avail; i++) {
          const b = buf[off + i]
          length += (b & 0x7f) * scale
          if (b < 0x80) { varintSize = i + 1; break }
          scale *= 128
        }
        const left = dataEnd === undefined ? Infinity : dataEnd - start - varintSize
        if (varintSize > 0 && length > 0 && length <= maxSection && length <= left && varintSize + length <= avail) {
          const to = off + varintSize + length
          if (runBuf === buf && runTo === off) runTo = to
          else {
            if (runBuf) runs.push([runBuf, runFrom, runTo])
            runBuf = buf
            runFrom = off
            runTo = to
          }
          reader.seek(varintSize + length)
        } else {
          let next
          try {
            next = await nextSection(count)
          } catch (err) {
            failure = err // the sections before it are still handed out, then the error
            break
          }
          if (next === null) { done = true; break }
          if (runBuf) runs.push([runBuf, runFrom, runTo])
          runBuf = null
          const varint = varintBytes(next.section.length)
          runs.push([varint, 0, varint.length], [next.section, 0, next.section.length])
          varintSize = varint.length
          length = next.section.length
        }
        size += varintSize + length
        starts[n] = start
        ends[n] = size
        n++
        count++
      }
      if (runBuf) runs.push([runBuf, runFrom, runTo])
      if (n === 0) {
        if (failure) throw failure
        return
      }
      const bytes = batchBuffer(spare, size, batchBytes, batchKind)
      let at = 0
      for (const [from, start, stop] of runs) {
        bytes.set(from.subarray(start, stop), at)
        at += stop - start
      }
      yield { bytes, ends: ends.slice(0, n), starts: starts.slice(0, n), first: count - n }
      if (failure) throw failure
      if (done) return
    }
  }

  /** The CARv2 index: from the index offset to the end of the input, read on after the payload. */
  async function readIndex () {
    if (!v2 || v2.indexOffset === 0) return new Uint8Array(0)
    reader.end = size
    try {
      await reader.skip(v2.indexOffset - reader.pos)
    } catch (err) {
      throw new CarReadError(`CARv2 index offset ${v2.indexOffset} is past the end of the input (${err instanceof EndOfInput ? err.at : '?'} bytes)`, { blocks: 0, offset: V2_PRAGMA.length })
    }
    const parts = []
    let length = 0
    for (;;) {
      await reader.fill(1)
      const chunk = reader.buf.subarray(reader.off)
      if (chunk.length === 0) break
      length += chunk.length
      if (length > MAX_MAX_BLOCK_SIZE) throw new CarReadError(`CARv2 index at byte offset ${v2.indexOffset} is over ${bytesText(MAX_MAX_BLOCK_SIZE)}, more than this tool reads`, { blocks: 0, offset: v2.indexOffset })
      parts.push(chunk.slice())
      reader.seek(chunk.length)
    }
    const index = new Uint8Array(length)
    let at = 0
    for (const p of parts) { index.set(p, at); at += p.length }
    return index
  }

  /** How many bytes follow the CARv2 payload (reading a stream to its end to count them). */
  async function trailingBytes () {
    if (!v2) return 0
    const payloadEnd = v2.dataOffset + v2.dataSize
    if (size !== undefined) return size - payloadEnd
    reader.end = undefined
    let count = 0
    for (;;) {
      await reader.fill(1)
      const n = reader.buf.length - reader.off
      if (n === 0) return count
      count += n
      reader.seek(n)
    }
  }

  return { version: v2 ? 2 : 1, roots: header.roots, v2, blocks, sectionBatches, position: () => directPos >= 0 ? directPos : reader.pos, dataEnd: () => dataEnd ?? reader.pos, stop: () => reader.stop(), readIndex, trailingBytes }
}

/**
 * The error for a section whose CID cannot be read ('cid') or whose block is over the maximum size
 * ('too-big'): made here for blocks(), and on the main thread for what a worker found (sections.js).
 *
 * @param {number} start the section's byte offset
 * @param {number} count complete blocks before it
 * @param {'cid' | 'too-big'} kind
 * @param {string} detail why the CID could not be read
 * @param {number} length the block's size
 * @param {number} maxBlockSize
 */
export function sectionError (start, count, kind, detail, length, maxBlockSize) {
  if (kind === 'too-big') return tooBig(start, count, length, maxBlockSize)
  return new CarReadError(`CAR is truncated or corrupt after ${count} complete blocks: the section at byte offset ${start} does not start with a valid CID (${detail})`, { blocks: count, offset: start })
}

/**
 * @param {number} start @param {number} count @param {number} length @param {number} maxBlockSize
 */
function tooBig (start, count, length, maxBlockSize) {
  return new CarReadError(`after ${count} complete blocks, the section at byte offset ${start} claims ${length} bytes, more than the maximum block size (${bytesText(maxBlockSize)}); if the CAR really holds blocks that big, raise it with --max-block-size`, { blocks: count, offset: start })
}

/**
 * The CARv2 fixed header (characteristics, data offset, data size, index offset; little-endian
 * u64s), checked against the file before anything is skipped or read.
 *
 * @param {Uint8Array} fixed
 * @param {number | undefined} size
 * @returns {V2Header}
 */
function checkV2Header (fixed, size) {
  const view = new DataView(fixed.buffer, fixed.byteOffset, fixed.byteLength)
  /** @param {number} at @param {string} name */
  const u64 = (at, name) => {
    const v = view.getBigUint64(at, true)
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw bad(`${name} ${v} is impossibly large`)
    return Number(v)
  }
  /** @param {string} what */
  const bad = (what) => new CarReadError(`not a CAR file: bad header (CARv2 ${what}; the CARv2 header is at byte offset ${V2_PRAGMA.length})`, { blocks: 0, offset: V2_PRAGMA.length })
  const dataOffset = u64(16, 'data offset')
  const dataSize = u64(24, 'data size')
  const indexOffset = u64(32, 'index offset')
  if (dataOffset < V2_HEADER_END) throw bad(`data offset ${dataOffset} points inside the ${V2_HEADER_END}-byte CARv2 header`)
  if (dataSize === 0) throw bad('data size is 0: there is no CARv1 payload')
  const dataEnd = dataOffset + dataSize
  if (size !== undefined && dataEnd > size) throw bad(`data payload (bytes ${dataOffset} to ${dataEnd}) runs past the end of the file (${size} bytes)`)
  if (indexOffset !== 0) {
    if (indexOffset < dataEnd) throw bad(`index offset ${indexOffset} points inside the data payload (bytes ${dataOffset} to ${dataEnd})`)
    if (size !== undefined && indexOffset >= size) throw bad(`index offset ${indexOffset} is past the end of the file (${size} bytes)`)
  }
  return { dataOffset, dataSize, indexOffset, characteristics: fixed.slice(0, 16) }
}

/**
 * Walk the sections of a byte range read again from a file whose sections were checked in the first
 * pass (for --canonicalize's later passes), making no objects: `visit` gets the CID's codec and
 * offsets in `range`: where the CID starts, where the block's bytes start, where the section ends.
 * `base` is the range's offset in the file (for messages).
 *
 * @param {Uint8Array} range
 * @param {number} base
 * @param {(codec: number, cidStart: number, bytesStart: number, end: number) => void} visit
 */
export function scanSections (range, base, visit) {
  let at = 0
  let p = 0
  const changed = () => new CarReadError(`the input changed between passes: no valid section at byte offset ${base + at}`, { blocks: 0, offset: base + at })
  /** the varint at p, which it moves past */
  const next = () => {
    let value = 0
    for (let i = 0; i < 9 && p < range.length; i++) {
      const b = range[p++]
      value += (b & 0x7f) * 2 ** (7 * i)
      if (b < 0x80) return value
    }
    throw changed()
  }
  while (at < range.length) {
    p = at
    const length = next()
    const cidStart = p
    const end = cidStart + length
    if (end > range.length) throw changed()
    let codec
    if (range[p] === 0x12 && range[p + 1] === 0x20) { // CIDv0: a bare sha2-256 multihash, dag-pb
      codec = 0x70
      p += 34
    } else {
      next() // version
      codec = next()
      next() // multihash code
      const digestLength = next()
      p += digestLength
    }
    if (p > end) throw changed()
    visit(codec, cidStart, p, end)
    at = end
  }
}

/** What splitSections found in a chunk; its arrays are made once per run, grown as needed. */
class Split {
  /** @param {number} sections */
  constructor (sections) {
    /** whole sections found */
    this.n = 0
    /** where the first section not taken starts in the chunk */
    this.i = 0
    /** that section's claim is one to report (as nextSection does): malformed, 0, too big, past the end */
    this.claim = false
    /** that section's size, when the chunk cuts it short (0: its length varint is cut short, or a claim) */
    this.cutShort = 0
    /** where each whole section ends, from `from` */
    this.ends = new Uint32Array(sections)
    /** the file offset of each */
    this.starts = new Float64Array(sections)
  }
}

/**
 * Split buffer[from, limit) into whole sections by their length varints, as far as each passes the
 * checks nextSection makes of its claim; stop at the first that is cut short by the chunk or whose
 * claim is to be reported.
 *
 * @param {Uint8Array} buffer
 * @param {number} from
 * @param {number} limit
 * @param {number} base the file offset of buffer[0]
 * @param {number} end where the sections end in the file
 * @param {number} maxSection
 * @param {Split} out
 */
function splitSections (buffer, from, limit, base, end, maxSection, out) {
  let { ends, starts } = out
  let n = 0
  let i = from
  let claim = false
  let cutShort = 0
  while (i < limit) {
    let length = 0
    let scale = 1
    let varintSize = 0
    for (let k = 0; k < 9 && i + k < limit; k++) {
      const b = buffer[i + k]
      length += (b & 0x7f) * scale
      if (b < 0x80) { varintSize = k + 1; break }
      scale *= 128
    }
    const at = base + i
    if (varintSize === 0) { // cut short by the chunk (the next one has the rest), or malformed
      claim = i + 9 <= limit || base + limit >= end
      break
    }
    if (length === 0 || length > maxSection || length > end - at - varintSize) { claim = true; break }
    const size = varintSize + length
    if (i + size > limit) {
      cutShort = size
      break
    }
    if (n === ends.length) { out.ends = ends = grow(ends); out.starts = starts = grow(starts) }
    starts[n] = at
    i += size
    ends[n++] = i - from
  }
  out.n = n
  out.i = i
  out.claim = claim
  out.cutShort = cutShort
}

/**
 * A typed array twice as long, holding the old contents.
 *
 * @template {Uint32Array | Float64Array} T
 * @param {T} array
 * @returns {T}
 */
function grow (array) {
  const next = /** @type {T} */ (new /** @type {any} */ (array.constructor)(array.length * 2))
  next.set(/** @type {any} */ (array))
  return next
}

/**
 * Batches are shared with worker threads where the runtime has SharedArrayBuffer; a browser page
 * that is not cross-origin isolated has none, and checks its batches in the thread that reads them.
 */
const BatchBuffer = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : ArrayBuffer

/**
 * @typedef {[typeof SharedArrayBuffer | typeof ArrayBuffer, boolean]} BatchKind what a new batch buffer is
 *   made of, and whether it will be used again (so made with room for a typical batch); if not (its
 *   blocks go to a caller, who may keep them), of exactly the size asked for
 */

/**
 * `size` bytes for a batch: in a spare buffer big enough, else in a new one with room for a
 * typical batch (`batchBytes` and a few sections more), so that it can be used again.
 *
 * @param {SharedArrayBuffer[]} spare
 * @param {number} size
 * @param {number} batchBytes
 * @param {BatchKind} kind
 */
function batchBuffer (spare, size, batchBytes, [Batch, reused]) {
  while (spare.length > 0) {
    const buffer = /** @type {SharedArrayBuffer} */ (spare.pop())
    if (buffer.byteLength >= size) return new Uint8Array(buffer, 0, size)
  }
  return new Uint8Array(new Batch(reused ? Math.max(size, batchBytes + (batchBytes >> 3)) : size), 0, size)
}

/**
 * @param {number} n
 * @returns {Uint8Array} n as an unsigned LEB128 varint
 */
function varintBytes (n) {
  const out = []
  while (n >= 0x80) { out.push((n % 0x80) | 0x80); n = Math.floor(n / 0x80) }
  out.push(n)
  return Uint8Array.from(out)
}

/**
 * The common v1 header, read without @ipld/car, whose decoder loads @ipld/dag-cbor and cborg: a
 * large part of the start-up of a run over a small CAR. Only canonical DAG-CBOR (our strict
 * decode) holding exactly { roots: [CID, ...], version: 1 }, which readHeader accepts as it is and
 * returns unchanged; the reader is then moved past it. Anything else gives null and is left where
 * it is for readHeader, whose checks and messages stay the tool's.
 *
 * @param {ByteReader} reader at the header's length varint, whose claim was checked
 * @returns {Promise<{ version: 1, roots: CID[] } | null>}
 */
async function canonicalHeader (reader) {
  const varint = await reader.peekVarint()
  if (typeof varint !== 'object') return null
  const length = varint.size + varint.value
  /** @type {any} */
  let value
  try {
    value = decode((await reader.exactly(length)).subarray(varint.size))
  } catch {
    return null
  }
  if (value === null || typeof value !== 'object' || Object.keys(value).length !== 2 || value.version !== 1 ||
    !Array.isArray(value.roots) || !value.roots.every((/** @type {unknown} */ root) => CID.asCID(root) !== null)) return null
  reader.seek(length)
  return value
}

/** @param {any} err */
function describe (err) {
  return String(err?.message ?? err).split('\n')[0]
}
