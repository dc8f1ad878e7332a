// Stage 6: @ipld/car's CarBufferWriter (its buffer-writer.js, version 5.4): a synchronous writer
// into a buffer the caller allocated, with the same functions, names and messages; the header is
// encoded with this library's codec, and its length computed from the CBOR heads (no encoder needed).
// Blocks are written after the space kept for the header; close() writes the header in front and
// returns a view of the caller's buffer (moving the blocks if the header's size was not known and
// `{ resize: true }` allows it). Added: a root or a block's CID must be a CID whose bytes are one
// (TypeError otherwise, before anything is written),
// and a root that fits the buffer exactly is taken (@ipld/car refuses one that ends on its last byte).
import { headerBytes } from './frames.js'
import { varintBytes } from '../base/varint.js'
import { asCid } from './cid-check.js'

/** @typedef {import('multiformats/cid').CID} CID */

/**
 * @typedef {{ cid: CID, bytes: Uint8Array }} Block
 * @typedef {{ roots?: CID[], byteOffset?: number, byteLength?: number, headerSize?: number }} CarBufferWriterOptions
 */

/**
 * A CAR writer into a buffer allocated ahead of time: createWriter() makes one.
 */
class CarBufferWriter {
  /**
   * @param {Uint8Array} bytes
   * @param {number} headerSize
   */
  constructor (bytes, headerSize) {
    /** @readonly */
    this.bytes = bytes
    this.byteOffset = headerSize
    /**
     * @readonly
     * @type {CID[]}
     */
    this.roots = []
    this.headerSize = headerSize
  }

  /**
   * Add a root, for the header close() writes. A RangeError if the header would not fit (and
   * `{ resize: true }` to move the blocks written so far to make room, where the buffer has it).
   *
   * @param {CID} root
   * @param {{ resize?: boolean }} [options]
   * @returns {CarBufferWriter}
   */
  addRoot (root, options) {
    addRoot(this, root, options)
    return this
  }

  /**
   * Write a block; a RangeError if the buffer has no room for it.
   *
   * @param {Block} block
   * @returns {CarBufferWriter}
   */
  write (block) {
    addBlock(this, block)
    return this
  }

  /**
   * Write the header and return the CAR: a view of the buffer.
   *
   * @param {{ resize?: boolean }} [options]
   * @returns {Uint8Array}
   */
  close (options) {
    return close(this, options)
  }
}

/**
 * @param {unknown} value
 * @param {string} what
 * @returns {CID}
 */
function cidOf (value, what) {
  const cid = asCid(value)
  if (typeof cid === 'string') throw new TypeError(`${what} must be a CID: it is ${cid}`)
  return cid
}

/** @param {number} n @returns {number} the length of the head of a CBOR item whose argument is n */
function cborHeadLength (n) {
  return n < 24 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : n < 0x100000000 ? 5 : 9
}

/** @param {number} n @returns {number} the length of n as an unsigned LEB128 varint */
function varintLength (n) {
  let length = 1
  while (n >= 0x80) { n = Math.floor(n / 0x80); length++ }
  return length
}

/**
 * Add a root to the writer; a RangeError (and no root added) when it would not fit.
 *
 * @param {CarBufferWriter} writer
 * @param {CID} root
 * @param {{ resize?: boolean }} [options]
 */
export const addRoot = (writer, root, options = {}) => {
  const { resize = false } = options
  const cid = cidOf(root, 'a root')
  const { bytes, headerSize, byteOffset, roots } = writer
  roots.push(cid)
  const size = headerLength(writer)
  if (size > headerSize) {
    // would it fit with the blocks moved along?
    if (size - headerSize + byteOffset <= bytes.byteLength) {
      if (resize) {
        resizeHeader(writer, size)
      } else {
        roots.pop()
        throw new RangeError(`Header of size ${headerSize} has no capacity for new root ${cid}.
  However there is a space in the buffer and you could call addRoot(root, { resize: root }) to resize header to make a space for this root.`)
      }
    } else {
      roots.pop()
      throw new RangeError(`Buffer has no capacity for a new root ${cid}`)
    }
  }
}

/**
 * The number of bytes a block takes in a CAR (its section: length varint, CID, bytes): for sizing
 * the buffer of a CarBufferWriter.
 *
 * @param {Block} block
 * @returns {number}
 */
export const blockLength = ({ cid, bytes }) => {
  const size = cid.bytes.byteLength + bytes.byteLength
  return varintLength(size) + size
}

/**
 * Write a block's section at the writer's offset; a RangeError when it would not fit.
 *
 * @param {CarBufferWriter} writer
 * @param {Block} block
 */
export const addBlock = (writer, { cid, bytes }) => {
  const link = cidOf(cid, 'a block\'s cid')
  if (!(bytes instanceof Uint8Array)) throw new TypeError('a block\'s bytes must be a Uint8Array')
  const byteLength = link.bytes.byteLength + bytes.byteLength
  const size = varintBytes(byteLength)
  if (writer.byteOffset + size.length + byteLength > writer.bytes.byteLength) {
    throw new RangeError('Buffer has no capacity for this block')
  }
  writeBytes(writer, size)
  writeBytes(writer, link.bytes)
  writeBytes(writer, bytes)
}

/**
 * Write the header in front of the blocks and return the CAR (a view of the writer's buffer). A
 * RangeError when the space kept for the header is larger than the header, unless `{ resize: true }`,
 * which moves the blocks to close the gap.
 *
 * @param {CarBufferWriter} writer
 * @param {{ resize?: boolean }} [options]
 * @returns {Uint8Array}
 */
export const close = (writer, options = {}) => {
  const { resize = false } = options
  const { roots, bytes, byteOffset, headerSize } = writer
  const header = headerBytes(roots)
  const size = header.length
  if (size === headerSize) {
    bytes.set(header, 0)
    return bytes.subarray(0, byteOffset)
  } else if (resize) {
    resizeHeader(writer, size)
    bytes.set(header, 0)
    return bytes.subarray(0, writer.byteOffset)
  } else {
    throw new RangeError(`Header size was overestimated.
You can use close({ resize: true }) to resize header`)
  }
}

/**
 * Move the blocks written so far so that the header has `byteLength` bytes.
 *
 * @param {CarBufferWriter} writer
 * @param {number} byteLength
 */
export const resizeHeader = (writer, byteLength) => {
  const { bytes, headerSize } = writer
  bytes.set(bytes.subarray(headerSize, writer.byteOffset), byteLength)
  writer.byteOffset += byteLength - headerSize
  writer.headerSize = byteLength
}

/**
 * @param {CarBufferWriter} writer
 * @param {Uint8Array} bytes
 */
const writeBytes = (writer, bytes) => {
  writer.bytes.set(bytes, writer.byteOffset)
  writer.byteOffset += bytes.length
}

/**
 * The length of a header (length varint and DAG-CBOR) whose roots' CIDs have these byte lengths:
 * { roots: [tag 42 over 0x00 and the CID, ...], version: 1 }.
 *
 * @param {number[]} rootLengths
 * @returns {number}
 */
export const calculateHeaderLength = (rootLengths) => {
  // a2, "roots" (a text head and 5 bytes), the array's head, "version" (a head and 7 bytes), 01
  let length = 1 + 6 + cborHeadLength(rootLengths.length) + 8 + 1
  for (const rootLength of rootLengths) {
    // d8 2a, then a byte string of the 0x00 prefix and the CID
    length += 2 + cborHeadLength(rootLength + 1) + rootLength + 1
  }
  return varintLength(length) + length
}

/**
 * The length of the header for these roots.
 *
 * @param {{ roots: CID[] }} options
 * @returns {number}
 */
export const headerLength = ({ roots }) =>
  calculateHeaderLength(roots.map((cid) => cid.bytes.byteLength))

/**
 * An estimate of the header's length for `rootCount` roots of `rootByteLength` bytes each (36, the
 * default: a CIDv1 with a one-byte multihash code such as sha2-256's).
 *
 * @param {number} rootCount
 * @param {number} [rootByteLength]
 * @returns {number}
 */
export const estimateHeaderLength = (rootCount, rootByteLength = 36) =>
  calculateHeaderLength(new Array(rootCount).fill(rootByteLength))

/**
 * A CarBufferWriter writing into `buffer` (from `byteOffset`, for `byteLength` bytes): the header's
 * space is `headerSize`, by default the length of the header of `roots`, which are added first.
 *
 * @param {ArrayBuffer} buffer
 * @param {CarBufferWriterOptions} [options]
 * @returns {CarBufferWriter}
 */
export const createWriter = (buffer, options = {}) => {
  const { roots = [], byteOffset = 0, byteLength = buffer.byteLength } = options
  roots.forEach((root) => cidOf(root, 'a root'))
  const { headerSize = headerLength({ roots }) } = options
  const bytes = new Uint8Array(buffer, byteOffset, byteLength)
  const writer = new CarBufferWriter(bytes, headerSize)
  for (const root of roots) writer.addRoot(root)
  return writer
}
