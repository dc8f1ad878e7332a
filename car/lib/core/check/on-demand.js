// What checking a CAR loads when its blocks need it, not at start-up: blake2b-256's WebAssembly
// (hash.js) at the first blake2b-256 block, @ipld/dag-pb and @ipld/dag-json (codecs.js) at the
// first block of theirs. DAG-CBOR, raw, json, sha2-256 and identity need nothing more. Blocks read
// one by one (read/section-reader.js's blocks(), a block read again by offset) have what they need loaded before
// they are handed out; a batch is checked at once, and if it meets a block whose hasher or decoder
// is not loaded (NotLoadedError), that is loaded and the batch checked again from its start: at
// most once per hasher and decoder in a thread, and nothing to do per block once all is loaded.
import { loadHasher, hasherMissing } from './hash.js'
import { loadCodec, codecMissing } from './codecs.js'
import { NotLoadedError } from '../base/errors.js'

/**
 * Does checking a block with this codec and multihash code wait for a load?
 *
 * @param {number} codec
 * @param {number} hash
 */
export function missing (codec, hash) {
  return codecMissing(codec) || hasherMissing(hash)
}

/**
 * @param {number} codec
 * @param {number} hash
 * @returns {Promise<void>}
 */
export async function loadFor (codec, hash) {
  await Promise.all([loadCodec(codec), loadHasher(hash)])
}

/**
 * What a reader's `ready` option takes (read/open-car.js): nothing when a block of this codec and
 * multihash can be checked now, else the load that makes it so.
 *
 * @param {number} codec
 * @param {number} hash
 * @returns {Promise<void> | undefined}
 */
export function readyFor (codec, hash) {
  return missing(codec, hash) ? loadFor(codec, hash) : undefined
}

/**
 * Run `check`, a synchronous check of a batch that has no effect but its result (so it can run
 * again); when it meets a block whose hasher or decoder is not loaded, load that and run it again.
 *
 * @template T
 * @param {() => T} check
 * @returns {T | Promise<T>} a Promise only when something had to be loaded
 */
export function checkLoading (check) {
  try {
    return check()
  } catch (err) {
    if (!(err instanceof NotLoadedError)) throw err
    const { kind, code } = err
    return (kind === 'hash' ? loadHasher(code) : loadCodec(code)).then(() => {
      if (kind === 'hash' ? hasherMissing(code) : codecMissing(code)) throw new Error(`loading what ${kind} 0x${code.toString(16)} needs did not make it available`)
      return checkLoading(check)
    })
  }
}
