// #modules-now (package.json's imports map): the modules a synchronous call may need at its first
// use, given by functions. Outside Node (lib/core/base/modules-now.js) they are imported with the
// module; in Node (lib/node/load-at-first-call-node.js) each is loaded at the first call that asks for it
// (test/library-import.spec.js: not at import). Both give the very modules import() gives, one
// instance each, so a codec loaded either way is the same module as the caller's.
import assert from 'node:assert/strict'
import * as outsideNode from '../../../lib/core/base/modules-now.js'
import * as inNode from '../../../lib/node/load-at-first-call-node.js'
import * as viaImportsMap from '#modules-now'

const MODULES = /** @type {const} */ ([['dagJson', '@ipld/dag-json'], ['dagPb', '@ipld/dag-pb'], ['dagCbor', 'dag-cbor-fast'], ['sha2', '@noble/hashes/sha2.js'], ['blake2', '@noble/hashes/blake2.js']])

describe('#modules-now: the modules a synchronous call needs, at its first use', () => {
  it('in Node the imports map gives lib/node/load-at-first-call-node.js', () => {
    assert.equal(viaImportsMap.dagJson, inNode.dagJson)
  })

  for (const [name, specifier] of MODULES) {
    it(`${name}(): ${specifier}, the module import() gives, in Node and outside`, async () => {
      const imported = await import(specifier)
      assert.equal(inNode[name](), imported)
      assert.equal(inNode[name](), inNode[name]()) // loaded once
      assert.equal(outsideNode[name](), imported)
    })
  }

  it('what they give works: DAG-JSON and dag-pb round trips, sha2-256 and blake2b-256 digests', () => {
    const json = inNode.dagJson().encode({ a: [1, 'b'] })
    assert.deepEqual(inNode.dagJson().decode(json), { a: [1, 'b'] })
    const pb = { Data: new Uint8Array([8, 1]), Links: [] }
    assert.deepEqual(inNode.dagPb().decode(inNode.dagPb().encode(pb)), pb)
    assert.equal(Buffer.from(inNode.sha2().sha256(new Uint8Array(0))).toString('hex'), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    assert.equal(inNode.blake2().blake2b(new Uint8Array(0), { dkLen: 32 }).length, 32)
  })
})
