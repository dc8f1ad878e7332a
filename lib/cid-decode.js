// Reading CIDs: tag 42 over a byte string holding 0x00 (a historical multibase "identity"
// prefix) followed by the binary CID (writing them is in cid-encode.js, which keeps
// multiformats out of bundles that only encode). Decoding parses the CID itself instead of
// calling CID.decode, for two reasons: strictness (CID.decode accepts non-shortest varints
// and an explicit version-0 prefix, which would not re-encode to the same bytes) and
// memory (one private copy of the CID bytes, with the multihash and digest as views of
// it, so a kept CID never pins the block it came from).

import { CID } from 'multiformats/cid'
import { Digest } from 'multiformats/hashes/digest'
import { DagCborDecodeError, count } from './errors.js'

const DAG_PB = 0x70
const SHA2_256 = 0x12

/** @type {number} position after the varint last read by readVarint */
let varintEnd = 0

/**
 * Read a shortest-form unsigned varint (at most 2^53-1) at bytes[at], before bytes[end]; -1
 * when malformed.
 *
 * @param {Uint8Array} bytes
 * @param {number} at
 * @param {number} end
 * @returns {number}
 */
function readVarint (bytes, at, end) {
  // one byte, as most are (version, codec, sha2-256, digest length)
  if (at < end && bytes[at] < 0x80) {
    varintEnd = at + 1
    return bytes[at]
  }
  let value = 0
  let scale = 1
  const stop = Math.min(end, at + 8) // a varint here takes at most 8 bytes
  for (let i = at; i < stop; i++) {
    const b = bytes[i]
    value += (b & 0x7f) * scale
    if (b < 0x80) {
      // a last byte of 0 after the first makes a longer-than-needed varint
      if ((b === 0 && i > at) || value > Number.MAX_SAFE_INTEGER) return -1
      varintEnd = i + 1
      return value
    }
    scale *= 128
  }
  return -1
}

/**
 * @param {number} offset
 * @param {string} why
 * @returns {DagCborDecodeError}
 */
function invalidCid (offset, why) {
  return new DagCborDecodeError('cid', `tag 42 does not hold exactly one valid CID: ${why}`, offset)
}

/**
 * The multihash of a decoded CID, built on first access (see `makeCid`). `this` is a CID
 * whose bytes were validated by `readCid`.
 *
 * @this {any}
 * @returns {Digest<number, number>}
 */
function lazyMultihash () {
  const bytes = this.bytes
  let start = 0
  if (this.version === 1) {
    readVarint(bytes, 0, bytes.length) // version
    readVarint(bytes, varintEnd, bytes.length) // codec
    start = varintEnd
  }
  const code = readVarint(bytes, start, bytes.length)
  const size = readVarint(bytes, varintEnd, bytes.length)
  const digest = new Digest(code, size, bytes.subarray(varintEnd), start === 0 ? bytes : bytes.subarray(start))
  setMultihash.call(this, digest)
  return digest
}

/**
 * @this {any}
 * @param {Digest<number, number>} digest
 */
function setMultihash (digest) {
  try {
    Object.defineProperty(this, 'multihash', { value: digest, writable: true, enumerable: true, configurable: true })
  } catch {} // a frozen CID keeps the getter: each access builds an equal Digest
}

const LAZY_MULTIHASH = { get: lazyMultihash, set: setMultihash, enumerable: true, configurable: true }

/**
 * A multiformats CID over `bytes` (which it owns), with the same own properties, in the same
 * order, as one made by its constructor, so it deep-equals `CID.parse` of the same string.
 * The `multihash` Digest (two more Uint8Array views) is built only when first read: a
 * decoded CID then costs about 340 bytes of heap instead of 540, and `bytes` can stay a
 * small on-heap array, since nothing reads its `.buffer`.
 *
 * @param {number} version
 * @param {number} code
 * @param {Uint8Array} bytes
 * @returns {CID}
 */
function makeCid (version, code, bytes) {
  const cid = Object.create(CID.prototype)
  cid.code = code
  cid.version = version
  Object.defineProperty(cid, 'multihash', LAZY_MULTIHASH)
  cid.bytes = bytes
  cid['/'] = bytes
  cid[Symbol.toStringTag] = 'CID'
  return cid
}

/** the codec of the CIDv1 that checkCid last accepted */
let checkedCode = 0

/**
 * Check the content of a tag 42 byte string, src[start, end): the 0x00 prefix, then exactly one
 * CID in the only form that re-encodes to the same bytes. Builds nothing (validate.js calls it
 * for every link); returns the CID's version, 0 or 1, leaving a CIDv1's codec in checkedCode.
 *
 * @param {Uint8Array} src
 * @param {number} start - offset of the 0x00 prefix byte
 * @param {number} end
 * @returns {number}
 */
export function checkCid (src, start, end) {
  if (start === end || src[start] !== 0) {
    throw new DagCborDecodeError('cid', 'tag 42 (CID) bytes must start with the 0x00 prefix', start)
  }
  const from = start + 1
  // CIDv0: a bare sha2-256 multihash
  if (end - from === 34 && src[from] === SHA2_256 && src[from + 1] === 32) return 0
  const version = readVarint(src, from, end)
  if (version !== 1) {
    throw invalidCid(from, version === 0 ? 'it starts with an explicit version 0 (CIDv0 has no version prefix)' : version === SHA2_256 ? 'a CIDv0 must be a 34-byte sha2-256 multihash' : version < 0 ? 'its version varint is missing or malformed' : `its version is ${version}; only CIDv0 and CIDv1 exist`)
  }
  const code = readVarint(src, varintEnd, end)
  if (code < 0) throw invalidCid(from, 'its codec varint is missing or malformed')
  if (readVarint(src, varintEnd, end) < 0) throw invalidCid(from, 'its multihash code varint is missing or malformed')
  const size = readVarint(src, varintEnd, end)
  if (size < 0) throw invalidCid(from, 'its digest length varint is missing or malformed')
  if (varintEnd + size !== end) {
    throw invalidCid(from, `its multihash declares a digest of ${count(size, 'byte')} but holds ${count(end - varintEnd, 'byte')}`)
  }
  checkedCode = code
  return 1
}

/**
 * Decode the content of a tag 42 byte string, src[start, end), as a CID.
 *
 * @param {Uint8Array} src - a plain Uint8Array, from toByteView
 * @param {number} start - offset of the 0x00 prefix byte
 * @param {number} end
 * @returns {CID}
 */
export function readCid (src, start, end) {
  const version = checkCid(src, start, end)
  // a copy, since callers pass src through toByteView (a subclass's slice() may be a view);
  // a CIDv0's bytes are its multihash
  const bytes = src.slice(start + 1, end)
  return version === 0 ? makeCid(0, DAG_PB, bytes) : makeCid(1, checkedCode, bytes)
}
