// dag-cbor-car's library API, platform-neutral: Node, browsers and Web Workers, Deno, Bun, workerd.
// No node: imports, Buffer, process, fs or worker_threads here or below (test/core-neutral.spec.js
// walks the imports). The Node entry (../node/index.js) re-exports all of this, takes file paths too,
// and adds worker threads to verifyCar.
import { CID } from 'multiformats/cid'
import { openSource } from './input.js'
import { openCar, readVarint, CarReadError, decodeSectionCid, asReadError } from './read.js'
import { verifyBlock, digest32Matches, loadHasher, hasherMissing, hashBackends, installHashers } from './hash.js'
import { processBlock } from './classify.js'
import { runPipeline } from './pipeline.js'
import { CarWriter, memoryTarget } from './write.js'
import { blockToJson, decodeBlock } from './block-view.js'
import { blockBatches, sectionBatches } from './iterate.js'
import * as codec from './codec.js'
import { missing, loadFor } from './on-demand.js'
import { DEFAULT_MAX_BLOCK_SIZE } from './block-size.js'
import { ToolError } from './errors.js'
import { uvarint, varintEnd } from './varint.js'

export { CarWriter, blockToJson, hashBackends, installHashers, CarReadError }

const SHA2_256 = 0x12
const DAG_CBOR = 0x71

/**
 * @typedef {import('./input.js').CarInput} CarInput
 * @typedef {import('./summary.js').Summary} Summary
 * @typedef {{ cid: CID, bytes: Uint8Array, offset: number }} Block a block, and the byte offset of its section in the CAR
 * @typedef {'canonical' | 'non-canonical' | 'invalid' | 'ok' | 'unknown-codec'} BlockStatus
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

/** A block that failed its check: `kind` says which ('hash-mismatch', 'unverified'); `offset` is its section's byte offset. */
export class CarBlockError extends Error {
  /**
   * @param {string} message
   * @param {{ offset: number, cid: CID, kind: 'hash-mismatch' | 'unverified' }} where
   */
  constructor (message, { offset, cid, kind }) {
    super(message)
    this.name = 'CarBlockError'
    this.offset = offset
    this.cid = cid
    this.kind = kind
  }
}

/**
 * A CAR's blocks, in order, with their hashes verified: @ipld/car's CarBlockIterator's shape
 * (fromIterable, fromBytes, getRoots, version, `for await`), reading in bounded memory.
 */
export class CarBlockIterator {
  /**
   * @param {import('./read.js').Car} car
   * @param {IteratorOptions} options
   * @param {import('./input.js').Source} [source] closed when the iteration ends
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
    return this.fromSource(openSource(input), options, false)
  }

  /**
   * For the shells: an iterator of this class over an opened source (closed on failure).
   *
   * @template {typeof CarBlockIterator} C
   * @this {C}
   * @param {import('./input.js').Source} source
   * @param {IteratorOptions} options
   * @param {boolean} shared the batches are read into SharedArrayBuffers (for a shell's worker
   *   threads, whose sectionBatches then hands out blocks in ArrayBuffers: blocks are the caller's)
   * @returns {Promise<InstanceType<C>>}
   */
  static async fromSource (source, options, shared) {
    // read by position where it can be (a Blob, bytes, a file in Node)
    let car
    try {
      // blocks copied out of their batch (not viewBytes): the batch's buffer is read into again
      car = await openCar(source.stream(), { size: source.size, maxBlockSize: options.maxBlockSize, file: source.seekable ? source : undefined, shared, reuse: shared || !options.viewBytes })
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
   * @returns {AsyncGenerator<import('./iterate.js').HashedBatch>}
   */
  sectionBatches (spare) {
    return sectionBatches(this.car, spare)
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
    if (this.used) throw new Error('a CarBlockIterator can be iterated once')
    this.used = true
    const { car, source } = this
    const spare = this.options.viewBytes ? undefined : []
    const batches = blockBatches(this.sectionBatches(spare), this.options.maxBlockSize ?? DEFAULT_MAX_BLOCK_SIZE, blockCheck(this.options), spare)
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
 *
 * @param {IteratorOptions} options
 * @returns {(block: Block, hashChecked: boolean) => CheckedBlock}
 */
function blockCheck (options) {
  const { verifyHashes = true, allowUnverified = false, validate = false, decode = false, relaxed = false } = options
  const check = validate || decode
  return (block, hashChecked) => {
    const { cid, bytes, offset } = block
    if (verifyHashes && !hashChecked) {
      const mh = cid.multihash
      const ok = mh.size === 32 && mh.code !== 0 ? digest32Matches(mh.code, bytes, mh.digest, 0) && !hasherMissing(mh.code) : verifyBlock(cid, bytes) === 'ok'
      if (!ok) {
        const result = verifyBlock(cid, bytes)
        if (result === 'mismatch') throw new CarBlockError(`the block at byte offset ${offset} does not hash to its CID ${cid}`, { offset, cid, kind: 'hash-mismatch' })
        if (result === 'unverified' && !allowUnverified) throw new CarBlockError(`the block at byte offset ${offset} has CID ${cid}, whose hash function (0x${cid.multihash.code.toString(16)}) this library does not compute; pass allowUnverified to read it unchecked`, { offset, cid, kind: 'unverified' })
      }
    }
    if (!check) return block
    const r = processBlock(codec, cid, bytes)
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

/**
 * @param {import('./classify.js').BlockResult} r
 * @returns {BlockStatus}
 */
function statusOf (r) {
  if (r.cls) return r.cls === 'nonCanonical' ? 'non-canonical' : r.cls
  if (r.content === 'invalid') return 'invalid'
  if (r.content === 'unknown') return 'unknown-codec'
  return 'ok'
}

/**
 * @typedef {object} BlockInfo one per block, for onBlock (the same object each time: copy what you keep)
 * @property {number} index the block's position in the CAR (0 first)
 * @property {number} offset its section's byte offset
 * @property {number} length the block's size in bytes
 * @property {CID} cid made when first asked for (onBlock is faster for the blocks whose CID it does not need)
 * @property {Uint8Array} cidBytes the CID's bytes: a view valid only during the call
 * @property {Uint8Array} bytes the block's bytes: a view valid only during the call (copy what you keep)
 * @property {number} codec the CID's codec code
 * @property {number} hash its multihash code
 * @property {'ok' | 'canonical' | 'non-canonical' | 'invalid' | 'hash-mismatch' | 'unverified' | 'unknown-codec'} status
 * @property {string | undefined} rule the rule a non-canonical or invalid DAG-CBOR block breaks
 *
 * @typedef {object} VerifyOptions
 * @property {string} [name] what the summary calls the input (`input`)
 * @property {boolean} [relaxed] non-canonical DAG-CBOR blocks that relaxed decode reads exactly are counted and listed, not a failure
 * @property {boolean} [partial] the CAR is part of a larger DAG: roots may be absent, the header may list none
 * @property {number} [maxBlockSize] largest block accepted
 * @property {(blocks: number, bytes: number) => void} [onProgress] now and then, blocks and CAR bytes checked so far
 * @property {(info: BlockInfo) => void} [onBlock] every block, in order (reading then goes block by block: a little slower)
 * @property {AbortSignal} [signal] stops the run: it rejects with the signal's reason at once, even while it
 *   waits on its input, and the input is cancelled
 */

/**
 * Every check the CLI's verify makes, in this thread; resolves to the summary object the CLI's
 * `verify --json` prints. A CAR that cannot be read to the end rejects with a CarReadError whose
 * `summary` is what was read before it.
 *
 * @param {CarInput} input
 * @param {VerifyOptions} [options]
 * @returns {Promise<Summary>}
 */
export async function verifyCar (input, options = {}) {
  return runVerify(openSource(input, { name: options.name }), options, {})
}

/**
 * verifyCar for the shells: extra pipeline options (the Node entry's worker threads).
 *
 * @param {import('./input.js').Source} source
 * @param {VerifyOptions} options
 * @param {Partial<import('./pipeline.js').RunOptions>} extra
 */
export async function runVerify (source, options, extra) {
  const { relaxed = false, partial = false, maxBlockSize, onProgress, onBlock, signal } = options
  const info = new BlockInfoView()
  let next = 0 // the index of the next block to report (a batch checked again after a load repeats blocks)
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await source.close()
  }
  const run = runPipeline({
    ...extra,
    source,
    relaxed,
    partial,
    maxBlockSize,
    signal,
    onProgress: onProgress ? (blocks, bytes) => onProgress(blocks, bytes) : undefined,
    onBlock: onBlock
      ? (cidBytes, bytes, offset, index, r) => {
          if (index < next) return
          next = index + 1
          info.set(cidBytes, bytes, offset, index)
          info.status = r === null ? (info.codec === DAG_CBOR ? 'canonical' : 'ok') : r.hash === 'mismatch' ? 'hash-mismatch' : r.hash === 'unverified' ? 'unverified' : statusOf(r)
          info.rule = r?.rule
          onBlock(info)
        }
      : undefined
  }).finally(close)
  return untilAborted(run, signal, () => { close().catch(() => {}) })
}

/**
 * The run's outcome, or its signal's reason as soon as the signal is aborted. The pipeline looks at
 * the signal between batches, so a run waiting on its input (a stream that stalls) would not see
 * it until the input moved: the input is cancelled (`cancel`) and the promise rejects at once.
 *
 * @template T
 * @param {Promise<T>} run
 * @param {AbortSignal | undefined} signal
 * @param {() => void} cancel
 * @returns {Promise<T>}
 */
function untilAborted (run, signal, cancel) {
  if (!signal) return run
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      cancel()
      reject(signal.reason)
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
    run.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/**
 * The one object onBlock gets, set for each block: the CID is made from its bytes only when asked for.
 *
 * @implements {BlockInfo}
 */
class BlockInfoView {
  constructor () {
    this.index = 0
    this.offset = 0
    this.length = 0
    /** @type {Uint8Array} */
    this.cidBytes = new Uint8Array(0)
    /** @type {Uint8Array} */
    this.bytes = this.cidBytes
    this.codec = 0
    this.hash = 0
    /** @type {BlockInfo['status']} */
    this.status = 'ok'
    /** @type {string | undefined} */
    this.rule = undefined
    /** @type {CID | null} */
    this.made = null
  }

  /** @param {Uint8Array} cidBytes @param {Uint8Array} bytes @param {number} offset @param {number} index */
  set (cidBytes, bytes, offset, index) {
    this.index = index
    this.offset = offset
    this.length = bytes.length
    this.cidBytes = cidBytes
    this.bytes = bytes
    this.made = null
    if (cidBytes[0] === 0x12 && cidBytes[1] === 0x20) { // CIDv0: a bare sha2-256 multihash, dag-pb
      this.codec = 0x70
      this.hash = 0x12
      return
    }
    // a CIDv1: version 1, then the codec and the hash code; a varint of more than 4 bytes (or not
    // in shortest form) is left to multiformats' CID reader
    const codec = uvarint(cidBytes, 1, cidBytes.length)
    const hash = codec < 0 ? -1 : uvarint(cidBytes, varintEnd, cidBytes.length)
    if (hash < 0) {
      this.codec = this.cid.code
      this.hash = this.cid.multihash.code
      return
    }
    this.codec = codec
    this.hash = hash
  }

  /** @returns {CID} */
  get cid () {
    this.made ??= CID.decode(this.cidBytes.slice())
    return this.made
  }
}

/**
 * The block whose section starts at `offset` (as a summary's problems and onBlock give it), read by
 * position, with its hash checked (`hash`: 'ok' | 'mismatch' | 'unverified').
 *
 * @param {CarInput} input a Blob, File, Uint8Array or ArrayBuffer (something read by position)
 * @param {number} offset
 * @param {{ maxBlockSize?: number }} [options]
 * @returns {Promise<Block & { hash: 'ok' | 'mismatch' | 'unverified' }>}
 */
export async function readBlockAt (input, offset, { maxBlockSize = DEFAULT_MAX_BLOCK_SIZE } = {}) {
  const source = openSource(input)
  if (!source.seekable) throw new TypeError('readBlockAt needs an input it can read by position: a Blob, a File or bytes')
  const size = source.size ?? Infinity
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= size) throw new RangeError(`offset ${offset} is not inside the CAR (${size} bytes)`)
  const head = await source.readRange(offset, Math.min(10, size - offset))
  const varint = readVarint(head)
  if (!varint || varint.value === 0) throw new CarReadError(`no CAR section starts at byte offset ${offset} (no valid length varint there)`, { blocks: 0, offset })
  if (varint.value > maxBlockSize + 4096 || offset + varint.size + varint.value > size) throw new CarReadError(`the section at byte offset ${offset} claims ${varint.value} bytes, more than the maximum block size or what is left of the input`, { blocks: 0, offset })
  const section = await source.readRange(offset + varint.size, varint.value)
  let cid, bytes
  try {
    [cid, bytes] = decodeSectionCid(section)
    // each its own copy: a read of bytes or a Blob may be a view of the caller's whole input (and a
    // Buffer's slice() is a view too: copied through a plain Uint8Array)
    const plain = new Uint8Array(section.buffer, section.byteOffset, section.byteLength)
    const cidLength = section.length - bytes.length
    cid = CID.decode(plain.slice(0, cidLength))
    bytes = plain.slice(cidLength)
  } catch (err) {
    throw new CarReadError(`the section at byte offset ${offset} does not start with a valid CID (${String(/** @type {any} */ (err)?.message ?? err).split('\n')[0]})`, { blocks: 0, offset })
  }
  if (missing(cid.code, cid.multihash.code)) await loadFor(cid.code, cid.multihash.code)
  return { cid, bytes, offset, hash: verifyBlock(cid, bytes) }
}

/**
 * The same bytes the CLI's `verify --out X --canonicalize` writes: non-canonical DAG-CBOR blocks in
 * canonical form, the blocks linking to them (and the roots) relinked up the DAG. The output is
 * held in memory until the run has checked it all; `out` gives it then (or rejects as `summary` does).
 *
 * @param {CarInput} input a Blob, File, Uint8Array or ArrayBuffer (read more than once)
 * @param {Omit<VerifyOptions, 'onBlock'> & { outName?: string }} [options]
 * @returns {{ out: AsyncIterable<Uint8Array>, summary: Promise<Summary> }}
 */
export function canonicalizeCar (input, options = {}) {
  const source = openSource(input, { name: options.name })
  if (!source.seekable) throw new TypeError('canonicalizeCar needs an input it can read more than once: a Blob, a File or bytes')
  const target = memoryTarget(options.outName ?? 'canonicalized.car')
  const { onBlock, ...rest } = /** @type {VerifyOptions} */ (options)
  const summary = runVerify(source, rest, { output: target, canonicalize: true })
  summary.catch(() => {}) // handled by whoever awaits summary or reads out
  return {
    summary,
    out: (async function * () {
      const s = await summary
      if (s.output?.written === false) throw new ToolError(`nothing was written: the run did not pass (result ${s.result}; the summary lists its problems)`)
      yield * target.chunks()
    })()
  }
}

/**
 * The AT Protocol repository check (`repo verify --json`'s object): the signed commit, the MST,
 * every record. With didKey (did:key:z...) or didDocument (the account's DID document, parsed
 * JSON), the commit's signature is checked; without, it is not.
 *
 * @param {CarInput} input
 * @param {{ didKey?: string, didDocument?: object, name?: string, maxBlockSize?: number, records?: boolean,
 *   onFault?: (fault: import('./atproto/mst-walk.js').Fault) => void,
 *   onRecord?: (entry: import('./atproto/mst-walk.js').Entry, record: any) => void }} [options]
 * @returns {Promise<import('./atproto/check-repo.js').RepoSummary>}
 */
export async function checkRepo (input, options = {}) {
  const [{ readBlocks }, { checkRepo: check }, { parseDidKey, keyFromDidDocument }] = await Promise.all([
    import('./atproto/blocks.js'), import('./atproto/check-repo.js'), import('./atproto/did-key.js')])
  const key = options.didKey !== undefined
    ? { key: parseDidKey(options.didKey), did: null }
    : options.didDocument !== undefined ? keyFromDidDocument(options.didDocument, 'the DID document') : null
  await loadHasher(SHA2_256) // the MST's key heights and every block's hash
  const source = openSource(input, { name: options.name })
  try {
    const store = await readBlocks(source, { maxBlockSize: options.maxBlockSize })
    return await check(store, { input: source.name, records: options.records ?? true, key, onFault: options.onFault, onRecord: options.onRecord })
  } finally {
    await source.close()
  }
}
