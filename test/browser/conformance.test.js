/* global describe, it */
// Conformance over test/fixtures/codec-fixtures, in the browser. The fixture bytes are embedded
// into the bundle at build time by run.js (virtual module 'virtual:codec-fixtures'; the build throws
// when the fixtures are missing). For each: decode, re-encode byte-identically, and check that the
// sha2-256 CIDv1 (dag-cbor) of the re-encoded bytes is the fixture's file name.
import fixtures from 'virtual:codec-fixtures'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import * as dagCbor from '../../index.js'
import { ok, is, bytesEqual } from './assert.js'

function fromBase64 (b64) {
  const bin = atob(b64)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

describe('conformance: codec-fixtures (browser)', () => {
  it('has all 128 fixtures embedded', () => {
    is(fixtures.length, 128, 'fixture count')
  })

  it('hashes with crypto.subtle in this page (multiformats browser sha256)', () => {
    ok(globalThis.crypto && globalThis.crypto.subtle, 'crypto.subtle missing: not a secure context?')
  })

  for (const { name, cid, base64 } of fixtures) {
    it(`${name}: decode, re-encode identically, CID matches`, async () => {
      const bytes = fromBase64(base64)
      const value = dagCbor.decode(bytes)
      const again = dagCbor.encode(value)
      bytesEqual(again, bytes, 're-encoded bytes')
      const digest = await sha256.digest(again)
      const got = CID.create(1, dagCbor.code, digest)
      is(got.toString(), cid, 'CID of the re-encoded bytes')
      ok(got.equals(CID.parse(cid)), 'CID.equals')
    })
  }
})
