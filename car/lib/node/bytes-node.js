// Node's byte helpers, which lib/core/base/bytes.js uses: the package's `imports` map resolves its
// `#bytes` to this file under the "node" condition (package.json; elsewhere lib/core/base/bytes-js.js).
import { Buffer } from 'node:buffer'

/** @param {Uint8Array} u */
const view = (u) => Buffer.from(u.buffer, u.byteOffset, u.byteLength)

/**
 * Buffer#equals (memcmp) for whole blocks.
 *
 * @param {Uint8Array} a
 * @param {Uint8Array} b of a's length
 */
export const equals = (a, b) => view(a).equals(view(b))

/**
 * Blocks copied out of their batch: memory that the copy fills at once needs no zero-filling first
 * (allocUnsafeSlow: never the shared pool; its ArrayBuffer is exactly this long).
 *
 * @param {Uint8Array} bytes
 * @param {number} from
 * @param {number} to
 */
export function copy (bytes, from, to) {
  const own = new Uint8Array(Buffer.allocUnsafeSlow(to - from).buffer)
  own.set(bytes.subarray(from, to))
  return own
}
