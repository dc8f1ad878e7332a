// The memory of a large encode result in Node and Bun (package.json's "imports" sends Deno, whose
// Buffer is slower here than a zero-filled array, and browsers to lib/result-memory.js):
// Buffer.allocUnsafeSlow skips the zero-fill `new Uint8Array(n)` does, a pass over the whole
// result before the writer overwrites every byte of it (@ipld/dag-cbor's results skip it the same way, through Buffer.allocUnsafe).
// allocUnsafeSlow never hands out Node's shared pool, so the memory is the result's alone; it is
// returned as a plain Uint8Array over that ArrayBuffer, not as a Buffer, whose methods differ (a
// Buffer's slice is a view). Without a global Buffer it falls back to the zero-filled array.
// Below UNSAFE_FROM the zero-filled array is the faster of the two (Buffer's C++ call and the second
// object cost more than the fill), so only results of at least that size take the unfilled memory.

/** the smallest result that takes Buffer.allocUnsafeSlow's memory: where the two cross in Node 20 */
const UNSAFE_FROM = 512 * 1024

/** @type {{ allocUnsafeSlow (length: number): Uint8Array } | undefined} */
const NodeBuffer = /** @type {any} */ (globalThis).Buffer

/**
 * A new array of exactly `length` bytes that owns its memory; the writer fills every byte.
 *
 * @param {number} length
 * @returns {Uint8Array}
 */
export function resultMemory (length) {
  if (NodeBuffer === undefined || length < UNSAFE_FROM) return new Uint8Array(length)
  const memory = NodeBuffer.allocUnsafeSlow(length)
  return new Uint8Array(memory.buffer, memory.byteOffset, length)
}
