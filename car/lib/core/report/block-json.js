// The text form of a CAR for `export` and `import` (JSON lines, so jq can edit it):
//   {"roots":[{"/":"bafy..."}],"version":1}                      the CAR header, as DAG-JSON
//   {"cid":"bafy...","codec":"dag-cbor","value":<DAG-JSON>}       a block given by its value
//                                                                 (DAG-CBOR, dag-pb or DAG-JSON)
//   {"cid":"bafy...","codec":"raw","bytes":"<base64>"}            a block given by its bytes
// A block is written as a value only when the value gives back exactly the same bytes: export
// encodes the value to DAG-JSON, decodes that, encodes it with the block's codec and compares. Any
// other block (non-canonical or invalid DAG-CBOR, a value DAG-JSON cannot say exactly such as -0,
// a map whose key "/" holds text, or a float64 holding an integer; raw, or a codec this tool does not decode) is written as its
// bytes, with a "note" saying why when its codec has values. So export | import gives back every
// block byte for byte, or import fails.
import { dagJson, dagPb } from '#modules-now' // in Node loaded at their first use (lib/node/load-at-first-call-node.js)
import * as codec from 'dag-cbor-fast'
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import { sha256 } from 'multiformats/hashes/sha2'
import { describeError } from '../check/classify.js'
import { checkContent } from '../check/codecs.js'
import { digestOf, verifyBlock, hashName, unverifiedReason } from '../check/hash.js'
import { sameBytes, toBase64, fromBase64 } from '../base/bytes.js'
import { codecName } from './summary.js'
import { DAG_CBOR, DAG_JSON, DAG_PB, RAW } from '../graph/links.js'
import { exactDagJson } from './block-view.js'
import { whyNotCid } from './block-report.js'

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * Codecs besides DAG-CBOR whose blocks have values (a dag-pb block's is its PBNode: Data, Links).
 *
 * @type {Map<number, { name: string, decode: (bytes: Uint8Array) => any, encode: (value: any) => Uint8Array }>}
 */
const OTHER_VALUE_CODECS = new Map([
  [DAG_JSON, { name: 'DAG-JSON', decode: (b) => dagJson().decode(b), encode: (v) => dagJson().encode(v) }],
  [DAG_PB, { name: 'dag-pb', decode: (b) => dagPb().decode(b), encode: (v) => dagPb().encode(v) }]
])

/** @param {number} code a codec other than DAG-CBOR @returns {{ name: string, decode: (bytes: Uint8Array) => any } | undefined} */
export const otherValueCodec = (code) => OTHER_VALUE_CODECS.get(code)
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** @param {import('multiformats').CID[]} roots */
export function headerLine (roots) {
  return utf8.decode(dagJson().encode({ roots, version: 1 }))
}

/**
 * @param {CID} cid
 * @param {Uint8Array} bytes
 * @returns {{ line: string, problem: string | null, note: string | null }} problem: what `verify`
 *   would fail this block for; note: why it is given as bytes although its codec has values
 */
export function blockLine (cid, bytes) {
  const head = `{"cid":"${cid}","codec":${JSON.stringify(codecName(cid.code))}`
  const hash = verifyBlock(cid, bytes)
  /** @param {string | null} problem @param {string | null} note */
  const asBytes = (problem, note) => ({
    line: `${head},"bytes":"${toBase64(bytes)}"${note ? `,"note":${JSON.stringify(note)}` : ''}}`,
    problem,
    note
  })
  if (hash === 'mismatch') return asBytes(`bytes do not hash to the CID (${hashName(cid.multihash.code)})`, 'its bytes do not hash to its CID: import will refuse this line')
  if (hash === 'unverified') return asBytes(unverifiedReason(cid), `${unverifiedReason(cid)}: import will refuse this line`)
  if (cid.code === DAG_CBOR) {
    let value
    try {
      value = codec.decode(bytes)
    } catch (err) {
      const why = `not canonical DAG-CBOR (${describeError(err)})`
      return asBytes(why, `${why}: its bytes are kept as they are`)
    }
    const text = valueText(value, (v) => codec.encode(v), bytes)
    if (text.note !== null) return asBytes(null, `${text.note}: its bytes are kept as they are`)
    return { line: `${head},"value":${text.json}}`, problem: null, note: null }
  }
  const other = OTHER_VALUE_CODECS.get(cid.code)
  if (other) {
    let value
    try {
      value = other.decode(bytes)
    } catch (err) {
      const why = `not ${other.name} (${String(/** @type {any} */ (err)?.message ?? err).split('\n')[0]})`
      return asBytes(why, `${why}: its bytes are kept as they are`)
    }
    const text = valueText(value, other.encode, bytes)
    if (text.note !== null) return asBytes(null, `${text.note === NOT_BACK ? `not in canonical ${other.name} form` : text.note}: its bytes are kept as they are`)
    return { line: `${head},"value":${text.json}}`, problem: null, note: null }
  }
  // raw, json (bytes here, but checked as verify checks it) or a codec this tool does not know
  return asBytes(checkContent(cid.code, bytes)?.reason ?? null, null)
}

/** why valueText found a value whose DAG-JSON reads back exactly, but encodes to other bytes */
const NOT_BACK = 'its value encoded again does not give back its bytes (a float64 holding an integer reads back as an integer)'

/**
 * The value's DAG-JSON text, when @ipld/dag-json reads that text back as the same value
 * (exactDagJson) and encoding it with the block's codec gives back exactly `bytes`; else a note
 * saying why not.
 *
 * @param {any} value @param {(value: any) => Uint8Array} encode @param {Uint8Array} bytes
 * @returns {{ json: string, note: null } | { json: null, note: string }}
 */
function valueText (value, encode, bytes) {
  const exact = exactDagJson(value)
  if (exact.error !== null) return { json: null, note: exact.error }
  try {
    if (sameBytes(encode(dagJson().decode(new TextEncoder().encode(exact.json))), bytes)) return { json: exact.json, note: null }
  } catch {}
  return { json: null, note: NOT_BACK }
}

/** A line that is not what export writes: malformed input (exit status 2). */
export class LineError extends Error {}

/** @param {Uint8Array} line @param {number} n */
function parse (line, n) {
  try {
    return dagJson().decode(line)
  } catch (err) {
    throw new LineError(`line ${n} is not DAG-JSON: ${String(/** @type {any} */ (err)?.message ?? err).split('\n')[0]}`)
  }
}

/**
 * The header line: the roots.
 *
 * @param {Uint8Array} line
 * @param {number} n line number
 * @returns {CID[]}
 */
export function parseHeaderLine (line, n) {
  const header = parse(line, n)
  const roots = header?.roots
  if (!header || typeof header !== 'object' || !Array.isArray(roots) || header.cid !== undefined) {
    throw new LineError(`line ${n} should be the CAR header, {"roots":[{"/":"<cid>"}, ...],"version":1}, as export writes it first`)
  }
  if (header.version !== 1) throw new LineError(`line ${n}: the header's version is ${JSON.stringify(header.version)}; import writes CARv1 (version 1)`)
  roots.forEach((r, i) => {
    if (!CID.asCID(r)) throw new LineError(`line ${n}: root ${i} is not a CID link ({"/":"<cid>"})`)
  })
  return roots
}

/**
 * A block line: its bytes (from "bytes", or "value" encoded with the codec) and its CID, computed
 * from those bytes with the line's CID's version and hash function (CIDv1 sha2-256 when the line has
 * no "cid"). A line whose "cid" does not match its bytes is reported through `mismatch`.
 *
 * @param {Uint8Array} line
 * @param {number} n line number
 * @returns {{ cid: CID, bytes: Uint8Array, mismatch: string | null }}
 */
export function parseBlockLine (line, n) {
  const entry = parse(line, n)
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw new LineError(`line ${n} is not a JSON object`)
  /** @type {CID | null} */
  let given = null
  if (entry.cid !== undefined) {
    if (typeof entry.cid !== 'string') throw new LineError(`line ${n}: "cid" must be a CID string`)
    try {
      given = CID.parse(entry.cid)
    } catch {
      throw new LineError(`line ${n}: "cid" is not a CID (${whyNotCid(entry.cid)})`)
    }
  }
  let code = given?.code
  if (entry.codec !== undefined) {
    const named = codeOf(entry.codec)
    if (named === null) throw new LineError(`line ${n}: unknown "codec" ${JSON.stringify(entry.codec)}`)
    if (code !== undefined && named !== code) throw new LineError(`line ${n}: "codec" says ${JSON.stringify(entry.codec)} but the CID's codec is ${codecName(code)}`)
    code = named
  }
  if (code === undefined) throw new LineError(`line ${n}: neither "cid" nor "codec" says which codec the block is in`)
  const hasBytes = entry.bytes !== undefined
  const hasValue = entry.value !== undefined
  if (hasBytes === hasValue) throw new LineError(`line ${n}: give the block as either "value" or "bytes" (base64), not ${hasBytes ? 'both' : 'neither'}`)
  let bytes
  if (hasBytes) {
    if (typeof entry.bytes !== 'string' || !BASE64.test(entry.bytes) || entry.bytes.length % 4 === 1) throw new LineError(`line ${n}: "bytes" must be base64 text`)
    bytes = fromBase64(entry.bytes)
  } else {
    bytes = encodeValue(code, entry.value, n)
  }
  if (!given) return { cid: CID.create(1, code, createDigest(sha256.code, /** @type {Uint8Array} */ (digestOf(sha256.code, bytes)))), bytes, mismatch: null }
  const digest = digestOf(given.multihash.code, bytes)
  if (digest === null) return { cid: given, bytes, mismatch: `line ${n}: cannot compute the CID's hash function (${hashName(given.multihash.code)}), so the block cannot be checked against ${given}` }
  if (sameBytes(digest, given.multihash.digest)) return { cid: given, bytes, mismatch: null }
  const computed = given.version === 0 ? CID.createV0(/** @type {any} */ (createDigest(given.multihash.code, digest))) : CID.create(1, code, createDigest(given.multihash.code, digest))
  return { cid: given, bytes, mismatch: `line ${n}: the block's bytes have the CID ${computed}, not ${given} (after an edit, drop "cid" to have it computed, and update the links to it)` }
}

/**
 * @param {number} code @param {any} value @param {number} n
 * @returns {Uint8Array}
 */
function encodeValue (code, value, n) {
  try {
    if (code === DAG_CBOR) return codec.encode(value)
    const other = OTHER_VALUE_CODECS.get(code)
    if (other) return other.encode(value)
  } catch (err) {
    throw new LineError(`line ${n}: its "value" cannot be encoded as ${codecName(code)}: ${describeError(err)}`)
  }
  if (code === RAW && value instanceof Uint8Array) return value
  throw new LineError(`line ${n}: a ${codecName(code)} block must be given as "bytes"`)
}

/** @param {unknown} codecField a name (dag-cbor) or a number */
function codeOf (codecField) {
  if (typeof codecField === 'number' && Number.isInteger(codecField) && codecField >= 0) return codecField
  if (typeof codecField !== 'string') return null
  for (const c of [DAG_CBOR, RAW, DAG_PB, DAG_JSON, 0x0200]) if (codecName(c) === codecField) return c
  if (/^0x[0-9a-f]+$/i.test(codecField)) return Number(codecField)
  return null
}
