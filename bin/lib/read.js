// Streaming CAR input: @ipld/car's decoder over a Node read stream (CARv1, and CARv2's inner v1 payload).
// We build the decoder from its parts (asyncIterableReader + createDecoder, exactly what
// CarBlockIterator.fromIterable does) only to keep a handle on the byte reader's position, so
// progress and "truncated at byte N" reports are exact. Memory stays bounded by the stream's chunks.
import fs from 'node:fs'
import { asyncIterableReader, createDecoder } from '@ipld/car/decoder'
import { ToolError, systemReason } from './errors.js'

/** A CAR that could not be read to the end: not a CAR, a bad header, or cut short. Exit code 2. */
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
 * Open a CAR file and check it is readable; fails with a clear message (CarReadError) otherwise.
 *
 * @param {string} path
 * @returns {Promise<{ name: string, size: number, chunks: AsyncIterable<Uint8Array> }>}
 */
export async function openFile (path) {
  let fd
  try {
    fd = await fs.promises.open(path, 'r')
    const stat = await fd.stat()
    if (!stat.isFile()) throw Object.assign(new Error('not a regular file'), { code: 'ENOTFILE' })
    if (stat.size === 0) throw Object.assign(new Error('the file is empty, not a CAR'), { code: 'EEMPTY' })
    return { name: path, size: stat.size, chunks: fd.createReadStream({ highWaterMark: 1 << 20 }) }
  } catch (err) {
    await fd?.close()
    throw new CarReadError(`cannot read ${path}: ${systemReason(err)}`, { blocks: 0, offset: 0 })
  }
}

/**
 * Cut a byte array into stream-like chunks (for in-memory CARs such as the embedded sample).
 *
 * @param {Uint8Array} bytes
 * @param {number} [size]
 */
export async function * chunksOf (bytes, size = 1 << 20) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
}

/**
 * @typedef {{ cid: import('multiformats').CID, bytes: Uint8Array }} Block
 *
 * @param {AsyncIterable<Uint8Array>} chunks
 * @returns {Promise<{ version: number, roots: import('multiformats').CID[], blocks: () => AsyncGenerator<Block>, position: () => number }>}
 */
export async function openCar (chunks) {
  const reader = asyncIterableReader(chunks)
  const decoder = createDecoder(reader)
  let header
  try {
    header = await decoder.header()
  } catch (err) {
    throw new CarReadError(`not a CAR file: bad header (${readFailure(err)})`, { blocks: 0, offset: 0 })
  }

  async function * blocks () {
    let count = 0
    let end = reader.pos // where the next section starts
    try {
      for await (const block of decoder.blocks()) {
        yield block
        count++
        end = reader.pos
      }
    } catch (err) {
      throw new CarReadError(
        `CAR is truncated or corrupt after ${count} complete blocks: the section at byte offset ${end} could not be read (${readFailure(err)})`,
        { blocks: count, offset: end })
    }
  }
  return { version: header.version, roots: header.roots, blocks, position: () => reader.pos }
}

/** @param {any} err */
function readFailure (err) {
  if (err?.code && err.syscall) return `read error: ${systemReason(err)}`
  return String(err?.message ?? err).split('\n')[0]
}
