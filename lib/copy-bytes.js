// The exact-size copy that encode returns (its result owns exactly its bytes), out of the
// writer's scratch buffer. `slice()` is the fastest copy in V8 and JavaScriptCore; in
// SpiderMonkey (Firefox) `slice()`, which makes its result through the species constructor,
// is many times slower than a new array filled by `set()` (bench/README.md has the
// measurements; decode's copies of byte strings out of the input measured no faster by set(),
// so they stay slice()).

import { SPIDERMONKEY } from './engine.js'

/**
 * A new Uint8Array holding a copy of src[start, end), by set().
 *
 * @param {Uint8Array} src
 * @param {number} start
 * @param {number} end
 * @returns {Uint8Array}
 */
export function copyBySet (src, start, end) {
  const copy = new Uint8Array(end - start)
  copy.set(src.subarray(start, end))
  return copy
}

/** Whether copyBySet is the faster of the two in this engine (tested where the copy is made, so
 * that V8 calls slice() directly there). */
export const COPY_BY_SET = SPIDERMONKEY
