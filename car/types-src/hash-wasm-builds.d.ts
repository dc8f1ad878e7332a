// hash-wasm's single-algorithm builds (dist/*.umd.min.js), which the core imports rather than the
// package's entry (which carries every algorithm's WebAssembly): the entry's types.
declare module 'hash-wasm/dist/sha256.umd.min.js' {
  export * from 'hash-wasm'
}
declare module 'hash-wasm/dist/blake2b.umd.min.js' {
  export * from 'hash-wasm'
}
