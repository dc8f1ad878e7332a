// Test helpers shared by the conformance, real-cars and differential specs and the fuzzer: a data-model
// comparison that names the first difference by path, and byte helpers.
import { CID } from 'multiformats/cid'

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 * @returns {boolean}
 */
export function bytesEqual (a, b) {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * @param {Uint8Array} bytes
 * @param {number} [max] - truncate long output
 * @returns {string}
 */
export function toHex (bytes, max = Infinity) {
  const hex = Array.from(bytes.subarray(0, Math.min(bytes.length, max)), (b) => b.toString(16).padStart(2, '0')).join('')
  return bytes.length > max ? `${hex}... (${bytes.length} bytes)` : hex
}

/**
 * @param {string} hex
 * @returns {Uint8Array}
 */
export function fromHex (hex) {
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}

/**
 * @param {unknown} v
 * @returns {string}
 */
function show (v) {
  if (typeof v === 'bigint') return `${v}n`
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v)
  if (v instanceof Uint8Array) return `bytes(${toHex(v, 16)})`
  const cid = v != null && typeof v === 'object' ? CID.asCID(v) : null
  if (cid) return `CID(${cid})`
  if (Array.isArray(v)) return `array(${v.length})`
  if (v !== null && typeof v === 'object') return `map(${Object.keys(v).length})`
  return JSON.stringify(v)
}

/**
 * Compare two IPLD data-model values. Returns null when equal, otherwise a description of
 * the first difference with its path.
 *
 * - CIDs (any multiformats copy) compare by `equals`; bytes by content.
 * - Numbers: by default type and value must match exactly (Object.is, so -0 !== 0 and
 *   BigInt 5n !== 5). With `intLoose`, integers compare as BigInt(x) whatever their JS type
 *   (DAG-JSON vs DAG-CBOR decoders may choose Number or BigInt differently); non-integers
 *   still compare with Object.is.
 * - Maps are plain objects; with `keyOrder` their key order must match too.
 * - `plain` (the fuzzer, comparing decoded values): byte strings must be plain Uint8Arrays (not a
 *   subclass such as Buffer) and maps objects whose prototype is Object.prototype, on both sides.
 * - `encoderInput` (the fuzzer's encode round trip): `a` is a value given to the encoder and `b` what
 *   decoding its encoding gave back, so a BigInt in `a` equals a safe-integer Number of the same value
 *   in `b`, a Map in `a` compares as the plain object Object.fromEntries makes of it, and byte strings
 *   may be Uint8Array subclasses; `b`'s maps must still have prototype Object.prototype.
 *
 * @param {unknown} a
 * @param {unknown} b
 * @param {{ intLoose?: boolean, keyOrder?: boolean, plain?: boolean, encoderInput?: boolean }} [opts]
 * @param {string} [path]
 * @returns {string|null}
 */
export function dataModelDiff (a, b, opts = {}, path = '') {
  const at = path || '/'
  const isInt = (/** @type {unknown} */ x) => typeof x === 'bigint' || (typeof x === 'number' && Number.isInteger(x))
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    if (opts.intLoose && isInt(a) && isInt(b)) {
      // -0 is an integer to Number.isInteger; BigInt(-0) is 0n, so -0 vs 0 is checked separately
      if (BigInt(/** @type {number|bigint} */ (a)) === BigInt(/** @type {number|bigint} */ (b)) && Object.is(a, -0) === Object.is(b, -0)) return null
    } else if (typeof a === typeof b && Object.is(a, b)) {
      return null
    } else if (opts.encoderInput && typeof a === 'bigint' && typeof b === 'number' && Number.isSafeInteger(b) && BigInt(b) === a) {
      return null
    }
    return `${at}: ${show(a)} (${typeof a}) != ${show(b)} (${typeof b})`
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return a === b ? null : `${at}: ${show(a)} != ${show(b)}`
  }
  const ca = CID.asCID(a)
  const cb = CID.asCID(b)
  if (ca || cb) {
    if (ca && cb && ca.equals(cb)) return null
    return `${at}: ${show(a)} != ${show(b)}`
  }
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (opts.plain && a instanceof Uint8Array && b instanceof Uint8Array && (a.constructor !== Uint8Array || b.constructor !== Uint8Array)) {
      return `${at}: not a plain Uint8Array`
    }
    if (a instanceof Uint8Array && b instanceof Uint8Array && bytesEqual(a, b)) return null
    return `${at}: ${show(a)} != ${show(b)}`
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${at}: ${show(a)} != ${show(b)}`
    if (a.length !== b.length) return `${at}: array length ${a.length} != ${b.length}`
    for (let i = 0; i < a.length; i++) {
      const d = dataModelDiff(a[i], b[i], opts, `${path}/${i}`)
      if (d) return d
    }
    return null
  }
  if (opts.encoderInput && a instanceof Map) a = Object.fromEntries(a)
  if ((opts.plain || opts.encoderInput) && Object.getPrototypeOf(b) !== Object.prototype) return `${at}: right side is not a plain object`
  if (opts.plain && Object.getPrototypeOf(a) !== Object.prototype) return `${at}: left side is not a plain object`
  if (a instanceof Map || b instanceof Map) return `${at}: unexpected Map (${show(a)} vs ${show(b)})`
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return `${at}: map size ${ka.length} != ${kb.length}`
  if (opts.keyOrder) {
    for (let i = 0; i < ka.length; i++) {
      if (ka[i] !== kb[i]) return `${at}: key #${i} ${JSON.stringify(ka[i])} != ${JSON.stringify(kb[i])}`
    }
  }
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return `${at}: key ${JSON.stringify(k)} missing on the right`
    const d = dataModelDiff(/** @type {any} */ (a)[k], /** @type {any} */ (b)[k], opts, `${path}/${k}`)
    if (d) return d
  }
  return null
}
