// The worker side of a parallel verify run without an output file: a batch of whole sections, as
// the main thread split them by their length varints (read.js sectionBatches), is read here (CIDs
// included), each block checked (processBlock) and counted into a summary of the batch, which the
// main thread merges in CAR order. The CIDs go back as one buffer, for the checks over the whole
// CAR (roots, duplicates, the CARv2 index) that need every block. So the main thread neither
// parses CIDs nor makes an object per block, and no per-block result crosses between threads.
import { CID } from 'multiformats/cid'
import { processBlock } from './classify.js'
import { createSummary, addBlock } from './summary.js'

/**
 * @typedef {object} SectionError a section the worker could not read; the blocks before it are counted
 * @property {number} index the section's index in the batch
 * @property {'cid' | 'too-big'} kind
 * @property {string} detail
 * @property {number} length the block's size (too-big)
 *
 * @typedef {object} SectionResult
 * @property {import('./summary.js').Summary} summary the batch's blocks, counted
 * @property {Uint8Array} cids the CIDs' bytes, end to end
 * @property {Uint32Array} cidEnds where each ends in `cids`
 * @property {SectionError | null} error
 */

/**
 * @param {import('./classify.js').Codec} codec
 * @param {import('./read.js').SectionBatch} batch
 * @param {{ maxBlockSize: number }} options
 * @returns {SectionResult}
 */
export function processSections (codec, batch, options) {
  const { bytes, ends, starts } = batch
  const summary = createSummary()
  const cids = new Uint8Array(Math.min(bytes.length, ends.length * 64))
  const cidEnds = new Uint32Array(ends.length)
  let cidAt = 0
  let cidBuffer = cids
  /** @type {SectionError | null} */
  let error = null
  const block = { cid: /** @type {CID} */ (/** @type {unknown} */ (null)), bytes, offset: 0 }
  let from = 0
  for (let i = 0; i < ends.length; i++) {
    const section = bytes.subarray(from, ends[i])
    from = ends[i]
    let cid, data
    try {
      [cid, data] = CID.decodeFirst(section)
    } catch (err) {
      error = { index: i, kind: 'cid', detail: String(/** @type {any} */ (err)?.message ?? err).split('\n')[0], length: 0 }
      break
    }
    if (data.length > options.maxBlockSize) {
      error = { index: i, kind: 'too-big', detail: '', length: data.length }
      break
    }
    const cidBytes = cid.bytes
    if (cidAt + cidBytes.length > cidBuffer.length) {
      const grown = new Uint8Array(Math.max(cidBuffer.length * 2, cidAt + cidBytes.length))
      grown.set(cidBuffer.subarray(0, cidAt))
      cidBuffer = grown
    }
    cidBuffer.set(cidBytes, cidAt)
    cidEnds[i] = cidAt += cidBytes.length
    block.cid = cid
    block.bytes = data
    block.offset = starts[i]
    addBlock(summary, block, processBlock(codec, cid, data))
  }
  const count = error ? error.index : ends.length
  return { summary, cids: cidBuffer.slice(0, cidAt), cidEnds: cidEnds.slice(0, count), error }
}
