// The byte helpers lib/core/base/bytes.js uses outside Node (the package's `imports` map resolves
// its `#bytes` here for every condition but "node", which gets lib/node/bytes-node.js): plain JavaScript.

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b of a's length
 */
export const equals = (a, b) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * @param {Uint8Array} bytes
 * @param {number} from
 * @param {number} to
 */
export const copy = (bytes, from, to) => bytes.slice(from, to)
