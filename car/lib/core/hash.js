// Hash verification: does a block's bytes hash to its CID's multihash?
import crypto from 'node:crypto'
import { createRequire } from 'node:module'
import { sha256 } from 'multiformats/hashes/sha2'
import { identity } from 'multiformats/hashes/identity'
import { sameBytes } from './bytes.js'
import { NotLoadedError } from './errors.js'

const SHA2_256 = sha256.code
const IDENTITY = identity.code
const BLAKE2B_256 = 0xb220

/** The hashes we verify with; any other multihash code is reported "unverified", never guessed. */
const hashNames = new Map([[SHA2_256, 'sha2-256'], [IDENTITY, 'identity'], [BLAKE2B_256, 'blake2b-256']])

/**
 * @param {number} code multihash code
 * @returns {string}
 */
export function hashName (code) {
  return hashNames.get(code) ?? `0x${code.toString(16)}`
}

// blake2b-256 (every Filecoin block) through hash-wasm's WebAssembly build, many times faster than
// blakejs, which @multiformats/blake2 uses; one instance, reset per block (all calls are synchronous).
// Its blake2b build alone: the package's entry point carries every algorithm's WebAssembly, which
// each worker thread would load and compile before its first block. Loaded and compiled by
// loadHasher when the first blake2b-256 block is met (on-demand.js), not at start-up: a CAR hashed
// with sha2-256 alone never needs it.
/** @type {Awaited<ReturnType<typeof import('hash-wasm').createBLAKE2b>> | null} */
let blake2b256Wasm = null
/** @type {Promise<void> | null} */
let blake2bLoading = null

/**
 * Load what hashing with `code` needs beyond what this module loads itself (blake2b-256's
 * WebAssembly); resolves at once for any other code.
 *
 * @param {number} code multihash code
 * @returns {Promise<void>}
 */
export function loadHasher (code) {
  if (code !== BLAKE2B_256 || blake2b256Wasm) return Promise.resolve()
  blake2bLoading ??= (async () => {
    const { createBLAKE2b } = /** @type {typeof import('hash-wasm')} */ (createRequire(import.meta.url)('hash-wasm/dist/blake2b.umd.min.js'))
    blake2b256Wasm = await createBLAKE2b(256)
  })()
  return blake2bLoading
}

/** Load every hasher loadHasher loads: for input whose CIDs come with no block to read first (import's lines). */
export function loadHashers () {
  return loadHasher(BLAKE2B_256)
}

/**
 * Does hashing with `code` wait for loadHasher?
 *
 * @param {number} code multihash code
 */
export function hasherMissing (code) {
  return code === BLAKE2B_256 && blake2b256Wasm === null
}

/** @param {Uint8Array} bytes */
function blake2b256Bytes (bytes) {
  if (blake2b256Wasm === null) throw new NotLoadedError('hash', BLAKE2B_256) // on-demand.js loads it and checks again
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
 * sha2-256 of `bytes` as a 'binary' (latin1) string, one character per digest byte: a string is made on V8's
 * heap, where a Buffer takes a native allocation that the garbage collector must then track and
 * sweep, once per block.
 *
 * @type {(bytes: Uint8Array) => string}
 */
const sha256Latin1 = typeof crypto.hash === 'function'
  ? (bytes) => crypto.hash('sha256', bytes, 'binary')
  : (bytes) => crypto.createHash('sha256').update(bytes).digest('binary')

/**
 * Does `bytes` hash to the 32-byte digest at expected[at]? For the multihash codes digestOf knows
 * that have 32-byte digests (sha2-256, blake2b-256).
 *
 * @param {number} code
 * @param {Uint8Array} bytes
 * @param {Uint8Array} expected
 * @param {number} at
 */
export function digest32Matches (code, bytes, expected, at) {
  if (code === SHA2_256) {
    const digest = sha256Latin1(bytes)
    for (let k = 0; k < 32; k++) if (digest.charCodeAt(k) !== expected[at + k]) return false
    return true
  }
  const digest = digestOf(code, bytes)
  if (digest === null || digest.length !== 32) return false
  for (let k = 0; k < 32; k++) if (digest[k] !== expected[at + k]) return false
  return true
}

/**
 * All three are synchronous: sha2-256 through node:crypto, blake2b-256 through hash-wasm, identity
 * through multiformats.
 *
 * @param {number} code
 * @param {Uint8Array} bytes
 * @returns {Uint8Array|null} digest bytes, or null when we have no hasher for `code`
 */
export function digestOf (code, bytes) {
  if (code === SHA2_256) return sha256Bytes(bytes)
  if (code === BLAKE2B_256) return blake2b256Bytes(bytes)
  if (code === IDENTITY) return identity.digest(bytes).digest
  return null
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
