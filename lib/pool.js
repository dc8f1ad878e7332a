// Small owned byte arrays (encode results, decoded byte strings) carved from a shared pool, as
// Node carves its small byte arrays from an 8 KiB pool. V8 keeps a new typed array of up to 64
// bytes on the JS heap, but puts the memory of every larger one outside it, at a cost far above
// that of copying a few hundred bytes. Arrays of POOLED_MIN..POOLED_MAX bytes are views of a pool
// of POOL_SIZE bytes instead: a kept one keeps at most that one pool alive (never the input, never
// a larger buffer). Smaller arrays stay on the JS heap, owning their memory; larger ones get their
// own buffer, whose cost is then small beside the copy. Up to half the pool, as Node's pool
// serves: a larger limit would start a new pool for nearly every array.

export const POOL_SIZE = 8 * 1024
export const POOLED_MIN = 65
export const POOLED_MAX = 4096

let pool = new Uint8Array(POOL_SIZE)
let used = 0

/**
 * @param {number} length - POOLED_MIN..POOLED_MAX
 * @returns {Uint8Array} a view of `length` bytes of the pool that no other view covers
 */
export function fromPool (length) {
  // a pool whose buffer a caller transferred (detached) reads as empty and is replaced too
  if (used + length > pool.length) {
    pool = new Uint8Array(POOL_SIZE)
    used = 0
  }
  const view = pool.subarray(used, used + length)
  used += length
  return view
}
