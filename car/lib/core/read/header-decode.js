// The CARv1 header's value from its bytes, taken or refused as @ipld/car's readHeader(reader, 1)
// takes or refuses it, with its error messages (header.js turns them into the tool's words), but
// decoded by our own codec: the reader needs neither @ipld/car nor @ipld/dag-cbor and cborg.
// @ipld/car decodes the header with @ipld/dag-cbor (cborg, strict about the shortest form of
// integers and lengths, lenient about key order, short floats, `undefined` and UTF-8), then checks
// it against its schema: a map of `roots` (a list of CIDs) and `version` (an integer), nothing else.
import { CID } from 'multiformats/cid'
import { decode } from 'dag-cbor-fast/decode' // the decoder alone: the codec's main entry brings its encoder too
import { readArgument, LEAST } from 'dag-cbor-fast/head'

const NOT_SHORTEST = 'CBOR decode error: integer encoded in more bytes than necessary (strict decode)'
const NO_PREFIX = 'Invalid CID for CBOR tag 42; expected leading 0x00'
const CID_TAG = 42

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
  /** @type {any} */
  let failure = null
  let value
  try {
    value = decode(bytes, { relaxed: true })
  } catch (err) {
    failure = err
  }
  // only what comes before the error counts: cborg stops at whichever it meets first
  const stop = failure !== null && failure.offset >= 0 ? failure.offset : bytes.length
  const { notShortest, cidBytes } = scanHeads(bytes, stop)
  if (notShortest) throw new Error(NOT_SHORTEST)
  if (failure === null) return value
  if (failure.rule === 'cid') throw new Error(cidMessage(cidBytes, failure))
  throw new Error(`CBOR decode error: ${failure.detail ?? failure.message}`)
}

/**
 * The heads of the items in `bytes` that start before `stop` (and a tag 42's content), in order, as
 * far as they can be read (an indefinite length or a reserved value ends them: the decode reports
 * those), in constant memory: whether one is not in its shortest form, and the last tag 42's content.
 *
 * @param {Uint8Array} bytes
 * @param {number} stop
 * @returns {{ notShortest: boolean, cidBytes: Uint8Array | null | undefined }} cidBytes: the last
 *   tag 42's byte string, null when its content is something else, undefined when there is none
 */
function scanHeads (bytes, stop) {
  let at = 0
  let pending = 1 // items still to read
  let tagged = false // the item at hand is a tag 42's content
  /** @type {Uint8Array | null | undefined} */
  let cidBytes
  while (pending > 0 && (at < stop || tagged) && at < bytes.length) {
    const major = bytes[at] >> 5
    const ai = bytes[at++] & 31
    let value = ai
    if (ai > 27) break
    if (ai >= 24) {
      const n = 1 << (ai - 24)
      if (at + n > bytes.length) break
      // the codec's head reader, relaxed: the checks it would make are made above, in cborg's words
      value = readArgument(bytes, at, bytes.length, ai, at - 1, true)
      at += n
      if (value < 0) value = Infinity // above 2^53-1: in shortest form, and more than the input holds
      else if (major <= 6 && value < LEAST[ai - 24]) return { notShortest: true, cidBytes }
    }
    if (tagged) cidBytes = major === 2 ? bytes.subarray(at, at + value) : null
    tagged = major === 6 && value === CID_TAG
    pending += major === 4 ? value : major === 5 ? 2 * value : major === 6 ? 1 : 0
    pending--
    if (major === 2 || major === 3) at += value
  }
  return { notShortest: false, cidBytes }
}

/**
 * What @ipld/dag-cbor says of the tag 42 our decode refused: its content must be a byte string that
 * starts with 0x00, and the rest must be what multiformats' CID.decode takes.
 *
 * @param {Uint8Array | null | undefined} content the tag's content (scanHeads)
 * @param {{ message: string }} failure
 */
function cidMessage (content, failure) {
  if (content === undefined) return failure.message
  if (content === null || content[0] !== 0) return NO_PREFIX
  try {
    CID.decode(content.subarray(1))
  } catch (err) {
    return String(/** @type {any} */ (err)?.message ?? err)
  }
  return failure.message // a CID multiformats reads but we do not (written longer than needed)
}
