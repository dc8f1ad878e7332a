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
 * Blocks copied out of their batch, each into an ArrayBuffer exactly its length (never a shared
 * one, nor Buffer's pool): a plain Uint8Array's slice(), one allocation and one copy, costs less
 * per small block than allocUnsafeSlow, which also makes and drops a Buffer object. A Buffer's
 * slice() is a view, so a Buffer is sliced through a plain Uint8Array over its bytes.
 *
 * @param {Uint8Array} bytes
 * @param {number} from
 * @param {number} to
 */
export function copy (bytes, from, to) {
  const plain = bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return plain.slice(from, to)
}
