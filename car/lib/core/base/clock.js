// The clock a run is timed with, in milliseconds (only differences are used): performance.now()
// unless the platform's shell installs another. Node's does (lib/node/run.js): there the first
// read of the global `performance` loads perf_hooks, about 1.3 ms of checking a small CAR.

/** @type {() => number} */
let clock = () => performance.now()

/** @returns {number} milliseconds on the installed clock */
export const now = () => clock()

/**
 * @param {() => number} read milliseconds, monotonic
 * @returns {() => number} the clock it replaces
 */
export function setClock (read) {
  const before = clock
  clock = read
  return before
}
