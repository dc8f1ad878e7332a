// The CAR's header: a CARv1 header, or the CARv2 pragma, its fixed header and the CARv1 header of
// its payload. Every length the file claims is checked against what is left of the input (when its
// size is known) and against the maximum block size BEFORE anything is read or allocated.
import { CarReadError, describe, MAX_BLOCK_SIZE_OPTION } from './read-errors.js'
import { EndOfInput } from './byte-reader.js'
import { decodeV1Header } from './header-decode.js'
import { CID_ROOM, bytesText } from './limits.js'

/** The CARv2 pragma: a CARv1 header of its own, { version: 2 }, byte for byte as the spec gives it. */
export const V2_PRAGMA = Uint8Array.from([0x0a, 0xa1, 0x67, 0x76, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e, 0x02])
/** The CARv2 fixed header after it: characteristics (16 bytes), data offset, data size, index offset (u64 each). */
export const V2_FIXED_HEADER = 40
const V2_HEADER_END = V2_PRAGMA.length + V2_FIXED_HEADER

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {import('./byte-reader.js').ByteReader} ByteReader
 * @typedef {{ dataOffset: number, dataSize: number, indexOffset: number, characteristics: Uint8Array }} V2Header
 *   characteristics: the 16-byte bitfield at byte offset 11 (car-checks.js checks it)
 */

/**
 * The bytes start with the CARv2 pragma.
 *
 * @param {Uint8Array} bytes
 */
export function isV2Pragma (bytes) {
  if (bytes.length < V2_PRAGMA.length) return false
  for (let i = 0; i < V2_PRAGMA.length; i++) if (bytes[i] !== V2_PRAGMA[i]) return false
  return true
}

/**
 * A CARv2 whose data payload is another CARv2: the format allows only a CARv1 there. Said as such,
 * rather than as a CARv1 header of an unknown version (the inner pragma decodes as { version: 2 }).
 *
 * @param {number} dataOffset @param {number} dataSize the outer CARv2's payload
 */
export function nestedV2 (dataOffset, dataSize) {
  return new CarReadError(`not a CAR this tool reads: the CARv2 payload at byte offset ${dataOffset} must be a CARv1, but it starts with another CARv2 header (a CARv2 nested in a CARv2); the inner CARv2 is bytes ${dataOffset} to ${dataOffset + dataSize} of the input, which can be read as a CAR on their own`, { blocks: 0, offset: dataOffset })
}

/** @param {string} what */
const badHeader = (what) => new CarReadError(`not a CAR file: bad header (${what})`, { blocks: 0, offset: 0 })

/**
 * Read the header; the reader is left at the first section, with its `end` at the payload's end
 * for a CARv2. `nonMinimal`: whether the CARv1 header's length varint is written longer than its
 * shortest form (read, as @ipld/car reads it; verify reports it).
 *
 * @param {ByteReader} reader at byte 0, its `end` the input's size when known
 * @param {{ size: number | undefined, maxBlockSize: number }} options
 * @returns {Promise<{ roots: CID[], v2: V2Header | null, nonMinimal: boolean }>}
 */
export async function readHeader (reader, { size, maxBlockSize }) {
  const claims = { where: size === undefined ? 'the input' : 'the file', maxBlockSize }
  /** @type {V2Header | null} */
  let v2 = null
  await checkHeaderClaim(reader, 'header', claims)
  if (isV2Pragma(await reader.upTo(V2_PRAGMA.length))) {
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
    await checkHeaderClaim(reader, 'CARv2 payload header', claims)
    if (isV2Pragma(await reader.upTo(V2_PRAGMA.length))) throw nestedV2(v2.dataOffset, v2.dataSize)
  }
  const { roots, nonMinimal } = await readV1Header(reader, `the header at byte offset ${v2 ? v2.dataOffset : 0}`)
  return { roots, v2, nonMinimal }
}

/**
 * Check a header's length claim before anything reads it.
 *
 * @param {ByteReader} reader
 * @param {string} context
 * @param {{ where: string, maxBlockSize: number }} claims
 */
async function checkHeaderClaim (reader, context, { where, maxBlockSize }) {
  const start = reader.pos
  const varint = await reader.peekVarint()
  if (varint === 'end') throw badHeader(start === 0 ? 'the input is empty' : `${context}: the input ends at byte ${start}`)
  if (varint === 'malformed') throw badHeader(`${context}: malformed length varint at byte ${start}`)
  const length = varint.value
  if (length === 0) throw badHeader(`${context}: length 0 at byte ${start}`)
  const left = reader.end === undefined ? Infinity : reader.end - start - varint.size
  if (length > left) throw badHeader(`${context} at byte ${start} claims ${length} bytes, but only ${left} are left in ${where}`)
  if (length > maxBlockSize + CID_ROOM) throw badHeader(`${context} at byte ${start} claims ${length} bytes, more than the maximum block size (${bytesText(maxBlockSize)}, ${MAX_BLOCK_SIZE_OPTION})`)
}

/**
 * The CARv1 header at the reader (its claim checked), read and moved past, taken or refused as
 * @ipld/car's readHeader takes or refuses it, in the tool's words; and whether its length varint
 * is not minimal (a last byte 0 after the first: the unsigned-varint spec's one form is shortest).
 *
 * @param {ByteReader} reader
 * @param {string} at where the header is, for messages
 * @returns {Promise<{ roots: CID[], nonMinimal: boolean }>}
 */
async function readV1Header (reader, at) {
  const varint = /** @type {{ value: number, size: number }} */ (await reader.peekVarint())
  const length = varint.size + varint.value
  let bytes
  try {
    bytes = await reader.exactly(length, true)
  } catch (err) {
    if (err instanceof EndOfInput) throw badHeader(`cut short: ${err.message}`)
    throw err
  }
  return { roots: v1HeaderRoots(bytes.subarray(varint.size), at), nonMinimal: varint.size > 1 && bytes[varint.size - 1] === 0 }
}

/**
 * A CARv1 header's roots from its bytes (after the length varint), taken or refused as @ipld/car's
 * readHeader takes or refuses it, in the tool's words: the one header check for every reader.
 *
 * @param {Uint8Array} bytes
 * @param {string} at where the header is, for messages
 * @returns {CID[]}
 */
export function v1HeaderRoots (bytes, at) {
  try {
    return decodeV1Header(bytes).roots
  } catch (err) {
    const message = describe(err)
    const version = /Invalid CAR version: (\d+)/.exec(message)
    throw badHeader(version
      ? version[1] === '2'
        // version 2 is read, but only as the fixed pragma: a header that says 2 among other fields is neither
        ? `${at}: CAR version 2, but not the CARv2 pragma (the 11 bytes 0aa16776657273696f6e02, { version: 2 } alone, that start every CARv2)`
        : `${at}: CAR version ${version[1]}; this tool reads versions 1 and 2`
      : /^CBOR decode error|^Unexpected end of data/.test(message)
        ? `${at} does not decode as DAG-CBOR; a CAR starts with a length varint and a DAG-CBOR map { roots, version }`
        : /^Invalid CAR header format/.test(message)
          ? `${at} is DAG-CBOR, but not the map { roots: [CID, ...], version: 1 } a CARv1 header is`
          : `${at}: ${message}`)
  }
}

/**
 * The CARv2 fixed header (characteristics, data offset, data size, index offset; little-endian
 * u64s), checked against the file before anything is skipped or read.
 *
 * @param {Uint8Array} fixed
 * @param {number | undefined} size
 * @returns {V2Header}
 */
export function checkV2Header (fixed, size) {
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
