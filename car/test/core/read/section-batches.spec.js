// read/section-batches.js, called directly: sectionBatches splits a CAR's data into batches of
// whole sections (length varint, CID, block), at most `batchSections` each and about `batchBytes`,
// with each section's file offset; it fills spare buffers before making new ones, makes its
// buffers BatchBuffer (SharedArrayBuffer where the runtime has one) or, for blocks handed to a
// caller, plain ArrayBuffers of exactly the batch's size; and it ends with the reader's error
// after handing out the whole sections before it. (read-sections.spec.js compares the three ways
// of reading, by position and from a stream, with each other.)
import assert from 'node:assert/strict'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { sectionBatches, BatchBuffer } from '../../../lib/core/read/section-batches.js'
import { openCar } from '../../../lib/core/read/open-car.js'
import { carV1, section, varint } from '../../helpers/car-oracle.js'

/** Raw blocks of the given sizes, each of its own bytes. @param {number[]} sizes */
async function blocksOf (sizes) {
  return Promise.all(sizes.map(async (n, i) => {
    const bytes = new Uint8Array(n).fill(i + 1)
    return { cid: CID.create(1, 0x55, await sha256.digest(bytes)), bytes }
  }))
}

/** The input as a stream of `size`-byte chunks. @param {Uint8Array} bytes @param {number} size */
async function * chunksOf (bytes, size) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size)
}

/**
 * Every batch sectionBatches gives for `bytes` read as a stream, and the error it ended with.
 * @param {Uint8Array} bytes
 * @param {{ batchBytes: number, batchSections: number, spare?: SharedArrayBuffer[], shared?: boolean }} options
 */
async function batchesOf (bytes, { batchBytes, batchSections, spare = [], shared }) {
  const car = await openCar(chunksOf(bytes, 1000), { maxBlockSize: 1 << 20, shared })
  const batches = []
  let error = null
  try {
    for await (const batch of sectionBatches(car, batchBytes, batchSections, spare)) batches.push(batch)
  } catch (err) {
    error = /** @type {any} */ (err)
  }
  return { batches, error }
}

/** [file offset, bytes] of each section in the batches, in order. @param {import('../../../lib/core/read/open-car.js').SectionBatch[]} batches */
function sectionsIn (batches) {
  return batches.flatMap((batch) => [...batch.ends].map((end, i) => [batch.starts[i], Buffer.from(batch.bytes.subarray(i === 0 ? 0 : batch.ends[i - 1], end)).toString('hex')]))
}

describe('read/section-batches.js sectionBatches', () => {
  /** @type {Awaited<ReturnType<typeof blocksOf>>} */
  let blocks
  /** @type {Uint8Array} */
  let car
  /** @type {[number, string][]} */
  let expected
  before(async () => {
    blocks = await blocksOf([10, 300, 5, 2000, 40, 700, 1, 90])
    car = carV1([blocks[0].cid], blocks)
    const headerEnd = car.length - blocks.reduce((n, b) => n + section(b).length, 0)
    let at = headerEnd
    expected = blocks.map((b) => { const s = section(b); const r = /** @type {[number, string]} */ ([at, Buffer.from(s).toString('hex')]); at += s.length; return r })
  })

  it('hands out every section whole, at its file offset, in order, at most batchSections a batch, first counting those before', async () => {
    const { batches, error } = await batchesOf(car, { batchBytes: 1 << 20, batchSections: 3 })
    assert.equal(error, null)
    assert.deepEqual(batches.map((b) => b.ends.length), [3, 3, 2])
    assert.deepEqual(batches.map((b) => b.first), [0, 3, 6])
    assert.deepEqual(sectionsIn(batches), expected)
  })

  it('closes a batch once it holds batchBytes or more', async () => {
    const { batches } = await batchesOf(car, { batchBytes: 1000, batchSections: 64 })
    // 10 + 300 + 5 + 2000 bytes of blocks reach 1000 at the fourth section; then 40 + 700 + 1 + 90
    assert.deepEqual(batches.map((b) => b.ends.length), [4, 4])
    assert.ok(batches.every((b) => b.bytes.length === b.ends[b.ends.length - 1]))
    assert.deepEqual(sectionsIn(batches), expected)
  })

  it('fills a spare buffer big enough before making one, and makes BatchBuffers (or exact ArrayBuffers with shared: false)', async () => {
    const roomy = new BatchBuffer(1 << 16)
    const small = new BatchBuffer(8)
    const spare = /** @type {SharedArrayBuffer[]} */ ([roomy, small])
    const { batches } = await batchesOf(car, { batchBytes: 1 << 20, batchSections: 64, spare })
    assert.equal(batches.length, 1)
    assert.equal(batches[0].bytes.buffer, roomy, 'the small spare is passed over for the roomy one')
    assert.deepEqual(spare, [])
    const fresh = await batchesOf(car, { batchBytes: 1 << 20, batchSections: 64 })
    assert.ok(fresh.batches[0].bytes.buffer instanceof BatchBuffer)
    const own = await batchesOf(car, { batchBytes: 1 << 20, batchSections: 64, shared: false })
    assert.ok(own.batches[0].bytes.buffer instanceof ArrayBuffer)
    assert.equal(own.batches[0].bytes.buffer.byteLength, own.batches[0].bytes.length, "a caller's batch is exactly its size")
  })

  it('a CAR cut short in a section: the whole sections before it are handed out, then the reader\'s error with its offset', async () => {
    const cut = car.subarray(0, expected[5][0] + 20)
    const { batches, error } = await batchesOf(cut, { batchBytes: 1 << 20, batchSections: 64 })
    assert.deepEqual(sectionsIn(batches), expected.slice(0, 5))
    assert.ok(error, 'an error')
    assert.equal(error.name, 'CarReadError')
    assert.equal(error.offset, expected[5][0])
  })

  it('a section length claim of zero is the reader\'s error, at that section', async () => {
    const bad = new Uint8Array([...car.subarray(0, expected[2][0]), ...varint(0)])
    const { batches, error } = await batchesOf(bad, { batchBytes: 1 << 20, batchSections: 64 })
    assert.deepEqual(sectionsIn(batches), expected.slice(0, 2))
    assert.equal(error?.name, 'CarReadError')
    assert.equal(error?.offset, expected[2][0])
  })
})
