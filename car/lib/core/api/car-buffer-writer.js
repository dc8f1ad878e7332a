// Stage 6: @ipld/car's CarBufferWriter (its buffer-writer.js, version 5.4): a synchronous writer
// into a buffer the caller allocated, with the same functions, names and messages; the header is
// encoded with this library's codec, and its length computed from the CBOR heads (no encoder needed).
// Blocks are written after the space kept for the header; close() writes the header in front and
// returns a view of the caller's buffer (moving the blocks if the header's size was not known and
// `{ resize: true }` allows it). Added: a root or a block's CID must be a CID whose bytes are one
// (TypeError otherwise, before anything is written); a block whose bytes do not hash to its CID
// (sha2-256, blake2b-256, identity: what the readers check) is refused, hashed synchronously, unless
// createWriter()'s `verifyHashes: false`; every option and argument is checked (a TypeError for a
// wrong type, a RangeError for NaN, a fraction or a number out of range, where @ipld/car would write
// at the wrong place or lose the blocks); a root that fits the buffer exactly is taken (@ipld/car
// refuses one that ends on its last byte).
import { writeStages } from '#write-stages'

/** @typedef {import('multiformats/cid').CID} CID */

/**
 * @typedef {{ cid: CID, bytes: Uint8Array }} Block
 * @typedef {object} CarBufferWriterOptions
 * @property {CID[]} [roots] the header's roots, added first (default none)
 * @property {number} [byteOffset] where in the buffer the CAR starts (default 0)
 * @property {number} [byteLength] how many bytes of the buffer it may take (default the rest of it)
 * @property {number} [headerSize] the bytes kept for the header (default the header of `roots`)
 * @property {boolean} [verifyHashes] refuse a block whose bytes do not hash to its CID, where the hash is
 *   one the readers compute: sha2-256, blake2b-256, identity (default true; false writes every block
 *   unchecked, as @ipld/car does)
 */

/**
 * A CAR writer into a buffer allocated ahead of time: createWriter() makes one.
 */
class CarBufferWriter {
  /**
   * @param {Uint8Array} bytes
   * @param {number} headerSize
   * @param {boolean} [verifyHashes] write() refuses a block whose bytes do not hash to its CID
   */
  constructor (bytes, headerSize, verifyHashes = true) {
    /** @readonly */
    this.bytes = bytes
    this.byteOffset = headerSize
    /**
     * @readonly
     * @type {CID[]}
     */
    this.roots = []
    this.headerSize = headerSize
    /** @readonly */
    this.verifyHashes = verifyHashes
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
   * Write a block; a RangeError if the buffer has no room for it, an Error if its bytes do not hash
   * to its CID (unless `verifyHashes: false`): nothing written either way.
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
  const cid = writeStages().asCid(value)
  if (typeof cid === 'string') throw new TypeError(`${what} must be a CID: it is ${cid}`)
  return cid
}

/**
 * A `{ cid, bytes }` block: its CID, checked; a TypeError for anything else.
 *
 * @param {unknown} block
 * @param {string} where
 * @returns {CID}
 */
function blockCid (block, where) {
  if (block === null || typeof block !== 'object') throw new TypeError(`${where} takes a { cid, bytes } block: it is ${writeStages().describeValue(block)}`)
  const { cid, bytes } = /** @type {Block} */ (block)
  const link = cidOf(cid, 'a block\'s cid')
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`a block's bytes must be a Uint8Array: they are ${writeStages().describeValue(bytes)}`)
  return link
}

/**
 * The `{ resize }` options of addRoot() and close().
 *
 * @param {{ resize?: boolean } | undefined} options
 * @param {string} where
 */
function resizeOption (options, where) {
  return writeStages().booleanOption(writeStages().optionsObject(options, where).resize, `${where}'s resize`, false)
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
export const addRoot = (writer, root, options) => {
  const resize = resizeOption(options, 'addRoot()')
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
export const blockLength = (block) => {
  const size = blockCid(block, 'blockLength()').bytes.byteLength + block.bytes.byteLength
  return varintLength(size) + size
}

/**
 * Write a block's section at the writer's offset; a RangeError when it would not fit, an Error when
 * its bytes do not hash to its CID (unless the writer's verifyHashes is false).
 *
 * @param {CarBufferWriter} writer
 * @param {Block} block
 */
export const addBlock = (writer, block) => {
  const link = blockCid(block, 'CarBufferWriter write()')
  const bytes = block.bytes
  if (writer.verifyHashes !== false) {
    const problem = writeStages().blockHashProblem(link, bytes)
    if (problem !== null) throw new Error(`CarBufferWriter write(): the block's bytes do not hash to its CID ${link}: ${problem}. Write the bytes the CID was made from (or the CID made from these bytes); createWriter() with { verifyHashes: false } writes such a block unchecked`)
  }
  const byteLength = link.bytes.byteLength + bytes.byteLength
  const out = writer.bytes
  let at = writer.byteOffset
  if (at + varintLength(byteLength) + byteLength > out.byteLength) {
    throw new RangeError('Buffer has no capacity for this block')
  }
  // the length varint written in place: no array made per block
  let n = byteLength
  while (n >= 0x80) { out[at++] = (n % 0x80) | 0x80; n = Math.floor(n / 0x80) }
  out[at++] = n
  out.set(link.bytes, at)
  at += link.bytes.byteLength
  out.set(bytes, at)
  writer.byteOffset = at + bytes.byteLength
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
export const close = (writer, options) => {
  const resize = resizeOption(options, 'close()')
  const { roots, bytes, byteOffset, headerSize } = writer
  const header = writeStages().headerBytes(roots)
  const size = header.length
  if (size === headerSize) {
    bytes.set(header, 0)
    return bytes.subarray(0, byteOffset)
  } else if (size > headerSize) {
    // only when headerSize was below even this header (roots pushed onto writer.roots, or a
    // headerSize smaller than no roots' header): @ipld/car would call it overestimated
    if (!resize) {
      throw new RangeError(`Header size was underestimated: the header is ${size} bytes, ${headerSize} were kept; close({ resize: true }) moves the blocks to make room, where the buffer has it`)
    }
    if (size - headerSize + byteOffset > bytes.byteLength) {
      throw new RangeError(`Buffer has no capacity for the header: it is ${size} bytes, ${headerSize} were kept, and the buffer has ${bytes.byteLength - byteOffset} bytes left after the blocks`)
    }
    resizeHeader(writer, size)
    bytes.set(header, 0)
    return bytes.subarray(0, writer.byteOffset)
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
  // the blocks, moved, must stay in the buffer
  const room = bytes.byteLength - (writer.byteOffset - headerSize)
  writeStages().wholeNumberOption(byteLength, 'resizeHeader()\'s byteLength', 0, room, ' (the buffer less the blocks written)')
  bytes.set(bytes.subarray(headerSize, writer.byteOffset), byteLength)
  writer.byteOffset += byteLength - headerSize
  writer.headerSize = byteLength
}

/**
 * The length of a header (length varint and DAG-CBOR) whose roots' CIDs have these byte lengths:
 * { roots: [tag 42 over 0x00 and the CID, ...], version: 1 }.
 *
 * @param {number[]} rootLengths
 * @returns {number}
 */
export const calculateHeaderLength = (rootLengths) => {
  if (!Array.isArray(rootLengths)) throw new TypeError(`calculateHeaderLength()'s rootLengths must be an array of CID byte lengths: it is ${writeStages().describeValue(rootLengths)}`)
  rootLengths.forEach((n, i) => writeStages().wholeNumberOption(n, `calculateHeaderLength()'s rootLengths[${i}]`, 0, Infinity))
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
export const headerLength = ({ roots }) => {
  if (!Array.isArray(roots)) throw new TypeError(`headerLength()'s roots must be an array of CIDs: it is ${writeStages().describeValue(roots)}`)
  return calculateHeaderLength(roots.map((cid, i) => cidOf(cid, `headerLength()'s roots[${i}]`).bytes.byteLength))
}

/**
 * An estimate of the header's length for `rootCount` roots of `rootByteLength` bytes each (36, the
 * default: a CIDv1 with a one-byte multihash code such as sha2-256's).
 *
 * @param {number} rootCount
 * @param {number} [rootByteLength]
 * @returns {number}
 */
export const estimateHeaderLength = (rootCount, rootByteLength = 36) => {
  writeStages().wholeNumberOption(rootCount, 'estimateHeaderLength()\'s rootCount', 0, Infinity)
  writeStages().wholeNumberOption(rootByteLength, 'estimateHeaderLength()\'s rootByteLength', 36, Infinity)
  return calculateHeaderLength(new Array(rootCount).fill(rootByteLength))
}

/**
 * A CarBufferWriter writing into `buffer` (from `byteOffset`, for `byteLength` bytes): the header's
 * space is `headerSize`, by default the length of the header of `roots`, which are added first.
 * Each option is checked before anything is written: a TypeError for a wrong type, a RangeError for
 * NaN, a fraction, a negative number or a range outside the buffer.
 *
 * @param {ArrayBuffer} buffer
 * @param {CarBufferWriterOptions} [options]
 * @returns {CarBufferWriter}
 */
export const createWriter = (buffer, options) => {
  const where = 'createWriter()'
  // a typed array would be copied by new Uint8Array(buffer, ...) (its byteOffset ignored): the CAR
  // written into the copy, not into the caller's memory
  const into = /** @type {unknown} */ (buffer)
  if (!(into instanceof ArrayBuffer) && !(typeof SharedArrayBuffer === 'function' && into instanceof SharedArrayBuffer)) {
    throw new TypeError(`${where} takes an ArrayBuffer: it is ${writeStages().describeValue(buffer)}${ArrayBuffer.isView(buffer) ? '; pass its .buffer with { byteOffset, byteLength } for the part of it to write into' : ''}`)
  }
  const given = writeStages().optionsObject(options, where)
  const { roots = [] } = given
  if (!Array.isArray(roots)) throw new TypeError(`${where}'s roots must be an array of CIDs: it is ${writeStages().describeValue(roots)}`)
  roots.forEach((root, i) => cidOf(root, `${where}'s roots[${i}]`))
  const size = buffer.byteLength
  const byteOffset = writeStages().wholeNumberOption(given.byteOffset, `${where}'s byteOffset`, 0, size)
  const byteLength = writeStages().wholeNumberOption(given.byteLength, `${where}'s byteLength`, size - byteOffset, size - byteOffset,
    byteOffset === 0 ? '' : ` (the buffer's ${size} bytes from byteOffset ${byteOffset})`)
  const headerSize = writeStages().wholeNumberOption(given.headerSize, `${where}'s headerSize`, headerLength({ roots }), byteLength)
  // the default, the roots' header, unchecked above: past the buffer, close() would fail to write it
  if (headerSize > byteLength) throw new RangeError(`Buffer has no capacity for the header of these roots: it is ${headerSize} bytes, the buffer ${byteLength}`)
  const verifyHashes = writeStages().booleanOption(given.verifyHashes, `${where}'s verifyHashes`, true)
  const bytes = new Uint8Array(buffer, byteOffset, byteLength)
  const writer = new CarBufferWriter(bytes, headerSize, verifyHashes)
  for (const root of roots) writer.addRoot(root)
  return writer
}
