// The worker side of a parallel verify run without an output file: a batch of whole sections, as
// the main thread split them by their length varints (read/section-batches.js sectionBatches), is
// read here (CIDs included), each block checked (classify.js verdict) and counted into a summary of
// the batch, which the main thread merges in CAR order. The CIDs go back as one buffer, for the checks over the whole
// CAR (roots, duplicates, the CARv2 index) that need every block. So the main thread neither
// parses CIDs nor makes an object per block, and no per-block result crosses between threads.
/** @typedef {import('multiformats/cid').CID} CID */
import { verdict, commonBranch, validateCommon, COMMON, NOT_COMMON, DAG_CBOR, RAW, SHA2_256, BLAKE2B_256 } from '../check/classify.js'
import { createSummary, addBlock, countBlocks } from '../report/summary.js'
import { fingerprintInto } from '../graph/seen.js'
import { uvarint, varintEnd } from '../base/varint.js'
import { decodeSectionCid } from '../read/open-car.js'

const DIGEST_SIZE = 32

/**
 * A common block's codec and hash, by its slot in BatchState's `common`: a batch counts its common
 * blocks there, by number, and into the summary's counts (keyed by name) once, after its loop.
 */
const SLOT_CODEC = [DAG_CBOR, DAG_CBOR, RAW, RAW]
const SLOT_HASH = [SHA2_256, BLAKE2B_256, SHA2_256, BLAKE2B_256]

/**
 * @typedef {object} SectionError a section the worker could not read; the blocks before it are counted
 * @property {number} index the section's index in the batch
 * @property {'cid' | 'too-big'} kind
 * @property {string} detail
 * @property {number} length the block's size (too-big)
 *
 * @typedef {object} SectionResult
 * @property {import('../report/summary.js').Summary} summary the batch's blocks, counted
 * @property {Uint8Array} cids the CIDs' bytes, end to end
 * @property {Uint32Array} cidEnds where each ends in `cids`
 * @property {Uint32Array} fingerprints each CID's fingerprint (seen.js), two words per CID, made here
 *   so that the main thread, which checks every CID of the CAR against the others, only looks them up
 * @property {SectionError | null} error
 */

/**
 * @typedef {(cidBytes: Uint8Array, data: Uint8Array, offset: number, index: number, result: import('../check/classify.js').BlockResult | null) => void} OnSection
 *   each block checked, in order (index: the batch's `first` + its place in it); result null: a common
 *   block that passed every check (DAG-CBOR canonical, or raw)
 */

/**
 * @param {import('../check/classify.js').Codec} codec
 * @param {import('../read/open-car.js').SectionBatch} batch
 * @param {{ maxBlockSize: number, onSection?: OnSection }} options onSection: only where the batch is
 *   checked in the calling thread
 * @returns {SectionResult}
 */
export function processSections (codec, batch, options) {
  const state = new BatchState(batch, options.onSection ?? null)
  // a CAR's first batch only: later ones validate each block where it is hashed (commonBranch), in
  // one pass over the batch rather than two (each block's head read, and a view made, once)
  if (batch.first === 0) validateSections(codec, batch.bytes, batch.ends, options.maxBlockSize, state.validated)
  const count = checkSections(codec, batch.bytes, batch.ends, batch.starts, options.maxBlockSize, state)
  const { common } = state
  for (let slot = 0; slot < 4; slot++) {
    if (common[slot] > 1) countBlocks(state.summary, SLOT_CODEC[slot], SLOT_HASH[slot], common[slot] - 1, 0)
  }
  state.summary.blockBytes += common[4]
  return { summary: state.summary, cids: state.cids.slice(0, state.cidAt), cidEnds: state.cidEnds.slice(0, count), fingerprints: state.fingerprints.slice(0, 2 * count), error: state.error }
}

/** What checkSections gathers for a batch. */
class BatchState {
  /** @param {import('../read/open-car.js').SectionBatch} batch @param {OnSection | null} onSection */
  constructor (batch, onSection) {
    const n = batch.ends.length
    this.onSection = onSection
    this.first = batch.first
    this.summary = createSummary()
    this.cids = new Uint8Array(Math.min(batch.bytes.length, n * 64))
    this.cidAt = 0
    this.cidEnds = new Uint32Array(n)
    this.fingerprints = new Uint32Array(2 * n)
    /** validateSections' outcome for each section: validateCommon's answer, or 0 (not validated) */
    this.validated = new Uint8Array(n)
    /**
     * the common blocks by slot (SLOT_CODEC, SLOT_HASH), and [4] the bytes of those not yet in the
     * summary: the first of each slot is counted into it at once, which names its codec and hash
     * there in the order first seen, as a block at a time would
     */
    this.common = new Float64Array(5)
    /** @type {SectionError | null} */
    this.error = null
  }
}

/**
 * The loop over a batch's sections, apart from processSections so that nothing after the loop
 * needs type feedback: V8 compiles a long loop while it runs (on-stack replacement), before the
 * code after it has ever run, and code that then finds no feedback there is thrown away at the end
 * of every batch.
 *
 * @param {import('../check/classify.js').Codec} codec
 * @param {Uint8Array} bytes
 * @param {Uint32Array} ends
 * @param {Float64Array} starts
 * @param {number} maxBlockSize
 * @param {BatchState} state
 * @returns {number} the sections checked: all, or those before state.error's
 */
function checkSections (codec, bytes, ends, starts, maxBlockSize, state) {
  const { summary, cidEnds, fingerprints, onSection, first, validated, common } = state
  const n = ends.length
  let cidBuffer = state.cids
  let cidAt = 0
  const block = { cid: /** @type {CID} */ (/** @type {unknown} */ (null)), bytes, offset: 0 }
  let from = 0
  let i = 0
  for (; i < n; i++) {
    const to = ends[i]
    while (bytes[from++] >= 0x80); // the length varint, checked by the main thread
    // the first branch of the verdict (classify.js commonBranch), taken here on the section's
    // bytes, without a CID object or a result
    const dataAt = commonHead(bytes, from, to, maxBlockSize)
    const branch = dataAt < 0 ? -1 : commonBranch(codec, headCode, headHash, bytes.subarray(dataAt, to), bytes, headDigestAt, validated[i])
    if (branch === COMMON) {
      const cidLength = dataAt - from
      if (cidAt + cidLength > cidBuffer.length) state.cids = cidBuffer = grow(cidBuffer, cidAt, cidLength)
      for (let k = 0; k < cidLength; k++) cidBuffer[cidAt + k] = bytes[from + k]
      fingerprintInto(bytes, from, dataAt, fingerprints, i)
      cidEnds[i] = cidAt += cidLength
      state.cidAt = cidAt
      const slot = (headCode === DAG_CBOR ? 0 : 2) + (headHash === SHA2_256 ? 0 : 1)
      if (common[slot]++ === 0) countBlocks(summary, headCode, headHash, 1, to - dataAt)
      else common[4] += to - dataAt
      summary.verified++
      if (headCode === DAG_CBOR) summary.dagCbor.canonical++
      if (onSection !== null) onSection(bytes.subarray(from, dataAt), bytes.subarray(dataAt, to), starts[i], first + i, null)
      from = to
      continue
    }
    const section = bytes.subarray(from, to)
    from = to
    let cid, data
    try {
      [cid, data] = decodeSectionCid(section)
    } catch (err) {
      state.error = { index: i, kind: 'cid', detail: String(/** @type {any} */ (err)?.message ?? err).split('\n')[0], length: 0 }
      break
    }
    if (data.length > maxBlockSize) {
      state.error = { index: i, kind: 'too-big', detail: '', length: data.length }
      break
    }
    const cidBytes = cid.bytes
    if (cidAt + cidBytes.length > cidBuffer.length) state.cids = cidBuffer = grow(cidBuffer, cidAt, cidBytes.length)
    cidBuffer.set(cidBytes, cidAt)
    fingerprintInto(cidBytes, 0, cidBytes.length, fingerprints, i)
    cidEnds[i] = cidAt += cidBytes.length
    state.cidAt = cidAt
    block.cid = cid
    block.bytes = data
    block.offset = starts[i]
    const result = verdict(codec, cid, data, undefined, branch === NOT_COMMON ? -1 : branch)
    addBlock(summary, block, result)
    if (onSection !== null) onSection(cidBytes, data, starts[i], first + i, result)
  }
  return i
}

/**
 * The validation step of the first branch (classify.js validateCommon) over a CAR's first batch,
 * before any block is hashed (checkSections then hands each answer to commonBranch in `validated`).
 * In a fresh process V8 compiles the validator optimized on another thread once it has run a
 * while, and the process waits at exit for a compile still running; validating first starts that
 * compile before the hasher is loaded and the blocks are hashed, rather than after, so that on a
 * small CAR it overlaps them. Later batches find the validator compiled, and a second pass would
 * only read each block's head and make its view twice.
 *
 * @param {import('../check/classify.js').Codec} codec
 * @param {Uint8Array} bytes
 * @param {Uint32Array} ends
 * @param {number} maxBlockSize
 * @param {Uint8Array} validated set for each section checkSections hands to commonBranch as DAG-CBOR
 */
function validateSections (codec, bytes, ends, maxBlockSize, validated) {
  if (codec.validate === undefined) return
  let from = 0
  for (let i = 0; i < ends.length; i++) {
    const to = ends[i]
    while (bytes[from++] >= 0x80);
    // the blocks checkSections hands to commonBranch as DAG-CBOR (no view made of any other)
    const dataAt = commonHead(bytes, from, to, maxBlockSize)
    if (dataAt >= 0 && headCode === DAG_CBOR) validated[i] = validateCommon(codec, headCode, headHash, bytes.subarray(dataAt, to))
    from = to
  }
}

/** what commonHead read: the CID's codec, its multihash code, where its digest starts */
let headCode = 0
let headHash = 0
let headDigestAt = 0

/**
 * The head of the section at bytes[from] (past its length varint), read without making a CID: when
 * it is a CIDv1 with a 32-byte digest, followed by a block of at most maxBlockSize that ends at
 * `to`, sets headCode, headHash and headDigestAt and returns where the block starts; -1 otherwise.
 *
 * @param {Uint8Array} bytes @param {number} from @param {number} to @param {number} maxBlockSize
 * @returns {number}
 */
function commonHead (bytes, from, to, maxBlockSize) {
  if (bytes[from] !== 1) return -1
  const code = uvarint(bytes, from + 1, to)
  const hashCode = code < 0 ? -1 : uvarint(bytes, varintEnd, to)
  if (hashCode < 0 || uvarint(bytes, varintEnd, to) !== DIGEST_SIZE) return -1
  const dataAt = varintEnd + DIGEST_SIZE
  if (dataAt > to || to - dataAt > maxBlockSize) return -1
  headCode = code
  headHash = hashCode
  headDigestAt = varintEnd
  return dataAt
}

/** @param {Uint8Array} buffer @param {number} used @param {number} more */
function grow (buffer, used, more) {
  const grown = new Uint8Array(Math.max(buffer.length * 2, used + more))
  grown.set(buffer.subarray(0, used))
  return grown
}
