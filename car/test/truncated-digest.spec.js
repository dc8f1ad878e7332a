// A CID may carry a truncated multihash: the first N bytes of its function's digest (the multihash
// spec allows it; go-cid's Prefix.Sum writes them). Such a block hashes to its CID when its digest
// starts with those bytes: checked, not a mismatch, from 20 bytes up; under 20 bytes the digest
// vouches for nothing, so the block is unverified (read/limits.js MIN_TRUNCATED_DIGEST). Expected
// digests come from multiformats' hashers, not the tool's.
import assert from 'node:assert/strict'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { create as createDigest } from 'multiformats/hashes/digest'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import { carV1 } from './helpers/car-oracle.js'
import { verifyCar, CarBlockIterator, CarBufferReader, CarReader, CarBufferWriter } from '../lib/node/node-library.js'

/**
 * A block under a CID whose digest is cut to `length` bytes (`flip`: its last byte changed).
 *
 * @param {any} hasher @param {number} length @param {boolean} [flip]
 */
async function truncatedBlock (hasher, length, flip = false) {
  const bytes = dagCbor.encode({ truncated: length, hasher: hasher.name })
  const digest = (await hasher.digest(bytes)).digest.slice(0, length)
  if (flip && length > 0) digest[length - 1] ^= 1
  return { cid: CID.create(1, dagCbor.code, createDigest(hasher.code, digest)), bytes }
}

/** @param {{ cid: CID, bytes: Uint8Array }} block */
const carOf = (block) => new Uint8Array(carV1([block.cid], [block]))

describe('truncated digests', function () {
  for (const hasher of [sha256, blake2b256]) {
    for (const length of [20, 24, 31]) {
      it(`${hasher.name} cut to ${length} bytes, its bytes' digest starting with them: checked, ok on every path`, async () => {
        const block = await truncatedBlock(hasher, length)
        const car = carOf(block)
        const summary = await verifyCar(car)
        assert.equal(summary.result, 'ok', JSON.stringify(summary.problems))
        assert.equal(summary.verified, 1)
        const read = []
        for await (const b of await CarBlockIterator.fromBytes(car)) read.push(b)
        assert.equal(read.length, 1)
        assert.equal([...CarBufferReader.fromBytes(car).blocks()].length, 1)
        assert.ok(await (await CarReader.fromBytes(car)).get(block.cid))
        // the writer takes it too
        const buffer = CarBufferWriter.createWriter(new ArrayBuffer(1024), { roots: [block.cid] })
        buffer.write(block)
      })

      it(`${hasher.name} cut to ${length} bytes that are not its bytes' digest's: a hash mismatch, refused by the writer`, async () => {
        const block = await truncatedBlock(hasher, length, true)
        const summary = await verifyCar(carOf(block))
        assert.equal(summary.result, 'fail')
        assert.equal(summary.hashMismatches, 1)
        await assert.rejects(async () => { for await (const _ of await CarBlockIterator.fromBytes(carOf(block))); }, { name: 'CarBlockError', kind: 'hash-mismatch' }) // eslint-disable-line no-unused-vars
        const buffer = CarBufferWriter.createWriter(new ArrayBuffer(1024), { roots: [block.cid] })
        assert.throws(() => buffer.write(block), /truncated to \d+ bytes/)
      })
    }
  }

  for (const length of [0, 1, 19]) {
    it(`sha2-256 cut to ${length} bytes: unverified, saying why (too short to vouch for the bytes), never "checked"`, async () => {
      const block = await truncatedBlock(sha256, length)
      const summary = await verifyCar(carOf(block))
      assert.equal(summary.result, 'fail')
      assert.equal(summary.unverified, 1)
      assert.match(summary.problems[0].message, new RegExp(`digest is cut to ${length} bytes, too short to vouch for its bytes`))
      await assert.rejects(async () => { for await (const _ of await CarBlockIterator.fromBytes(carOf(block))); }, (/** @type {any} */ e) => e.kind === 'unverified' && /too short to vouch/.test(e.message)) // eslint-disable-line no-unused-vars
      const read = []
      for await (const b of await CarBlockIterator.fromBytes(carOf(block), { allowUnverified: true })) read.push(b)
      assert.equal(read.length, 1)
    })
  }

  it('a digest longer than its function makes is a mismatch', async () => {
    const bytes = dagCbor.encode({ long: true })
    const digest = new Uint8Array(33)
    digest.set((await sha256.digest(bytes)).digest)
    const summary = await verifyCar(carOf({ cid: CID.create(1, dagCbor.code, createDigest(sha256.code, digest)), bytes }))
    assert.equal(summary.hashMismatches, 1)
  })
})

describe('truncated digests, read before the hasher has loaded', function () {
  // A fresh process's CarBufferReader meets blake2b-256 before its WebAssembly hasher is loaded: the
  // block is hashed then by the shell's slower hasher (checkBlockNow's hashNow), and that digest is
  // judged by the same rule as a loaded hasher's (a prefix from 20 bytes up), not compared whole.
  for (const [flip, expected] of [[false, 'ok'], [true, 'hash-mismatch']]) {
    it(`blake2b-256 cut to 24 bytes${flip ? ', not its bytes\' digest\'s' : ''}: ${expected}`, async () => {
      const block = await truncatedBlock(blake2b256, 24, flip)
      const car = Buffer.from(carOf(block)).toString('base64')
      const entry = new URL('../lib/node/node-library.js', import.meta.url).href
      const script = `
        const { CarBufferReader } = await import(${JSON.stringify(entry)})
        try {
          CarBufferReader.fromBytes(new Uint8Array(Buffer.from(${JSON.stringify(car)}, 'base64')))
          console.log('ok')
        } catch (e) { console.log(e.kind ?? e.message) }`
      const { spawnSync } = await import('node:child_process')
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
      assert.equal(r.stderr, '')
      assert.equal(r.stdout.trim(), expected)
    })
  }
})
