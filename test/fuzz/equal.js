// Deep comparison of IPLD data-model values for the fuzzer's invariants.
// Returns null when equal, else a short description of the first difference with its path.

/** @param {any} x */
function cidBytes (x) {
  if (x == null || typeof x !== 'object') return null
  // a multiformats CID of any copy (v9 from ipld-garbage, v14 here) exposes asCID === itself and .bytes
  if (x.asCID === x || x['/'] === x.bytes) {
    const b = x.bytes
    return b instanceof Uint8Array ? b : null
  }
  return null
}

/** @param {Uint8Array} a @param {Uint8Array} b */
export function bytesEqual (a, b) {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * @param {any} a
 * @param {any} b
 * @param {{ loose?: boolean }} [opts] loose: `a` is an encoder input, `b` what decoding the encoding gave back,
 *   so a BigInt in the safe range may come back as a Number, a Map as a plain object, and any
 *   Uint8Array subclass as a Uint8Array.
 * @param {string} [path]
 * @returns {string|null}
 */
export function diff (a, b, opts = {}, path = '') {
  const here = path || '/'
  if (typeof a === 'number' || typeof b === 'number') {
    if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) ? null : `${here}: ${fmt(a)} !== ${fmt(b)}`
    if (opts.loose && typeof a === 'bigint' && typeof b === 'number' && Number.isSafeInteger(b) && BigInt(b) === a) return null
    return `${here}: ${fmt(a)} (${typeof a}) vs ${fmt(b)} (${typeof b})`
  }
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    return a === b ? null : `${here}: ${fmt(a)} !== ${fmt(b)}`
  }
  const ca = cidBytes(a)
  const cb = cidBytes(b)
  if (ca || cb) {
    if (!ca || !cb) return `${here}: CID vs non-CID`
    return bytesEqual(ca, cb) ? null : `${here}: CIDs differ`
  }
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array)) return `${here}: bytes vs non-bytes`
    if (!opts.loose && (a.constructor !== Uint8Array || b.constructor !== Uint8Array)) return `${here}: not a plain Uint8Array`
    return bytesEqual(a, b) ? null : `${here}: bytes differ (${a.length} vs ${b.length} long)`
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${here}: array vs non-array`
    if (a.length !== b.length) return `${here}: array length ${a.length} vs ${b.length}`
    for (let i = 0; i < a.length; i++) {
      const d = diff(a[i], b[i], opts, `${path}/${i}`)
      if (d) return d
    }
    return null
  }
  if (opts.loose && a instanceof Map) a = Object.fromEntries(a)
  if (Object.getPrototypeOf(b) !== Object.prototype) return `${here}: decoded map is not a plain object`
  if (!opts.loose && Object.getPrototypeOf(a) !== Object.prototype) return `${here}: map is not a plain object`
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return `${here}: ${ka.length} keys vs ${kb.length}`
  for (const k of ka) {
    if (!Object.hasOwn(b, k)) return `${here}: key ${JSON.stringify(k)} missing`
    const d = diff(a[k], b[k], opts, `${path}/${k}`)
    if (d) return d
  }
  return null
}

/** @param {any} x */
function fmt (x) {
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? x.slice(0, 40) + '…' : x)
  if (typeof x === 'bigint') return `${x}n`
  if (Object.is(x, -0)) return '-0'
  return String(x)
}

/** true when the value holds a -0 anywhere (our encoder writes float64 -0.0, @ipld/dag-cbor writes 0) */
export function hasNegZero (v, seen = new Set()) {
  if (Object.is(v, -0)) return true
  if (v === null || typeof v !== 'object' || seen.has(v) || v instanceof Uint8Array || cidBytes(v)) return false
  seen.add(v)
  const vals = v instanceof Map ? [...v.values()] : Array.isArray(v) ? v : Object.values(v)
  for (const x of vals) if (hasNegZero(x, seen)) return true
  return false
}

/**
 * What @ipld/dag-cbor gives for a value we decoded: cborg's TextDecoder drops one leading U+FEFF from
 * every text string (map keys included). `collision` is set when that makes two keys equal, which cborg
 * then rejects as a repeated key.
 * @param {any} v
 * @returns {{ value: any, collision: boolean }}
 */
export function stripLeadingBom (v) {
  let collision = false
  const strip = (/** @type {any} */ x) => {
    if (typeof x === 'string') return x.charCodeAt(0) === 0xfeff ? x.slice(1) : x
    if (x === null || typeof x !== 'object' || x instanceof Uint8Array || cidBytes(x)) return x
    if (Array.isArray(x)) return x.map(strip)
    const out = {}
    for (const k of Object.keys(x)) {
      const sk = strip(k)
      if (Object.hasOwn(out, sk)) collision = true
      Object.defineProperty(out, sk, { value: strip(x[k]), enumerable: true, writable: true, configurable: true })
    }
    return out
  }
  return { value: strip(v), collision }
}
