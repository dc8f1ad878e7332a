// Node's hashers, which lib/core/check/hash.js installs as it loads: the package's `imports` map
// resolves its `#hashers` to this file under the "node" condition, Bun's too (package.json; Deno and
// bundles for browsers and workerd get lib/core/check/hashers-default.js). sha2-256 is node:crypto's one-shot
// hash() (no Hash object, no multihash wrapper), the fastest in Node, and no WebAssembly to load
// for it. blake2b-256 stays an on-demand load of hash-wasm's build (at the first blake2b-256 block),
// through require, which reads the file as it is: import() would first scan its source for exports.

/** @type {typeof import('node:crypto') | null} */
let crypto = null
/**
 * node:crypto, loaded at the first hash rather than with this module (it loads Node's stream
 * modules with it): a batch's blocks are validated before they are hashed (core/run/section-checks.js
 * validateSections), and the load then comes after the validator has started
 */
const nodeCrypto = () => (crypto ??= /** @type {typeof import('node:crypto')} */ (process.getBuiltinModule('node:crypto')))

/** @type {import('../core/check/hash.js').Hashers} */
export const hashers = {
  backend: 'node:crypto',
  // From V8 13 (Node 24) on, a fresh process hashes a small CAR in plain JS in less time than it
  // takes to load node:crypto: a thread's first JS_SHA256_BYTES of inputs of known size go through
  // core/check/sha256-js.js (hash.js grantJsSha256). In Node 20 and 22 the JS is the slower, and
  // Bun (JavaScriptCore, with its own node:crypto) is left as it was.
  jsSha256: process.versions.bun === undefined && Number(process.versions.v8.split('.')[0]) >= 13,
  sha256: (bytes) => /** @type {Buffer} */ (nodeCrypto().hash('sha256', bytes, 'buffer')),
  // a 'binary' (latin1) string, one character per digest byte: made on V8's heap, where a Buffer
  // takes a native allocation that the garbage collector must then track and sweep, once per block
  sha256Latin1: (bytes) => nodeCrypto().hash('sha256', bytes, 'binary'),
  loadBlake2b256: async () => {
    // node:module only now: at start-up it would load four modules for this rare hash
    const { createRequire } = /** @type {typeof import('node:module')} */ (process.getBuiltinModule('node:module'))
    const { createBLAKE2b } = /** @type {typeof import('hash-wasm')} */ (createRequire(import.meta.url)('hash-wasm/dist/blake2b.umd.min.js'))
    const hasher = await createBLAKE2b(256)
    return (bytes) => hasher.init().update(bytes).digest('binary')
  }
}
