// The memory of a large encode result, everywhere but Node and Bun (package.json's "imports" maps
// '#result-memory' to lib/result-memory-node.js there): a new zero-filled array.

/**
 * A new array of exactly `length` bytes that owns its memory; the writer fills every byte.
 *
 * @param {number} length
 * @returns {Uint8Array}
 */
export function resultMemory (length) {
  return new Uint8Array(length)
}
