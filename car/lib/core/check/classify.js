// Per-block work: verify the hash, and for DAG-CBOR blocks decode strictly, re-encode, compare, classify.
// Pure functions of (codec, block): the same code runs inline and inside worker threads.
import { CID } from 'multiformats/cid'
import { PHRASES } from './phrases.js'
import { create as createDigest } from 'multiformats/hashes/digest'
import { sameBytes, firstDifference } from '../base/bytes.js'
import { verifyBlock, digestOf, digest32Matches } from './hash.js'
import { walkCbor } from '../graph/cbor-walk.js'
import { checkContent } from './codecs.js'

export const DAG_CBOR = 0x71

/**
 * A codec module as the checks take it: its encode, decode and validate in a plain object of one
 * shape. A bundle gives a module's exports as getters on an object, and V8 keeps such an object
 * as a dictionary when another module's exports took the same names in the same order first
 * (dag-cbor.js re-exports the codec's); every `codec.validate` of the per-block checks would then
 * be a generic lookup rather than a load the optimizing compiler inlines.
 *
 * @param {Codec} module
 * @returns {Codec}
 */
export function codecOf (module) {
  return { encode: module.encode, decode: module.decode, validate: module.validate }
}

/**
 * @typedef {object} Codec
 * @property {(value: any, options?: any) => Uint8Array} encode
 * @property {(bytes: Uint8Array, options?: any) => any} decode
 * @property {(bytes: Uint8Array) => { integralFloats: number }} [validate] strict decode's checks
 *   without building values (this repo's codec has it; a codec without it is decoded and re-encoded)
 *
 * @typedef {object} BlockResult
 * @property {'ok'|'mismatch'|'unverified'} hash
 * @property {'canonical'|'nonCanonical'|'invalid'} [cls] only for DAG-CBOR blocks
 * @property {'invalid'|'unknown'} [content] only for other codecs: the bytes are not what the codec says, or the codec is unknown (codecs.js)
 * @property {boolean} [lossless] a non-canonical block whose value relaxed decode reads exactly: no
 *   undefined (read as null) and no invalid UTF-8 (read as escaped text), so `verify --relaxed` accepts it
 * @property {boolean} [noCanonicalForm] a non-canonical block holding text that is not valid UTF-8:
 *   no canonical form exists, so `--canonicalize` cannot fix it
 * @property {string} [rule] rule code from the decoder error (.rule), or 'round-trip'
 * @property {string} [path] value path from the error (.path)
 * @property {number} [offset] byte offset from the error (.offset)
 * @property {string} [reason] one-line human explanation
 * @property {Uint8Array} [out] canonical bytes to write instead of the input (only with canonicalize)
 * @property {string} [newCid] CID of `out`
 * @property {string} [keptReason] why canonicalize cannot rewrite a non-canonical block (the run then fails: nothing is written)
 * @property {number} [jsFloats] canonical block holding this many float64 integers that JavaScript re-encodes as integers
 * @property {string[]} [jsFloatPaths] value paths of the first few of them
 */

/** How many value paths a block's jsFloatPaths keeps. */
export const JS_FLOAT_PATHS = 5

/**
 * "keys out of order at /Datetime (byte 412)"
 *
 * @param {any} err a DagCborDecodeError (or any Error)
 */
export function describeError (err) {
  const rule = typeof err?.rule === 'string' ? err.rule : undefined
  // the tool's phrase for each of the codec's rules (phrases.js)
  const what = (rule && PHRASES[rule]) || rule || String(err?.message ?? err)
  const where = typeof err?.path === 'string' ? ` at ${err.path || '/'}` : ''
  const at = Number.isInteger(err?.offset) ? ` (byte ${err.offset})` : ''
  return `${what}${where}${at}`
}

// With the u flag a surrogate pair is one code point, so a valid pair such as U+1F480 (\uD83D\uDC80)
// does not match; only a lone U+DC80..U+DCFF does.
const ESCAPED_BYTE = /[\uDC80-\uDCFF]/u

/**
 * True when a relaxed-decoded value holds U+DC80..U+DCFF lone surrogates, i.e. invalid UTF-8 bytes
 * escaped by the relaxed decoder; such text cannot be made valid by re-encoding.
 *
 * @param {any} v
 * @returns {boolean}
 */
export function hasEscapedBytes (v) {
  if (typeof v === 'string') return ESCAPED_BYTE.test(v)
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array || CID.asCID(v)) return false
  if (Array.isArray(v)) return v.some(hasEscapedBytes)
  for (const k in v) if (hasEscapedBytes(k) || hasEscapedBytes(v[k])) return true
  return false
}

/**
 * Write the canonical form of a relaxed-decoded value, with a CID using the block's own hash function.
 *
 * @param {Codec} codec
 * @param {CID} cid
 * @param {any} value
 * @returns {{ out: Uint8Array, newCid: string } | { keptReason: string }}
 */
function canonicalForm (codec, cid, value) {
  if (hasEscapedBytes(value)) {
    return { keptReason: 'holds invalid UTF-8 text; no canonical form exists, so --canonicalize cannot fix it' }
  }
  let out
  try {
    out = codec.encode(value)
    codec.decode(out) // the canonical form must pass a strict decode
  } catch (err) {
    return { keptReason: `cannot canonicalize (${describeError(err)}), so --canonicalize cannot fix it` }
  }
  const digest = digestOf(cid.multihash.code, out)
  if (digest === null) {
    return { keptReason: 'hash function not supported, cannot compute a new CID, so --canonicalize cannot fix it' }
  }
  const newCid = CID.create(1, cid.code, createDigest(cid.multihash.code, digest))
  return { out, newCid: newCid.toString() }
}

/**
 * The results of most blocks, shared rather than made per block (and cheap to send between
 * threads: a structured clone writes a repeated object once). Read-only: do not modify a result.
 *
 * @type {Readonly<Record<BlockResult['hash'], BlockResult>>}
 */
const HASH_ONLY = { ok: { hash: 'ok' }, mismatch: { hash: 'mismatch' }, unverified: { hash: 'unverified' } }
/** @type {Readonly<Record<BlockResult['hash'], BlockResult>>} */
const CANONICAL = { ok: { hash: 'ok', cls: 'canonical' }, mismatch: { hash: 'mismatch', cls: 'canonical' }, unverified: { hash: 'unverified', cls: 'canonical' } }

export const RAW = 0x55
export const SHA2_256 = 0x12
export const BLAKE2B_256 = 0xb220

/**
 * What the first branch of `verdict` found (`commonBranch`): COMMON, the block passes every check;
 * NOT_COMMON, it is not of the common kind (nothing was computed); HASH_OK and HASH_MISMATCH, its
 * hash was computed (and matched, or not) but it is not a common block that passes, so the other
 * branches decide, without hashing it again.
 */
export const COMMON = 0
export const NOT_COMMON = 1
export const HASH_OK = 2
export const HASH_MISMATCH = 3

/** validateCommon's answer: validate() accepted the block with no float64 integers */
export const VALID = 1
/** validateCommon's answer: validate() rejected the block, or found float64 integers in it */
export const NOT_VALID = 2

/**
 * The validation step of `commonBranch`, on its own so that a caller can take it before the
 * hashing (run/section-checks.js validates a batch's blocks first) and hand the answer back to commonBranch:
 * for a DAG-CBOR block of a kind commonBranch validates (a codec with validate(), a sha2-256 or
 * blake2b-256 digest), VALID or NOT_VALID; 0 for any other block.
 *
 * @param {Codec} codec
 * @param {number} code the CID's codec
 * @param {number} hashCode its multihash code
 * @param {Uint8Array} data the block
 * @returns {number} VALID, NOT_VALID or 0
 */
export function validateCommon (codec, code, hashCode, data) {
  if (code !== DAG_CBOR || codec.validate === undefined || (hashCode !== SHA2_256 && hashCode !== BLAKE2B_256)) return 0
  try {
    return codec.validate(data).integralFloats === 0 ? VALID : NOT_VALID
  } catch {
    return NOT_VALID // rejected: the other branches say why (classifyRejected)
  }
}

/**
 * The first branch of `verdict`, on a CID already taken apart (so that a caller holding only the
 * section's bytes, run/section-checks.js, takes it without making a CID object): the common block is a
 * CIDv1 (checked by the caller) naming DAG-CBOR or raw with a 32-byte sha2-256 or blake2b-256
 * digest, whose bytes hash to it and, DAG-CBOR, pass the codec's validate() with no float64
 * integers. Strict decode accepts exactly the canonical bytes, so a block the validating walk
 * (the same checks, no values built) accepts is canonical: decoding and re-encoding it would prove
 * nothing more.
 *
 * @param {Codec} codec
 * @param {number} code the CID's codec
 * @param {number} hashCode its multihash code (the digest's size, 32, is checked by the caller)
 * @param {Uint8Array} data the block
 * @param {Uint8Array} digest holds the CID's digest at `at`
 * @param {number} at
 * @param {number} [validated] validateCommon's answer when the caller took it already; 0 otherwise
 * @returns {number} COMMON, NOT_COMMON, HASH_OK or HASH_MISMATCH
 */
export function commonBranch (codec, code, hashCode, data, digest, at, validated = 0) {
  if (code === DAG_CBOR ? codec.validate === undefined : code !== RAW) return NOT_COMMON
  if (hashCode !== SHA2_256 && hashCode !== BLAKE2B_256) return NOT_COMMON
  if (!digest32Matches(hashCode, data, digest, at)) return HASH_MISMATCH
  if (code !== DAG_CBOR) return COMMON
  return (validated !== 0 ? validated : validateCommon(codec, code, hashCode, data)) === VALID ? COMMON : HASH_OK
}

/**
 * A block's verdict: the one function every path asks (verify's batches, inline and on worker
 * threads; the iterator's `validate`; the commands' block reports). Its first branch is the common
 * block (commonBranch), answered with a shared result; the other branches (another hash or codec,
 * a mismatch, a rejected or float-holding DAG-CBOR block) follow.
 *
 * @param {Codec} codec
 * @param {CID} cid
 * @param {Uint8Array} bytes
 * @param {{ canonicalize?: boolean }} [options]
 * @param {number} [first] what commonBranch found, for a caller that took it itself (NOT_COMMON: not taken)
 * @returns {BlockResult} shared between blocks when it is a plain verdict: do not modify it
 */
export function verdict (codec, cid, bytes, options = {}, first = -1) {
  if (first === -1) {
    const mh = cid.multihash
    first = cid.version === 1 && mh.size === 32 ? commonBranch(codec, cid.code, mh.code, bytes, mh.digest, 0) : NOT_COMMON
    if (first === COMMON) return cid.code === DAG_CBOR ? CANONICAL.ok : HASH_ONLY.ok
  }
  const hash = first === HASH_OK ? 'ok' : first === HASH_MISMATCH ? 'mismatch' : verifyBlock(cid, bytes)
  if (cid.code !== DAG_CBOR) {
    const content = checkContent(cid.code, bytes)
    return content === null ? HASH_ONLY[hash] : { hash, ...content }
  }
  if (codec.validate !== undefined) {
    // as the first branch: only a block holding float64 integers (which JavaScript re-encodes as
    // integers) and a rejected block take the paths below
    let floats
    try {
      floats = codec.validate(bytes).integralFloats
    } catch (strictErr) {
      return classifyRejected(codec, cid, bytes, hash, strictErr, options)
    }
    if (floats === 0) return CANONICAL[hash]
  }
  return roundTripBlock(codec, cid, bytes, hash, options)
}

/**
 * Decode strictly, re-encode, compare: the check for a codec without validate(), and for a block
 * holding float64 integers (their paths and the proof that they are the whole difference).
 *
 * @param {Codec} codec
 * @param {CID} cid
 * @param {Uint8Array} bytes
 * @param {BlockResult['hash']} hash
 * @param {{ canonicalize?: boolean }} options
 * @returns {BlockResult}
 */
function roundTripBlock (codec, cid, bytes, hash, options) {
  let value
  try {
    value = codec.decode(bytes)
  } catch (strictErr) {
    return classifyRejected(codec, cid, bytes, hash, strictErr, options)
  }
  let again
  try {
    again = codec.encode(value)
  } catch (err) {
    const e = /** @type {any} */ (err)
    return { hash, cls: 'invalid', rule: `encode:${e?.rule ?? 'error'}`, path: e?.path, reason: `strict decode accepted it but re-encoding threw: ${describeError(e)}` }
  }
  if (sameBytes(again, bytes)) return CANONICAL[hash]
  const floats = integralFloats(codec, bytes, again)
  if (floats) return { hash, cls: 'canonical', jsFloats: floats.count, jsFloatPaths: floats.paths }
  // The strict decoder let through something the encoder writes differently. Same hash function
  // over different bytes gives a different CID, so the CID does not round-trip either.
  const offset = firstDifference(again, bytes)
  return { hash, cls: 'nonCanonical', lossless: true, rule: 'round-trip', offset, reason: `strict decode accepted it but re-encoding differs from byte ${offset} (CID would change)` }
}

/**
 * The strict decoder accepts a float64 holding an integer (Go and Rust write 1.0 that way): those
 * bytes are canonical DAG-CBOR, but the decoded Number cannot say it was a float, so our encoder
 * writes an integer and the bytes differ. Only for such a block (strict decode fine, re-encode
 * different), walk its bytes for float64 items whose Number the encoder writes differently, splice
 * in what the encoder writes for each, and check that this explains the whole difference.
 *
 * @param {Codec} codec
 * @param {Uint8Array} bytes the block
 * @param {Uint8Array} again our re-encoding of its strict decode
 * @returns {{ count: number, paths: string[] } | null} null: the difference is not (only) such floats
 */
function integralFloats (codec, bytes, again) {
  /** @type {{ at: number, encoded: Uint8Array, path: string }[]} */
  const found = []
  try {
    walkCbor(bytes, {
      float64: (at, value, path) => {
        if (!Number.isInteger(value)) return
        const encoded = codec.encode(value) // -0 and integers past 2^53 stay floats: no difference
        if (!sameBytes(encoded, bytes.subarray(at, at + 9))) found.push({ at, encoded, path: path() })
      }
    })
  } catch {
    return null
  }
  if (found.length === 0) return null
  const asJs = new Uint8Array(bytes.length - found.reduce((n, f) => n + 9 - f.encoded.length, 0))
  let from = 0
  let to = 0
  for (const f of found) {
    asJs.set(bytes.subarray(from, f.at), to)
    to += f.at - from
    asJs.set(f.encoded, to)
    to += f.encoded.length
    from = f.at + 9
  }
  asJs.set(bytes.subarray(from), to)
  if (!sameBytes(asJs, again)) return null
  return { count: found.length, paths: found.slice(0, JS_FLOAT_PATHS).map((f) => f.path) }
}

/**
 * Strict decode threw: non-canonical if the relaxed decode accepts it, invalid otherwise.
 *
 * @param {Codec} codec
 * @param {CID} cid
 * @param {Uint8Array} bytes
 * @param {BlockResult['hash']} hash
 * @param {any} strictErr
 * @param {{ canonicalize?: boolean }} options
 * @returns {BlockResult}
 */
function classifyRejected (codec, cid, bytes, hash, strictErr, options) {
  const where = { rule: strictErr?.rule ?? 'error', path: strictErr?.path, offset: strictErr?.offset }
  let relaxedValue
  try {
    if (strictErr?.relaxable === false) throw strictErr
    relaxedValue = codec.decode(bytes, { relaxed: true })
  } catch (relaxedErr) {
    const e = /** @type {any} */ (relaxedErr)
    return { hash, cls: 'invalid', rule: e?.rule ?? 'error', path: e?.path, offset: e?.offset, reason: describeError(e) }
  }
  /** @type {BlockResult} */
  const result = { hash, cls: 'nonCanonical', lossless: readsLosslessly(bytes, relaxedValue), ...where, reason: describeError(strictErr) }
  if (hasEscapedBytes(relaxedValue)) result.noCanonicalForm = true
  if (options.canonicalize) {
    // a new CID would vouch for bytes that are not what the old CID named
    Object.assign(result, hash === 'mismatch' ? { keptReason: 'its bytes do not match its CID; not canonicalized (a new CID would vouch for them)' } : canonicalForm(codec, cid, relaxedValue))
  }
  return result
}

/**
 * Does relaxed decode read this block's value exactly? Not when it held undefined (read as null)
 * or text that is not valid UTF-8 (read as escaped text): those are outside the IPLD data model.
 * What is left (out-of-order keys, longer-than-needed integers and lengths, shorter floats) changes
 * only the form of the bytes, not the value.
 *
 * @param {Uint8Array} bytes a block relaxed decode accepted
 * @param {any} value what it read
 */
function readsLosslessly (bytes, value) {
  if (hasEscapedBytes(value)) return false
  let undefinedSeen = false
  try {
    walkCbor(bytes, { undefined: () => { undefinedSeen = true } })
  } catch {
    return false
  }
  return !undefinedSeen
}

/**
 * A block's verdict as the library's readers and verifyCar's onBlock name it.
 * @typedef {'canonical' | 'non-canonical' | 'invalid' | 'ok' | 'unknown-codec'} BlockStatus
 */

/**
 * @param {BlockResult} r
 * @returns {BlockStatus}
 */
export function statusOf (r) {
  if (r.cls) return r.cls === 'nonCanonical' ? 'non-canonical' : r.cls
  if (r.content === 'invalid') return 'invalid'
  if (r.content === 'unknown') return 'unknown-codec'
  return 'ok'
}
