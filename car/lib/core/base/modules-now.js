// Own file: the package's `imports` map names it (package.json's #modules-now).
// The modules a synchronous call may need at its first use (blockToJson's DAG-JSON and dag-pb, a
// hash computed before the faster hasher is loaded, the codec's encoder for a non-canonical block
// or a rewrite: check/dag-cbor.js), as functions that give each: outside Node,
// imported with this module, as nothing can be loaded synchronously later. Node gets
// lib/node/load-at-first-call-node.js, which loads each at the first call that asks for it.
import * as dagJsonModule from '@ipld/dag-json'
import * as dagPbModule from '@ipld/dag-pb'
import * as dagCborModule from 'dag-cbor-fast'
import * as sha2Module from '@noble/hashes/sha2.js'
import * as blake2Module from '@noble/hashes/blake2.js'

export const dagJson = () => dagJsonModule
export const dagPb = () => dagPbModule
export const dagCbor = () => dagCborModule
export const sha2 = () => sha2Module
export const blake2 = () => blake2Module
