// check/: a block's verdict (classify.js), one function for every path. Rows: a block's bytes and
// CID, which branch of the verdict takes it (the common block first), and the verdict. Then the
// same rows as one batch of sections through run/section-checks.js, which takes the first branch on the
// section's bytes itself: every block's verdict there must be the one verdict() gives.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { CID } from 'multiformats/cid'
import { varint } from 'multiformats'
import { sha256, sha512 } from 'multiformats/hashes/sha2'
import { identity } from 'multiformats/hashes/identity'
import { create as createDigest } from 'multiformats/hashes/digest'
import { blake2b } from '@noble/hashes/blake2.js'
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js'
import * as dagPb from '@ipld/dag-pb'
import * as dagJson from '@ipld/dag-json'
import * as codec from '../../../lib/core/check/dag-cbor.js'
import { verdict, commonBranch, codecOf, COMMON, NOT_COMMON, HASH_OK, HASH_MISMATCH } from '../../../lib/core/check/classify.js'
import { checkLoading } from '../../../lib/core/check/on-demand.js'
import { loadHashers, installHashers, grantJsSha256, digest32Matches } from '../../../lib/core/check/hash.js'
import { sha256Matches } from '../../../lib/core/check/sha256-js.js'
import { JS_SHA256_BYTES } from '../../../lib/core/read/limits.js'
import { verifyCar } from '../../../lib/core/run/verify-car.js'
import { hashers as platformHashers } from '#hashers'
import { processSections } from '../../../lib/core/run/section-checks.js'
import { createSummary, addBlock } from '../../../lib/core/report/summary.js'

const hex = (/** @type {string} */ h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16))
const text = (/** @type {string} */ s) => new TextEncoder().encode(s)
const BRANCH = { [COMMON]: 'COMMON', [NOT_COMMON]: 'NOT_COMMON', [HASH_OK]: 'HASH_OK', [HASH_MISMATCH]: 'HASH_MISMATCH' }

/** @param {number} code @param {Uint8Array} bytes @param {'sha2-256' | 'blake2b-256' | 'sha2-512' | 'identity'} [hash] @param {Uint8Array} [hashOf] */
async function cidOf (code, bytes, hash = 'sha2-256', hashOf = bytes) {
  if (hash === 'blake2b-256') return CID.create(1, code, createDigest(0xb220, blake2b(hashOf, { dkLen: 32 })))
  const hasher = hash === 'sha2-256' ? sha256 : hash === 'sha2-512' ? sha512 : identity
  return CID.create(1, code, await hasher.digest(hashOf))
}

const canonical = codec.encode({ a: 1, bb: [true, null], link: CID.parse('bafkqaaa') })
const unsorted = hex('a2616202616101') // {"b": 2, "a": 1}
const truncated = hex('a26161')
const oneAsFloat = hex('a16161fb3ff0000000000000') // {"a": 1.0}: canonical, a float64 holding an integer
const raw = hex('00ff00')
const pb = dagPb.encode({ Links: [] })

/**
 * @typedef {{ name: string, cid: CID, bytes: Uint8Array, branch: number, verdict: Record<string, unknown>, codec?: any }} Row
 * @returns {Promise<Row[]>}
 */
async function rows () {
  return [
    // the first branch: CIDv1, DAG-CBOR or raw, sha2-256 or blake2b-256, hash matches, canonical
    { name: 'DAG-CBOR, sha2-256, canonical', cid: await cidOf(0x71, canonical), bytes: canonical, branch: COMMON, verdict: { hash: 'ok', cls: 'canonical' } },
    { name: 'DAG-CBOR, blake2b-256, canonical', cid: await cidOf(0x71, canonical, 'blake2b-256'), bytes: canonical, branch: COMMON, verdict: { hash: 'ok', cls: 'canonical' } },
    { name: 'raw, sha2-256', cid: await cidOf(0x55, raw), bytes: raw, branch: COMMON, verdict: { hash: 'ok' } },
    { name: 'raw, blake2b-256', cid: await cidOf(0x55, raw, 'blake2b-256'), bytes: raw, branch: COMMON, verdict: { hash: 'ok' } },
    // hashed by the first branch, decided by the others
    { name: 'DAG-CBOR, bytes not what the CID hashes', cid: await cidOf(0x71, canonical, 'sha2-256', raw), bytes: canonical, branch: HASH_MISMATCH, verdict: { hash: 'mismatch', cls: 'canonical' } },
    { name: 'raw, blake2b-256, bytes not what the CID hashes', cid: await cidOf(0x55, raw, 'blake2b-256', canonical), bytes: raw, branch: HASH_MISMATCH, verdict: { hash: 'mismatch' } },
    { name: 'DAG-CBOR, keys out of order', cid: await cidOf(0x71, unsorted), bytes: unsorted, branch: HASH_OK, verdict: { hash: 'ok', cls: 'nonCanonical', rule: 'map-key-order', lossless: true } },
    { name: 'DAG-CBOR, truncated', cid: await cidOf(0x71, truncated), bytes: truncated, branch: HASH_OK, verdict: { hash: 'ok', cls: 'invalid' } },
    { name: 'DAG-CBOR, a float64 holding 1', cid: await cidOf(0x71, oneAsFloat), bytes: oneAsFloat, branch: HASH_OK, verdict: { hash: 'ok', cls: 'canonical', jsFloats: 1, jsFloatPaths: ['/a'] } },
    // not the common kind: the other branches from the start
    { name: 'raw, sha2-512', cid: await cidOf(0x55, raw, 'sha2-512'), bytes: raw, branch: NOT_COMMON, verdict: { hash: 'unverified' } },
    { name: 'raw, identity', cid: await cidOf(0x55, raw, 'identity'), bytes: raw, branch: NOT_COMMON, verdict: { hash: 'ok' } },
    { name: 'dag-pb, CIDv0', cid: CID.createV0(await sha256.digest(pb)), bytes: pb, branch: NOT_COMMON, verdict: { hash: 'ok' } },
    { name: 'dag-json, valid', cid: await cidOf(0x0129, dagJson.encode({ a: 1 })), bytes: dagJson.encode({ a: 1 }), branch: NOT_COMMON, verdict: { hash: 'ok' } },
    { name: 'dag-json, not JSON', cid: await cidOf(0x0129, raw), bytes: raw, branch: NOT_COMMON, verdict: { hash: 'ok', content: 'invalid' } },
    { name: 'an unknown codec', cid: await cidOf(0x0300, raw), bytes: raw, branch: NOT_COMMON, verdict: { hash: 'ok', content: 'unknown' } },
    { name: 'DAG-CBOR with a codec without validate(): decoded and re-encoded', cid: await cidOf(0x71, canonical), bytes: canonical, branch: NOT_COMMON, verdict: { hash: 'ok', cls: 'canonical' }, codec: { encode: codec.encode, decode: codec.decode } },
    { name: 'DAG-CBOR with a codec without validate(), keys out of order', cid: await cidOf(0x71, unsorted), bytes: unsorted, branch: NOT_COMMON, verdict: { hash: 'ok', cls: 'nonCanonical', rule: 'map-key-order' }, codec: { encode: codec.encode, decode: codec.decode } }
  ]
}

/** @param {Row} row */
const branchOf = (row) => {
  const mh = row.cid.multihash
  return row.cid.version === 1 && mh.size === 32 ? commonBranch(row.codec ?? codec, row.cid.code, mh.code, row.bytes, mh.digest, 0) : NOT_COMMON
}

/** @param {Row} row */
const verdictOf = async (row) => checkLoading(() => verdict(row.codec ?? codec, row.cid, row.bytes))

describe('core/check', () => {
  it('codecOf: a codec module (a namespace, or a bundle\'s object of getters) as a plain object of its three functions, data properties of one shape', () => {
    const getters = Object.defineProperties({}, Object.fromEntries(['code', 'decode', 'encode', 'validate'].map((k) => [k, { get: () => /** @type {any} */ (codec)[k], enumerable: true }])))
    for (const module of [codec, getters, { ...codec, validate: undefined }]) {
      const plain = codecOf(/** @type {any} */ (module))
      assert.deepEqual(Object.keys(plain), ['encode', 'decode', 'validate'])
      for (const key of /** @type {const} */ (['encode', 'decode', 'validate'])) {
        const descriptor = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(plain, key))
        assert.ok('value' in descriptor && !('get' in descriptor), key)
        assert.equal(descriptor.value, /** @type {any} */ (module)[key])
      }
    }
  })

  before(() => loadHashers())

  describe('verdict: the first branch, then the others', () => {
    it('every row, its branch and its verdict', async () => {
      for (const row of await rows()) {
        await checkLoading(() => branchOf(row)) // blake2b-256 loads at its first block
        assert.equal(BRANCH[branchOf(row)], BRANCH[row.branch], `${row.name}: branch`)
        const r = await verdictOf(row)
        for (const [k, v] of Object.entries(row.verdict)) assert.deepEqual(r[/** @type {keyof typeof r} */ (k)], v, `${row.name}: ${k}`)
        if (row.branch === COMMON) assert.deepEqual(r, row.verdict, `${row.name}: nothing more`)
        if (row.verdict.cls === 'nonCanonical' || row.verdict.cls === 'invalid') assert.ok(r.reason, `${row.name}: a reason`)
      }
    })

    it('the first branch answers with a shared result (nothing made per block)', async () => {
      const [a, b] = (await rows()).slice(0, 2)
      assert.equal(await verdictOf(a), await verdictOf(b))
    })

    it('a caller that took the first branch passes what it found: the hash is not computed again', async () => {
      const row = (await rows()).find((r) => r.name === 'DAG-CBOR, keys out of order')
      assert.ok(row)
      // told the hash matched (HASH_OK) for bytes that do not hash to the CID: the verdict believes it
      const other = hex('a2616203616101')
      assert.equal(verdict(codec, row.cid, other, {}, HASH_OK).hash, 'ok')
      assert.equal(verdict(codec, row.cid, other).hash, 'mismatch')
      assert.equal(verdict(codec, row.cid, row.bytes, {}, HASH_MISMATCH).hash, 'mismatch')
    })
  })

  describe('run/section-checks.js takes the same verdict on a batch of sections', () => {
    it('each block: null (the first branch passed) for the common ones, else verdict()\'s result; the same summary, its names in the same order', async () => {
      const every = (await rows()).filter((r) => !r.codec)
      const common = every.filter((r) => r.branch === COMMON)
      // each row twice, the first time in reverse: the common blocks of each codec and hash are
      // counted after the loop, into names first seen in another order than their slots' (the
      // common rows alone: raw and blake2b-256 first)
      for (const once of [every, common]) {
        const all = [...once.slice().reverse(), ...once]
        for (const row of all) await verdictOf(row) // what each needs is loaded
        const parts = []
        const ends = new Uint32Array(all.length)
        const starts = new Float64Array(all.length)
        let at = 0
        all.forEach((row, i) => {
          const length = row.cid.bytes.length + row.bytes.length
          const section = [...varint.encodeTo(length, new Uint8Array(varint.encodingLength(length))), ...row.cid.bytes, ...row.bytes]
          starts[i] = at
          parts.push(...section)
          ends[i] = at += section.length
        })
        /** @type {{ index: number, result: any }[]} */
        const seen = []
        const batch = { bytes: Uint8Array.from(parts), ends, starts, first: 0 }
        const { summary, error } = processSections(codec, batch, { maxBlockSize: 1 << 20, onSection: (cidBytes, data, offset, index, result) => seen.push({ index, result }) })
        assert.equal(error, null)
        assert.deepEqual(seen.map((s) => s.index), all.map((_, i) => i))
        const expected = createSummary()
        for (const [i, row] of all.entries()) {
          const r = await verdictOf(row)
          assert.deepEqual(seen[i].result, row.branch === COMMON ? null : r, row.name)
          addBlock(expected, { cid: row.cid, bytes: row.bytes, offset: starts[i] }, r)
        }
        assert.deepEqual(summary, expected)
        assert.deepEqual(Object.keys(summary.codecs), Object.keys(expected.codecs))
        assert.deepEqual(Object.keys(summary.hashes), Object.keys(expected.hashes))
      }
    })

    it('validates a CAR\'s first batch\'s DAG-CBOR blocks before it hashes any; a later batch\'s block by block; each once', async () => {
      const blocks = [codec.encode({ a: 1 }), codec.encode([1, 2]), codec.encode({ b: 'x' })]
      const parts = []
      const ends = new Uint32Array(blocks.length)
      for (const [i, bytes] of blocks.entries()) {
        const cid = await cidOf(0x71, bytes)
        const length = cid.bytes.length + bytes.length
        parts.push(...varint.encodeTo(length, new Uint8Array(varint.encodingLength(length))), ...cid.bytes, ...bytes)
        ends[i] = parts.length
      }
      /** @type {string[]} */
      const calls = []
      const watched = { ...codec, validate: (/** @type {Uint8Array} */ bytes) => { calls.push('validate'); return codec.validate(bytes) } }
      const latin1 = /** @type {NonNullable<typeof platformHashers.sha256Latin1>} */ (platformHashers.sha256Latin1)
      installHashers({ ...platformHashers, sha256Latin1: (bytes) => { calls.push('hash'); return latin1(bytes) } })
      /** @param {number} first the batch's first block's index in the CAR */
      const checked = (first) => {
        calls.length = 0
        const batch = { bytes: Uint8Array.from(parts), ends, starts: new Float64Array(blocks.length), first }
        const { summary, error } = processSections(watched, batch, { maxBlockSize: 1 << 20 })
        assert.equal(error, null)
        assert.equal(summary.dagCbor.canonical, 3)
        return [...calls]
      }
      try {
        assert.deepEqual(checked(0), ['validate', 'validate', 'validate', 'hash', 'hash', 'hash'])
        assert.deepEqual(checked(3), ['hash', 'validate', 'hash', 'validate', 'hash', 'validate'])
      } finally {
        installHashers(platformHashers)
      }
    })
  })

  describe('check/sha256-js.js: sha2-256 in plain JS, compared in place', () => {
    // FIPS 180-4's examples (NIST's "SHA256.pdf" and the one-million-a test): every padding case
    // is among them, one block with room for the length, two, and a message of exact blocks
    const vectors = [
      { data: '', digest: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' },
      { data: 'abc', digest: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' },
      { data: 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', digest: '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1' },
      { data: 'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu', digest: 'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1' },
      { data: 'a'.repeat(1_000_000), digest: 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0' }
    ]
    for (const { data, digest } of vectors) {
      it(`${data.length} bytes${data.length < 10 ? ` ('${data}')` : ''}: its digest matches, and a digest with any one byte changed does not`, () => {
        const bytes = text(data)
        const expected = hex(`ff${digest}ff`) // the digest at offset 1
        assert.equal(sha256Matches(bytes, expected, 1), true)
        for (let k = 1; k <= 32; k++) {
          expected[k] ^= 0x80
          assert.equal(sha256Matches(bytes, expected, 1), false, `byte ${k - 1} changed`)
          expected[k] ^= 0x80
        }
      })
    }

    it('512 MiB or more: a RangeError, not a digest of a length it cannot write', () => {
      assert.throws(() => sha256Matches(/** @type {any} */ ({ length: 0x20000000 }), new Uint8Array(32), 0), RangeError)
    })

    it('every length from 0 to 300 bytes, and around each multiple of 64 up to 4 KiB, as @noble/hashes hashes them', () => {
      const all = Uint8Array.from({ length: 4200 }, (_, i) => (i * 167 + 13) & 0xff)
      const lengths = [...Array.from({ length: 301 }, (_, n) => n), ...Array.from({ length: 64 }, (_, k) => [64 * k + 55, 64 * k + 56, 64 * k + 63, 64 * (k + 1)]).flat()]
      for (const n of lengths) {
        const bytes = all.subarray(7, 7 + n) // a view at an offset, as a block in a batch is
        assert.equal(sha256Matches(bytes, nobleSha256(bytes), 0), true, `${n} bytes`)
        if (n > 0) assert.equal(sha256Matches(bytes, nobleSha256(all.subarray(6, 6 + n)), 0), false, `${n} bytes, other bytes' digest`)
      }
    })
  })

  describe('check/hash.js: the JS budget (jsSha256, grantJsSha256)', () => {
    /** hashers that count their calls; sha2-256 through @noble/hashes */
    function counting (/** @type {boolean} */ jsSha256) {
      const calls = { bytes: 0, latin1: 0 }
      installHashers({
        sha256: (bytes) => { calls.bytes++; return nobleSha256(bytes) },
        sha256Latin1: (bytes) => { calls.latin1++; return String.fromCharCode(...nobleSha256(bytes)) },
        jsSha256
      })
      return calls
    }
    const blocks = [300, 200, 300].map((n, b) => Uint8Array.from({ length: n }, (_, i) => (i + b) & 0xff))
    afterEach(() => installHashers(platformHashers))

    it('granted bytes are hashed in JS, block by block, until the grant runs out; then the installed hasher', () => {
      const calls = counting(true)
      grantJsSha256(550)
      const matches = blocks.map((bytes) => digest32Matches(0x12, bytes, nobleSha256(bytes), 0))
      assert.deepEqual(matches, [true, true, true])
      assert.deepEqual(calls, { bytes: 0, latin1: 1 }) // 300 + 200 of 550 in JS; the last 300 did not fit
      assert.equal(digest32Matches(0x12, blocks[0], nobleSha256(blocks[1]), 0), false)
    })

    it('a JS mismatch is a mismatch', () => {
      counting(true)
      grantJsSha256(1000)
      assert.equal(digest32Matches(0x12, blocks[0], nobleSha256(blocks[1]), 0), false)
    })

    it('no grant past the thread\'s budget, for a size not known, or where the hashers did not ask for it', () => {
      let calls = counting(true)
      grantJsSha256(JS_SHA256_BYTES + 1)
      grantJsSha256(undefined)
      digest32Matches(0x12, blocks[0], nobleSha256(blocks[0]), 0)
      assert.equal(calls.latin1, 1)
      const big = new Uint8Array(JS_SHA256_BYTES - 100).fill(1)
      grantJsSha256(big.length)
      assert.equal(digest32Matches(0x12, big, nobleSha256(big), 0), true)
      assert.equal(calls.latin1, 1) // in JS
      grantJsSha256(101) // more than the 100 bytes left of the budget: refused whole
      digest32Matches(0x12, blocks[1].subarray(0, 100), nobleSha256(blocks[1].subarray(0, 100)), 0)
      assert.equal(calls.latin1, 2)
      grantJsSha256(100)
      digest32Matches(0x12, blocks[1].subarray(0, 100), nobleSha256(blocks[1].subarray(0, 100)), 0)
      assert.equal(calls.latin1, 2) // in JS
      calls = counting(false)
      grantJsSha256(1000)
      digest32Matches(0x12, blocks[0], nobleSha256(blocks[0]), 0)
      assert.equal(calls.latin1, 1)
    })

    it('verifyCar grants an input of known size, not a stream; the summaries are the same', async () => {
      const car = new Uint8Array(fs.readFileSync(new URL('../../fixtures/atproto/repo-small-v2.car', import.meta.url)))
      let calls = counting(true)
      const fromBytes = await verifyCar(car)
      assert.equal(fromBytes.result, 'ok')
      assert.equal(fromBytes.verified, 10)
      assert.deepEqual(calls, { bytes: 0, latin1: 0 })
      calls = counting(true)
      const fromStream = await verifyCar(new ReadableStream({ start (c) { c.enqueue(car); c.close() } }))
      assert.equal(calls.latin1, 10)
      const comparable = (/** @type {any} */ s) => ({ ...s, input: '', seconds: 0, mbPerSec: 0 })
      assert.deepEqual(comparable(fromStream), comparable(fromBytes))
    })
  })
})
