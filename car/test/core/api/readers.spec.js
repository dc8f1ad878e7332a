// The @ipld/car-compatible readers (CarReader, CarBufferReader, CarIndexer, CarCIDIterator,
// CarIndexedReader, and the existing CarBlockIterator): @ipld/car 5.4's names, methods and results,
// and what this library adds to them: every block handed out is checked against its CID, owns its
// bytes and carries its section's offset; lengths a CAR claims are bounded before anything is
// allocated; a Blob, ReadableStream or file path is taken wherever bytes or an async iterable are.
// test/ipld-car/ runs @ipld/car's own tests against the same classes.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as ipld from '@ipld/car'
import * as raw from 'multiformats/codecs/raw'
import * as core from '../../../lib/core/index.js'
import * as node from '../../../lib/node/node-library.js'
import { carV1, carV2, cidOf, section, varint } from '../../helpers/car-oracle.js'

const SAMPLE = fileURLToPath(new URL('../../../../test/fixtures/cars/filecoin-sample-v1.car', import.meta.url)) // blake2b-256 CIDs
const V2 = fileURLToPath(new URL('../../fixtures/genesis-slice-v2.car', import.meta.url))
const READERS = ['CarReader', 'CarBufferReader', 'CarIndexer', 'CarBlockIterator', 'CarCIDIterator']

/** @param {string} text */
const block = async (text) => {
  const bytes = new TextEncoder().encode(text)
  return { cid: await cidOf(bytes, { code: raw.code }), bytes }
}

/** A small CAR: three blocks, the second twice; and the blocks. */
async function smallCar () {
  const blocks = [await block('aaaa'), await block('bbbb'), await block('cccc')]
  const bytes = new Uint8Array(carV1([blocks[0].cid], [blocks[0], blocks[1], blocks[2], blocks[1]]))
  return { bytes, blocks }
}

/** @param {Uint8Array} bytes @returns {AsyncIterable<Uint8Array>} chunks of 7 bytes */
async function * chunked (bytes) {
  for (let i = 0; i < bytes.length; i += 7) yield bytes.slice(i, i + 7)
}

/** @param {AsyncIterable<any> | Iterable<any>} it */
async function all (it) {
  const out = []
  for await (const x of it) out.push(x)
  return out
}

/** the CAR's blocks as @ipld/car reads them, with the offsets its indexer gives */
async function oracle (/** @type {Uint8Array} */ bytes) {
  const reader = await ipld.CarReader.fromBytes(bytes)
  const index = await all(await ipld.CarIndexer.fromBytes(bytes))
  return { reader, index, roots: await reader.getRoots(), version: reader.version }
}

/** @param {string} prefix */
function tmpFile (prefix, /** @type {Uint8Array} */ bytes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  const file = path.join(dir, 'x.car')
  fs.writeFileSync(file, bytes)
  return { file, done: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

describe('@ipld/car-compatible readers: the API', () => {
  it('every reader of @ipld/car 5.4\'s main entry, and contentType, from both entries', () => {
    for (const name of [...READERS, 'contentType']) {
      assert.ok(name in ipld, `@ipld/car has ${name}`)
      assert.ok(/** @type {any} */ (core)[name] !== undefined, `the core exports ${name}`)
      assert.ok(/** @type {any} */ (node)[name] !== undefined, `the Node entry exports ${name}`)
    }
    assert.equal(node.contentType, ipld.contentType)
    assert.equal(typeof node.CarIndexedReader.fromFile, 'function')
  })

  it('each class has @ipld/car\'s static and instance methods', () => {
    for (const name of [...READERS, 'CarIndexedReader']) {
      const theirs = /** @type {any} */ (ipld)[name]
      const ours = /** @type {any} */ (node)[name]
      for (const key of Object.getOwnPropertyNames(theirs)) {
        if (typeof theirs[key] === 'function') assert.equal(typeof ours[key], 'function', `${name}.${key}`)
      }
      for (const key of Object.getOwnPropertyNames(theirs.prototype)) {
        if (key === 'constructor' || key.startsWith('_')) continue
        assert.ok(key in ours.prototype, `${name}.prototype.${key}`)
      }
      assert.ok(Symbol.asyncIterator in theirs.prototype === Symbol.asyncIterator in ours.prototype, `${name} async iterable`)
    }
  })
})

describe('@ipld/car-compatible readers: the same results as @ipld/car', () => {
  for (const [name, file] of [['CARv1, blake2b-256', SAMPLE], ['CARv2', V2]]) {
    it(`${name}: CarReader, CarBufferReader, CarIndexedReader: roots, version, has, get, blocks, cids`, async () => {
      const bytes = new Uint8Array(fs.readFileSync(file))
      const want = await oracle(bytes)
      const readers = [
        await node.CarReader.fromBytes(bytes),
        await core.CarReader.fromIterable(chunked(bytes)),
        node.CarBufferReader.fromBytes(bytes),
        await node.CarIndexedReader.fromFile(file)
      ]
      for (const reader of readers) {
        assert.equal(reader.version, want.version)
        assert.deepEqual((await reader.getRoots()).map(String), want.roots.map(String))
        const blocks = await all(await reader.blocks())
        assert.deepEqual(blocks.map((b) => String(b.cid)), want.index.map((e) => String(e.cid)))
        assert.deepEqual((await all(await reader.cids())).map(String), want.index.map((e) => String(e.cid)))
        for (const [i, e] of want.index.entries()) {
          assert.equal(await reader.has(e.cid), true)
          const got = await reader.get(e.cid)
          assert.ok(got)
          assert.deepEqual(got.bytes, /** @type {any} */ (await want.reader.get(e.cid)).bytes)
          assert.equal(got.offset, e.offset, 'get: its section\'s offset')
          assert.equal(blocks[i].offset, e.offset, 'blocks: its section\'s offset')
        }
        const absent = (await block('not in the CAR')).cid
        assert.equal(await reader.has(absent), false)
        assert.equal(await reader.get(absent), undefined)
      }
      await /** @type {any} */ (readers[3]).close()
    })

    it(`${name}: CarIndexer gives @ipld/car's entries ({ cid, offset, length, blockOffset, blockLength }), from bytes, chunks and a path`, async () => {
      const bytes = new Uint8Array(fs.readFileSync(file))
      const { index } = await oracle(bytes)
      for (const indexer of [await node.CarIndexer.fromBytes(bytes), await core.CarIndexer.fromIterable(chunked(bytes)), await node.CarIndexer.fromIterable(file)]) {
        assert.deepEqual(await all(indexer), index)
      }
    })

    it(`${name}: CarCIDIterator and CarBlockIterator, each once`, async () => {
      const bytes = new Uint8Array(fs.readFileSync(file))
      const { index, roots } = await oracle(bytes)
      const cids = await node.CarCIDIterator.fromBytes(bytes)
      assert.deepEqual((await cids.getRoots()).map(String), roots.map(String))
      assert.deepEqual((await all(cids)).map(String), index.map((e) => String(e.cid)))
      await assert.rejects(all(cids), /more than once/)
      const blocks = await node.CarBlockIterator.fromBytes(bytes)
      assert.deepEqual((await all(blocks)).map((b) => b.offset), index.map((e) => e.offset))
      await assert.rejects(all(blocks), /more than once/)
    })
  }

  it('a CID in the CAR twice: get gives the first; blocks and cids give both', async () => {
    const { bytes, blocks } = await smallCar()
    const { index } = await oracle(bytes)
    for (const reader of [await node.CarReader.fromBytes(bytes), node.CarBufferReader.fromBytes(bytes)]) {
      assert.equal((await all(await reader.cids())).length, 4)
      assert.equal(/** @type {any} */ (await reader.get(blocks[1].cid)).offset, index[1].offset)
    }
  })

  it('CarReader.readRaw and CarBufferReader.readRaw read a block where the index says, from an fd or FileHandle', async () => {
    const { bytes, blocks } = await smallCar()
    const { file, done } = tmpFile('readers-raw-', bytes)
    try {
      const index = await all(await node.CarIndexer.fromIterable(file))
      const fd = fs.openSync(file, 'r')
      const handle = await fs.promises.open(file, 'r')
      try {
        for (const [i, e] of index.entries()) {
          const want = blocks[[0, 1, 2, 1][i]].bytes
          assert.deepEqual((await node.CarReader.readRaw(fd, e)).bytes, want)
          assert.deepEqual((await node.CarReader.readRaw(handle, e)).bytes, want)
          assert.deepEqual(node.CarBufferReader.readRaw(fd, e).bytes, want)
          assert.equal(node.CarBufferReader.readRaw(fd, e).offset, e.offset)
        }
        await assert.rejects(node.CarReader.readRaw(/** @type {any} */ (true), index[0]), { name: 'TypeError', message: 'Bad fd' })
        await assert.rejects(node.CarReader.readRaw(fd, { ...index[3], blockLength: index[3].blockLength + 10 }), { message: `Failed to read entire block (${index[3].blockLength} instead of ${index[3].blockLength + 10})` })
        // the place of another block: its bytes do not hash to this CID
        await assert.rejects(node.CarReader.readRaw(fd, { ...index[0], blockOffset: index[2].blockOffset }), { name: 'CarBlockError', kind: 'hash-mismatch' })
        assert.throws(() => node.CarBufferReader.readRaw(fd, { ...index[0], blockOffset: index[2].blockOffset }), { name: 'CarBlockError', kind: 'hash-mismatch' })
      } finally {
        fs.closeSync(fd)
        await handle.close()
      }
    } finally {
      done()
    }
  })
})

describe('@ipld/car-compatible readers: what this library adds', () => {
  /** the small CAR with the third block's last byte changed: it no longer hashes to its CID */
  async function corrupt () {
    const { bytes, blocks } = await smallCar()
    const bad = bytes.slice()
    const { index } = await oracle(bytes)
    bad[index[2].blockOffset + index[2].blockLength - 1] ^= 1
    return { bad, blocks, index }
  }

  it('every reader checks each block against its CID: a mismatch is a CarBlockError (unless verifyHashes: false)', async () => {
    const { bad, index } = await corrupt()
    const mismatch = { name: 'CarBlockError', kind: 'hash-mismatch', offset: index[2].offset }
    // CarReader checks a block when it hands it out (get, blocks), not when it reads the CAR
    const reader = await node.CarReader.fromBytes(bad)
    await assert.rejects(reader.get(index[2].cid), mismatch)
    await assert.rejects(async () => all(reader.blocks()), mismatch)
    await assert.rejects(async () => all((await core.CarReader.fromIterable(chunked(bad))).blocks()), mismatch)
    assert.throws(() => node.CarBufferReader.fromBytes(bad), mismatch)
    await assert.rejects(async () => all(await node.CarCIDIterator.fromBytes(bad)), mismatch)
    await assert.rejects(async () => all(await node.CarBlockIterator.fromBytes(bad)), mismatch)
    assert.equal((await all((await node.CarReader.fromBytes(bad, { verifyHashes: false })).blocks())).length, 4)
    assert.equal(node.CarBufferReader.fromBytes(bad, { verifyHashes: false }).blocks().length, 4)
  })

  it('CarReader.fromBytes holds the caller\'s bytes: a block got is a copy, checked when it is got', async () => {
    const { bytes, blocks } = await smallCar()
    const { index } = await oracle(bytes)
    const reader = await node.CarReader.fromBytes(bytes)
    // a copy: changing the block got changes neither the CAR nor the next get
    const first = /** @type {any} */ (await reader.get(blocks[1].cid))
    assert.equal(first.offset, index[1].offset)
    first.bytes[0] ^= 1
    assert.deepEqual(/** @type {any} */ (await reader.get(blocks[1].cid)).bytes, blocks[1].bytes)
    assert.deepEqual(bytes.subarray(index[1].blockOffset, index[1].blockOffset + index[1].blockLength), blocks[1].bytes)
    // the caller's bytes changed after fromBytes: the block is refused when it is got, not handed out wrong
    bytes[index[2].blockOffset] ^= 1
    await assert.rejects(reader.get(blocks[2].cid), { name: 'CarBlockError', kind: 'hash-mismatch', offset: index[2].offset })
    await assert.rejects(async () => all(reader.blocks()), { name: 'CarBlockError', kind: 'hash-mismatch', offset: index[2].offset })
    assert.deepEqual(/** @type {any} */ (await reader.get(blocks[0].cid)).bytes, blocks[0].bytes)
  })

  it('CarReader.fromBytes and fromIterable of a truncated CAR throw at once, not at get', async () => {
    const { bytes } = await smallCar()
    const cut = bytes.subarray(0, bytes.length - 2)
    const truncated = { name: 'CarReadError', message: /truncated or corrupt after 3 complete blocks/ }
    await assert.rejects(node.CarReader.fromBytes(cut), truncated)
    await assert.rejects(core.CarReader.fromBytes(cut), truncated)
    await assert.rejects(core.CarReader.fromIterable(chunked(cut)), truncated)
  })

  it('CarIndexedReader checks the block it reads: a file changed after it was indexed gives a CarBlockError, not wrong bytes', async () => {
    const { bytes, blocks } = await smallCar()
    const { bad } = await corrupt()
    const { file, done } = tmpFile('readers-indexed-', bytes)
    try {
      const reader = await node.CarIndexedReader.fromFile(file)
      try {
        assert.deepEqual(/** @type {any} */ (await reader.get(blocks[2].cid)).bytes, blocks[2].bytes)
        fs.writeFileSync(file, bad)
        await assert.rejects(reader.get(blocks[2].cid), { name: 'CarBlockError', kind: 'hash-mismatch' })
      } finally {
        await reader.close()
      }
    } finally {
      done()
    }
  })

  it('a block whose hash this library does not compute is refused unless allowUnverified', async () => {
    const bytes = new TextEncoder().encode('sha2-512')
    const { sha512 } = await import('multiformats/hashes/sha2')
    const cid = await cidOf(bytes, { code: raw.code, hasher: sha512 })
    const car = new Uint8Array(carV1([cid], [{ cid, bytes }]))
    await assert.rejects(async () => (await node.CarReader.fromBytes(car)).get(cid), { name: 'CarBlockError', kind: 'unverified' })
    assert.throws(() => node.CarBufferReader.fromBytes(car), { name: 'CarBlockError', kind: 'unverified' })
    assert.equal((await all((await node.CarReader.fromBytes(car, { allowUnverified: true })).blocks())).length, 1)
    assert.equal(node.CarBufferReader.fromBytes(car, { allowUnverified: true }).blocks().length, 1)
  })

  it('every block owns exactly its bytes (not a view of the CAR or of a batch)', async () => {
    const bytes = new Uint8Array(fs.readFileSync(SAMPLE))
    const { file, done } = tmpFile('readers-own-', bytes)
    try {
      const indexed = await node.CarIndexedReader.fromFile(file)
      const lists = [
        await all((await node.CarReader.fromBytes(bytes)).blocks()),
        await all((await core.CarReader.fromIterable(chunked(bytes))).blocks()),
        node.CarBufferReader.fromBytes(bytes).blocks(),
        await all(indexed.blocks())
      ]
      await indexed.close()
      for (const blocks of lists) {
        for (const b of blocks.slice(0, 50)) {
          assert.notEqual(b.bytes.buffer, bytes.buffer)
          assert.equal(b.bytes.buffer.byteLength, b.bytes.byteLength, `block at ${b.offset}: its buffer is its bytes`)
          assert.equal(b.cid.bytes.buffer.byteLength, b.cid.bytes.byteLength, `block at ${b.offset}: its CID's buffer is its CID`)
        }
      }
    } finally {
      done()
    }
  })

  it('CarBufferReader checks blake2b-256 blocks synchronously in a fresh process (before any hasher is loaded)', () => {
    const script = `import fs from 'node:fs'
      import { CarBufferReader } from ${JSON.stringify(pathToFileURL(fileURLToPath(new URL('../../../lib/node/node-library.js', import.meta.url))).href)}
      const bytes = fs.readFileSync(${JSON.stringify(SAMPLE)})
      const n = CarBufferReader.fromBytes(bytes).blocks().length
      bytes[bytes.length - 1] ^= 1
      let kind = null
      try { CarBufferReader.fromBytes(bytes) } catch (err) { kind = err.kind }
      console.log(JSON.stringify({ n, kind }))`
    const { file, done } = tmpFile('readers-fresh-', new Uint8Array(0))
    try {
      const mjs = file.replace(/\.car$/, '.mjs')
      fs.writeFileSync(mjs, script)
      const r = spawnSync(process.execPath, [mjs], { encoding: 'utf8' })
      assert.equal(r.status, 0, r.stderr)
      assert.deepEqual(JSON.parse(r.stdout), { n: 1049, kind: 'hash-mismatch' })
    } finally {
      done()
    }
  })

  it('lengths a CAR claims are checked before anything is read or allocated: a huge section claim is a CarReadError', async () => {
    const { bytes } = await smallCar()
    const header = bytes.subarray(0, bytes[0] + 1)
    // a section claiming 2^50 bytes, followed by a few
    const hostile = new Uint8Array([...header, ...varint(2 ** 50), 1, 2, 3])
    const claims = { name: 'CarReadError', message: /claims \d+ bytes/ }
    await assert.rejects(node.CarReader.fromBytes(hostile), claims)
    await assert.rejects(core.CarReader.fromIterable(chunked(hostile)), claims)
    assert.throws(() => node.CarBufferReader.fromBytes(hostile), claims)
    await assert.rejects(async () => all(await node.CarIndexer.fromBytes(hostile)), claims)
    await assert.rejects(async () => all(await core.CarIndexer.fromIterable(chunked(hostile))), claims)
    await assert.rejects(async () => all(await node.CarCIDIterator.fromBytes(hostile)), claims)
    // a stream of unknown size: the claim is over the maximum block size
    const big = new Uint8Array([...header, ...varint(64 * 1024 * 1024), 1, 2, 3])
    // (CarReader collects the stream first, so its claim is checked against what the stream held)
    await assert.rejects(core.CarReader.fromIterable(chunked(big)), { name: 'CarReadError', message: /claims \d+ bytes, but only 3 are left/ })
    await assert.rejects(async () => all(await core.CarIndexer.fromIterable(chunked(big))), { name: 'CarReadError', message: /maximum block size/ })
    // a CARv2 whose payload claims more than the file holds
    const v2 = carV2(bytes, { dataSize: 2 ** 40 })
    await assert.rejects(node.CarReader.fromBytes(v2), { name: 'CarReadError' })
    assert.throws(() => node.CarBufferReader.fromBytes(v2), { name: 'CarReadError' })
    // maxBlockSize bounds a block
    const over = { name: 'CarReadError', message: /maximum block size/ }
    await assert.rejects(node.CarReader.fromBytes(bytes, { maxBlockSize: 3 }), over)
    assert.throws(() => node.CarBufferReader.fromBytes(bytes, { maxBlockSize: 3 }), over)
    await assert.rejects(async () => all(await node.CarIndexer.fromBytes(bytes, { maxBlockSize: 3 })), over)
  })

  it('CarIndexer given a read stream of a whole file reads the file by position; one of part of a file, the stream', async () => {
    const { bytes } = await smallCar()
    const { index } = await oracle(bytes)
    const { file, done } = tmpFile('readers-indexer-stream-', bytes)
    try {
      const stream = fs.createReadStream(file)
      assert.deepEqual(await all(await node.CarIndexer.fromIterable(stream)), index)
      assert.equal(stream.destroyed, true)
      // a stream that ends before the file does is read as the stream: the CAR it gives is cut short
      const part = fs.createReadStream(file, { end: bytes.length - 3 })
      await assert.rejects(async () => all(await node.CarIndexer.fromIterable(part)), { name: 'CarReadError', message: /truncated or corrupt after 3 complete blocks/ })
      // one already started is read as the stream too
      const started = fs.createReadStream(file)
      const first = await new Promise((resolve) => started.once('readable', () => resolve(started.read())))
      assert.equal(first.length, bytes.length)
      await assert.rejects(async () => all(await node.CarIndexer.fromIterable(started)), { name: 'CarReadError' })
    } finally {
      done()
    }
  })

  it('a Blob, a ReadableStream, a file path and a file: URL are taken wherever bytes or an async iterable are', async () => {
    const { bytes } = await smallCar()
    const { index } = await oracle(bytes)
    const { file, done } = tmpFile('readers-inputs-', bytes)
    try {
      const inputs = () => [new Blob([bytes]), new Blob([bytes]).stream(), file, pathToFileURL(file), bytes.buffer.slice(0)]
      for (const input of inputs()) assert.equal((await all((await node.CarReader.fromIterable(/** @type {any} */ (input))).blocks())).length, 4)
      for (const input of inputs()) assert.deepEqual(await all(await node.CarIndexer.fromIterable(/** @type {any} */ (input))), index)
      for (const input of inputs()) assert.equal((await all(await node.CarCIDIterator.fromIterable(/** @type {any} */ (input)))).length, 4)
      for (const input of [new Blob([bytes]), new Blob([bytes]).stream()]) assert.equal((await all((await core.CarReader.fromIterable(input)).blocks())).length, 4)
    } finally {
      done()
    }
  })

  it('bad arguments are rejected as @ipld/car rejects them', async () => {
    for (const arg of [true, false, null, undefined, 'string', 100, { obj: 'nope' }]) {
      await assert.rejects(node.CarReader.fromBytes(/** @type {any} */ (arg)), TypeError)
      await assert.rejects(node.CarIndexer.fromBytes(/** @type {any} */ (arg)), TypeError)
      await assert.rejects(node.CarCIDIterator.fromBytes(/** @type {any} */ (arg)), TypeError)
      assert.throws(() => node.CarBufferReader.fromBytes(/** @type {any} */ (arg)), TypeError)
    }
    for (const arg of [true, false, null, undefined, 100, { obj: 'nope' }]) {
      await assert.rejects(core.CarReader.fromIterable(/** @type {any} */ (arg)), TypeError)
      await assert.rejects(node.CarIndexedReader.fromFile(/** @type {any} */ (arg)), TypeError)
    }
    await assert.rejects(node.CarReader.fromIterable(new Uint8Array(0)), { name: 'CarReadError' })
  })
})

describe('@ipld/car-compatible readers: a section\'s own bytes', () => {
  it('a CID written in a form not its own (a varint longer than needed) is refused by every reader, the indexer too', async () => {
    const { blocks } = await smallCar()
    const good = new Uint8Array(carV1([], [blocks[0]]))
    const headerEnd = good[0] + 1
    const cid = blocks[0].cid.bytes // 01 55 12 20 ...
    const long = Uint8Array.from([1, 0xd5, 0x00, ...cid.subarray(2)]) // 0x55 written in two bytes
    const bad = new Uint8Array([...good.subarray(0, headerEnd), ...varint(long.length + blocks[0].bytes.length), ...long, ...blocks[0].bytes])
    const refused = { name: 'CarReadError', message: /does not start with a valid CID/ }
    await assert.rejects(node.CarReader.fromBytes(bad), refused)
    assert.throws(() => node.CarBufferReader.fromBytes(bad), refused)
    await assert.rejects(async () => all(await node.CarIndexer.fromBytes(bad)), refused)
    await assert.rejects(async () => all(await core.CarIndexer.fromIterable(chunked(bad))), refused)
    const { file, done } = tmpFile('readers-cid-form-', bad)
    try {
      await assert.rejects(node.CarIndexedReader.fromFile(file), refused)
    } finally {
      done()
    }
    // an identity CID (its data inline) is read as any other
    const { identity } = await import('multiformats/hashes/identity')
    const inline = await cidOf(new TextEncoder().encode('inline'), { code: raw.code, hasher: identity })
    const withInline = new Uint8Array(carV1([], [{ cid: inline, bytes: new TextEncoder().encode('inline') }, blocks[1]]))
    const want = await all(await ipld.CarIndexer.fromBytes(withInline))
    assert.deepEqual(await all(await node.CarIndexer.fromBytes(withInline)), want)
  })

  it('the index is of CID bytes: a CIDv0 and the CIDv1 of the same multihash are different blocks, as in the CAR', async () => {
    const { blocks } = await smallCar()
    const bytes = new Uint8Array(carV1([], [blocks[0]]))
    const reader = await node.CarReader.fromBytes(bytes)
    const { CID } = await import('multiformats/cid')
    assert.equal(await reader.has(CID.createV1(0x55, blocks[0].cid.multihash)), true)
    assert.equal(await reader.has(CID.createV1(0x71, blocks[0].cid.multihash)), false)
    assert.deepEqual(section(blocks[0]).length, (await all(await node.CarIndexer.fromBytes(bytes)))[0].length)
  })
})

describe("api/iterators.js: the './iterator' sub-entry's file (package.json's default condition)", () => {
  it("gives @ipld/car's iterator's two names, the core's classes themselves, and nothing else", async () => {
    const iterators = await import('../../../lib/core/api/iterators.js')
    assert.deepEqual(Object.keys(iterators).sort(), ['CarBlockIterator', 'CarCIDIterator'])
    assert.equal(iterators.CarBlockIterator, core.CarBlockIterator)
    assert.equal(iterators.CarCIDIterator, core.CarCIDIterator)
    const manifest = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'))
    assert.equal(manifest.exports['./iterator'].default.default, './lib/core/api/iterators.js')
  })
})
