// The @ipld/car-compatible readers in Node: the core's (../core/run/*), taking a file path or a
// file: URL wherever they take bytes or an async iterable, and @ipld/car's Node-only statics:
// CarReader.readRaw (async) and CarBufferReader.readRaw (sync), which read one block from a file
// descriptor or FileHandle at the place a CarIndexer gave, and check it against its CID.
import { openSource } from '../core/read/source.js'
import { CarBlockIterator } from '../core/api/car-block-iterator.js'
import { CarReader as CoreCarReader } from '../core/api/car-reader.js'
import { CarBufferReader as CoreCarBufferReader } from '../core/api/car-buffer-reader.js'
import { checkBlockNow } from '../core/check/block-errors.js'
import { CarIndexer as CoreCarIndexer } from '../core/api/car-indexer.js'
import { CarCIDIterator as CoreCarCIDIterator } from '../core/api/car-cid-iterator.js'
import { missing, loadFor } from '../core/check/on-demand.js'
import { openInput } from './input-source.js'
import { blake2 } from '#modules-now'

// (process.getBuiltinModule, not import: an import of a built-in module makes Node build its ES
// module face, reading every export, node:fs's fs.promises among them, which loads 35 of Node's
// internal modules, its streams and readline, when the library is imported; a bundle keeps the call)
const fs = /** @type {typeof import('node:fs')} */ (process.getBuiltinModule('node:fs'))
const { promisify } = /** @type {typeof import('node:util')} */ (process.getBuiltinModule('node:util'))
const { fileURLToPath } = /** @type {typeof import('node:url')} */ (process.getBuiltinModule('node:url'))

const fsread = promisify(fs.read)

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {import('../core/read/source.js').CarInput | string | URL} NodeCarInput a CarInput, or a file path or file: URL
 * @typedef {import('../core/api/car-block-iterator.js').IteratorOptions} IteratorOptions
 * @typedef {import('../core/api/car-indexer.js').BlockIndex} BlockIndex
 * @typedef {{ cid: CID, bytes: Uint8Array, offset: number }} Block
 * @typedef {{ read: (buffer: Uint8Array, offset: number, length: number, position: number) => Promise<{ bytesRead: number }> }} FileHandleLike
 *   what readRaw needs of a FileHandle (so that the shipped types need no @types/node)
 * @typedef {{ cid: CID, blockOffset: number, blockLength: number, offset?: number }} RawLocation where readRaw reads
 * @typedef {{ verifyHashes?: boolean, allowUnverified?: boolean }} CheckOptions
 */

/**
 * @param {NodeCarInput} input
 * @returns {Promise<import('../core/read/source.js').Source>}
 */
export async function openNodeInput (input) {
  if (typeof input === 'string') return openInput(input)
  if (input instanceof URL) {
    if (input.protocol !== 'file:') throw new TypeError(`only file: URLs are read, not ${input.protocol}`)
    return openInput(fileURLToPath(input))
  }
  return openSource(input)
}

/**
 * @param {NodeCarInput} input
 * @param {IteratorOptions} options
 */
async function nodeBlockIterator (input, options) {
  return CarBlockIterator.fromSource(await openNodeInput(input), { ...options, validate: false, decode: false }, false)
}

/**
 * blake2b-256 in JavaScript, for a synchronous read that meets one before its WebAssembly is loaded
 * (@noble/hashes, loaded then: lib/node/load-at-first-call-node.js).
 *
 * @type {import('../core/api/car-buffer-reader.js').HashNow}
 */
const hashNow = (code, bytes) => code === 0xb220 ? blake2().blake2b(bytes, { dkLen: 32 }) : null

/** @param {RawLocation} blockIndex */
function checkLocation (blockIndex) {
  const { blockOffset, blockLength } = blockIndex ?? {}
  if (!Number.isSafeInteger(blockOffset) || blockOffset < 0 || !Number.isSafeInteger(blockLength) || blockLength < 0) {
    throw new TypeError('readRaw() needs a block index with a whole, non-negative blockOffset and blockLength')
  }
}

/**
 * @param {RawLocation} blockIndex
 * @param {Uint8Array} bytes
 * @param {number} read
 * @param {CheckOptions} options
 * @returns {Block}
 */
function rawBlock ({ cid, blockOffset, blockLength, offset }, bytes, read, options) {
  if (read !== blockLength) throw new Error(`Failed to read entire block (${read} instead of ${blockLength})`)
  const at = offset ?? blockOffset - cid.bytes.length
  checkBlockNow(cid, bytes, at, options, hashNow)
  return { cid, bytes, offset: at }
}

export class CarReader extends CoreCarReader {
  /**
   * @param {NodeCarInput} input
   * @returns {Promise<import('../core/read/source.js').Source>}
   */
  static source (input) {
    return openNodeInput(input)
  }

  /**
   * @param {NodeCarInput} input an async iterable of bytes, as @ipld/car takes; or bytes, a Blob, a ReadableStream, a file path or file: URL
   * @param {IteratorOptions} [options]
   * @returns {Promise<CarReader>}
   */
  static async fromIterable (input, options = {}) {
    return /** @type {CarReader} */ (await super.fromIterable(/** @type {any} */ (input), options))
  }

  /**
   * One block, read from a file at the place a CarIndexer gave, checked against its CID.
   *
   * @param {FileHandleLike | number} fd a file descriptor, or a FileHandle (fs.promises.open)
   * @param {RawLocation} blockIndex
   * @param {CheckOptions} [options]
   * @returns {Promise<Block>}
   */
  static async readRaw (fd, blockIndex, options = {}) {
    if (typeof fd !== 'number' && !(fd && typeof fd === 'object' && typeof fd.read === 'function')) throw new TypeError('Bad fd')
    checkLocation(blockIndex)
    const { cid, blockLength, blockOffset } = blockIndex
    const bytes = new Uint8Array(blockLength)
    const read = typeof fd === 'number'
      ? (await fsread(fd, bytes, 0, blockLength, blockOffset)).bytesRead
      : (await fd.read(bytes, 0, blockLength, blockOffset)).bytesRead
    if (missing(cid.code, cid.multihash.code)) await loadFor(cid.code, cid.multihash.code)
    return rawBlock(blockIndex, bytes, read, options)
  }
}

export class CarBufferReader extends CoreCarBufferReader {
  static hashNow = hashNow

  /**
   * One block, read synchronously from a file descriptor at the place a CarIndexer gave, checked
   * against its CID (a blake2b-256 one needs `await CarBufferReader.ready()` once before).
   *
   * @param {number} fd
   * @param {RawLocation} blockIndex
   * @param {CheckOptions} [options]
   * @returns {Block}
   */
  static readRaw (fd, blockIndex, options = {}) {
    if (typeof fd !== 'number') throw new TypeError('Bad fd')
    checkLocation(blockIndex)
    const { blockLength, blockOffset } = blockIndex
    const bytes = new Uint8Array(blockLength)
    const read = fs.readSync(fd, bytes, 0, blockLength, blockOffset)
    return rawBlock(blockIndex, bytes, read, options)
  }
}

/**
 * The regular file a read stream not yet started would read whole (fs.createReadStream(path) with
 * no start, end, fd or fs of its own: how @ipld/car's examples feed its indexer), else null.
 *
 * @param {unknown} input
 * @returns {Promise<string | null>}
 */
async function wholeFileOf (input) {
  if (!(input instanceof fs.ReadStream)) return null
  const s = /** @type {any} */ (input)
  if (typeof s.path !== 'string' || s.bytesRead !== 0 || s.destroyed || s.readableFlowing === true || s.readableLength !== 0) return null
  if ((s.start !== undefined && s.start !== 0) || (s.end !== undefined && s.end !== Infinity)) return null
  const kFs = Object.getOwnPropertySymbols(s).find((sym) => sym.description === 'kFs')
  if (kFs !== undefined && s[kFs] !== fs) return null
  try {
    return (await fs.promises.stat(s.path)).isFile() ? s.path : null
  } catch {
    return null
  }
}

export class CarIndexer extends CoreCarIndexer {
  /**
   * The input as a Source. A read stream of a whole regular file, not started yet, is read by
   * position from the file instead, into the indexer's own reused buffers (and the stream closed):
   * a stream's chunks are fresh memory each, which the collector frees only some time later, so
   * indexing a 100 MB file through them held some 40 MB more at its peak.
   *
   * @param {NodeCarInput} input
   * @returns {Promise<import('../core/read/source.js').Source>}
   */
  static async source (input) {
    const file = await wholeFileOf(input)
    if (file !== null) {
      const source = await openInput(file)
      if (source.seekable) {
        /** @type {import('node:fs').ReadStream} */ (input).destroy()
        return source
      }
      await source.close()
    }
    return openNodeInput(input)
  }

  /**
   * @param {NodeCarInput} input an async iterable of bytes, as @ipld/car takes; or bytes, a Blob, a ReadableStream, a file path or file: URL
   * @param {import('../core/api/car-indexer.js').IndexerOptions} [options]
   * @returns {Promise<CarIndexer>}
   */
  static async fromIterable (input, options = {}) {
    return /** @type {CarIndexer} */ (await super.fromIterable(/** @type {any} */ (input), options))
  }
}

export class CarCIDIterator extends CoreCarCIDIterator {
  /**
   * @param {NodeCarInput} input
   * @param {IteratorOptions} options
   */
  static blockIterator (input, options) {
    return nodeBlockIterator(input, options)
  }

  /**
   * @param {NodeCarInput} input an async iterable of bytes, as @ipld/car takes; or bytes, a Blob, a ReadableStream, a file path or file: URL
   * @param {IteratorOptions} [options]
   * @returns {Promise<CarCIDIterator>}
   */
  static async fromIterable (input, options = {}) {
    return /** @type {CarCIDIterator} */ (await super.fromIterable(/** @type {any} */ (input), options))
  }
}
