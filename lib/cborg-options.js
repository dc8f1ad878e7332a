// Options objects for code that calls cborg's own encode/decode/decodeFirst/encodedLength,
// as @ipld/dag-cbor exports them. They make cborg write what our encoder writes; see the
// README for what cborg's decoder checks less strictly than ours (key order, float width,
// UTF-8 validity). Imported only from index.js, so a bundle that does not use them does not
// carry them. Both objects are frozen, down to their typeEncoders and tags: they are
// shared by every caller, so one caller's change would silently change everyone's encoding.
// Spread them to derive your own: `{ ...decodeOptions, tags: [...] }`.
import { cidBytes, CID_TAG } from './cid-encode.js'
import { readCid } from './cid-decode.js'
import { toByteView } from './byte-view.js'
import { loneSurrogateDetail } from './utf8.js'
import { DagCborEncodeError, DagCborDecodeError, named } from './errors.js'

// cborg's typeEncoders return cborg Tokens. cborg tells a token's type by its fields, not by
// identity (its Type.equals compares major and name, so that two copies of its module work
// together), so these copies of the three types our hooks return are read as cborg's own.
// Importing Token and Type from 'cborg' instead would put cborg's whole encoder and decoder
// (its entry module imports both) into every bundle that keeps these options, such as one that
// uses `import * as dagCbor` as a codec. test/cborg-options.spec.js holds them to cborg's.
/** @typedef {import('cborg').Token} Token */
export const TAG_TYPE = Object.freeze({ major: 6, majorEncoded: 6 << 5, name: 'tag', terminal: false })
export const BYTES_TYPE = Object.freeze({ major: 2, majorEncoded: 2 << 5, name: 'bytes', terminal: true })
export const FLOAT_TYPE = Object.freeze({ major: 7, majorEncoded: 7 << 5, name: 'float', terminal: true })

/**
 * A token of the shape cborg's Token constructor makes.
 *
 * @param {object} type - one of the types above
 * @param {unknown} value
 * @returns {Token}
 */
function token (type, value) {
  return /** @type {Token} */ (/** @type {unknown} */ ({ type, value, encodedLength: undefined, encodedBytes: undefined, byteValue: undefined }))
}

/**
 * Finish an error raised inside a cborg hook: cborg tells its hooks neither the value path nor
 * the byte offset, so the message says so instead of pointing at the root.
 *
 * @template {DagCborEncodeError|DagCborDecodeError} E
 * @param {E} error
 * @returns {E}
 */
function unlocated (error) {
  error.located = false
  error.finish()
  return error
}

/**
 * The same error, with the same rule, as our own encoder throws.
 *
 * @param {import('./errors.js').RuleName} rule
 * @param {string} detail
 * @returns {never}
 */
function reject (rule, detail) {
  throw unlocated(new DagCborEncodeError(rule, detail))
}

/**
 * @param {any} value
 * @returns {Token[]|null}
 */
function objectEncoder (value) {
  const cid = cidBytes(value)
  if (cid === null) return null
  const bytes = new Uint8Array(cid.length + 1)
  bytes.set(cid, 1) // the 0x00 prefix
  return [token(TAG_TYPE, CID_TAG), token(BYTES_TYPE, bytes)]
}

/**
 * @param {number} value
 * @returns {Token[]|null}
 */
function numberEncoder (value) {
  if (value !== value) reject('non-finite-float', 'NaN is not in the IPLD data model') // eslint-disable-line no-self-compare
  if (value === Infinity || value === -Infinity) reject('non-finite-float', `${value} is not in the IPLD data model`)
  // -0 is written as float64 -0.0, as our encoder does (cborg would write the integer 0)
  if (value === 0 && 1 / value < 0) return [token(FLOAT_TYPE, value)]
  return null
}

/**
 * @param {string} value
 * @returns {null}
 */
function stringEncoder (value) {
  const detail = loneSurrogateDetail(value, false)
  if (detail !== '') reject('utf8', detail)
  return null
}

/**
 * @param {Map<unknown, unknown>} map
 * @returns {null}
 */
function mapEncoder (map) {
  for (const key of map.keys()) {
    if (typeof key !== 'string') reject('map-key-type', `a Map key of type ${typeof key}; IPLD map keys are strings`)
  }
  return null
}

/**
 * @param {unknown} _value
 * @param {string} type
 * @returns {never}
 */
function typedArrayEncoder (_value, type) {
  return reject('type', `${named(type)} is not in the IPLD data model; bytes must be a Uint8Array`)
}

/** @type {Record<string, any>} */
const typeEncoders = {
  Object: objectEncoder,
  number: numberEncoder,
  string: stringEncoder,
  Map: mapEncoder,
  undefined: () => reject('undefined', 'undefined is not in the IPLD data model'),
  DataView: typedArrayEncoder
}
for (const type of 'Uint8Clamped Uint16 Uint32 Int8 Int16 Int32 BigUint64 BigInt64 Float32 Float64'.split(' ')) {
  typeEncoders[`${type}Array`] = typedArrayEncoder
}

/**
 * Options for cborg's `encode` and `encodedLength` that produce our encoder's bytes. Typed as
 * cborg's own EncodeOptions so that TypeScript callers can pass it to cborg (frozen all the same).
 * @type {import('cborg').EncodeOptions}
 */
export const encodeOptions = Object.freeze({
  float64: true,
  typeEncoders: Object.freeze(typeEncoders)
})

/**
 * @param {() => unknown} decodeContent
 * @returns {import('multiformats/cid').CID}
 */
function cidDecoder (decodeContent) {
  const bytes = decodeContent()
  if (!(bytes instanceof Uint8Array)) throw unlocated(new DagCborDecodeError('cid', 'tag 42 (CID) must hold a byte string', -1))
  const plain = toByteView(bytes) // readCid copies with slice(), a view on a subclass
  try {
    return readCid(plain, 0, plain.length)
  } catch (error) {
    // its offset counts from the CID's own bytes, not from cborg's input
    throw error instanceof DagCborDecodeError ? unlocated(new DagCborDecodeError(error.rule, error.detail, -1)) : error
  }
}

const tags = /** @type {any[]} */ ([])
tags[CID_TAG] = cidDecoder

/**
 * Options for cborg's `decode` and `decodeFirst`, as strict as cborg can be made. Typed as cborg's
 * own DecodeOptions (its `tags` is a mutable array type) so that TypeScript callers can pass it.
 * @type {import('cborg').DecodeOptions}
 */
export const decodeOptions = /** @type {import('cborg').DecodeOptions} */ (Object.freeze({
  allowIndefinite: false,
  allowUndefined: false,
  coerceUndefinedToNull: false,
  allowNaN: false,
  allowInfinity: false,
  allowBigInt: true,
  strict: true,
  useMaps: false,
  rejectDuplicateMapKeys: true,
  tags: Object.freeze(tags)
}))
