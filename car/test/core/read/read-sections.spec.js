// read.js sectionBatches: a file read by position (chunks at fixed offsets, the section a chunk cuts
// short carried into the next one's headroom, big sections read alone) must hand out exactly the
// sections, offsets and errors that the stream reader gives for the same bytes.
import assert from 'node:assert/strict'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { openCar } from '../../../lib/core/read/open-car.js'
import { bytesSource } from '../../../lib/node/input-source.js'
import { carV1, carV2, varint } from '../../helpers/car-oracle.js'

/** A deterministic byte pattern, so blocks differ. @param {number} n @param {number} seed */
function pattern (n, seed) {
  const out = new Uint8Array(n)
  let x = seed * 2654435761 >>> 0
  for (let i = 0; i < n; i++) { x = (x * 1103515245 + 12345) >>> 0; out[i] = x >>> 24 }
  return out
}

/** Raw blocks of the given sizes (the CID's hash is real, though these tests do not check it). */
async function blocksOf (/** @type {number[]} */ sizes) {
  return Promise.all(sizes.map(async (n, i) => {
    const bytes = pattern(n, i + 1)
    return { cid: CID.create(1, 0x55, await sha256.digest(bytes)), bytes }
  }))
}

/** The input as a stream of `size`-byte chunks, the way a pipe would give it. @param {Uint8Array} bytes @param {number} size */
async function * chunksOf (bytes, size) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size)
}

/**
 * Every section sectionBatches hands out, as [file offset, hex of the section's bytes], then the
 * error it ended with (message and offset), or null.
 *
 * @param {Uint8Array} bytes
 * @param {boolean} byPosition read it as a file (by position) rather than as a stream
 * @param {number} batchBytes
 */
async function sectionsOf (bytes, byPosition, batchBytes) {
  const source = bytesSource('test', bytes)
  /** @type {number[]} where the stream reader was asked to read from: for a good CAR, only the start and after the data */
  const streamedFrom = []
  const file = { ...source, stream: (/** @type {number} */ start = 0) => { streamedFrom.push(start); return source.stream(start) } }
  const car = await openCar(byPosition ? file.stream() : chunksOf(bytes, 977), { size: bytes.length, file: byPosition ? file : undefined, maxBlockSize: 1 << 20 })
  /** @type {[number, string][]} */
  const sections = []
  /** @type {{ message: string, offset: number } | null} */
  let error = null
  const spare = /** @type {SharedArrayBuffer[]} */ ([])
  try {
    for await (const batch of car.sectionBatches(batchBytes, 64, spare)) {
      let from = 0
      batch.ends.forEach((end, i) => {
        sections.push([batch.starts[i], Buffer.from(batch.bytes.subarray(from, end)).toString('hex')])
        from = end
      })
      assert.equal(batch.first + batch.ends.length, sections.length, 'first counts the sections before the batch')
      spare.push(/** @type {SharedArrayBuffer} */ (batch.bytes.buffer)) // reused at once: a stale view would show here
    }
  } catch (err) {
    const e = /** @type {any} */ (err)
    error = { message: e.message, offset: e.offset }
  }
  return { sections, error, index: error ? null : Buffer.from(await car.readIndex()).toString('hex'), position: car.position(), streamedFrom }
}

/** What both readers must agree on: all but how the bytes were read. @param {Awaited<ReturnType<typeof sectionsOf>>} r */
function same (r) {
  const { streamedFrom, ...rest } = r
  return rest
}

/** The sections of `bytes`, as the file offsets and bytes a plain walk over the length varints finds. @param {Uint8Array} bytes */
function expectedSections (bytes, from = 0) {
  let at = from
  const read = () => { let v = 0; let s = 1; for (;;) { const b = bytes[at++]; v += (b & 0x7f) * s; if (b < 0x80) return v; s *= 128 } }
  const headerLength = read()
  at += headerLength
  /** @type {[number, string][]} */
  const out = []
  while (at < bytes.length) {
    const start = at
    const length = read()
    at += length
    out.push([start, Buffer.from(bytes.subarray(start, at)).toString('hex')])
  }
  return out
}

describe('read.js sectionBatches: reading a file by position', () => {
  // sizes around every edge of the reader: tiny sections, ones longer than its 64 KiB headroom,
  // ones longer than a whole chunk, and runs that put section starts and varints on chunk edges
  const sizes = [1, 5, 100, 3000, 70000, 20, 200000, 7, 64 * 1024 - 40, 64 * 1024 + 5, 4000, 4000, 4000, 150000, 1, 2, 3, 90000, 12]

  for (const batchBytes of [4096, 65536 + 17, 1 << 20]) {
    it(`chunks of ${batchBytes} bytes: the same sections, offsets and position as the stream reader`, async () => {
      const blocks = await blocksOf(sizes)
      const bytes = carV1([blocks[0].cid], blocks)
      const direct = await sectionsOf(bytes, true, batchBytes)
      const streamed = await sectionsOf(bytes, false, batchBytes)
      assert.equal(direct.error, null)
      assert.deepEqual(direct.sections, expectedSections(bytes))
      assert.deepEqual(same(direct), same(streamed))
      assert.equal(direct.position, bytes.length)
      assert.deepEqual(direct.streamedFrom, [0, bytes.length], 'read by position from the first section to the end')
    })
  }

  it('every section start on every byte of a chunk edge: a block of each size from 1 to 300 bytes', async () => {
    const blocks = await blocksOf(Array.from({ length: 300 }, (_, i) => i + 1))
    const bytes = carV1([blocks[0].cid], blocks)
    for (const batchBytes of [509, 1000, 4096]) {
      const direct = await sectionsOf(bytes, true, batchBytes)
      assert.deepEqual(direct.sections, expectedSections(bytes), `chunks of ${batchBytes}`)
      assert.deepEqual(same(direct), same(await sectionsOf(bytes, false, batchBytes)))
      assert.deepEqual(direct.streamedFrom, [0, bytes.length], 'read by position from the first section to the end')
    }
  })

  it('a bad claim deep in the file: the same sections before it, then the same error at the same offset', async () => {
    const blocks = await blocksOf([3000, 3000, 3000, 3000, 3000, 3000])
    const good = carV1([blocks[0].cid], blocks)
    const fifth = expectedSections(good)[4][0]
    const claims = {
      'length 0': Buffer.from([0]),
      'past the end': varint(good.length),
      'over the maximum block size': varint((1 << 20) + 5000),
      'malformed varint': Buffer.alloc(10, 0xff)
    }
    for (const [what, claim] of Object.entries(claims)) {
      const lengthSize = varint(3000 + 36).length
      const bytes = Buffer.concat([good.subarray(0, fifth), claim, good.subarray(fifth + lengthSize)])
      for (const batchBytes of [4096, 1 << 20]) {
        const direct = await sectionsOf(bytes, true, batchBytes)
        const streamed = await sectionsOf(bytes, false, batchBytes)
        assert.equal(direct.sections.length, 4, `${what}: the sections before it`)
        assert.ok(direct.error, `${what}: an error`)
        assert.equal(direct.error.offset, fifth, `${what}: at the bad section`)
        assert.deepEqual(same(direct), same(streamed), what)
        assert.deepEqual(direct.streamedFrom, [0, fifth], `${what}: read by position up to the bad section`)
      }
    }
  })

  it('the data ends inside a section (a file cut short): the same error as the stream reader', async () => {
    const blocks = await blocksOf([3000, 70000, 3000])
    const whole = carV1([blocks[0].cid], blocks)
    for (const cut of [whole.length - 1, whole.length - 2000, expectedSections(whole)[2][0] + 1]) {
      const bytes = whole.subarray(0, cut)
      for (const batchBytes of [4096, 1 << 20]) {
        const direct = await sectionsOf(bytes, true, batchBytes)
        assert.ok(direct.error, `cut at ${cut}`)
        assert.deepEqual(same(direct), same(await sectionsOf(bytes, false, batchBytes)), `cut at ${cut}`)
      }
    }
  })

  it('CARv2: the payload is read by position and the index after it is still read whole', async () => {
    const blocks = await blocksOf([100, 70000, 5, 4000])
    const v1 = carV1([blocks[0].cid], blocks)
    const index = pattern(999, 7)
    const v2 = carV2(v1, { indexOffset: 51 + v1.length, trailer: index })
    for (const batchBytes of [4096, 1 << 20]) {
      const direct = await sectionsOf(v2, true, batchBytes)
      assert.equal(direct.error, null)
      assert.deepEqual(direct.sections, expectedSections(v1).map(([at, hex]) => [at + 51, hex]))
      assert.equal(direct.index, Buffer.from(index).toString('hex'))
      assert.deepEqual(same(direct), same(await sectionsOf(v2, false, batchBytes)))
      assert.deepEqual(direct.streamedFrom, [0, 51 + v1.length], 'the payload read by position')
    }
  })
})
