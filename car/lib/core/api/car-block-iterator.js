// The library's CarBlockIterator: a CAR's blocks, in order, each checked as it is handed out.
import { openSource } from '../read/source.js'
import { asReadError } from '../read/read-errors.js'
import { verifyBlock, digest32Matches, hasherMissing } from '../check/hash.js'
import { throwIfHashFailed } from '../check/block-errors.js'
import { iterateStages } from '#iterate-stages'
import { checkIteratorOptions } from '../run/reader-options.js'
import { DEFAULT_MAX_BLOCK_SIZE } from '../read/limits.js'

/** @type {import('../check/classify.js').Codec | undefined} the codec the checks use (at the first check: the stages load then) */
let codec

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {import('../read/source.js').CarInput} CarInput
 * @typedef {import('../report/summary.js').Summary} Summary
 * @typedef {{ cid: CID, bytes: Uint8Array, offset: number }} Block a block, and the byte offset of its section in the CAR
 * @typedef {import('../check/classify.js').BlockStatus} BlockStatus
 * @typedef {{ rule: string, offset?: number, path?: string, message: string }} BlockProblem
 * @typedef {Block & { status?: BlockStatus, problem?: BlockProblem, value?: unknown, relaxed?: boolean }} CheckedBlock
 * @typedef {object} IteratorOptions
 * @property {boolean} [verifyHashes] check each block's bytes against its CID's hash (default true);
 *   a mismatch throws a CarBlockError, and so does a hash function this library does not compute
 *   (sha2-256, blake2b-256 and identity it does) unless `allowUnverified`
 * @property {boolean} [allowUnverified] hand out blocks whose hash function is not one it computes, unchecked
 * @property {boolean} [validate] give each block a `status` (DAG-CBOR: 'canonical' | 'non-canonical' |
 *   'invalid'; other codecs: 'ok' | 'invalid' | 'unknown-codec') and, when not good, a `problem`
 * @property {boolean} [decode] give each block its decoded `value` (DAG-CBOR, DAG-JSON, dag-pb, json; raw: its bytes)
 * @property {boolean} [relaxed] with decode: a non-canonical DAG-CBOR block that relaxed decode reads
 *   exactly is decoded so (`relaxed: true` on the block) rather than left without a value
 * @property {number} [maxBlockSize] largest block (and section length claim) accepted (default 2 MiB... see README)
 * @property {boolean} [viewBytes] hand out each block's `bytes` and CID as views of the 1 MiB batch
 *   it was read in (never reused), not as copies: no copy per block, but a kept block or CID keeps
 *   its whole batch alive (default false: each owns exactly its bytes)
 */

/**
 * A CAR's blocks, in order, with their hashes verified: @ipld/car's CarBlockIterator's shape
 * (fromIterable, fromBytes, getRoots, version, `for await`), reading in bounded memory.
 */
export class CarBlockIterator {
  /**
   * @param {import('../read/open-car.js').Car} car
   * @param {IteratorOptions} options
   * @param {import('../read/source.js').Source} [source] closed when the iteration ends
   */
  constructor (car, options, source) {
    this.car = car
    this.source = source
    this.options = options
    /** @type {1 | 2} */
    this.version = /** @type {1 | 2} */ (car.version)
    this.used = false
  }

  /**
   * @param {CarInput} input
   * @param {IteratorOptions} [options]
   */
  static async fromIterable (input, options = {}) {
    checkIteratorOptions('CarBlockIterator.fromIterable', options)
    return this.fromSource(openSource(input), options, false)
  }

  /**
   * For the shells: an iterator of this class over an opened source (closed on failure).
   *
   * @template {typeof CarBlockIterator} C
   * @this {C}
   * @param {import('../read/source.js').Source} source
   * @param {IteratorOptions} options
   * @param {boolean} shared the batches are read into SharedArrayBuffers (for a shell's worker
   *   threads, whose sectionBatches then hands out blocks in ArrayBuffers: blocks are the caller's)
   * @returns {Promise<InstanceType<C>>}
   */
  static async fromSource (source, options, shared) {
    // read by position where it can be (a Blob, bytes, a file in Node)
    let car
    try {
      checkIteratorOptions('CarBlockIterator', options)
      // blocks copied out of their batch (not viewBytes): the batch's buffer is read into again
      car = await iterateStages().openCar(source.stream(), { size: source.size, maxBlockSize: options.maxBlockSize, file: source.seekable ? source : undefined, shared, reuse: shared || !options.viewBytes })
    } catch (err) {
      await source.close()
      throw asReadError(err, 0, 0)
    }
    return /** @type {InstanceType<C>} */ (new this(car, options, source))
  }

  /**
   * The batches of sections the blocks are cut from.
   *
   * @param {ArrayBufferLike[]} [spare] buffers of batches whose blocks were copied out, to read into again
   * @returns {AsyncGenerator<import('../run/iterate.js').HashedBatch>}
   */
  sectionBatches (spare) {
    return iterateStages().hashedBatches(this.car, spare)
  }

  /**
   * @template {typeof CarBlockIterator} C
   * @this {C}
   * @param {Uint8Array} bytes
   * @param {IteratorOptions} [options]
   * @returns {Promise<InstanceType<C>>}
   */
  static async fromBytes (bytes, options = {}) {
    if (!(bytes instanceof Uint8Array)) throw new TypeError('fromBytes() needs a Uint8Array')
    // this class's fromIterable: a shell's subclass takes its own options (Node: workers) here too
    return /** @type {Promise<InstanceType<C>>} */ (this.fromIterable(bytes, options))
  }

  /** @returns {Promise<CID[]>} the header's roots */
  async getRoots () {
    return this.car.roots
  }

  /**
   * The blocks, in order: an iterator whose next() answers at once while the batch of sections
   * read last has blocks left (a batch's blocks are read and checked together).
   *
   * @returns {AsyncIterator<CheckedBlock>}
   */
  [Symbol.asyncIterator] () {
    if (this.used) throw new Error('a CarBlockIterator cannot be iterated more than once')
    this.used = true
    const { car, source } = this
    const spare = this.options.viewBytes ? undefined : []
    const batches = iterateStages().blockBatches(this.sectionBatches(spare), this.options.maxBlockSize ?? DEFAULT_MAX_BLOCK_SIZE, blockCheck(this.options), spare)
    /** @type {CheckedBlock[]} */
    let batch = []
    let i = 0
    let done = false
    let handedOut = 0 // blocks in the batches handed out (for an error's count)
    const finish = async () => {
      if (done) return
      done = true
      try {
        await batches.return(undefined)
        await car.stop()
      } finally {
        await source?.close()
      }
    }
    /** @returns {Promise<IteratorResult<CheckedBlock>>} */
    const refill = async () => {
      try {
        for (;;) {
          if (done) return { value: undefined, done: true }
          const next = await batches.next()
          if (next.done) {
            await finish()
            return { value: undefined, done: true }
          }
          batch = next.value
          handedOut += batch.length
          i = 0
          if (batch.length > 0) return { value: batch[i++], done: false }
        }
      } catch (err) {
        await finish().catch(() => {})
        throw asReadError(err, handedOut, car.position())
      }
    }
    return {
      next: () => i < batch.length ? Promise.resolve({ value: batch[i++], done: false }) : refill(),
      return: async () => {
        batch = []
        await finish()
        return { value: undefined, done: true }
      }
    }
  }
}

/**
 * What the iterator does to each block: verify its hash, and on request classify and decode it.
 * With `validate` or `decode` the block's verdict (classify.js) says both, the hash and the class,
 * in one pass (a hash a worker thread checked is not computed again); without, only the hash is
 * checked (the verdict would also walk every DAG-CBOR block, which no one asked for).
 *
 * @param {IteratorOptions} options
 * @returns {(block: Block, hashChecked: boolean) => CheckedBlock}
 */
function blockCheck (options) {
  const { verifyHashes = true, allowUnverified = false, validate = false, decode = false, relaxed = false } = options
  const check = validate || decode
  const { verdict, statusOf, HASH_OK, decodeBlock, codecOf, dagCbor } = iterateStages()
  const blockCodec = (codec ??= codecOf(dagCbor))
  /** @param {CID} cid @param {number} offset @param {'ok' | 'mismatch' | 'unverified'} hash */
  const hashFailed = (cid, offset, hash) => throwIfHashFailed(cid, offset, hash, allowUnverified)
  return (block, hashChecked) => {
    const { cid, bytes, offset } = block
    if (!check) {
      if (verifyHashes && !hashChecked) {
        const mh = cid.multihash
        const ok = mh.size === 32 && mh.code !== 0 ? digest32Matches(mh.code, bytes, mh.digest, 0) && !hasherMissing(mh.code) : verifyBlock(cid, bytes) === 'ok'
        if (!ok) hashFailed(cid, offset, verifyBlock(cid, bytes))
      }
      return block
    }
    const r = verdict(blockCodec, cid, bytes, undefined, hashChecked ? HASH_OK : -1)
    if (verifyHashes && !hashChecked && r.hash !== 'ok') hashFailed(cid, offset, r.hash)
    /** @type {CheckedBlock} */
    const out = { cid, bytes, offset, status: statusOf(r) }
    if (out.status !== 'canonical' && out.status !== 'ok') out.problem = { rule: r.rule ?? r.content ?? 'error', offset: r.offset, path: r.path, message: r.reason ?? '' }
    if (decode && out.status !== 'invalid' && out.status !== 'unknown-codec' && (out.status !== 'non-canonical' || (relaxed && r.lossless))) {
      out.value = decodeBlock(cid, bytes, out.status === 'non-canonical')
      if (out.status === 'non-canonical') out.relaxed = true
    }
    return out
  }
}
