// verifyCar: every check the CLI's verify makes, over any input, in this thread (or on the worker
// threads a shell adds through runVerify; canonicalize-car.js runs it with an output).
import { CID } from 'multiformats/cid'
import { openSource } from '../read/source.js'
import { uvarint, varintEnd } from '../base/varint.js'
import { statusOf } from '../check/classify.js'
import { checkOptionsObject, checkSignal, checkByteCount, checkFunction, checkBoolean, checkString } from '../base/options.js'
import { MAX_MAX_BLOCK_SIZE } from '../read/limits.js'

/**
 * @typedef {import('../read/source.js').CarInput} CarInput
 * @typedef {import('../report/summary.js').Summary} Summary
 */

const DAG_CBOR = 0x71

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
 *   waits on its input, and the input is cancelled; onBlock and onProgress are not called after it.
 *   Anything but an AbortSignal is refused (a TypeError) before the input is opened, as is any option
 *   of the wrong kind (TypeError) or out of range (RangeError: maxBlockSize from 1 byte to 1 GiB)
 */

/**
 * Every check the CLI's verify makes, in this thread; resolves to the summary object the CLI's
 * `verify --json` prints. A CAR that cannot be read to the end rejects with a CarReadError whose
 * `summary` is what was read before it; when its input itself failed (a stream that errors, a
 * read refused), an InputFailedError (a CarReadError) whose `cause` is the input's error.
 *
 * @param {CarInput} input
 * @param {VerifyOptions} [options]
 * @returns {Promise<Summary>}
 */
export async function verifyCar (input, options = {}) {
  checkVerifyOptions('verifyCar', options)
  return runVerify(openSource(input, { name: options.name }), options, {})
}

/**
 * verifyCar's and canonicalizeCar's options, checked before anything is opened: a TypeError or a
 * RangeError naming the option (a signal that is not an AbortSignal would otherwise fail only
 * once the run had started, and that run would fail again, unhandled).
 *
 * @param {string} api the call, as the message names it
 * @param {unknown} options
 * @returns {VerifyOptions}
 */
export function checkVerifyOptions (api, options) {
  const o = checkOptionsObject(api, options)
  checkString(api, 'name', o.name)
  checkString(api, 'outName', o.outName) // canonicalizeCar's (canonicalize-car.js)
  checkBoolean(api, 'relaxed', o.relaxed)
  checkBoolean(api, 'partial', o.partial)
  checkByteCount(api, 'maxBlockSize', o.maxBlockSize, MAX_MAX_BLOCK_SIZE)
  checkFunction(api, 'onProgress', o.onProgress)
  checkFunction(api, 'onBlock', o.onBlock)
  checkSignal(api, o.signal)
  return /** @type {VerifyOptions} */ (o)
}

/**
 * verifyCar for the shells: extra pipeline options (the Node entry's worker threads).
 *
 * @param {import('../read/source.js').Source} source
 * @param {VerifyOptions} options
 * @param {Partial<import('./pipeline.js').RunOptions>} extra
 */
export async function runVerify (source, options, extra) {
  /** @type {typeof import('./pipeline.js').runPipeline} */
  let runPipeline
  try {
    checkVerifyOptions('verifyCar', options)
    // the pipeline's modules are loaded by the first run, not with the library: a program that
    // only reads blocks does not load them (test/library-import.spec.js)
    ;({ runPipeline } = await import('./pipeline.js'))
  } catch (err) {
    await source.close() // a shell's source, opened before: nothing is left open
    throw err
  }
  const { relaxed = false, partial = false, maxBlockSize, onProgress, onBlock, signal } = options
  // once the signal is aborted the run rejects at once (untilAborted), while the pipeline stops only
  // at its next look at the signal: the callbacks are not called in between
  const stopped = () => signal !== undefined && signal.aborted
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
    onProgress: onProgress ? (blocks, bytes) => { if (!stopped()) onProgress(blocks, bytes) } : undefined,
    onBlock: onBlock
      ? (cidBytes, bytes, offset, index, r) => {
          if (index < next || stopped()) return
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
