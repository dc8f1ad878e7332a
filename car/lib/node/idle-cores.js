// How many of the machine's cores other processes leave to this one right now: a worker thread
// checks batches only on a core no one else wants, and on a core shared with another busy process
// it only adds its own start-up and makes the main thread wait for its batches, in CAR order.
// Linux says how many threads are runnable at this instant (/proc/loadavg's fourth field, running
// over total); this process's own runnable threads (/proc/self/task/*/stat, state R) are not
// counted against it. Three samples a millisecond apart, the fewest taken, so that a process that
// wakes for a moment does not count. Elsewhere (no /proc), every core counts as idle.
// (process.getBuiltinModule, not import: an import of node:fs makes Node build its ES module face,
// reading every export, fs.promises among them, which loads Node's streams and readline)
const { readFileSync, readdirSync } = /** @type {typeof import('node:fs')} */ (process.getBuiltinModule('node:fs'))

const SAMPLES = 3
const SAMPLE_GAP_MS = 1

/** @returns {number} threads of other processes that are runnable now; -1 where the system does not say */
function othersRunnable () {
  let loadavg
  try {
    loadavg = readFileSync('/proc/loadavg', 'latin1')
  } catch {
    return -1
  }
  const running = /^\S+ \S+ \S+ (\d+)\//.exec(loadavg)
  if (!running) return -1
  let own = 0
  try {
    for (const task of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'latin1')
      if (stat.charAt(stat.lastIndexOf(')') + 2) === 'R') own++
    }
  } catch {
    own = 1 // this thread, which is reading
  }
  return Math.max(0, Number(running[1]) - own)
}

/**
 * The machine's available parallelism, from node:os loaded when first asked: a small file's run
 * (one thread) never asks.
 *
 * @returns {number}
 */
export function availableCores () {
  return /** @type {typeof import('node:os')} */ (process.getBuiltinModule('node:os')).availableParallelism()
}

/**
 * Cores not taken by other processes' runnable threads (at least 1: this thread's own).
 *
 * @returns {number}
 */
export function idleCores () {
  const cores = availableCores()
  let others = Infinity
  const pause = new Int32Array(new SharedArrayBuffer(4))
  for (let i = 0; i < SAMPLES; i++) {
    if (i > 0) Atomics.wait(pause, 0, 0, SAMPLE_GAP_MS)
    const n = othersRunnable()
    if (n < 0) return cores
    others = Math.min(others, n)
    if (others === 0) break
  }
  return Math.max(1, cores - others)
}
