// Reading CIDs (tag 42): one row per CID content, the bytes after the 0x00 prefix, with the CID it
// must give (compared with multiformats' own CID.decode of the same bytes) or the rule and offset
// it is rejected with. Strict and relaxed decode agree: no CID rule is relaxable.
import assert from 'node:assert/strict'
import { CID } from 'multiformats/cid'
import { decode, encode, DagCborDecodeError } from '../index.js'
import { head, concat, fromHex, toHex } from './fuzz/cbor.js'

const DIGEST = '0123456789abcdef'.repeat(4) // 32 bytes
/** @param {number} n */
const digest = (n) => toHex(Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff))

/** tag 42 over a byte string of 0x00 and `content` @param {string} content */
const tagged = (content) => concat([0xd8, 0x2a], head(2, content.length / 2 + 1), [0x00], fromHex(content))
/** where the content starts in `tagged(content)`: tag (2 bytes), string head, the 0x00 @param {string} content */
const contentAt = (content) => 2 + head(2, content.length / 2 + 1).length + 1

/**
 * @typedef {{ content: string, label: string, version?: number, code?: number, rule?: undefined }} Accepted
 * @typedef {{ content: string, label: string, rule: string, why: string }} Rejected
 */

/** @type {Array<Accepted|Rejected>} */
const ROWS = [
  // CIDv0: exactly a 34-byte sha2-256 multihash (0x12 0x20 and 32 bytes)
  { content: '1220' + DIGEST, label: 'CIDv0', version: 0, code: 0x70 },
  { content: '1220' + digest(31), label: 'CIDv0 one byte short (33 bytes)', rule: 'cid', why: 'a CIDv0 must be a 34-byte sha2-256 multihash' },
  { content: '1220' + digest(33), label: 'CIDv0 with one byte over (35 bytes)', rule: 'cid', why: 'a CIDv0 must be a 34-byte sha2-256 multihash' },
  { content: '1220' + digest(30), label: 'CIDv0 two bytes short', rule: 'cid', why: 'a CIDv0 must be a 34-byte sha2-256 multihash' },
  { content: '1221' + digest(32), label: 'a 34-byte sha2-256 multihash whose length byte says 33', rule: 'cid', why: 'a CIDv0 must be a 34-byte sha2-256 multihash' },
  { content: '121f' + digest(32), label: 'a 34-byte sha2-256 multihash whose length byte says 31', rule: 'cid', why: 'a CIDv0 must be a 34-byte sha2-256 multihash' },
  { content: '1320' + digest(32), label: 'a 34-byte multihash of another hash (0x13, sha2-512)', rule: 'cid', why: 'its version is 19; only CIDv0 and CIDv1 exist' },
  { content: '1120' + digest(32), label: 'a 34-byte multihash of sha1 (0x11)', rule: 'cid', why: 'its version is 17; only CIDv0 and CIDv1 exist' },
  // CIDv1: version, codec, multihash code, digest length, digest
  { content: '01711220' + DIGEST, label: 'CIDv1 dag-cbor sha2-256', version: 1, code: 0x71 },
  { content: '01551220' + DIGEST, label: 'CIDv1 raw sha2-256', version: 1, code: 0x55 },
  { content: '01550000', label: 'CIDv1 raw, identity multihash of 0 bytes', version: 1, code: 0x55 },
  { content: '0120001e' + digest(30), label: 'a 34-byte CIDv1 whose second byte is 0x20 (codec 0x20)', version: 1, code: 0x20 },
  { content: '1220001e' + digest(30), label: 'a 34-byte CIDv0 whose digest starts 0x00 0x1e', version: 0, code: 0x70 },
  { content: '01550005' + digest(5), label: 'CIDv1 raw, identity multihash of 5 bytes', version: 1, code: 0x55 },
  { content: '0100800100', label: 'codec 0, multihash code 128, empty digest', version: 1, code: 0 },
  { content: '01800100' + '00', label: 'a 2-byte codec varint (128)', version: 1, code: 128 },
  { content: '01ffffffffffff0f0000', label: 'a codec of 2^46-1 (7-byte varint)', version: 1, code: 2 ** 46 - 1 },
  { content: '01ffffffffffffff0f0000', label: 'a codec of 2^53-1 (8-byte varint, the most read)', version: 1, code: Number.MAX_SAFE_INTEGER },
  { content: '0180808080808080100000', label: 'a codec of 2^53 (8-byte varint, beyond a safe Number)', rule: 'cid', why: 'its codec varint is missing or malformed' },
  { content: '01ffffffffffffffff010000', label: 'a 9-byte codec varint', rule: 'cid', why: 'its codec varint is missing or malformed' },
  { content: '01711220' + digest(31), label: 'CIDv1 digest one byte short', rule: 'cid', why: 'its multihash declares a digest of 32 bytes but holds 31 bytes' },
  { content: '01711220' + digest(33), label: 'CIDv1 digest with one byte over', rule: 'cid', why: 'its multihash declares a digest of 32 bytes but holds 33 bytes' },
  { content: '017112', label: 'CIDv1 without a digest length', rule: 'cid', why: 'its digest length varint is missing or malformed' },
  { content: '0171', label: 'CIDv1 without a multihash', rule: 'cid', why: 'its multihash code varint is missing or malformed' },
  { content: '01', label: 'a version alone', rule: 'cid', why: 'its codec varint is missing or malformed' },
  { content: '01ff', label: 'a codec varint cut short', rule: 'cid', why: 'its codec varint is missing or malformed' },
  { content: '0171ff', label: 'a multihash code varint cut short', rule: 'cid', why: 'its multihash code varint is missing or malformed' },
  { content: '017112ff', label: 'a digest length varint cut short', rule: 'cid', why: 'its digest length varint is missing or malformed' },
  { content: '01f1001220' + DIGEST, label: 'a codec varint with a trailing 0x00 (not shortest)', rule: 'cid', why: 'its codec varint is missing or malformed' },
  { content: '0171920020' + DIGEST, label: 'a multihash code varint with a trailing 0x00', rule: 'cid', why: 'its multihash code varint is missing or malformed' },
  { content: '01711280' + '00' + DIGEST, label: 'a digest length varint of 0x80 0x00', rule: 'cid', why: 'its digest length varint is missing or malformed' },
  { content: '8100711220' + DIGEST, label: 'a version varint with a trailing 0x00', rule: 'cid', why: 'its version varint is missing or malformed' },
  { content: '00711220' + DIGEST, label: 'an explicit version 0', rule: 'cid', why: 'it starts with an explicit version 0 (CIDv0 has no version prefix)' },
  { content: '02711220' + DIGEST, label: 'version 2', rule: 'cid', why: 'its version is 2; only CIDv0 and CIDv1 exist' },
  { content: '', label: 'nothing after the 0x00 prefix', rule: 'cid', why: 'its version varint is missing or malformed' },
  { content: 'ff', label: 'a version varint cut short', rule: 'cid', why: 'its version varint is missing or malformed' }
]

describe('CIDs: tag 42 content, row by row', () => {
  for (const row of ROWS) {
    const input = tagged(row.content)
    if (row.rule === undefined) {
      const { content, label, version, code } = /** @type {Accepted} */ (row)
      it(`${label} (${content.slice(0, 16)}${content.length > 16 ? '…' : ''}): a CID v${version}, codec ${code}`, () => {
        const expected = CID.decode(fromHex(content))
        for (const opts of [undefined, { relaxed: true }, { viewBytes: true }]) {
          const cid = decode(input, opts)
          assert.ok(cid instanceof CID)
          assert.equal(cid.version, version)
          assert.equal(cid.code, code)
          assert.equal(toHex(cid.bytes), content)
          assert.ok(cid.equals(expected))
          assert.equal(cid.toString(), expected.toString())
          assert.equal(cid.multihash.code, expected.multihash.code)
          assert.equal(cid.multihash.size, expected.multihash.size)
          assert.equal(toHex(cid.multihash.digest), toHex(expected.multihash.digest))
          assert.equal(toHex(cid.multihash.bytes), toHex(expected.multihash.bytes))
          assert.deepEqual(cid, expected)
        }
        assert.equal(toHex(encode(decode(input))), toHex(input), 'the CID re-encodes to the same bytes')
      })
    } else {
      const { content, label, rule, why } = /** @type {Rejected} */ (row)
      it(`${label} (${content.slice(0, 16)}${content.length > 16 ? '…' : ''}): rejected, rule '${rule}'`, () => {
        for (const opts of [undefined, { relaxed: true }]) {
          assert.throws(() => decode(input, opts), (/** @type {any} */ e) => {
            assert.ok(e instanceof DagCborDecodeError, String(e))
            assert.equal(e.rule, rule, e.message)
            assert.equal(e.relaxable, false)
            // a CID's own faults are reported where its bytes start (after the 0x00)
            assert.equal(e.offset, contentAt(content), e.message)
            assert.equal(e.detail, `tag 42 does not hold exactly one valid CID: ${why}`)
            return true
          })
        }
      })
    }
  }
})

describe('CIDs: the prefix and the byte string around them', () => {
  const v1 = '01711220' + DIGEST
  const rows = [
    { hex: 'd82a5825' + '01' + v1, rule: 'cid', offset: 4, label: 'a 0x01 prefix instead of 0x00', detail: 'tag 42 (CID) bytes must start with the 0x00 prefix' },
    { hex: 'd82a5825' + 'ff' + v1, rule: 'cid', offset: 4, label: 'a 0xff prefix', detail: 'tag 42 (CID) bytes must start with the 0x00 prefix' },
    { hex: 'd82a40', rule: 'cid', offset: 3, label: 'an empty byte string', detail: 'tag 42 (CID) bytes must start with the 0x00 prefix' },
    { hex: '82d82a4000', rule: 'cid', offset: 4, label: 'an empty byte string followed by a 0x00 item', detail: 'tag 42 (CID) bytes must start with the 0x00 prefix' },
    { hex: 'd82a6100', rule: 'cid', offset: 2, label: 'a text string' },
    { hex: 'd82a8100', rule: 'cid', offset: 2, label: 'an array' },
    { hex: 'd82a00', rule: 'cid', offset: 2, label: 'an integer' },
    { hex: 'd82a', rule: 'truncated', offset: 2, label: 'nothing after the tag' },
    { hex: 'd82a5825' + '00' + v1.slice(0, -2), rule: 'truncated', offset: 2, label: 'a byte string longer than the input' }
  ]
  for (const { hex, rule, offset, label, detail } of /** @type {Array<{ hex: string, rule: string, offset: number, label: string, detail?: string }>} */ (rows)) {
    it(`${label}: rule '${rule}' at byte ${offset}`, () => {
      for (const opts of [undefined, { relaxed: true }]) {
        assert.throws(() => decode(fromHex(hex), opts), (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === rule && e.offset === offset &&
          (detail === undefined || e.detail === detail))
      }
    })
  }
})

describe('CIDs: the multihash of a decoded CID', () => {
  for (const content of ['1220' + DIGEST, '01711220' + DIGEST, '01550005' + digest(5)]) {
    it(`${content.slice(0, 8)}…: built on first read, kept, settable, and right on a frozen CID`, () => {
      const parsed = CID.decode(fromHex(content))
      const expected = parsed.multihash
      const cid = decode(tagged(content))
      assert.deepEqual(Object.keys(cid), Object.keys(parsed), 'the same own enumerable keys, in order, before multihash is read')
      const first = cid.multihash
      assert.equal(cid.multihash, first, 'the second read gives the same Digest')
      assert.deepEqual(first, expected)
      assert.ok(Object.getOwnPropertyDescriptor(cid, 'multihash')?.enumerable)
      const other = decode(tagged(content))
      other.multihash = expected
      assert.equal(other.multihash, expected, 'assigning replaces it')
      // once read, a plain data property, as on a CID made by multiformats
      assert.deepEqual(Object.getOwnPropertyDescriptor(cid, 'multihash'), { ...Object.getOwnPropertyDescriptor(parsed, 'multihash'), value: first })
      const frozen = Object.freeze(decode(tagged(content)))
      assert.deepEqual(frozen.multihash, expected)
      assert.deepEqual(frozen.multihash.digest, expected.digest)
    })
  }

  it('a CIDv0 is its multihash: its bytes are the multihash bytes, as in multiformats', () => {
    const content = '1220' + DIGEST
    const parsed = CID.decode(fromHex(content))
    assert.equal(parsed.multihash.bytes, parsed.bytes)
    const cid = decode(tagged(content))
    assert.equal(cid.multihash.bytes, cid.bytes)
  })

  it('the digest is a view of the CID bytes, which own their memory', () => {
    const cid = decode(tagged('01711220' + DIGEST))
    assert.equal(cid.multihash.digest.buffer, cid.bytes.buffer)
    assert.equal(cid.multihash.bytes.buffer, cid.bytes.buffer)
    assert.equal(cid.bytes.byteOffset, 0)
    assert.equal(cid.bytes.buffer.byteLength, 36)
  })
})

describe('CIDs: a decoded CID is a multiformats CID in every observable way', () => {
  /** @param {object} o */
  const descriptors = (o) => Reflect.ownKeys(o).map((key) => {
    const d = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(o, key))
    return [String(key), d.enumerable, d.configurable, 'value' in d ? d.writable : 'accessor']
  })
  for (const content of ['1220' + DIGEST, '01711220' + DIGEST, '01550005' + digest(5)]) {
    it(`${content.slice(0, 8)}…: own keys and their attributes, prototype, tag, text forms, clones, a frozen one`, () => {
      const parsed = CID.decode(fromHex(content))
      // three in one value: each its own object, all of one form
      const [cid, second, third] = decode(concat([0x83], tagged(content), tagged(content), tagged(content)))
      assert.notEqual(cid, second)
      assert.notEqual(cid.bytes, second.bytes)
      assert.equal(Object.getPrototypeOf(cid), CID.prototype)
      assert.ok(cid instanceof CID)
      assert.equal(cid.constructor, CID)
      assert.equal(CID.asCID(cid), cid)
      assert.deepEqual(Reflect.ownKeys(cid), Reflect.ownKeys(parsed), 'the same own keys, symbols too, in order')
      // before multihash is read it is an accessor, with the attributes of the data property it becomes
      assert.deepEqual(descriptors(cid), descriptors(parsed).map((d) => d[0] === 'multihash' ? [...d.slice(0, 3), 'accessor'] : d))
      assert.equal(Object.prototype.toString.call(cid), Object.prototype.toString.call(parsed))
      assert.equal(cid.toString(), parsed.toString())
      assert.equal(JSON.stringify(cid), JSON.stringify(parsed))
      assert.deepEqual(structuredClone(second), structuredClone(parsed))
      assert.deepEqual({ ...third }, { ...parsed })
      assert.ok(cid.multihash)
      assert.deepEqual(descriptors(cid), descriptors(parsed))
      assert.deepEqual(cid, parsed)
      const frozen = Object.freeze(decode(tagged(content)))
      assert.ok(Object.isFrozen(frozen))
      assert.equal(frozen.toString(), parsed.toString())
      assert.ok(frozen.equals(parsed) && parsed.equals(frozen))
      assert.equal(CID.asCID(frozen), frozen)
      assert.deepEqual(frozen, parsed)
    })
  }
})
