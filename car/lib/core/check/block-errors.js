// A block that fails its check, as the library's readers throw it: CarBlockError, and the two
// checks that throw it, one for a verdict already made and one that hashes the block now. Every
// reader that hands out blocks throws these: the block iterator (api/car-block-iterator.js), the
// in-memory readers (api/car-buffer-reader.js, api/car-reader.js) and the Node shell's readRaw and
// CarIndexedReader.
import { verifyBlock, digestVerdict, loadHasher, unverifiedReason, digest32Matches, hasherMissing } from './hash.js'
import { NotLoadedError } from '../base/errors.js'

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {{ verifyHashes?: boolean, allowUnverified?: boolean }} BlockCheckOptions
 *   verifyHashes: check the block against its CID (default true); allowUnverified: take a block whose
 *   hash function this library does not compute, unchecked (default false)
 * @typedef {(code: number, bytes: Uint8Array) => Uint8Array | null} HashNow a synchronous digest for a
 *   multihash code whose hasher is not loaded yet (null: none)
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
 * The CarBlockError a block's hash check gives, if any.
 *
 * @param {CID} cid
 * @param {number} offset its section's byte offset
 * @param {'ok' | 'mismatch' | 'unverified'} hash
 * @param {boolean} allowUnverified
 */
export function throwIfHashFailed (cid, offset, hash, allowUnverified) {
  if (hash === 'mismatch') throw new CarBlockError(`the block at byte offset ${offset} does not hash to its CID ${cid}`, { offset, cid, kind: 'hash-mismatch' })
  if (hash === 'unverified' && !allowUnverified) throw new CarBlockError(`the block at byte offset ${offset} has CID ${cid}: ${unverifiedReason(cid)}; pass allowUnverified to read it unchecked`, { offset, cid, kind: 'unverified' })
}

/**
 * A synchronous check of a block against its CID: what CarBlockIterator throws, it throws.
 *
 * @param {CID} cid
 * @param {Uint8Array} bytes
 * @param {number} offset
 * @param {BlockCheckOptions} options
 * @param {HashNow} [hashNow]
 */
export function checkBlockNow (cid, bytes, offset, { verifyHashes = true, allowUnverified = false }, hashNow) {
  if (!verifyHashes) return
  // the common block (a 32-byte digest, its hasher loaded) compared as it is hashed, with no digest
  // array made; anything else, and a mismatch, through verifyBlock, which says what it is
  const mh = cid.multihash
  if (mh.size === 32 && mh.code !== 0 && !hasherMissing(mh.code) && digest32Matches(mh.code, bytes, mh.digest, 0)) return
  /** @type {'ok' | 'mismatch' | 'unverified'} */
  let result
  try {
    result = verifyBlock(cid, bytes)
  } catch (err) {
    if (!(err instanceof NotLoadedError)) throw err
    // the loaded hasher for the next blocks and reads; this one now, the slower way, if there is one
    loadHasher(err.code).catch(() => {})
    const digest = hashNow?.(cid.multihash.code, bytes)
    if (digest) result = digestVerdict(cid.multihash.code, cid.multihash.digest, digest)
    else throw new Error(`the block at byte offset ${offset} has CID ${cid}, whose hash function (0x${cid.multihash.code.toString(16)}) is not loaded yet: await CarBufferReader.ready() once before reading synchronously`)
  }
  throwIfHashFailed(cid, offset, result, allowUnverified)
}
