// Own file: the package's `imports` map names it (package.json's #hashers).
// The hashers lib/core/check/hash.js installs as it loads outside Node (the package's `imports` map
// resolves its `#hashers` here for Deno, Bun, browsers and workerd; Node gets lib/node/hashers-node.js):
// none. sha2-256 and blake2b-256 are loaded when the first block that needs one is met (hash.js):
// hash-wasm's WebAssembly builds, or @noble/hashes where WebAssembly cannot be compiled.

/** @type {import('./hash.js').Hashers} */
export const hashers = {}
