// SeenCids: the duplicate counter's table, from its small first size through many doublings; and
// the fingerprints it keeps, the same whichever path made them.
import assert from 'node:assert/strict'
import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { SeenCids, fingerprintInto, fingerprintCidV1 } from '../lib/core/graph/seen.js'

/** @param {number} i a distinct 36-byte CID-like key per i */
function key (i) {
  const b = new Uint8Array(36).fill(0x12)
  new DataView(b.buffer).setUint32(4, i)
  return b
}

describe('SeenCids', () => {
  it('starts small and grows: 100,000 distinct keys are new once, and seen again after every doubling', () => {
    const seen = new SeenCids()
    const first = seen.slots.length
    for (let i = 0; i < 100_000; i++) assert.equal(seen.add(key(i)), false, `key ${i} reported as seen before`)
    assert.equal(seen.size, 100_000)
    assert.ok(seen.slots.length >= first * 128, 'the table grew')
    for (let i = 0; i < 100_000; i += 97) assert.equal(seen.add(key(i)), true, `key ${i} not found after growing`)
    assert.equal(seen.size, 100_000)
  })
})

/** @param {Uint8Array} bytes @returns {string} the fingerprint fingerprintInto makes, as 'a:b' */
function fingerprint (bytes) {
  const out = new Uint32Array(2)
  fingerprintInto(bytes, 0, bytes.length, out, 0)
  return `${out[0]}:${out[1]}`
}

/** @param {number} code @param {number} size @param {(i: number) => number} byte @returns {Uint8Array} */
const digestOf = (code, size, byte) => Digest.create(code, Uint8Array.from({ length: size }, (_, i) => byte(i))).bytes

describe('CID fingerprints', () => {
  const SHA2_256 = 0x12
  const BLAKE2B_256 = 0xb220
  const v1 = (/** @type {number} */ codec, /** @type {Uint8Array} */ multihash) => CID.createV1(codec, Digest.decode(multihash)).bytes
  const sha = (/** @type {number} */ at, /** @type {number} */ value) => digestOf(SHA2_256, 32, (i) => i === at ? value : i)

  it('a section\'s CIDv1 head gives the fingerprint its bytes give (sections.js and every other caller agree)', () => {
    const cids = [
      v1(0x71, sha(0, 0)),
      v1(0x55, sha(0, 0)),
      v1(0x71, digestOf(BLAKE2B_256, 32, (i) => 255 - i)),
      v1(0x0129, digestOf(0x13, 32, (i) => i * 3)), // sha2-512 code with a 32-byte digest: read whole
      v1(0x71, digestOf(0x00, 32, (i) => i)) // identity, 32 bytes
    ]
    for (const cid of cids) {
      const section = new Uint8Array(cid.length + 3)
      section.set(cid, 3)
      const decoded = CID.decode(cid)
      const digestAt = 3 + cid.length - 32
      const out = new Uint32Array(4)
      fingerprintCidV1(section, 3, decoded.multihash.code, digestAt, out, 1)
      assert.equal(`${out[2]}:${out[3]}`, fingerprint(cid), decoded.toString())
    }
  })

  it('reads the codec, the hash and the first 8 bytes of a sha2-256 or blake2b-256 digest, and every byte of any other', () => {
    const base = fingerprint(v1(0x71, sha(0, 0)))
    assert.notEqual(fingerprint(v1(0x55, sha(0, 0))), base, 'another codec')
    assert.notEqual(fingerprint(v1(0x71, sha(7, 99))), base, 'digest byte 7')
    assert.equal(fingerprint(v1(0x71, sha(8, 99))), base, 'digest byte 8 is past what is read')
    assert.notEqual(fingerprint(v1(0x71, digestOf(BLAKE2B_256, 32, (i) => i))), base, 'another hash, same digest')
    // CIDv0: the same sha2-256 multihash, no version or codec
    const v0 = (/** @type {number} */ at) => CID.createV0(Digest.decode(sha(at, 99))).bytes
    assert.notEqual(fingerprint(v0(7)), fingerprint(v0(0)))
    assert.equal(fingerprint(v0(31)), fingerprint(v0(30)))
    // read whole: identity digests, digests of other sizes, other hashes
    const identity = (/** @type {number} */ last) => v1(0x71, digestOf(0x00, 32, (i) => i === 31 ? last : 0))
    assert.notEqual(fingerprint(identity(1)), fingerprint(identity(2)))
    const short = (/** @type {number} */ last) => v1(0x71, digestOf(SHA2_256, 20, (i) => i === 19 ? last : 0))
    assert.notEqual(fingerprint(short(1)), fingerprint(short(2)))
    const other = (/** @type {number} */ last) => v1(0x71, digestOf(0x1e, 32, (i) => i === 31 ? last : 0))
    assert.notEqual(fingerprint(other(1)), fingerprint(other(2)))
  })
})
