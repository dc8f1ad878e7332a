// Random data-model values for the encode side: ipld-garbage driven by our seeded PRNG, sometimes with a
// hostile value planted inside (things the encoder must reject cleanly, or edge cases it must get right).
import { garbage } from 'ipld-garbage'
import { withMathRandom } from '../helpers/prng.js'

/** @typedef {import('./prng.js').Rng} Rng */

/**
 * ipld-garbage only uses Math.random; swap in the seeded stream for the duration of the call.
 * @param {Rng} r
 * @param {number} count
 */
export function seededGarbage (r, count) {
  return withMathRandom(() => r.float(), () => garbage(count))
}

const MAX = Number.MAX_SAFE_INTEGER

/**
 * Values the encoder must reject (kind 'bad'), or must encode correctly although they are unusual
 * (kind 'edge'). Each entry builds a fresh value.
 * @type {Array<[string, 'bad'|'edge', (r: Rng) => any]>}
 */
export const PLANTS = [
  ['undefined', 'bad', () => undefined],
  ['NaN', 'bad', () => NaN],
  ['Infinity', 'bad', () => Infinity],
  ['-Infinity', 'bad', () => -Infinity],
  ['symbol', 'bad', () => Symbol('x')],
  ['function', 'bad', () => () => 1],
  ['Date', 'bad', () => new Date(0)],
  ['RegExp', 'bad', () => /x/],
  ['Set', 'bad', () => new Set([1])],
  ['Map-int-key', 'bad', () => new Map([[1, 2]])],
  // encoded as a map of its own enumerable properties, as @ipld/dag-cbor does
  ['class-instance', 'edge', () => new (class Foo { constructor () { this.a = 1 } })()],
  ['lone-high-surrogate', 'bad', (r) => 'a\ud800' + 'b'.repeat(r.int(3))],
  ['lone-low-surrogate', 'bad', () => '\udc80'],
  ['lone-surrogate-key', 'bad', () => ({ ['k\udfff']: 1 })],
  ['bigint-2^64', 'bad', () => 2n ** 64n],
  ['bigint--2^64-1', 'bad', () => -(2n ** 64n) - 1n],
  ['array-undefined', 'bad', () => [1, undefined, 3]],
  ['sparse-array', 'bad', () => { const a = [1]; a[2] = 3; return a }],
  ['nested-undefined-value', 'bad', () => ({ a: { b: [undefined] } })],
  ['too-deep', 'bad', (r) => { let v = []; for (let i = r.range(1001, 5000); i > 0; i--) v = [v]; return v }],
  ['-0', 'edge', () => -0],
  ['2^53', 'edge', () => 2 ** 53],
  ['2^60', 'edge', () => 2 ** 60],
  ['-2^53-2', 'edge', () => -(2 ** 53) - 2],
  ['MAX_SAFE', 'edge', () => MAX],
  ['-MAX_SAFE', 'edge', () => -MAX],
  ['1e300', 'edge', () => 1e300],
  ['MIN_VALUE', 'edge', () => Number.MIN_VALUE],
  ['-MAX_VALUE', 'edge', () => -Number.MAX_VALUE],
  ['0.1', 'edge', () => 0.1],
  ['bigint-small', 'edge', (r) => BigInt(r.range(-1000, 1000))],
  ['bigint-2^64-1', 'edge', () => 2n ** 64n - 1n],
  ['bigint--2^64', 'edge', () => -(2n ** 64n)],
  ['bigint-2^53', 'edge', () => 2n ** 53n],
  ['Map-string-keys', 'edge', () => new Map([['b', 1], ['a', [2]], ['aa', null]])],
  ['proto-key', 'edge', () => JSON.parse('{"__proto__":{"x":1},"constructor":2,"prototype":3}')],
  ['emoji-and-bom', 'edge', () => '\ufeff☺\u{1f600}\u0000'],
  ['escapable-surrogates', 'bad', () => 'ab\udc80\udcff'], // 'bad' for plain encode; fine with escapedBytes
  ['non-bmp-keys', 'edge', () => ({ '\u{1f600}': 1, '\uffff': 2, z: 3, é: 4 })],
  ['subarray', 'edge', (r) => r.bytes(16).subarray(3, 3 + r.int(10))],
  ['deep-ok', 'edge', (r) => { let v = 0; for (let i = r.range(10, 200); i > 0; i--) v = r.chance(0.5) ? [v] : { x: v }; return v }],
  ['many-keys', 'edge', (r) => { const o = {}; for (let i = r.range(0, 300); i > 0; i--) o[String(r.u32() % 5000)] = i; return o }]
]

/**
 * Put `plant` somewhere inside `value` (or make it the value itself).
 * @param {Rng} r
 * @param {any} value
 * @param {any} plant
 */
export function implant (r, value, plant) {
  /** @type {any[]} */
  const containers = []
  const visit = (/** @type {any} */ v, depth) => {
    if (depth > 50 || v === null || typeof v !== 'object' || v instanceof Uint8Array || v.asCID === v) return
    containers.push(v)
    for (const x of Array.isArray(v) ? v : Object.values(v)) visit(x, depth + 1)
  }
  visit(value, 0)
  if (!containers.length || r.chance(0.1)) return plant
  const c = r.pick(containers)
  if (Array.isArray(c)) c.splice(r.int(c.length + 1), 0, plant)
  else c[r.chance(0.5) ? 'zz' : Object.keys(c)[0] ?? 'k'] = plant
  return value
}

/** make the value circular: some container gets a reference to an ancestor (or itself) */
export function makeCircular (r, value) {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array || value.asCID === value) value = [value]
  const target = r.chance(0.5) ? value : { inner: value }
  if (Array.isArray(value)) value.push(target)
  else value.loop = target
  return target
}
