// did:key parsing and commit signature checks against the atproto interop vectors
// (car/test/fixtures/atproto/signature-fixtures.json, w3c_didkey_*.json).
import assert from 'node:assert/strict'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { p256 } from '@noble/curves/nist.js'
import { base58btc } from 'multiformats/bases/base58'
import { parseDidKey, parseMultikey, keyFromDidDocument, KeyError } from '../../../../lib/core/check/atproto/did-key.js'
import { signatureProblem } from '../../../../lib/core/check/atproto/signature.js'
import { fixtureJson } from './helpers/fixtures.js'
import { keyPair } from './helpers/repo-builder.js'

const b64 = (/** @type {string} */ s) => new Uint8Array(Buffer.from(s, 'base64'))

describe('atproto keys and signatures (interop vectors)', () => {
  it('signature-fixtures.json: valid ones verify; high-S and DER ones are refused, each saying why', () => {
    const vectors = fixtureJson('signature-fixtures.json')
    assert.equal(vectors.length, 6)
    for (const v of vectors) {
      const key = parseDidKey(v.publicKeyDid)
      assert.equal(key.curve, v.algorithm === 'ES256K' ? 'k256' : 'p256', v.comment)
      // the Multikey form of the same key in the vector is the legacy multibase (no multicodec); the did:key is the one to parse
      const problem = signatureProblem(b64(v.messageBase64), b64(v.signatureBase64), key)
      if (v.validSignature) assert.equal(problem, null, v.comment)
      else if (v.tags.includes('high-s')) assert.match(String(problem), /high-S/, v.comment)
      else if (v.tags.includes('der-encoded')) assert.match(String(problem), /not a 64-byte compact.*DER/, v.comment)
      else assert.fail(`unexpected vector ${v.comment}`)
    }
  })

  it('a valid signature over other bytes, or from another key, does not verify', () => {
    const [valid] = fixtureJson('signature-fixtures.json')
    const message = b64(valid.messageBase64)
    message[message.length - 1] ^= 1
    assert.match(String(signatureProblem(message, b64(valid.signatureBase64), parseDidKey(valid.publicKeyDid))), /does not verify/)
    const other = keyPair('p256')
    assert.match(String(signatureProblem(b64(valid.messageBase64), b64(valid.signatureBase64), parseDidKey(other.did))), /does not verify/)
  })

  it('w3c_didkey_K256.json and _P256.json: the did:key of each private key parses to its public key', () => {
    const k256 = fixtureJson('w3c_didkey_K256.json')
    const p256v = fixtureJson('w3c_didkey_P256.json')
    assert.ok(k256.length >= 5 && p256v.length >= 1)
    for (const v of k256) {
      const publicKey = secp256k1.getPublicKey(Buffer.from(v.privateKeyBytesHex, 'hex'), true)
      const key = parseDidKey(v.publicDidKey)
      assert.equal(key.curve, 'k256')
      assert.deepEqual(key.publicKey, publicKey)
      assert.equal(keyPair('k256', Buffer.from(v.privateKeyBytesHex, 'hex')).did, v.publicDidKey, 'the test builder encodes did:keys as the vectors do')
    }
    for (const v of p256v) {
      const secret = base58btc.baseDecode(v.privateKeyBytesBase58)
      const key = parseDidKey(v.publicDidKey)
      assert.equal(key.curve, 'p256')
      assert.deepEqual(key.publicKey, p256.getPublicKey(secret, true))
      assert.equal(keyPair('p256', secret).did, v.publicDidKey)
    }
  })

  it('bad did:keys are refused with a reason', () => {
    assert.throws(() => parseDidKey('did:plc:ewvi7nxzyoun6zhxrhs64oiz'), KeyError)
    assert.throws(() => parseDidKey('did:key:abc'), /base58btc multibase/)
    assert.throws(() => parseDidKey('did:key:z' + 'l'), /not valid base58btc/)
    const ed25519 = base58btc.encode(Uint8Array.from([0xed, 0x01, ...new Uint8Array(32).fill(7)]))
    assert.throws(() => parseMultikey(ed25519), /key type 0xed/)
    const offCurve = base58btc.encode(Uint8Array.from([0xe7, 0x01, 0x02, ...new Uint8Array(32).fill(0xff)]))
    assert.throws(() => parseMultikey(offCurve), /not a valid K-256 public key/)
  })

  it('DID documents: the #atproto Multikey, or the legacy form with an uncompressed key', () => {
    const pair = keyPair('k256')
    const did = 'did:plc:ewvi7nxzyoun6zhxrhs64oiz'
    const multikey = pair.did.slice('did:key:'.length)
    const doc = { id: did, verificationMethod: [{ id: `${did}#other`, type: 'Multikey', controller: did, publicKeyMultibase: keyPair('p256').did.slice(8) }, { id: `${did}#atproto`, type: 'Multikey', controller: did, publicKeyMultibase: multikey }] }
    const found = keyFromDidDocument(doc, 'doc.json')
    assert.equal(found.did, did)
    assert.deepEqual(found.key.publicKey, pair.publicKey)
    const legacy = { id: did, verificationMethod: [{ id: '#atproto', type: 'EcdsaSecp256k1VerificationKey2019', controller: did, publicKeyMultibase: base58btc.encode(secp256k1.getPublicKey(pair.secret, false)) }] }
    const fromLegacy = keyFromDidDocument(legacy, 'legacy.json')
    assert.equal(fromLegacy.key.curve, 'k256')
    assert.deepEqual(secp256k1.Point.fromBytes(fromLegacy.key.publicKey).toBytes(true), pair.publicKey)
    assert.throws(() => keyFromDidDocument({ id: did, verificationMethod: [] }, 'empty.json'), /no atproto signing key/)
    assert.throws(() => keyFromDidDocument({ verificationMethod: [] }, 'noid.json'), /not a DID document/)
  })
})
