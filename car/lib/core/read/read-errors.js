// The errors of reading a CAR: one type (CarReadError, exit code 2) with where reading failed (its
// subclass InputFailedError: the input itself failed, so open-car.js says so), and
// the messages shared by the stream reader (section-reader.js), the batch readers (section-batches.js) and
// what a worker thread found in a batch (run/section-checks.js).
import { ToolError } from '../base/errors.js'
import { InputError } from './source.js'
import { bytesText } from './limits.js'

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
 * The CAR's input failed while it was read: its own error (`cause`, whose `code` it keeps), not a
 * fault found in the CAR. `offset` is where the input failed; `blocks`, the blocks read completely
 * before it.
 */
export class InputFailedError extends CarReadError {
  /**
   * @param {unknown} cause the input's error, as it threw it
   * @param {{ blocks: number, offset: number }} where
   */
  constructor (cause, { blocks, offset }) {
    super(`the input failed at byte offset ${offset}, after ${blocks} complete blocks: ${describe(cause)}; the CAR was read no further and this is not a fault found in it (read it again once its input can be read)`, { blocks, offset })
    this.name = 'InputFailedError'
    this.cause = cause
    /** @type {unknown} the input's error's code (a system error's `EIO`, ...), when it has one */
    this.code = /** @type {any} */ (cause)?.code
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

/**
 * The error for a section whose CID cannot be read ('cid') or whose block is over the maximum size
 * ('too-big'): made here for blocks(), and on the main thread for what a worker found (run/section-checks.js).
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
 * How the messages name what raises the maximum block size: the library's option. The one place
 * it is worded; the command line says its flag instead (lib/node/command-args.js, inCommandWords).
 */
export const MAX_BLOCK_SIZE_OPTION = 'the maxBlockSize option'

/**
 * @param {number} start @param {number} count @param {number} length @param {number} maxBlockSize
 */
export function tooBig (start, count, length, maxBlockSize) {
  return new CarReadError(`after ${count} complete blocks, the section at byte offset ${start} claims ${length} bytes, more than the maximum block size (${bytesText(maxBlockSize)}); if the CAR really holds blocks that big, raise it with ${MAX_BLOCK_SIZE_OPTION}`, { blocks: count, offset: start })
}

/** An error's message, its first line only. @param {any} err */
export function describe (err) {
  return String(err?.message ?? err).split('\n')[0]
}
