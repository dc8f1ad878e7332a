// Hash verification: does a block's bytes hash to its CID's multihash?
import { sha256 } from 'multiformats/hashes/sha2'
import { identity } from 'multiformats/hashes/identity'
import { blake2b256 } from '@multiformats/blake2/blake2b'
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

/**
 * All three hashers are synchronous in Node (sha2 via node:crypto, blake2b via blakejs).
 *
 * @param {number} code
 * @param {Uint8Array} bytes
 * @returns {Uint8Array|null} digest bytes, or null when we have no hasher for `code`
 */
export function digestOf (code, bytes) {
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
  const digest = digestOf(cid.multihash.code, bytes)
  if (digest === null) return 'unverified'
  return sameBytes(digest, cid.multihash.digest) ? 'ok' : 'mismatch'
}
