// The codec the tool loads by default (lib/codec.js) has validate(), the check without a value that
// the fast path of every DAG-CBOR block takes; without it each block would be decoded and re-encoded.
import assert from 'node:assert/strict'
import { defaultCodecUrl } from '../../lib/node/run.js'

describe('the default codec', () => {
  it('is dag-cbor-fast with validate from its own entry', async () => {
    const codec = await import(defaultCodecUrl())
    assert.equal(codec.code, 0x71)
    assert.equal(typeof codec.validate, 'function')
    assert.equal(codec.validate(codec.encode({ a: 1.5 })).integralFloats, 0)
    assert.equal(codec.validate(codec.encode({ a: [1] })).links, null)
  })
})
