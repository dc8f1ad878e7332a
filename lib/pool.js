// The opt-in shared pool of `encode(value, { pool: true })`: a small result is copied into the
// current slab and returned as a view of it, instead of as an exact-size array of its own, which
// V8 allocates outside its heap (for anything over 64 bytes in Node and Chromium, anything at all
// in Deno) at a cost far above that of the copy. A slab is only ever appended to: when a result
// does not fit, the rest of the slab is left unused and a new one is taken, so a result handed out
// stays valid, and shares no byte with any other, for as long as it is kept. Nothing here runs
// user code: the copy is made after the whole value has been written (getters included), so an
// encode nested in another's getter takes its own range first, and one that throws takes none.
//
// JavaScriptCore and SpiderMonkey allocate small arrays cheaply, and there a view of a slab costs
// more than an array of its own (bench/README.md, "Pooled encode"): there every result is exact.

import { finish, written } from './writer.js'
import { DENO, JAVASCRIPTCORE, SPIDERMONKEY } from './engine.js'

export const SLAB_SIZE = 64 * 1024
/** The largest pooled result: 1/16 of a slab, so that at most that share of a slab is left unused
 * when a result does not fit its end; above it the gain over an exact array falls quickly (and in
 * Chromium is gone). 0 where views cost more than arrays of their own. */
export const MAX_POOLED = JAVASCRIPTCORE || SPIDERMONKEY ? 0 : 4 * 1024
/** The smallest pooled result: V8 keeps a typed array of up to 64 bytes in its heap (but not in
 * Deno), where an exact copy costs less than a view of a slab. */
export const MIN_POOLED = DENO ? 1 : 65

/** the slab results are copied into; empty until the first pooled encode */
let slab = new ArrayBuffer(0)
/** the first free byte of the slab */
let used = 0

/**
 * The bytes written, as a view of the current slab (of a new slab when they do not fit), or, when
 * outside MIN_POOLED..MAX_POOLED bytes, as an exact-size array of their own, as by default.
 *
 * @returns {Uint8Array}
 */
export function finishPooled () {
  const length = written()
  if (length > MAX_POOLED || length < MIN_POOLED) return finish()
  // a slab whose buffer was transferred away (detached) has byteLength 0, so it is replaced too
  if (used + length > slab.byteLength) {
    slab = new ArrayBuffer(SLAB_SIZE)
    used = 0
  }
  const result = finish(new Uint8Array(slab, used, length))
  // the next result starts 8-aligned, as Node aligns the allocations of its shared pool
  used = (used + length + 7) & ~7
  return result
}
