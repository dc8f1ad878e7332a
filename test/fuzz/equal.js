// Fuzz-only value helpers: -0 detection and the leading-BOM stripping @ipld/dag-cbor does. The data-model
// comparison the fuzzer uses is dataModelDiff in test/helpers/ipld-equal.js (options plain / encoderInput).

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
