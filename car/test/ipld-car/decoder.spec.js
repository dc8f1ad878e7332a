// Not one of @ipld/car's test files (its tests of the decoder are test-reader.spec.js's `Shared
// fixtures Header`, which read each fixture's header with it): this repository's own, holding
// `dag-cbor-car/decoder` (lib/core/read/decoder.js) to @ipld/car's decoder, installed here as a
// dev dependency, on the same inputs: every fixture through each kind of reader, each reader and
// decoder over the other library's readers, and each place where ours is deliberately stricter
// (docs/from-ipld-car.md, `dag-cbor-car/decoder`), refused with a CarReadError saying where.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { sha256 } from 'multiformats/hashes/sha2'
import * as ipld from '@ipld/car/decoder'
import * as ours from '../../lib/core/read/decoder.js'
import { CarReadError } from '../../lib/core/read/read-errors.js'

const FIXTURES = new URL('../fixtures/ipld-car/', import.meta.url)
/** @type {[string, Uint8Array][]} */
const fixtures = fs.readdirSync(FIXTURES).sort().map((name) => [name, new Uint8Array(fs.readFileSync(new URL(name, FIXTURES)))])
const fixture = (/** @type {string} */ name) => /** @type {Uint8Array} */ (fixtures.find(([n]) => n === name)?.[1])

/**
 * @typedef {typeof ours | typeof ipld} Decoder
 * @typedef {(lib: Decoder, bytes: Uint8Array) => any} MakeReader
 */

/** @param {Uint8Array} bytes @param {number} size */
async function * chunks (bytes, size) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

/** @type {Record<string, MakeReader>} each of the decoder's readers, chunked as a stream may be */
const READERS = {
  bytesReader: (lib, bytes) => lib.bytesReader(bytes),
  'asyncIterableReader, 1-byte chunks': (lib, bytes) => lib.asyncIterableReader(chunks(bytes, 1)),
  'asyncIterableReader, 7-byte chunks': (lib, bytes) => lib.asyncIterableReader(chunks(bytes, 7)),
  'asyncIterableReader, 4096-byte chunks': (lib, bytes) => lib.asyncIterableReader(chunks(bytes, 4096)),
  chunkReader: (lib, bytes) => {
    const it = chunks(bytes, 100)
    return lib.chunkReader(async () => (await it.next()).value ?? null)
  }
}

/**
 * Everything a decoder gives of a CAR: its header, its blocks, its blocks' index, or the error
 * each stopped at (as 'error': which one is the libraries' own).
 *
 * @param {Decoder} lib
 * @param {Uint8Array} bytes
 * @param {MakeReader} reader
 */
async function decodeAll (lib, bytes, reader) {
  /** @type {{ header: any, blocks: any[], index: any[] }} */
  const got = { header: null, blocks: [], index: [] }
  try {
    const decoder = lib.createDecoder(reader(lib, bytes))
    got.header = await decoder.header()
    for await (const block of decoder.blocks()) got.blocks.push(block)
  } catch (err) {
    got.blocks.push({ error: err })
  }
  try {
    const decoder = lib.createDecoder(reader(lib, bytes))
    for await (const entry of decoder.blocksIndex()) got.index.push(entry)
  } catch (err) {
    got.index.push({ error: err })
  }
  return got
}

/** the errors as 'error', so that two results compare by what was read */
const plain = (/** @type {any} */ got) => JSON.parse(JSON.stringify(got, (key, value) =>
  typeof value === 'bigint' ? `${value}n` : value instanceof Error ? 'error' : value?.asCID === value ? value.toString() : value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value))

/** @param {Uint8Array[]} parts */
const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) { out.set(p, at); at += p.length }
  return out
}

/** @param {number} n */
const varint = (n) => {
  const out = []
  while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n = Math.floor(n / 128) }
  out.push(n)
  return Uint8Array.from(out)
}

const block = Uint8Array.from([1, 2, 3, 4, 5])
const cid = CID.create(1, raw.code, await sha256.digest(block))
const header = (/** @type {CID[]} */ roots) => { const h = dagCbor.encode({ roots, version: 1 }); return concat(varint(h.length), h) }
const section = (/** @type {Uint8Array} */ cidBytes, /** @type {Uint8Array} */ bytes) => concat(varint(cidBytes.length + bytes.length), cidBytes, bytes)
const oneBlockCar = concat(header([cid]), section(cid.bytes, block))

/**
 * @param {Promise<unknown>} promise
 * @param {RegExp} message
 */
async function refused (promise, message) {
  await assert.rejects(promise, (/** @type {any} */ err) => {
    assert.ok(err instanceof CarReadError, `a CarReadError, not ${err?.name}: ${err?.message}`)
    assert.match(err.message, message)
    return true
  })
}

describe('dag-cbor-car/decoder, against @ipld/car\'s decoder', () => {
  describe('every fixture, through each reader: the same header, blocks and index, or both refuse', () => {
    for (const [name, bytes] of fixtures) {
      // @ipld/car indexes a block past the end of this one (its blocks are not read): a difference, below
      if (name === 'sample-v1-tailing-corrupt-section.car') continue
      for (const [kind, reader] of Object.entries(READERS)) {
        // a byte at a time costs a second a large fixture (both decoders): the small ones have every kind of section
        if (kind.includes('1-byte') && bytes.length > 64 * 1024) continue
        it(`${name}, ${kind}`, async () => {
          const [mine, theirs] = [await decodeAll(ours, bytes, reader), await decodeAll(ipld, bytes, reader)]
          assert.deepEqual(plain(mine), plain(theirs))
          for (const { error } of [...mine.blocks, ...mine.index]) {
            if (error) assert.ok(error instanceof CarReadError, `${error.name}: ${error.message}`)
          }
        })
      }
    }
  })

  it('readHeader and readBlockHead, step by step: the same results and positions as @ipld/car\'s, each over the other\'s readers', async () => {
    for (const name of ['sample-v1.car', 'sample-wrapped-v2.car', 'go.carv2']) {
      const bytes = fixture(name)
      for (const [readers, decoder] of /** @type {const} */ ([[ipld, ours], [ours, ipld], [ours, ours], [ipld, ipld]])) {
        const reader = readers.asyncIterableReader(chunks(bytes, 13))
        const read = await decoder.readHeader(reader)
        const expected = await ipld.readHeader(ipld.bytesReader(bytes))
        assert.deepEqual(plain(read), plain(expected), name)
        const first = await decoder.readBlockHead(reader)
        const at = reader.pos
        const control = ipld.bytesReader(bytes)
        await ipld.readHeader(control)
        assert.deepEqual(plain(first), plain(await ipld.readBlockHead(control)), name)
        assert.equal(at, control.pos, name)
      }
    }
  })

  it('readHeader(reader, strictVersion) refuses the other version, and an argument it cannot use', async () => {
    assert.equal((await ours.readHeader(ours.bytesReader(fixture('sample-v1.car')), 1)).version, 1)
    assert.equal((await ours.readHeader(ours.bytesReader(fixture('sample-wrapped-v2.car')), 2)).version, 2)
    await refused(ours.readHeader(ours.bytesReader(fixture('sample-v1.car')), 2), /at byte offset 0 is not the CARv2 pragma.*strictVersion 2/)
    await refused(ours.readHeader(ours.bytesReader(fixture('sample-wrapped-v2.car')), 1), /is the CARv2 pragma, and a CARv1 was asked for \(strictVersion 1\)/)
    await assert.rejects(ours.readHeader(ours.bytesReader(oneBlockCar), 3), { name: 'RangeError', message: /strictVersion must be 1 or 2/ })
    await assert.rejects(ours.readHeader(/** @type {any} */ (oneBlockCar)), { name: 'TypeError', message: /readHeader: reader must be a BytesReader/ })
    await assert.rejects(ours.readHeader(ours.bytesReader(oneBlockCar), undefined, { maxBlockSize: -1 }), { name: 'RangeError', message: /maxBlockSize/ })
    assert.throws(() => ours.bytesReader(/** @type {any} */ ([1, 2])), { name: 'TypeError', message: /bytesReader: bytes must be a Uint8Array, got an array/ })
    assert.throws(() => ours.asyncIterableReader(/** @type {any} */ (oneBlockCar)), { name: 'TypeError', message: /AsyncIterable/ })
    assert.throws(() => ours.limitReader(ours.bytesReader(oneBlockCar), NaN), { name: 'RangeError', message: /byteLimit/ })
    assert.throws(() => ours.bytesReader(oneBlockCar).seek(-1), { name: 'RangeError', message: /only moves forward/ })
    const strings = ours.createDecoder(ours.asyncIterableReader(/** @type {any} */ ((async function * () { yield 'not bytes' })())))
    await assert.rejects(strings.header(), { name: 'TypeError', message: /asyncIterableReader: its input gave the string "not bytes" at byte offset 0/ })
  })

  it('limitReader: the same bytes, positions and end as @ipld/car\'s, and it asks nothing of its reader past the limit', async () => {
    const bytes = Uint8Array.from({ length: 100 }, (_, i) => i)
    for (const lib of [ours, ipld]) {
      const limited = lib.limitReader(lib.bytesReader(bytes), 10)
      assert.deepEqual([...await limited.upTo(4)], [0, 1, 2, 3])
      assert.deepEqual([...await limited.exactly(4, true)], [0, 1, 2, 3])
      limited.seek(2)
      assert.equal(limited.pos, 6)
      assert.deepEqual([...await limited.upTo(100)], [6, 7, 8, 9])
      await assert.rejects(limited.exactly(5), /^Error: Unexpected end of data|Unexpected end of data/)
      assert.deepEqual([...await limited.exactly(4, true)], [6, 7, 8, 9])
      assert.equal((await limited.upTo(1)).length, 0)
    }
    let asked = 0
    const counting = ours.bytesReader(bytes)
    const limited = ours.limitReader({ ...counting, upTo: (n) => { asked = Math.max(asked, n); return counting.upTo(n) }, get pos () { return counting.pos } }, 10)
    await limited.upTo(50)
    assert.equal(asked, 10)
  })

  it('a reader sought past what it has read skips the rest at its next read, from any chunking', async () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => i % 256)
    for (const size of [1, 3, 64, 1000]) {
      const reader = ours.asyncIterableReader(chunks(bytes, size))
      await reader.upTo(2)
      reader.seek(250)
      assert.equal(reader.pos, 250)
      assert.deepEqual([...await reader.exactly(3, true)], [250, 251, 252], `chunks of ${size}`)
      reader.seek(100)
      assert.equal((await reader.upTo(1)).length, 0)
      await assert.rejects(reader.exactly(1), { message: /^Unexpected end of data: 1 bytes asked for at byte offset 353, but the data ends at byte 300/ })
    }
  })

  it('the header is read by this library\'s one header check: a header that is not a CARv1 one is refused as the other readers refuse it', async () => {
    const map = dagCbor.encode({ a: 1 })
    const notAHeader = concat(varint(map.length), map)
    await refused(ours.readHeader(ours.bytesReader(notAHeader)), /not a CAR file: bad header \(the header at byte offset 0 is DAG-CBOR, but not the map \{ roots: \[CID, \.\.\.\], version: 1 \}/)
    const inner = fixture('sample-wrapped-v2.car')
    // a CARv2 whose payload is another CARv2: @ipld/car refuses it too (Invalid CAR version: 2 (expected 1))
    const v2 = concat(inner.subarray(0, 51), inner.subarray(0, 51))
    const view = new DataView(v2.buffer)
    view.setBigUint64(11 + 24, 51n, true)
    view.setBigUint64(11 + 32, 0n, true)
    await refused(ours.readHeader(ours.bytesReader(v2)), /must be a CARv1, but it starts with another CARv2 header/)
    await assert.rejects(ipld.readHeader(ipld.bytesReader(v2)))
  })

  describe('where it is stricter than @ipld/car\'s decoder (docs/from-ipld-car.md)', () => {
    it('a header or section claiming more than the maximum block size (and room for a CID) is refused before it is read', async () => {
      const huge = concat(header([cid]), varint(1_000_000_000), cid.bytes)
      const decoder = ours.createDecoder(ours.bytesReader(huge))
      await decoder.header()
      await refused((async () => { for await (const b of decoder.blocks()) void b })(), /after 0 complete blocks, the section at byte offset 59 claims 1000000000 bytes, more than the maximum block size \(4 MiB\).*maxBlockSize option/)
      // @ipld/car's asks for the billion bytes
      const theirs = ipld.createDecoder(ipld.bytesReader(huge))
      await assert.rejects((async () => { for await (const b of theirs.blocks()) void b })(), { message: 'Unexpected end of data' })
      const bigHeader = concat(varint(5_000_000), new Uint8Array(16))
      await refused(ours.readHeader(ours.bytesReader(bigHeader)), /claims 5000000 bytes, more than the maximum block size \(4 MiB, the maxBlockSize option\)/)
      // raised by the option
      const small = ours.createDecoder(ours.bytesReader(oneBlockCar), { maxBlockSize: 4 })
      await refused((async () => { for await (const b of small.blocks()) void b })(), /claims 5 bytes, more than the maximum block size \(4 bytes\)/)
    })

    it('blocksIndex(): a last block cut short is refused, where @ipld/car indexes it (it reads no block\'s bytes)', async () => {
      const bytes = fixture('sample-v1-tailing-corrupt-section.car')
      for (const [kind, reader] of Object.entries(READERS)) {
        // @ipld/car: 1049 entries, the last a block the input ends 13 bytes into; ours: the same
        // entries, then the error when the next is asked for
        const theirs = await decodeAll(ipld, bytes, reader)
        assert.equal(theirs.index.length, 1049, kind)
        assert.ok(theirs.index.every((entry) => !('error' in entry)), kind)
        const mine = await decodeAll(ours, bytes, reader)
        assert.equal(mine.index.length, 1050, kind)
        assert.deepEqual(plain(mine.index.slice(0, 1049)), plain(theirs.index), kind)
        const { error } = mine.index[1049]
        assert.ok(error instanceof CarReadError, kind)
        assert.match(error.message, /CAR is truncated after 1048 complete blocks: the last block ends at byte offset 479907, but the input ends at byte 479894/, kind)
      }
    })

    it('a CARv2 payload shorter than its stated size is refused, where @ipld/car ends at the input\'s end', async () => {
      const whole = fixture('sample-wrapped-v2.car')
      const header = await ipld.readHeader(ipld.bytesReader(whole))
      assert.equal(header.version, 2)
      // cut after the last whole section: one before the payload's end
      const index = []
      for await (const entry of ipld.createDecoder(ipld.bytesReader(whole)).blocksIndex()) index.push(entry)
      const last = /** @type {any} */ (index.at(-1))
      const cut = whole.subarray(0, last.offset)
      let theirs = 0
      for await (const b of ipld.createDecoder(ipld.bytesReader(cut)).blocks()) theirs += b.bytes.length > 0 ? 1 : 0
      assert.equal(theirs, index.length - 1)
      await refused((async () => { for await (const b of ours.createDecoder(ours.bytesReader(cut)).blocks()) void b })(), new RegExp(`CARv2 payload is shorter than its stated size after ${index.length - 1} complete blocks: the header says it ends at byte ${header.dataOffset + header.dataSize}, the input ends at byte ${last.offset}`))
    })

    it('a CID whose digest runs past its section is refused, where @ipld/car reads it out of the next section', async () => {
      // the section claims only the CID's first 20 bytes; the rest of the CID, and a block, follow
      const car = concat(header([cid]), varint(20), cid.bytes, block)
      const theirs = []
      try { for await (const b of ipld.createDecoder(ipld.bytesReader(car)).blocksIndex()) theirs.push(b) } catch {}
      assert.equal(theirs.length, 1)
      assert.equal(theirs[0].cid.toString(), cid.toString())
      assert.equal(theirs[0].blockLength, 20 - cid.bytes.length)
      const mine = ours.createDecoder(ours.bytesReader(car))
      await refused((async () => { for await (const b of mine.blocksIndex()) void b })(), /section at byte offset 59 does not start with a valid CID \(it claims 36 bytes, past the end of the 20-byte section\)/)
    })

    it('a CID written in a longer form than its one valid form is refused, where @ipld/car reads it as the shorter CID', async () => {
      // the codec varint 0x55 written in two bytes (d5 00)
      const long = concat(Uint8Array.from([0x01, 0xd5, 0x00]), cid.multihash.bytes)
      const car = concat(header([cid]), section(long, block))
      const theirs = []
      for await (const b of ipld.createDecoder(ipld.bytesReader(car)).blocks()) theirs.push(b)
      assert.equal(theirs[0].cid.toString(), cid.toString())
      await refused((async () => { for await (const b of ours.createDecoder(ours.bytesReader(car)).blocks()) void b })(), /section at byte offset 59 does not start with a valid CID \(its varints cannot be read \(Invalid varint: not minimally encoded\)\)/)
    })

    it('a CARv2 fixed header that cannot be right is refused before anything is skipped', async () => {
      const v2 = fixture('sample-wrapped-v2.car').slice()
      new DataView(v2.buffer).setBigUint64(11 + 16, 20n, true) // data offset inside the header
      await refused(ours.readHeader(ours.bytesReader(v2)), /CARv2 data offset 20 points inside the 51-byte CARv2 header/)
    })
  })

  it('header() that is never asked for is no unhandled rejection; blocks() reports the header\'s failure', async () => {
    const decoder = ours.createDecoder(ours.bytesReader(new Uint8Array(0)))
    await refused((async () => { for await (const b of decoder.blocks()) void b })(), /bad header \(the input is empty\)/)
    await refused(decoder.header(), /the input is empty/)
  })

  it("'dag-cbor-car/decoder' in Node is lib/node/library-decoder.cjs, giving every name of the module and no other, by import and by require", async () => {
    const require = createRequire(import.meta.url)
    const imported = await import('../../lib/node/library-decoder.cjs')
    const required = require('../../lib/node/library-decoder.cjs')
    assert.deepEqual(Object.keys(imported).filter((k) => k !== 'default').sort(), Object.keys(ours).sort())
    assert.deepEqual(Object.keys(required).sort(), Object.keys(ours).sort())
    for (const [name, value] of Object.entries(ours)) {
      assert.equal(/** @type {any} */ (imported)[name], value, name)
      assert.equal(required[name], value, name)
    }
    const resolved = import.meta.resolve('dag-cbor-car/decoder')
    assert.match(resolved, /\/car\/lib\/node\/library-decoder\.cjs$/)
    // every name @ipld/car's decoder exports
    for (const name of Object.keys(ipld)) assert.equal(typeof (/** @type {any} */ (ours))[name], 'function', name)
  })
})
