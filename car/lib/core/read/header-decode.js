// The CARv1 header's value from its bytes, taken or refused as @ipld/car's readHeader(reader, 1)
// takes or refuses it, with its error messages (header.js turns them into the tool's words), but
// decoded by our own codec: the reader needs neither @ipld/car nor @ipld/dag-cbor and cborg.
// @ipld/car decodes the header with @ipld/dag-cbor (cborg, strict about the shortest form of
// integers and lengths, lenient about key order, short floats, `undefined` and UTF-8), then checks
// it against its schema: a map of `roots` (a list of CIDs) and `version` (an integer), nothing else.
import { CID } from 'multiformats/cid'
import { decode } from 'dag-cbor-fast'

const NOT_SHORTEST = 'CBOR decode error: integer encoded in more bytes than necessary (strict decode)'
const NO_PREFIX = 'Invalid CID for CBOR tag 42; expected leading 0x00'
const CID_TAG = 42
/** the least argument each longer head form (additional information 24 to 27) may hold */
const SHORTEST = [24, 0x100, 0x10000, 2 ** 32]

/**
 * @param {Uint8Array} bytes the header, after its length varint
 * @returns {{ version: 1, roots: CID[] }}
 * @throws {Error} as readHeader words it: 'Invalid CAR header format', 'Invalid CAR version: N
 *   (expected 1)', 'CBOR decode error: ...', or tag 42's own ('Invalid CID for CBOR tag 42; ...')
 */
export function decodeV1Header (bytes) {
  /** @type {any} */
  let value
  try {
    value = decode(bytes) // the common header: canonical, so decoded as it is
  } catch {
    value = cborgDecode(bytes)
  }
  if (!isHeaderShape(value)) throw new Error('Invalid CAR header format')
  if (value.version !== 1) throw new Error(`Invalid CAR version: ${value.version} (expected 1)`)
  if (!Array.isArray(value.roots)) throw new Error('Invalid CAR header format')
  return value
}

/**
 * readHeader's schema (CarV1HeaderOrV2Pragma): a map holding `version`, an integer, and at most
 * `roots`, a list of CIDs.
 *
 * @param {any} value
 */
function isHeaderShape (value) {
  if (value === null || typeof value !== 'object' || value.asCID === value || Array.isArray(value) || value instanceof Uint8Array) return false
  const keys = Object.keys(value)
  if (!keys.includes('version') || !Number.isInteger(value.version)) return false
  if (!keys.every((key) => key === 'version' || key === 'roots')) return false
  return !keys.includes('roots') || (Array.isArray(value.roots) && value.roots.every((/** @type {any} */ root) => root !== null && typeof root === 'object' && root.asCID === root))
}

/**
 * What @ipld/dag-cbor's decode makes of bytes our strict decode refused: our relaxed decode's value,
 * unless a head before any error it finds is not in its shortest form (which cborg refuses). Its
 * errors in cborg's words: 'CBOR decode error: ...', or for tag 42 @ipld/dag-cbor's own.
 *
 * @param {Uint8Array} bytes
 */
function cborgDecode (bytes) {
  const found = heads(bytes)
  const notShortest = found.find((h) => h.major <= 6 && h.ai >= 24 && h.value < SHORTEST[h.ai - 24])
  /** @type {any} */
  let failure = null
  let value
  try {
    value = decode(bytes, { relaxed: true })
  } catch (err) {
    failure = err
  }
  if (notShortest && (failure === null || !(notShortest.start >= failure.offset))) throw new Error(NOT_SHORTEST)
  if (failure === null) return value
  if (failure.rule === 'cid') throw new Error(cidMessage(bytes, found, failure))
  throw new Error(`CBOR decode error: ${failure.detail ?? failure.message}`)
}

/**
 * @typedef {{ start: number, major: number, ai: number, value: number, end: number }} Head a CBOR
 *   item's head: where it starts, its major type, additional information, argument, and where it ends
 */

/**
 * The heads of the items in `bytes`, in order, as far as they can be read (an indefinite length
 * or a reserved value ends the list: the decode reports those).
 *
 * @param {Uint8Array} bytes
 * @returns {Head[]}
 */
function heads (bytes) {
  const out = []
  let at = 0
  let pending = 1 // items still to read
  while (pending > 0 && at < bytes.length) {
    const start = at
    const major = bytes[at] >> 5
    const ai = bytes[at++] & 31
    let value = ai
    if (ai > 27) break
    if (ai >= 24) {
      const n = 2 ** (ai - 24)
      if (at + n > bytes.length) break
      value = 0
      for (let k = 0; k < n; k++) value = value * 256 + bytes[at + k]
      at += n
    }
    out.push({ start, major, ai, value, end: at })
    pending += major === 4 ? value : major === 5 ? 2 * value : major === 6 ? 1 : 0
    pending--
    if (major === 2 || major === 3) at += value
  }
  return out
}

/**
 * What @ipld/dag-cbor says of the tag 42 our decode refused: its content must be a byte string that
 * starts with 0x00, and the rest must be what multiformats' CID.decode takes.
 *
 * @param {Uint8Array} bytes
 * @param {Head[]} found
 * @param {{ offset: number, message: string }} failure
 */
function cidMessage (bytes, found, failure) {
  const tag = found.findLastIndex((h) => h.major === 6 && h.value === CID_TAG && h.start < failure.offset)
  const content = found[tag + 1]
  if (tag < 0 || content === undefined) return failure.message
  if (content.major !== 2 || content.value === 0 || bytes[content.end] !== 0) return NO_PREFIX
  try {
    CID.decode(bytes.subarray(content.end + 1, content.end + content.value))
  } catch (err) {
    return String(/** @type {any} */ (err)?.message ?? err)
  }
  return failure.message // a CID multiformats reads but we do not (written longer than needed)
}
