// @ipld/car's decoder (its sub-entry `@ipld/car/decoder`, here `dag-cbor-car/decoder`): readHeader,
// readBlockHead, createDecoder and the byte readers, with @ipld/car's names, signatures and result
// shapes, over any BytesReader (@ipld/car's interface: upTo, exactly, seek, pos), so that code
// written for it, and @ipld/car's own readers handed to it, work. Written over this folder's pieces
// rather than copied: the one header check (header.js), the CARv2 fixed header's check, the CID
// taken only as the file's own bytes (sections.js) and the limits (limits.js). Where those are
// stricter than @ipld/car's decoder, they are kept (docs/from-ipld-car.md lists each, with why).
// Like @ipld/car's decoder, it checks no block against its CID: the readers (CarBlockIterator, ...) do.
import { CID } from 'multiformats/cid'
import { checkByteCount, checkOptionsObject, shown } from '../base/options.js'
import { EndOfInput, ByteReader, readVarint } from './byte-reader.js'
import { CarReadError, MAX_BLOCK_SIZE_OPTION, describe, tooBig } from './read-errors.js'
import { V2_PRAGMA, V2_FIXED_HEADER, checkV2Header, isV2Pragma, nestedV2, v1HeaderRoots } from './header.js'
import { CID_ROOM, DEFAULT_MAX_BLOCK_SIZE, MAX_MAX_BLOCK_SIZE, bytesText } from './limits.js'
import { decodeSectionCid } from './sections.js'

/**
 * @typedef {{
 *   upTo: (length: number) => Promise<Uint8Array>,
 *   exactly: (length: number, seek?: boolean) => Promise<Uint8Array>,
 *   seek: (length: number) => void,
 *   pos: number
 * }} BytesReader @ipld/car's: bytes from `pos` without moving (`upTo`: as many as there are, up to
 *   `length`; `exactly`: that many, or it throws; with `seek`, moving past them), and `seek` to move
 * @typedef {{ version: 1, roots: CID[] }} CarHeader
 * @typedef {{ characteristics: [bigint, bigint], dataOffset: number, dataSize: number, indexOffset: number }} CarV2FixedHeader
 * @typedef {CarV2FixedHeader & { version: 2, roots: CID[] }} CarV2Header the CARv2 fixed header's
 *   fields and its payload's roots
 * @typedef {{ cid: CID, bytes: Uint8Array }} Block
 * @typedef {{ cid: CID, length: number, blockLength: number }} BlockHeader `length`: the whole
 *   section's, its length varint included; `blockLength`: the block's, after the CID
 * @typedef {BlockHeader & { offset: number, blockOffset: number }} BlockIndex
 * @typedef {{
 *   header: () => Promise<CarHeader | CarV2Header>,
 *   blocks: () => AsyncGenerator<Block>,
 *   blocksIndex: () => AsyncGenerator<BlockIndex>
 * }} CarDecoder
 * @typedef {{ maxBlockSize?: number }} DecoderOptions maxBlockSize: the largest block (and,
 *   with room for a CID, section or header) read; default 4 MiB (read/limits.js)
 */

// Two sizes of the formats, written in place as byte-reader.js writes the first (test/core/read/read.spec.js
// holds every limit this tool chooses to limits.js; these are not ones): a CAR length varint takes
// at most 9 bytes (readVarint), a CID's prefix at most 40 (four varints, version, codec, hash and
// digest size, of up to 10 bytes each).

/** How far a reader of this module was moved past the end of its input (0 when it was not): a
 * section whose block blocksIndex() seeks past without reading is cut short when this grows. */
const OVERRUN = Symbol('bytes sought past the end of the input')

/**
 * The end of the data where more was asked for: an EndOfInput (the readers' type) whose message
 * starts as @ipld/car's does ('Unexpected end of data'), for code that matches on it.
 */
export class UnexpectedEnd extends EndOfInput {
  /** @param {number} at where the data ends @param {number} asked bytes asked for @param {number} pos where */
  constructor (at, asked, pos) {
    super(at)
    this.message = `Unexpected end of data: ${asked} bytes asked for at byte offset ${pos}, but the data ends at byte ${at}`
  }
}

/**
 * The decoder's options, checked.
 *
 * @param {string} api
 * @param {unknown} options
 */
function limitsOf (api, options) {
  const o = checkOptionsObject(api, options)
  return { maxBlockSize: checkByteCount(api, 'maxBlockSize', o.maxBlockSize, MAX_MAX_BLOCK_SIZE) ?? DEFAULT_MAX_BLOCK_SIZE }
}

/**
 * @param {string} api
 * @param {unknown} reader
 * @returns {BytesReader}
 */
function checkReader (api, reader) {
  const r = /** @type {any} */ (reader)
  if (r === null || typeof r !== 'object' || typeof r.upTo !== 'function' || typeof r.exactly !== 'function' || typeof r.seek !== 'function' || typeof r.pos !== 'number') {
    throw new TypeError(`${api}: reader must be a BytesReader (upTo, exactly, seek and pos, as bytesReader() or asyncIterableReader() make one), got ${shown(reader)}`)
  }
  return r
}

/**
 * @param {string} what
 * @param {number} offset
 */
const badHeader = (what, offset) => new CarReadError(`not a CAR file: bad header (${what})`, { blocks: 0, offset })

/**
 * Reads the CAR's header from the reader, which it leaves at the first section: a CARv1's
 * `{ version: 1, roots }`, or a CARv2's fixed header's fields with its payload's roots
 * `{ version: 2, roots, characteristics, dataOffset, dataSize, indexOffset }` (offsets from where
 * the reader was). `strictVersion` refuses the other version.
 *
 * @param {BytesReader} reader
 * @param {number} [strictVersion] 1 or 2
 * @param {DecoderOptions} [options]
 * @returns {Promise<CarHeader | CarV2Header>}
 */
export async function readHeader (reader, strictVersion, options) {
  if (strictVersion !== undefined && strictVersion !== 1 && strictVersion !== 2) throw new RangeError(`readHeader: strictVersion must be 1 or 2 (or left out), got ${shown(strictVersion)}`)
  const { maxBlockSize } = limitsOf('readHeader', options)
  return headerOf(checkReader('readHeader', reader), strictVersion, maxBlockSize)
}

/**
 * @param {BytesReader} reader
 * @param {number | undefined} strictVersion
 * @param {number} maxBlockSize
 * @returns {Promise<CarHeader | CarV2Header>}
 */
async function headerOf (reader, strictVersion, maxBlockSize) {
  const start = reader.pos
  const claim = await headerClaim(reader, 'header', Infinity, maxBlockSize)
  if (!isV2Pragma(await reader.upTo(V2_PRAGMA.length))) {
    if (strictVersion === 2) throw badHeader(`the header at byte offset ${start} is not the CARv2 pragma (the 11 bytes 0aa16776657273696f6e02), and a CARv2 was asked for (strictVersion 2)`, start)
    // the keys in @ipld/car's order (the decoded map's), for code that prints or compares them
    return { roots: await v1Roots(reader, claim, `the header at byte offset ${start}`), version: 1 }
  }
  if (strictVersion === 1) throw badHeader(`the header at byte offset ${start} is the CARv2 pragma, and a CARv1 was asked for (strictVersion 1)`, start)
  reader.seek(V2_PRAGMA.length)
  const fixed = await exactly(reader, V2_FIXED_HEADER, (end) => badHeader(`CARv2 header cut short: ${end.message}`, reader.pos))
  const v2 = checkV2Header(fixed, undefined)
  const view = new DataView(fixed.buffer, fixed.byteOffset, fixed.byteLength)
  reader.seek(start + v2.dataOffset - reader.pos)
  const payloadHeader = await headerClaim(reader, 'CARv2 payload header', v2.dataSize, maxBlockSize)
  if (isV2Pragma(await reader.upTo(V2_PRAGMA.length))) throw nestedV2(v2.dataOffset, v2.dataSize)
  const roots = await v1Roots(reader, payloadHeader, `the header at byte offset ${start + v2.dataOffset}`)
  return {
    roots,
    version: 2,
    characteristics: [view.getBigUint64(0, true), view.getBigUint64(8, true)],
    dataOffset: v2.dataOffset,
    dataSize: v2.dataSize,
    indexOffset: v2.indexOffset
  }
}

/**
 * A header's length claim, checked before anything is read: the reader is not moved.
 *
 * @param {BytesReader} reader
 * @param {string} context
 * @param {number} room the bytes it may take, its varint included (a CARv2's payload size)
 * @param {number} maxBlockSize
 */
async function headerClaim (reader, context, room, maxBlockSize) {
  const at = reader.pos
  const bytes = await reader.upTo(9)
  if (bytes.length === 0) throw badHeader(at === 0 ? 'the input is empty' : `${context}: the input ends at byte ${at}`, at)
  const varint = readVarint(bytes)
  if (!varint) throw badHeader(`${context}: malformed length varint at byte ${at}`, at)
  const length = varint.value
  if (length === 0) throw badHeader(`${context}: length 0 at byte ${at}`, at)
  if (length > room - varint.size) throw badHeader(`${context} at byte ${at} claims ${length} bytes, but the CARv2 payload holds only ${room} bytes`, at)
  if (length > maxBlockSize + CID_ROOM) throw badHeader(`${context} at byte ${at} claims ${length} bytes, more than the maximum block size (${bytesText(maxBlockSize)}, ${MAX_BLOCK_SIZE_OPTION})`, at)
  return { at, length, size: varint.size }
}

/**
 * The CARv1 header whose claim was checked, read and moved past: its roots, by the one header check.
 *
 * @param {BytesReader} reader
 * @param {{ at: number, length: number, size: number }} claim
 * @param {string} where for messages
 */
async function v1Roots (reader, { at, length, size }, where) {
  reader.seek(size)
  const bytes = await exactly(reader, length, (end) => badHeader(`${where} claims ${length} bytes, but it is cut short: ${end.message}`, at), true)
  return v1HeaderRoots(bytes, where)
}

/**
 * `reader.exactly`, its end of data (this module's readers', or @ipld/car's 'Unexpected end of
 * data') said by `fault`; any other failure (the input's own) is thrown as it is.
 *
 * @param {BytesReader} reader
 * @param {number} length
 * @param {(end: Error) => Error} fault
 * @param {boolean} [seek]
 */
async function exactly (reader, length, fault, seek = false) {
  try {
    return await reader.exactly(length, seek)
  } catch (err) {
    if (err instanceof EndOfInput || describe(err) === 'Unexpected end of data') throw fault(/** @type {Error} */ (err))
    throw err
  }
}

/**
 * Reads a section's length and CID from the reader, which it leaves at the block's bytes:
 * `{ cid, length, blockLength }`, `length` the whole section's (its varint included), `blockLength`
 * the block's.
 *
 * @param {BytesReader} reader
 * @param {DecoderOptions} [options]
 * @returns {Promise<BlockHeader>}
 */
export async function readBlockHead (reader, options) {
  const { maxBlockSize } = limitsOf('readBlockHead', options)
  return sectionHead(checkReader('readBlockHead', reader), maxBlockSize, undefined)
}

/**
 * @param {BytesReader} reader
 * @param {number} maxBlockSize
 * @param {number | undefined} count complete blocks before it, when known (for messages)
 * @returns {Promise<BlockHeader>}
 */
async function sectionHead (reader, maxBlockSize, count) {
  const start = reader.pos
  /** @param {string} what */
  const corrupt = (what) => new CarReadError(`CAR is truncated or corrupt${count === undefined ? '' : ` after ${count} complete blocks`}: the section at byte offset ${start} ${what}`, { blocks: count ?? 0, offset: start })
  const head = await reader.upTo(9)
  if (head.length === 0) throw corrupt('is missing: the input ends there')
  const varint = readVarint(head)
  if (!varint) throw corrupt('has a malformed length varint')
  const section = varint.value
  if (section === 0) throw corrupt('has length 0')
  if (section > maxBlockSize + CID_ROOM) throw tooBig(start, count ?? 0, section, maxBlockSize)
  reader.seek(varint.size)
  // the CID's size from its prefix, so that only the CID is read (blocksIndex() reads no block)
  const want = Math.min(section, 40)
  const prefix = await reader.upTo(want)
  let cidSize
  try {
    cidSize = CID.inspectBytes(prefix).size
  } catch (err) {
    if (prefix.length < want) throw corrupt(`claims ${section} bytes, but the input ends at byte ${start + varint.size + prefix.length}`)
    throw corrupt(`does not start with a valid CID (${cidProblem(prefix, err)})`)
  }
  if (cidSize > section) throw corrupt(`does not start with a valid CID (it claims ${cidSize} bytes, past the end of the ${section}-byte section)`)
  const cidBytes = await exactly(reader, cidSize, (end) => corrupt(`claims ${section} bytes, but ${end.message}`))
  let cid
  try {
    [cid] = decodeSectionCid(cidBytes)
  } catch (err) {
    throw corrupt(`does not start with a valid CID (${describe(err)})`)
  }
  reader.seek(cidSize)
  const blockLength = section - cidSize
  if (blockLength > maxBlockSize) throw tooBig(start, count ?? 0, blockLength, maxBlockSize)
  return { cid, length: varint.size + section, blockLength }
}

/**
 * Why a CID's prefix is not one, in sections.js's words.
 *
 * @param {Uint8Array} prefix
 * @param {unknown} err inspectBytes' error
 */
function cidProblem (prefix, err) {
  try {
    decodeSectionCid(prefix)
  } catch (why) {
    return describe(why)
  }
  return describe(err)
}

/**
 * A decoder over the reader: `header()`, then `blocks()` ({ cid, bytes }) or `blocksIndex()`
 * ({ cid, length, blockLength, offset, blockOffset }, the blocks not read) to the end of the CAR
 * (a CARv2's payload). No block is checked against its CID (as @ipld/car's decoder).
 *
 * @param {BytesReader} reader
 * @param {DecoderOptions} [options]
 * @returns {CarDecoder}
 */
export function createDecoder (reader, options) {
  const { maxBlockSize } = limitsOf('createDecoder', options)
  checkReader('createDecoder', reader)
  const start = reader.pos
  let source = reader
  /** @type {{ end: number } | null} a CARv2's payload, where the blocks end */
  let payload = null
  const headerRead = (async () => {
    const header = await headerOf(reader, undefined, maxBlockSize)
    if (header.version === 2) {
      const dataStart = start + header.dataOffset
      payload = { end: dataStart + header.dataSize }
      source = limitReader(reader, header.dataSize - (reader.pos - dataStart))
    }
    return header
  })()
  // header(), blocks() and blocksIndex() each report its failure; not asked for, it is no unhandled rejection
  headerRead.catch(() => {})

  /**
   * Whether another section starts at the reader; false at the end of the CAR, which a CARv2's
   * payload or a block sought past (blocksIndex) must not be short of.
   *
   * @param {number} count
   */
  async function more (count) {
    if ((await source.upTo(1)).length > 0) return true
    const at = source.pos
    const overrun = /** @type {any} */ (source)[OVERRUN]?.() ?? 0
    if (overrun > 0) throw new CarReadError(`CAR is truncated after ${count - 1} complete blocks: the last block ends at byte offset ${at}, but the input ends at byte ${at - overrun}`, { blocks: count - 1, offset: at - overrun })
    if (payload !== null && at < payload.end) throw new CarReadError(`CARv2 payload is shorter than its stated size after ${count} complete blocks: the header says it ends at byte ${payload.end}, the input ends at byte ${at}`, { blocks: count, offset: at })
    return false
  }

  return {
    header: () => headerRead,

    async * blocks () {
      await headerRead
      for (let count = 0; await more(count); count++) {
        const at = source.pos
        const { cid, blockLength } = await sectionHead(source, maxBlockSize, count)
        const bytes = await exactly(source, blockLength, (end) => new CarReadError(`CAR is truncated or corrupt after ${count} complete blocks: the section at byte offset ${at} claims a ${blockLength}-byte block, but ${end.message}`, { blocks: count, offset: at }), true)
        yield { bytes, cid }
      }
    },

    async * blocksIndex () {
      await headerRead
      for (let count = 0; await more(count); count++) {
        const offset = source.pos
        const { cid, length, blockLength } = await sectionHead(source, maxBlockSize, count)
        const index = { cid, length, blockLength, offset, blockOffset: source.pos }
        source.seek(blockLength)
        yield index
      }
    }
  }
}

/**
 * @param {string} api
 * @param {unknown} length
 */
function checkSeek (api, length) {
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) throw new RangeError(`${api}: seek takes a whole number of bytes from 0 (a reader only moves forward), got ${shown(length)}`)
}

/**
 * A BytesReader over bytes in memory.
 *
 * @param {Uint8Array} bytes
 * @returns {BytesReader}
 */
export function bytesReader (bytes) {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`bytesReader: bytes must be a Uint8Array, got ${shown(bytes)}`)
  let pos = 0
  return {
    async upTo (length) {
      return bytes.subarray(pos, pos + Math.max(0, Math.min(length, bytes.length - pos)))
    },
    async exactly (length, seek = false) {
      if (length > bytes.length - pos) throw new UnexpectedEnd(bytes.length, length, pos)
      const out = bytes.subarray(pos, pos + length)
      if (seek) pos += length
      return out
    },
    seek (length) {
      checkSeek('bytesReader', length)
      pos += length
    },
    get pos () { return pos },
    // @ts-ignore: not part of the interface
    [OVERRUN]: () => Math.max(0, pos - bytes.length)
  }
}

/**
 * A BytesReader over chunks asked for one at a time (`readChunk` gives null at the end), read
 * through the CAR reader's ByteReader; a seek past the bytes at hand is done at the next read.
 *
 * @param {() => Promise<Uint8Array | null>} readChunk
 * @returns {BytesReader}
 */
export function chunkReader (readChunk) {
  if (typeof readChunk !== 'function') throw new TypeError(`chunkReader: readChunk must be a function giving the next Uint8Array, or null at the end, got ${shown(readChunk)}`)
  return streamReader('chunkReader', {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const chunk = await readChunk()
        return chunk == null ? { done: true, value: undefined } : { done: false, value: chunk }
      }
    })
  })
}

/**
 * A BytesReader over an async iterable of chunks (a stream).
 *
 * @param {AsyncIterable<Uint8Array>} asyncIterable
 * @returns {BytesReader}
 */
export function asyncIterableReader (asyncIterable) {
  if (asyncIterable === null || typeof asyncIterable !== 'object' || typeof (/** @type {any} */ (asyncIterable))[Symbol.asyncIterator] !== 'function') {
    throw new TypeError(`asyncIterableReader: its argument must be an AsyncIterable of Uint8Arrays, got ${shown(asyncIterable)}`)
  }
  return streamReader('asyncIterableReader', asyncIterable)
}

/**
 * @param {string} api
 * @param {AsyncIterable<Uint8Array>} chunks
 * @returns {BytesReader}
 */
function streamReader (api, chunks) {
  const input = new ByteReader(checkedChunks(api, chunks), false)
  let pending = 0 // bytes sought past what the ByteReader had at hand, skipped at the next read
  let overrun = 0 // of those, the bytes past the end of the input
  async function settle () {
    if (pending === 0) return
    const skip = pending
    pending = 0
    const from = input.pos
    try {
      await input.skip(skip)
    } catch (err) {
      if (!(err instanceof EndOfInput)) throw err
      overrun += skip - (input.pos - from)
    }
  }
  return {
    async upTo (length) {
      await settle()
      return overrun > 0 ? new Uint8Array(0) : input.upTo(length)
    },
    async exactly (length, seek = false) {
      await settle()
      const pos = input.pos + overrun
      if (overrun > 0) throw new UnexpectedEnd(input.pos, length, pos)
      try {
        return await input.exactly(length, seek)
      } catch (err) {
        if (err instanceof EndOfInput) throw new UnexpectedEnd(err.at, length, pos)
        throw err
      }
    },
    seek (length) {
      checkSeek(api, length)
      const now = pending === 0 ? Math.min(length, input.available()) : 0
      input.seek(now)
      pending += length - now
    },
    get pos () { return input.pos + pending + overrun },
    // @ts-ignore: not part of the interface
    [OVERRUN]: () => overrun
  }
}

/**
 * @param {string} api
 * @param {AsyncIterable<Uint8Array>} chunks
 */
async function * checkedChunks (api, chunks) {
  let at = 0
  for await (const chunk of chunks) {
    if (!(chunk instanceof Uint8Array)) throw new TypeError(`${api}: its input gave ${shown(chunk)} at byte offset ${at}, where a chunk must be a Uint8Array`)
    at += chunk.length
    yield chunk
  }
}

/**
 * A BytesReader that reads at most `byteLimit` bytes of `reader` from where it is: past them its
 * `upTo` gives nothing and its `exactly` throws, before asking `reader`. Its `pos` is `reader`'s.
 *
 * @param {BytesReader} reader
 * @param {number} byteLimit
 * @returns {BytesReader}
 */
export function limitReader (reader, byteLimit) {
  checkReader('limitReader', reader)
  if (typeof byteLimit !== 'number' || !Number.isSafeInteger(byteLimit) || byteLimit < 0) throw new RangeError(`limitReader: byteLimit must be a whole number of bytes from 0, got ${shown(byteLimit)}`)
  let bytesRead = 0
  return {
    async upTo (length) {
      const room = byteLimit - bytesRead
      return room <= 0 ? new Uint8Array(0) : reader.upTo(Math.min(length, room))
    },
    async exactly (length, seek = false) {
      const room = byteLimit - bytesRead
      if (length > room) throw new UnexpectedEnd(reader.pos + Math.max(0, room), length, reader.pos)
      const bytes = await reader.exactly(length, seek)
      if (seek) bytesRead += length
      return bytes
    },
    seek (length) {
      checkSeek('limitReader', length)
      bytesRead += length
      reader.seek(length)
    },
    get pos () { return reader.pos },
    // @ts-ignore: not part of the interface
    [OVERRUN]: () => Math.max(bytesRead - byteLimit, /** @type {any} */ (reader)[OVERRUN]?.() ?? 0)
  }
}
