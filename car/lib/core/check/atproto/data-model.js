// Is a record inside the atproto data model (atproto.com/specs/data-model)? Records are strict
// DAG-CBOR (the codec checks that) and, on top: no floats at all; integers fit in signed 64 bits;
// the record is a map with a non-empty string `$type`; any `$type` is a non-empty string; a blob
// (`$type: "blob"`) has a raw-codec `ref` link, a non-empty `mimeType` and a positive integer `size`.
// Legacy blobs (`cid` + `mimeType`, no `$type`) are accepted, as the spec asks.
import { CID } from 'multiformats/cid'
import { walkCbor } from '../../graph/cbor-walk.js'

const RAW = 0x55
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
/** Faults reported per record: the first few say what is wrong; the rest add nothing. */
const MAX_PER_RECORD = 5

/** @typedef {{ rule: string, path: string, message: string }} ValueFault */

/**
 * @param {unknown} value the record, strictly decoded from `bytes`
 * @param {Uint8Array} bytes
 * @returns {ValueFault[]}
 */
export function dataModelFaults (value, bytes) {
  /** @type {ValueFault[]} */
  const faults = []
  // The decoder gives a float holding an integer (1.0) as a plain Number, so floats are found in the bytes.
  walkCbor(bytes, {
    float64: (at, number, path) => {
      if (faults.length < MAX_PER_RECORD) faults.push({ rule: 'record-float', path: path(), message: `a float (${number}, byte ${at}); atproto records hold no floats` })
    }
  })
  if (!isMap(value)) {
    faults.push({ rule: 'record-not-map', path: '/', message: 'the record is not a map' })
    return faults
  }
  const type = /** @type {Record<string, unknown>} */ (value).$type
  if (typeof type !== 'string' || type === '') faults.push({ rule: 'record-type', path: '/$type', message: type === undefined ? 'the record has no $type' : 'the record\'s $type is not a non-empty string' })
  walkValue(value, '', faults)
  return faults.slice(0, MAX_PER_RECORD)
}

/** @param {unknown} v */
function isMap (v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) && !CID.asCID(v)
}

/**
 * Nesting is bounded by the codec's depth limit, so recursion is safe here.
 *
 * @param {unknown} v
 * @param {string} path
 * @param {ValueFault[]} faults
 */
function walkValue (v, path, faults) {
  if (faults.length >= MAX_PER_RECORD) return
  if (typeof v === 'bigint') {
    if (v < INT64_MIN || v > INT64_MAX) faults.push({ rule: 'record-integer', path: path || '/', message: `integer ${v} is outside signed 64 bits` })
    return
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) walkValue(v[i], `${path}/${i}`, faults)
    return
  }
  if (!isMap(v)) return
  const map = /** @type {Record<string, unknown>} */ (v)
  if (path !== '' && '$type' in map && (typeof map.$type !== 'string' || map.$type === '')) {
    faults.push({ rule: 'record-type', path: `${path}/$type`, message: '$type is not a non-empty string' })
  }
  if (map.$type === 'blob') blobFaults(map, path, faults)
  for (const key of Object.keys(map)) walkValue(map[key], `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, faults)
}

/**
 * @param {Record<string, unknown>} blob
 * @param {string} path
 * @param {ValueFault[]} faults
 */
function blobFaults (blob, path, faults) {
  const ref = CID.asCID(blob.ref)
  /** @type {string[]} */
  const wrong = []
  if (!ref) wrong.push('ref is not a link')
  else if (ref.code !== RAW) wrong.push(`ref has codec 0x${ref.code.toString(16)}, not raw (0x55)`)
  if (typeof blob.mimeType !== 'string' || blob.mimeType === '') wrong.push('mimeType is not a non-empty string')
  const size = blob.size
  if (!((typeof size === 'number' && Number.isInteger(size) && size > 0) || (typeof size === 'bigint' && size > 0n))) wrong.push('size is not a positive integer')
  if (wrong.length) faults.push({ rule: 'record-blob', path: path || '/', message: `blob: ${wrong.join('; ')}` })
}
