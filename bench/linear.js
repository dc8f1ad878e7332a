#!/usr/bin/env node
// `node --expose-gc bench/linear.js`: decode time against input size on the hostile shapes of
// test/helpers/hostile-shapes.js. Prints, per shape, CPU ms per call at a small size and at 16x it,
// and their ratio (linear is about 16x, quadratic 256x); and the 1 MiB nested-arrays decode against
// plain JS building the same arrays. The tests count this work instead (test/limits.spec.js), so a
// loaded machine cannot fail them; this bench only prints.
import { decode, encode } from '../index.js'
import { SHAPES, SCALE, smallSize } from '../test/helpers/hostile-shapes.js'

const gc = /** @type {() => void} */ (globalThis.gc ?? (() => { throw new Error('run with node --expose-gc') }))

/** CPU time of this process in ms: leaves out time other processes take on a loaded machine */
const cpuMs = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1000 }

/**
 * Per-call time of each function: the best of 7 interleaved batches after a full GC, each batch
 * long enough to time (20 ms).
 * @param {Array<() => unknown>} fns
 */
function timePerCall (...fns) {
  const reps = fns.map((fn) => {
    fn()
    let n = 1
    for (;;) {
      gc()
      const t0 = cpuMs()
      for (let i = 0; i < n; i++) fn()
      if (cpuMs() - t0 >= 20 || n >= 1 << 16) return n
      n *= 2
    }
  })
  const best = fns.map(() => Infinity)
  for (let round = 0; round < 7; round++) {
    fns.forEach((fn, f) => {
      gc()
      const t0 = cpuMs()
      for (let i = 0; i < reps[f]; i++) fn()
      best[f] = Math.min(best[f], (cpuMs() - t0) / reps[f])
    })
  }
  return best
}

console.log('| shape | small | ms/call | 16x | ms/call | time ratio (linear ~16) |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: |')
/** @param {string} label @param {number} smallSize @param {number} largeSize @param {() => unknown} small @param {() => unknown} large */
const row = (label, smallSize, largeSize, small, large) => {
  const [ts, tl] = timePerCall(small, large)
  console.log(`| ${label} | ${smallSize} | ${ts.toFixed(3)} | ${largeSize} | ${tl.toFixed(3)} | ${(tl / ts).toFixed(1)} |`)
}
for (const [label, make] of Object.entries(SHAPES)) {
  const small = make(smallSize(label))
  const large = make(SCALE * smallSize(label))
  row(`decode ${label}`, small.length, large.length, () => decode(small), () => decode(large))
}
const smallMap = decode(SHAPES['map of many keys'](smallSize('map of many keys')))
const largeMap = decode(SHAPES['map of many keys'](SCALE * smallSize('map of many keys')))
row('encode map of many keys (keys)', Object.keys(smallMap).length, Object.keys(largeMap).length, () => encode(smallMap), () => encode(largeMap))

const input = SHAPES['nested arrays'](1024 * 1024)
const items = Math.floor((1024 * 1024) / 100)
const build = () => {
  const out = new Array(items)
  for (let i = 0; i < items; i++) {
    let a = [[]]
    for (let d = 0; d < 98; d++) a = [a]
    out[i] = a
  }
  return out
}
const [ours, plain] = timePerCall(() => decode(input), build)
console.log(`\nnested arrays, 1 MiB (a million arrays): decode ${ours.toFixed(1)} ms, plain JS building them ${plain.toFixed(1)} ms (${(ours / plain).toFixed(2)}x)`)
