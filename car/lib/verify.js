// Hash verification: does a block's bytes hash to its CID's multihash?
import crypto from 'node:crypto'
import { sha256 } from 'multiformats/hashes/sha2'
import { identity } from 'multiformats/hashes/identity'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import { createBLAKE2b } from 'hash-wasm'
import { sameBytes } from './bytes.js'

/** @typedef {import('multiformats').MultihashHasher<number>} Hasher */

/** Hashers we verify with; any other multihash code is reported "unverified", never guessed. */
/** @type {Map<number, { name: string, hasher: { digest: (bytes: Uint8Array) => any } }>} */
export const hashers = new Map([
  [sha256.code, { name: 'sha2-256', hasher: sha256 }],
  [identity.code, { name: 'identity', hasher: identity }],
  [blake2b256.code, { name: 'blake2b-256', hasher: blake2b256 }]
])

/**
 * @param {number} code multihash code
 * @returns {string}
 */
export function hashName (code) {
  return hashers.get(code)?.name ?? `0x${code.toString(16)}`
}

const SHA2_256 = sha256.code
const IDENTITY = identity.code
const BLAKE2B_256 = blake2b256.code

// blake2b-256 (every Filecoin block) through hash-wasm's WebAssembly build, many times faster than
// blakejs, which @multiformats/blake2 uses; one instance, reset per block (all calls are synchronous)
const blake2b256Wasm = await createBLAKE2b(256)

/** @param {Uint8Array} bytes */
function blake2b256Bytes (bytes) {
  blake2b256Wasm.init()
  blake2b256Wasm.update(bytes)
  return blake2b256Wasm.digest('binary')
}

/**
 * sha2-256 through node:crypto's one-shot hash() (no Hash object, no multihash wrapper); a Buffer,
 * the same bytes multiformats' sha256.digest() gives. Node before 20.12 has no hash(): createHash.
 *
 * @type {(bytes: Uint8Array) => Uint8Array}
 */
const sha256Bytes = typeof crypto.hash === 'function'
  ? (bytes) => /** @type {Buffer} */ (crypto.hash('sha256', bytes, 'buffer'))
  : (bytes) => crypto.createHash('sha256').update(bytes).digest()

/**
 * All three hashers are synchronous (sha2 via node:crypto, blake2b-256 via hash-wasm, the others
 * through their multiformats hasher).
 *
 * @param {number} code
 * @param {Uint8Array} bytes
 * @returns {Uint8Array|null} digest bytes, or null when we have no hasher for `code`
 */
export function digestOf (code, bytes) {
  if (code === SHA2_256) return sha256Bytes(bytes)
  if (code === BLAKE2B_256) return blake2b256Bytes(bytes)
  const entry = hashers.get(code)
  if (!entry) return null
  const d = /** @type {import('multiformats').MultihashDigest} */ (entry.hasher.digest(bytes))
  return d.digest
}

/**
 * @param {import('multiformats').CID} cid
 * @param {Uint8Array} bytes
 * @returns {'ok'|'mismatch'|'unverified'}
 */
export function verifyBlock (cid, bytes) {
  const mh = cid.multihash
  // identity: the digest is the data itself, compared without copying it
  const digest = mh.code === IDENTITY ? bytes : digestOf(mh.code, bytes)
  if (digest === null) return 'unverified'
  return sameBytes(digest, mh.digest) ? 'ok' : 'mismatch'
}
