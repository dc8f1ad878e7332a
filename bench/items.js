#!/usr/bin/env node
// Encode cost per kind of item: one array of 100 items of a kind (small byte strings, small
// arrays, CIDs, one-key maps with a named or an integer-like key, ...), encoded by ours and by
// @ipld/dag-cbor, interleaved, printed as ns per item and their ratio; `ours encodeInto`
// leaves out the fresh result (about 1 µs for one over 64 bytes, ~10 ns of each item here). It says which kinds of
// item a corpus's encode ratio is made of (Filecoin blocks are mostly small byte strings,
// small arrays, CIDs and HAMT maps keyed "0"/"1"). Prints only.
//   node bench/items.js [--rounds=8] [--ms=30]
import * as ref from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import * as ours from '../index.js'

const flag = (/** @type {string} */ name, /** @type {number} */ fallback) => {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`))
  return arg ? Number(arg.slice(name.length + 3)) : fallback
}
const rounds = flag('rounds', 8)
const ms = flag('ms', 30)
const N = 100

const cid = CID.parse('bafy2bzacea3wsdh6y3a36tb3skempjoxqpuyompjbmfeyf34fi3uy6uue42v4')
/** @type {Array<[string, () => unknown]>} */
const KINDS = [
  ['null', () => null],
  ['integer 1000-99000', () => 1000],
  ['byte string, 0 B', () => new Uint8Array(0)],
  ['byte string, 3 B', () => new Uint8Array(3)],
  ['byte string, 38 B', () => new Uint8Array(38)],
  ['array [1, 2]', () => [1, 2]],
  ['CID (blake2b-256)', () => cid],
  ['map { a: 1 }', () => ({ a: 1 })],
  ['map { "0": 1 } (integer-like key)', () => ({ 0: 1 })]
]

/**
 * ns per item of fn over `value` (N items), timed for `ms`
 *
 * @param {(v: unknown) => unknown} fn
 * @param {unknown} value
 */
function nsPerItem (fn, value) {
  let calls = 0
  const t0 = performance.now()
  let t
  do {
    fn(value)
    calls++
  } while ((t = performance.now() - t0) < ms)
  return (t * 1e6) / calls / N
}

/** @param {number[]} xs */
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1]

console.log(`encode, ns per item (one array of ${N} items; median of ${rounds} interleaved rounds of ${ms} ms)`)
console.log(`${'item'.padEnd(36)} ${'ours'.padStart(8)} ${'ours encodeInto'.padStart(16)} ${'@ipld/dag-cbor'.padStart(15)} ${'ratio'.padStart(7)} ${'into ratio'.padStart(11)}`)
const target = new Uint8Array(64 * 1024)
const encodeInto = (/** @type {unknown} */ v) => ours.encodeInto(v, target)
for (const [label, make] of KINDS) {
  const value = Array.from({ length: N }, (_, i) => {
    const v = make()
    return typeof v === 'number' ? v * (1 + (i % 99)) : v
  })
  const a = ours.encode(value)
  const b = ref.encode(value)
  if (a.length !== b.length || a.some((x, i) => x !== b[i])) console.log(`! ${label}: ours differs from @ipld/dag-cbor`)
  const mine = []
  const into = []
  const theirs = []
  for (let r = 0; r < rounds; r++) {
    mine.push(nsPerItem(ours.encode, value))
    into.push(nsPerItem(encodeInto, value))
    theirs.push(nsPerItem(ref.encode, value))
  }
  const m = median(mine)
  const i = median(into)
  const t = median(theirs)
  console.log(`${label.padEnd(36)} ${m.toFixed(1).padStart(8)} ${i.toFixed(1).padStart(16)} ${t.toFixed(1).padStart(15)} ${(t / m).toFixed(2).padStart(6)}x ${(t / i).toFixed(2).padStart(10)}x`)
}
