// Opening a CAR for the commands: a file or `-` (standard input), read by the core's bounded reader
// (core/read/section-reader.js, opened by open-car.js's openCar), whose blocks carry the byte offset of
// their section. Commands that must read blocks again in another order (get-dag, filter
// --reachable-from) need a file: a stream is first saved to a temporary file (on disk, not in
// memory), removed when the command ends or is interrupted.
import os from 'node:os'
import path from 'node:path'
/** @typedef {import('multiformats/cid').CID} CID */
import { openInput } from './input-source.js'
import { openCar, readVarint, CarReadError, decodeSectionCid } from '../core/read/open-car.js'
import { DEFAULT_MAX_BLOCK_SIZE } from '../core/read/limits.js'
import { openAtomicFile } from './output.js'
import { ToolError, aboutInput } from '../core/base/errors.js'
import { missing, loadFor, readyFor } from '../core/check/on-demand.js'
import { createProgress, drawProgress } from './progress.js'

/**
 * @typedef {object} CarInput
 * @property {string} name what messages call the input
 * @property {import('./input-source.js').Source} source
 * @property {import('../core/read/open-car.js').Car} car
 * @property {Uint8Array} prefix the first bytes of the input (up to PREFIX bytes), for export's header check
 * @property {() => Promise<void>} close
 */

const PREFIX = 64 * 1024

/**
 * @param {string} spec a path, or '-' for standard input
 * @param {{ maxBlockSize?: number, reread?: boolean, stdoutListing?: boolean }} [options] reread: the command
 *   reads blocks again by offset; stdoutListing: it writes a listing to stdout as it reads (progress.js)
 * @returns {Promise<CarInput>}
 */
export async function openCarInput (spec, { maxBlockSize = DEFAULT_MAX_BLOCK_SIZE, reread = false, stdoutListing = false } = {}) {
  let source = await openInput(spec)
  /** @type {Awaited<ReturnType<typeof openAtomicFile>> | null} */
  let spool = null
  if (reread && !source.seekable) {
    try {
      spool = await saveToTemporaryFile(source)
    } finally {
      await source.close()
    }
    const name = source.name
    source = { ...(await openInput(/** @type {string} */ (spool.temporary))), name }
  }
  const close = async () => {
    await source.close()
    await spool?.abort() // removes the temporary copy
  }
  try {
    const prefix = { bytes: new Uint8Array(0) }
    const car = await openCar(keepPrefix(source.stream(), prefix), { size: source.size, maxBlockSize, ready: readyFor })
    drawProgress(car, createProgress({ total: source.size, stdoutListing }))
    // the reader's errors give offsets; the command line also names the input
    const blocks = car.blocks
    const name = source.name
    car.blocks = async function * () {
      try { yield * blocks() } catch (err) { throw aboutInput(err, name) }
    }
    return { name, source, car, prefix: prefix.bytes, close }
  } catch (err) {
    await close()
    throw aboutInput(err, source.name)
  }
}

/**
 * Pass chunks through, keeping a copy of the input's first bytes.
 *
 * @param {AsyncIterable<Uint8Array>} chunks
 * @param {{ bytes: Uint8Array }} prefix
 */
async function * keepPrefix (chunks, prefix) {
  for await (const chunk of chunks) {
    if (prefix.bytes.length < PREFIX) {
      const more = chunk.subarray(0, PREFIX - prefix.bytes.length)
      const next = new Uint8Array(prefix.bytes.length + more.length)
      next.set(prefix.bytes)
      next.set(more, prefix.bytes.length)
      prefix.bytes = next
    }
    yield chunk
  }
}

/**
 * Copy a stream to a temporary file in the OS temp directory, registered with output.js so that a
 * signal removes it as it removes partial output.
 *
 * @param {import('./input-source.js').Source} source
 */
async function saveToTemporaryFile (source) {
  const spool = await openAtomicFile(path.join(os.tmpdir(), 'dag-cbor-car-input.car'))
  try {
    for await (const chunk of source.stream()) {
      for (let at = 0; at < chunk.length;) {
        const { bytesWritten } = await spool.handle.write(chunk, at, chunk.length - at)
        at += bytesWritten
      }
    }
    await spool.handle.close()
  } catch (err) {
    await spool.abort()
    if (err instanceof ToolError) throw err
    throw new ToolError(`cannot save ${source.name} to a temporary file in ${os.tmpdir()} (it is read again out of order): ${/** @type {any} */ (err)?.code ?? /** @type {any} */ (err)?.message}`)
  }
  return spool
}

/**
 * Read the block whose section starts at `offset` and is `length` bytes long (varint included),
 * from a file whose sections were checked when it was first read.
 *
 * @param {import('./input-source.js').Source} source
 * @param {number} offset
 * @param {number} length
 * @returns {Promise<{ cid: CID, bytes: Uint8Array }>}
 */
export async function readBlockAt (source, offset, length) {
  const section = await source.readRange(offset, length)
  const varint = readVarint(section)
  let block
  try {
    if (!varint || varint.size + varint.value !== length) throw new Error('bad length')
    const [cid, bytes] = decodeSectionCid(section.subarray(varint.size))
    block = { cid, bytes }
  } catch {
    throw new CarReadError(`${source.name} changed during the run: no valid section at byte offset ${offset}`, { blocks: 0, offset })
  }
  // the first reading saw it (and loaded what it needs), unless the file changed since
  if (missing(block.cid.code, block.cid.multihash.code)) await loadFor(block.cid.code, block.cid.multihash.code)
  return block
}
