// The Node shell's hashers, installed into the core when this module is first imported (by every
// Node entry point: the CLI's commands, worker threads, the package's Node entry): sha2-256 through
// node:crypto's one-shot hash() (no Hash object, no multihash wrapper), the fastest in Node, and no
// WebAssembly to load for it. blake2b-256 stays an on-demand load of hash-wasm's build (at the first
// blake2b-256 block), through require, which reads the file as it is: import() would first scan its
// source for exports. Also Buffer#equals (memcmp) for the core's byte comparisons.
import { Buffer } from 'node:buffer'
import crypto from 'node:crypto'
import { createRequire } from 'node:module'
import { installHashers } from '../core/check/hash.js'
import { installEquals, installCopy } from '../core/base/bytes.js'

installHashers({
  backend: 'node:crypto',
  // Node before 20.12 has no hash(): createHash
  sha256: typeof crypto.hash === 'function'
    ? (bytes) => /** @type {Buffer} */ (crypto.hash('sha256', bytes, 'buffer'))
    : (bytes) => crypto.createHash('sha256').update(bytes).digest(),
  // a 'binary' (latin1) string, one character per digest byte: made on V8's heap, where a Buffer
  // takes a native allocation that the garbage collector must then track and sweep, once per block
  sha256Latin1: typeof crypto.hash === 'function'
    ? (bytes) => crypto.hash('sha256', bytes, 'binary')
    : (bytes) => crypto.createHash('sha256').update(bytes).digest('binary'),
  loadBlake2b256: async () => {
    const { createBLAKE2b } = /** @type {typeof import('hash-wasm')} */ (createRequire(import.meta.url)('hash-wasm/dist/blake2b.umd.min.js'))
    const hasher = await createBLAKE2b(256)
    return (bytes) => hasher.init().update(bytes).digest('binary')
  }
})

/** @param {Uint8Array} u */
const view = (u) => Buffer.from(u.buffer, u.byteOffset, u.byteLength)
installEquals((a, b) => view(a).equals(view(b)))
// blocks copied out of their batch: memory that the copy fills at once needs no zero-filling first
// (allocUnsafeSlow: never the shared pool; its ArrayBuffer is exactly this long)
installCopy((bytes, from, to) => {
  const own = new Uint8Array(Buffer.allocUnsafeSlow(to - from).buffer)
  own.set(bytes.subarray(from, to))
  return own
})
