// Hash verification: does a block's bytes hash to its CID's multihash?
// The hashers are injectable (installHashers): this module installs the platform's as it loads,
// `#hashers` in the package's `imports` map (node:crypto's sha2-256 in Node, lib/node/hashers-node.js;
// none elsewhere, lib/core/check/hashers-default.js). For a hash no one installed, loadHasher loads
// hash-wasm's WebAssembly build of it when the first block that needs it is met (on-demand.js), and
// falls back to @noble/hashes' pure-JS one where WebAssembly cannot be compiled at run time
// (workerd forbids it): slower, never a failure. hashBackends() says which one each hash uses.
import { sameBytes } from '../base/bytes.js'
import { NotLoadedError } from '../base/errors.js'
import { hashers as platformHashers } from '#hashers'
import { JS_SHA256_BYTES, MIN_TRUNCATED_DIGEST } from '../read/limits.js'
import { sha256Matches } from './sha256-js.js'

const SHA2_256 = 0x12
// identity's digest is the data itself: multiformats' identity hasher (five modules to load at
// import) is not needed to make it
const IDENTITY = 0x00
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

/**
 * @typedef {(bytes: Uint8Array) => Uint8Array} Hasher a synchronous one-shot digest
 * @typedef {'node:crypto' | 'wasm' | 'js' | 'custom'} Backend
 * @typedef {object} Hashers what installHashers takes (each optional)
 * @property {Hasher} [sha256] sha2-256
 * @property {(bytes: Uint8Array) => string} [sha256Latin1] sha2-256 as a one-char-per-byte string: a
 *   faster path for the block checks where the runtime makes such strings cheaper than byte arrays
 * @property {Hasher} [blake2b256] blake2b-256
 * @property {boolean} [jsSha256] with sha256: an input of known size (grantJsSha256) is hashed in plain JS
 *   (sha256-js.js) rather than with it while this thread has hashed fewer than JS_SHA256_BYTES that way:
 *   where loading `sha256` costs more than that (node:crypto in Node 24 and later)
 * @property {Backend} [backend] what to call them in hashBackends() (default 'custom')
 * @property {() => Promise<Hasher>} [loadBlake2b256] how to load blake2b-256 when it is first needed, instead
 *   of the core's way (the Node shell loads hash-wasm's build through require: less work than import)
 */

/** @type {Hasher | null} */
let sha256Bytes = null
/** @type {((bytes: Uint8Array) => string) | null} */
let sha256Latin1 = null
/** @type {Hasher | null} */
let blake2b256Bytes = null
/** @type {Record<'sha2-256' | 'blake2b-256', Backend | null>} */
const backends = { 'sha2-256': null, 'blake2b-256': null }
/** @type {Map<number, Promise<void>>} */
const loading = new Map()
/** @type {(() => Promise<Hasher>) | null} */
let blake2b256Loader = null
/** bytes of sha2-256 this thread may still hash in plain JS (Hashers' jsSha256) */
let jsBudget = 0
/** of those, what grantJsSha256 gave the inputs under way, taken block by block */
let jsGranted = 0

/**
 * Use these hashers from now on (in this thread): the Node shell's node:crypto, or a caller's own.
 *
 * @param {Hashers} hashers
 */
export function installHashers ({ sha256, sha256Latin1: latin1, jsSha256 = false, blake2b256, backend = 'custom', loadBlake2b256 }) {
  if (loadBlake2b256) blake2b256Loader = loadBlake2b256
  if (sha256) {
    sha256Bytes = sha256
    sha256Latin1 = latin1 ?? null
    backends['sha2-256'] = backend
    jsBudget = jsSha256 ? JS_SHA256_BYTES : 0
    jsGranted = 0
  }
  if (blake2b256) {
    blake2b256Bytes = blake2b256
    backends['blake2b-256'] = backend
  }
}

installHashers(platformHashers)

/**
 * An input of `size` bytes is about to be checked in this thread: its sha2-256 blocks are hashed in
 * plain JS if it fits in what is left of this thread's budget for that (none unless the installed
 * hashers said jsSha256), the installed hasher otherwise. A size not known (a stream): the hasher.
 *
 * @param {number | undefined} size
 */
export function grantJsSha256 (size) {
  if (size === undefined || size > jsBudget) return
  jsBudget -= size
  jsGranted += size
}

/**
 * Which implementation each hash uses now: null until it is loaded (at the first block that needs it,
 * or by loadHashers()).
 *
 * @returns {{ 'sha2-256': Backend | null, 'blake2b-256': Backend | null, identity: 'multiformats' }}
 */
export function hashBackends () {
  return { ...backends, identity: 'multiformats' }
}

/**
 * Load what hashing with `code` needs (a hasher no one installed); resolves at once for a code that
 * needs nothing or has its hasher.
 *
 * @param {number} code multihash code
 * @returns {Promise<void>}
 */
export function loadHasher (code) {
  if (!hasherMissing(code)) return Promise.resolve()
  let load = loading.get(code)
  if (!load) {
    load = code === SHA2_256 ? loadSha256() : loadBlake2b256()
    loading.set(code, load)
  }
  return load
}

/** Load every hasher loadHasher loads: for input whose CIDs come with no block to read first (import's lines). */
export function loadHashers () {
  return Promise.all([loadHasher(SHA2_256), loadHasher(BLAKE2B_256)]).then(() => {})
}

/**
 * Does hashing with `code` wait for loadHasher?
 *
 * @param {number} code multihash code
 */
export function hasherMissing (code) {
  return (code === SHA2_256 && sha256Bytes === null) || (code === BLAKE2B_256 && blake2b256Bytes === null)
}

// hash-wasm's builds of one algorithm each: its package entry carries every algorithm's
// WebAssembly, which would all be loaded and compiled before the first block. One instance per
// algorithm, reset per block (every call is synchronous).
async function loadSha256 () {
  try {
    const { createSHA256 } = unwrap(await import('hash-wasm/dist/sha256.umd.min.js'))
    const hasher = await createSHA256()
    if (sha256Bytes) return
    installHashers({ sha256: (bytes) => hasher.init().update(bytes).digest('binary'), backend: 'wasm' })
  } catch (err) {
    if (!isWasmRefused(err)) throw err
    const { sha256 } = await import('@noble/hashes/sha2.js')
    if (sha256Bytes) return
    installHashers({ sha256: (bytes) => sha256(bytes), backend: 'js' })
  }
}

async function loadBlake2b256 () {
  try {
    if (blake2b256Loader) {
      const hasher = await blake2b256Loader()
      if (!blake2b256Bytes) installHashers({ blake2b256: hasher, backend: 'wasm' })
      return
    }
    const { createBLAKE2b } = unwrap(await import('hash-wasm/dist/blake2b.umd.min.js'))
    const hasher = await createBLAKE2b(256)
    if (blake2b256Bytes) return
    installHashers({ blake2b256: (bytes) => hasher.init().update(bytes).digest('binary'), backend: 'wasm' })
  } catch (err) {
    if (!isWasmRefused(err)) throw err
    const { blake2b } = await import('@noble/hashes/blake2.js')
    if (blake2b256Bytes) return
    installHashers({ blake2b256: (bytes) => blake2b(bytes, { dkLen: 32 }), backend: 'js' })
  }
}

/**
 * A UMD build imported as a module: its exports are the default export where the runtime sees
 * CommonJS (Node, Deno, bundlers), the namespace itself elsewhere.
 *
 * @param {any} m
 * @returns {typeof import('hash-wasm')}
 */
function unwrap (m) {
  return m.default && typeof m.default === 'object' ? m.default : m
}

/**
 * A runtime that cannot compile WebAssembly at run time (no WebAssembly at all, or a CSP or an
 * embedder such as workerd that refuses code generation from bytes) rather than a bug of ours.
 *
 * @param {any} err
 */
function isWasmRefused (err) {
  if (typeof WebAssembly !== 'object') return true
  return err instanceof WebAssembly.CompileError || err instanceof WebAssembly.LinkError || err?.name === 'CompileError' ||
    /wasm|webassembly|code generation|compile/i.test(String(err?.message ?? err)) || err instanceof EvalError
}

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
    if (jsGranted !== 0 && bytes.length <= jsGranted) {
      jsGranted -= bytes.length
      return sha256Matches(bytes, expected, at)
    }
    if (sha256Latin1 !== null) {
      const digest = sha256Latin1(bytes)
      for (let k = 0; k < 32; k++) if (digest.charCodeAt(k) !== expected[at + k]) return false
      return true
    }
  }
  const digest = digestOf(code, bytes)
  if (digest === null || digest.length !== 32) return false
  for (let k = 0; k < 32; k++) if (digest[k] !== expected[at + k]) return false
  return true
}

/**
 * Synchronous, with the hasher loaded (on-demand.js sees to it; a NotLoadedError otherwise).
 *
 * @param {number} code
 * @param {Uint8Array} bytes
 * @returns {Uint8Array|null} digest bytes, or null when we have no hasher for `code`
 */
export function digestOf (code, bytes) {
  if (code === SHA2_256) {
    if (sha256Bytes === null) throw new NotLoadedError('hash', SHA2_256)
    return sha256Bytes(bytes)
  }
  if (code === BLAKE2B_256) {
    if (blake2b256Bytes === null) throw new NotLoadedError('hash', BLAKE2B_256)
    return blake2b256Bytes(bytes)
  }
  // a plain Uint8Array over the same memory, as multiformats' identity.digest(bytes).digest gives it
  if (code === IDENTITY) return bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
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
  return digestVerdict(mh.code, mh.digest, digest)
}

/**
 * A block's digest, however it was computed, against the one its CID holds: the one comparison
 * every hash check makes (verifyBlock, a reader's hasher not yet loaded, the writers).
 *
 * @param {number} code the multihash code
 * @param {Uint8Array} expected the CID's digest
 * @param {Uint8Array} digest the block's (for identity, the block itself)
 * @returns {'ok'|'mismatch'|'unverified'}
 */
export function digestVerdict (code, expected, digest) {
  if (code !== IDENTITY && expected.length < digest.length) {
    // a truncated multihash (the spec allows one; go-cid's Prefix.Sum writes them): its CID names
    // the bytes whose digest starts with it; too short a one vouches for nothing (unverifiedReason)
    if (!sameBytes(digest.subarray(0, expected.length), expected)) return 'mismatch'
    return expected.length < MIN_TRUNCATED_DIGEST ? 'unverified' : 'ok'
  }
  return sameBytes(digest, expected) ? 'ok' : 'mismatch'
}

/**
 * Why a block's hash is 'unverified' (verifyBlock), in words every report uses.
 *
 * @param {import('multiformats').CID} cid
 * @returns {string}
 */
export function unverifiedReason (cid) {
  const { code, digest } = cid.multihash
  return hashNames.has(code) && code !== IDENTITY
    ? `its ${hashName(code)} digest is cut to ${digest.length} bytes, too short to vouch for its bytes (under ${MIN_TRUNCATED_DIGEST}, as IPFS's CID check refuses)`
    : `hash function ${hashName(code)} is not one this tool computes`
}
