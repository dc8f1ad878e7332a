// Options objects for code that calls cborg's own encode/decode/decodeFirst/encodedLength,
// as @ipld/dag-cbor exports them. They make cborg write what our encoder writes; see the
// README for what cborg's decoder checks less strictly than ours (key order, float width,
// integral float64 values, UTF-8 validity). Imported only from index.js, so a bundle that
// does not use them does not carry them (or cborg).

import { Token, Type } from 'cborg'
import { cidBytes, CID_TAG } from './cid-encode.js'
import { readCid } from './cid-decode.js'
import { toByteView } from './byte-view.js'
import { loneSurrogateIndex } from './utf8.js'

/**
 * @param {string} message
 * @returns {never}
 */
function reject (message) {
  throw new Error(`DAG-CBOR encode: ${message}`)
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
  return [new Token(Type.tag, CID_TAG), new Token(Type.bytes, bytes)]
}

/**
 * @param {number} value
 * @returns {Token[]|null}
 */
function numberEncoder (value) {
  if (value !== value) reject('NaN is not in the IPLD data model') // eslint-disable-line no-self-compare
  if (value === Infinity || value === -Infinity) reject(`${value} is not in the IPLD data model`)
  // -0 is written as float64 -0.0, as our encoder does (cborg would write the integer 0)
  if (value === 0 && 1 / value < 0) return [new Token(Type.float, value)]
  return null
}

/**
 * @param {string} value
 * @returns {null}
 */
function stringEncoder (value) {
  if (loneSurrogateIndex(value) >= 0) reject('string has a lone surrogate; it has no UTF-8 form')
  return null
}

/**
 * @param {Map<unknown, unknown>} map
 * @returns {null}
 */
function mapEncoder (map) {
  for (const key of map.keys()) {
    if (typeof key !== 'string') reject('Map keys must be strings')
  }
  return null
}

/**
 * @param {unknown} _value
 * @param {string} type
 * @returns {never}
 */
function typedArrayEncoder (_value, type) {
  return reject(`${type} is not in the IPLD data model; bytes must be a Uint8Array`)
}

/** @type {Record<string, any>} */
const typeEncoders = {
  Object: objectEncoder,
  number: numberEncoder,
  string: stringEncoder,
  Map: mapEncoder,
  undefined: () => reject('`undefined` is not in the IPLD data model'),
  DataView: typedArrayEncoder
}
for (const type of 'Uint8Clamped Uint16 Uint32 Int8 Int16 Int32 BigUint64 BigInt64 Float32 Float64'.split(' ')) {
  typeEncoders[`${type}Array`] = typedArrayEncoder
}

/** Options for cborg's `encode` and `encodedLength` that produce our encoder's bytes. */
export const encodeOptions = {
  float64: true,
  typeEncoders
}

/**
 * @param {() => unknown} decodeContent
 * @returns {import('multiformats/cid').CID}
 */
function cidDecoder (decodeContent) {
  const bytes = decodeContent()
  if (!(bytes instanceof Uint8Array)) throw new Error('DAG-CBOR decode: tag 42 (CID) must wrap a byte string')
  const plain = toByteView(bytes) // readCid copies with slice(), a view on a subclass
  return readCid(plain, 0, plain.length)
}

/** Options for cborg's `decode` and `decodeFirst`, as strict as cborg can be made. */
export const decodeOptions = {
  allowIndefinite: false,
  allowUndefined: false,
  coerceUndefinedToNull: false,
  allowNaN: false,
  allowInfinity: false,
  allowBigInt: true,
  strict: true,
  useMaps: false,
  rejectDuplicateMapKeys: true,
  tags: /** @type {any[]} */ ([])
}
decodeOptions.tags[CID_TAG] = cidDecoder
