// Stage 6: what the writers check before writing: a root or a block's CID (multiformats takes it as
// a CID, CID.asCID, as @ipld/car checks, and its bytes are one CID, as this library's reader will
// read them back), a block's bytes against its CID's hash (blockHashProblem: what the readers would
// refuse), and their options' types and ranges.
import { CID } from 'multiformats/cid'
import { sha2, blake2 } from '#modules-now'
import { digest32Matches, digestOf, digestVerdict, hashName, hasherMissing, loadHasher } from '../check/hash.js'
import { sha256Matches } from '../check/sha256-js.js'
import { firstDifference, sameBytes, toHex } from '../base/bytes.js'
import { MIN_TRUNCATED_DIGEST } from '../read/limits.js'

/**
 * Why these bytes are not one well-formed CID, or null: a CIDv0 (a bare 34-byte sha2-256
 * multihash) or a CIDv1 (version 1, codec, multihash code, digest length, digest; varints in their
 * shortest form), and nothing after it, with the version and codec the object claims.
 *
 * @param {CID} cid
 * @returns {string | null}
 */
function cidProblem (cid) {
  const bytes = cid.bytes
  if (bytes.length === 34 && bytes[0] === 0x12 && bytes[1] === 0x20) {
    return cid.version === 0 && cid.code === 0x70 ? null : `its bytes are a CIDv0's but it claims version ${cid.version}, codec ${cid.code}`
  }
  let at = 0
  /** @returns {number} the varint at `at`, -1 when malformed, cut short or not in its shortest form */
  const varint = () => {
    let value = 0
    for (let i = 0, scale = 1; i < 9 && at < bytes.length; i++, scale *= 128) {
      const b = bytes[at++]
      value += (b & 0x7f) * scale
      if (b < 0x80) return b === 0 && i > 0 ? -1 : value
    }
    return -1
  }
  const version = varint()
  if (version !== 1) return version < 0 ? 'its version varint is malformed' : `its bytes start with version ${version}; only a CIDv1 has a version byte`
  const code = varint()
  if (code < 0 || varint() < 0) return 'its codec or multihash code varint is malformed'
  const size = varint()
  if (size < 0) return 'its digest length varint is malformed'
  if (at + size !== bytes.length) return `its multihash declares a ${size}-byte digest but ${bytes.length - at} bytes follow`
  if (cid.version !== 1 || cid.code !== code) return `its bytes are a CIDv1 of codec ${code} but it claims version ${cid.version}, codec ${cid.code}`
  return null
}

/**
 * The value as a CID, or why it is not one.
 *
 * @param {unknown} value
 * @returns {CID | string}
 */
export function asCid (value) {
  /** @type {CID | null} */
  let cid = null
  try {
    cid = CID.asCID(value)
  } catch (err) {
    return `a CID-like object multiformats cannot read (${/** @type {Error} */ (err)?.message})`
  }
  if (!cid) return value === null ? 'null' : Array.isArray(value) ? 'an array' : value instanceof Uint8Array ? 'a Uint8Array, not a CID' : typeof value === 'object' ? 'an object that is not a CID' : `${typeof value} ${JSON.stringify(value)}`
  if (!(cid.bytes instanceof Uint8Array)) return 'a CID without bytes'
  const problem = cidProblem(cid)
  return problem === null ? cid : `a CID whose bytes are not one (${problem})`
}

const SHA2_256 = 0x12
const BLAKE2B_256 = 0xb220
const IDENTITY = 0x00
/** sha256-js.js hashes less than this (its bit length is kept in 32 bits) */
const JS_SHA256_LIMIT = 0x20000000

/**
 * Why `bytes` is not the block of `cid`, or null when it is, or when `cid`'s hash is one this library
 * does not compute (written unchecked, as @ipld/car writes every block). The readers compute
 * sha2-256, blake2b-256 and identity (check/hash.js) and refuse a block that does not match; so does
 * this, synchronously (CarBufferWriter's write is): with the installed hasher where there is one,
 * else sha2-256 in plain JS (sha256-js.js) and blake2b-256 from @noble/hashes, while the faster one
 * is loaded for the blocks after (as the readers' checkBlockNow does).
 *
 * @param {CID} cid
 * @param {Uint8Array} bytes
 * @returns {string | null}
 */
export function blockHashProblem (cid, bytes) {
  const { code, digest: expected } = cid.multihash
  if (code === IDENTITY) {
    if (sameBytes(bytes, expected)) return null
    return `identity: the CID holds ${expected.length} bytes, the block is ${bytes.length}${expected.length === bytes.length ? `, differing from byte ${firstDifference(bytes, expected)}` : ''} (an identity CID's digest is the block itself)`
  }
  if (code !== SHA2_256 && code !== BLAKE2B_256) return null
  const name = hashName(code)
  if (expected.length > 32) return `its ${name} digest is ${expected.length} bytes long; ${name}'s is 32 bytes`
  if (expected.length < 32) {
    // a truncated multihash: the readers check its prefix, or, under MIN_TRUNCATED_DIGEST bytes,
    // call it unverified; such a block is written unchecked, as one of a hash not computed here is
    if (expected.length < MIN_TRUNCATED_DIGEST) return null
    const full = slowDigest(code, bytes)
    if (digestVerdict(code, expected, full) === 'ok') return null
    return `the CID's ${name} digest (truncated to ${expected.length} bytes) is ${toHex(expected)}, but the ${bytes.length} bytes given hash to ${toHex(full.subarray(0, expected.length))}...`
  }
  if (matches32(code, bytes, expected)) return null
  return `the CID's ${name} digest is ${toHex(expected)}, but the ${bytes.length} bytes given hash to ${toHex(slowDigest(code, bytes))}`
}

/**
 * @param {number} code sha2-256 or blake2b-256
 * @param {Uint8Array} bytes
 * @param {Uint8Array} expected 32 bytes
 */
function matches32 (code, bytes, expected) {
  if (!hasherMissing(code)) return digest32Matches(code, bytes, expected, 0)
  // not loaded: this block hashed now in JavaScript, the loaded hasher for the ones after
  loadHasher(code).catch(() => {})
  if (code === SHA2_256 && bytes.length < JS_SHA256_LIMIT) return sha256Matches(bytes, expected, 0)
  return sameBytes(slowDigest(code, bytes), expected)
}

/**
 * The digest itself: for a message, or where no faster way is at hand.
 *
 * @param {number} code sha2-256 or blake2b-256
 * @param {Uint8Array} bytes
 * @returns {Uint8Array}
 */
function slowDigest (code, bytes) {
  if (!hasherMissing(code)) return /** @type {Uint8Array} */ (digestOf(code, bytes))
  // @noble/hashes, from #modules-now: in Node loaded at its first use, not at start-up
  return code === SHA2_256 ? sha2().sha256(bytes) : blake2().blake2b(bytes, { dkLen: 32 })
}

/**
 * A value as an error message shows it: its type, and what it is where that is short.
 *
 * @param {unknown} value
 * @returns {string}
 */
export function describeValue (value) {
  if (value === null || value === undefined) return String(value)
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${value}`
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`
  if (Array.isArray(value)) return 'an array'
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`
  return typeof value === 'object' ? `an object (${Object.prototype.toString.call(value).slice(8, -1)})` : `a ${typeof value}`
}

/**
 * An options argument: undefined (none), or an object; a TypeError otherwise.
 *
 * @template {object} T
 * @param {T | undefined} options
 * @param {string} where e.g. "createWriter()"
 * @returns {T | Record<string, never>}
 */
export function optionsObject (options, where) {
  if (options === undefined) return {}
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${where}'s options must be an object: it is ${describeValue(options)}`)
  }
  return options
}

/**
 * A true-or-false option (undefined: the default); a TypeError for anything else, which would
 * otherwise be taken as truthy or falsy without a word.
 *
 * @param {unknown} value
 * @param {string} name e.g. "createWriter()'s verifyHashes"
 * @param {boolean} byDefault
 * @returns {boolean}
 */
export function booleanOption (value, name, byDefault) {
  if (value === undefined) return byDefault
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be true or false: it is ${describeValue(value)}`)
  return value
}

/**
 * A whole number from `min` to `max` (undefined: the default): a TypeError for what is not a number,
 * a RangeError for NaN, an infinity, a fraction or a number out of range, each of which would
 * otherwise put bytes at the wrong place or lose them.
 *
 * @param {unknown} value
 * @param {string} name e.g. "createWriter()'s headerSize"
 * @param {number} byDefault
 * @param {number} max
 * @param {string} [why] what sets `max`, said after it
 * @returns {number}
 */
export function wholeNumberOption (value, name, byDefault, max, why = '') {
  if (value === undefined) return byDefault
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number: it is ${describeValue(value)}`)
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new RangeError(`${name} must be a whole number${max === Infinity ? '' : ` of bytes from 0 to ${max}${why}`}: it is ${value}`)
  }
  return value
}
