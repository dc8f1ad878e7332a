import { named } from './errors.js'

// Input bytes as a plain Uint8Array, for the decoder and for CIDs read through cborg's options:
// both copy byte strings with slice(), which a subclass (Node's buffers) redefines as a view.

/**
 * @template T
 * @param {import('multiformats/codecs/interface').ByteView<T> | import('multiformats/codecs/interface').ArrayBufferView<T> | ArrayBufferView} data
 * @returns {import('multiformats/codecs/interface').ByteView<T>}
 */
export function toByteView (data) {
  // a subclass (Node's buffers) may redefine slice() as a view: read through a plain Uint8Array
  if (data instanceof Uint8Array && data.constructor === Uint8Array) return data
  if (data instanceof ArrayBuffer) return new Uint8Array(data, 0, data.byteLength)
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
  throw new TypeError(`DAG-CBOR decode: expected bytes (a Uint8Array, ArrayBuffer or ArrayBufferView), got ${
    data === null || data === undefined ? data : named(typeof data === 'object' ? Object.prototype.toString.call(data).slice(8, -1) : typeof data)}`)
}
