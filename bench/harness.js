// Time-boxed, interleaved benchmark rounds.
//
// A "cell" is one codec doing one job: { name, fn, items }. fn(item) is called over items (cycling)
// for about `roundMs` of wall time per round, checking the clock every `chunk` calls; its rate is
// ops / CPU time of the process (process.cpuUsage, user+system) over the run, so time the process
// spends descheduled on a loaded machine does not count ({ wall: true } uses wall time instead).
// CPU time includes V8's helper threads (parallel GC, compiler), which is work the codec caused.
// All cells of one corpus+direction run in the same process, interleaved A B C ... then ... C B A
// (the order flips every round to cancel drift), after a warm-up of every cell, with a minor GC
// (untimed) before each run. Ratios are taken
// per round (same conditions) and the median across rounds is reported.
import { performance } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

const now = performance.now.bind(performance)

// A young-generation GC before every timed run (not timed), so one codec's short-lived garbage is
// not collected on the next codec's clock (a full GC each time made the quick mode too slow).
// Works without --expose-gc on the command line; Bun has no V8 gc(), so there it is Bun's own.
setFlagsFromString('--expose-gc')
/* global Bun */
const gc = globalThis.gc || (typeof Bun !== 'undefined' ? () => Bun.gc(false) : runInNewContext('gc'))
const GC_OPTS = { type: 'minor' }

// One runner per cell, compiled from source so every cell has its own feedback / inline caches
// (a shared loop would turn polymorphic and penalise whichever codec runs last).
const RUNNER_SRC = `
  const n = items.length
  let i = 0, ops = 0, sink
  const c0 = cpu()
  const t0 = now()
  const end = t0 + ms
  let t
  do {
    for (let k = 0; k < chunk; k++) {
      sink = fn(items[i])
      if (++i === n) i = 0
    }
    ops += chunk
  } while ((t = now()) < end)
  const c1 = cpu(c0)
  globalThis.__benchSink = sink
  return useWall ? ops / ((t - t0) / 1000) : ops / ((c1.user + c1.system) / 1e6)
`
function makeRunner () {
  // eslint-disable-next-line no-new-func
  return new Function('fn', 'items', 'chunk', 'ms', 'now', 'cpu', 'useWall', RUNNER_SRC)
}

export function median (xs) {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b)
  if (s.length === 0) return NaN
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/**
 * @param {Array<{name: string, fn: Function, items: any[]}>} cells
 * @param {{rounds: number, roundMs: number, warmMs: number, chunk: number}} cfg
 * @returns {Array<number[]>} per cell, its rate (ops/s) in each round
 */
export function runInterleaved (cells, { rounds, roundMs, warmMs, chunk, wall = false }) {
  const runners = cells.map(() => makeRunner())
  const cpu = process.cpuUsage
  for (let c = 0; c < cells.length; c++) runners[c](cells[c].fn, cells[c].items, chunk, warmMs, now, cpu, wall)
  const rates = cells.map(() => [])
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < cells.length; j++) {
      const c = r % 2 === 0 ? j : cells.length - 1 - j
      gc(GC_OPTS)
      rates[c].push(runners[c](cells[c].fn, cells[c].items, chunk, roundMs, now, cpu, wall))
    }
  }
  return rates
}

/** Median over rounds of a[r] / b[r] (both measured in the same round). */
export function medianRatio (a, b) {
  const rs = []
  for (let r = 0; r < Math.min(a.length, b.length); r++) rs.push(a[r] / b[r])
  return median(rs)
}
