// The writers as @ipld/car 5.4 has them (CarWriter: create, createAppender, updateRootsInBytes,
// updateRootsInFile, put, close, version; CarBufferWriter's functions), row by row, with @ipld/car
// itself (test-only) as the oracle for bytes and messages; and what this library adds: roots and
// CIDs checked, chunks that are the reader's own, no @ipld/car needed to write.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as ipld from '@ipld/car'
import * as ipldBufferWriter from '@ipld/car/buffer-writer'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { sha256, sha512 } from 'multiformats/hashes/sha2'
import { identity } from 'multiformats/hashes/identity'
import * as Digest from 'multiformats/hashes/digest'
import { blake2b } from '@noble/hashes/blake2.js'
import { spawnSync } from 'node:child_process'
import * as core from '../../../lib/core/index.js'
import * as node from '../../../lib/node/node-library.js'
import * as bufferWriter from '../../../lib/core/api/car-buffer-writer.js'
import { installFileDescriptors } from '../../../lib/core/write/file-descriptors.js'
import { CarWriterOut } from '../../../lib/core/write/car-writer-out.js'

const LIB = fileURLToPath(new URL('../../../lib/', import.meta.url))
const { CarWriter } = node

/** @param {unknown} value @param {{ code?: number, hasher?: typeof sha256 }} [options] */
async function block (value, { code = 0x71, hasher = sha256 } = {}) {
  const bytes = code === 0x71 ? dagCbor.encode(value) : /** @type {Uint8Array} */ (value)
  return { cid: CID.createV1(code, await hasher.digest(bytes)), bytes }
}

/** @param {Uint8Array[]} chunks */
const concat = (chunks) => {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
  let at = 0
  for (const c of chunks) { out.set(c, at); at += c.length }
  return out
}

/** @param {AsyncIterable<Uint8Array>} out @param {Uint8Array[]} [chunks] */
async function collect (out, chunks = []) {
  for await (const c of out) chunks.push(c)
  return concat(chunks)
}

/**
 * The CAR @ipld/car's own CarWriter writes, or ours, for the same roots and blocks.
 *
 * @param {{ create: (roots?: any) => { writer: { put: (b: any) => Promise<void>, close: () => Promise<void> }, out: AsyncIterable<Uint8Array> } }} Writer
 * @param {any} roots
 * @param {{ cid: CID, bytes: Uint8Array }[]} blocks
 */
async function write (Writer, roots, blocks) {
  const { writer, out } = Writer.create(roots)
  const reading = collect(out)
  for (const b of blocks) await writer.put(b)
  await writer.close()
  return reading
}

/** @param {() => Promise<unknown>} fn @returns {Promise<Error>} what fn rejected with */
async function rejection (fn) {
  try {
    await fn()
  } catch (err) {
    return /** @type {Error} */ (err)
  }
  throw new Error('expected a rejection')
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 10))

describe('api: the writers (@ipld/car 5.4\'s CarWriter and CarBufferWriter)', function () {
  this.timeout(60_000)
  /** @type {{ cid: CID, bytes: Uint8Array }[]} */
  let blocks
  /** @type {CID[]} */
  let roots
  before(async () => {
    blocks = [
      ...await Promise.all([{ a: 1 }, [1, 2, 3], 'x'.repeat(300), { nested: { deep: [true, null] } }].map((v) => block(v))),
      await block(new TextEncoder().encode('raw bytes'), { code: 0x55 }),
      await block(new Uint8Array(0), { code: 0x55 }), // a zero-length block
      await block({ big: 'y'.repeat(70_000) }, { hasher: sha512 })
    ]
    roots = [blocks[0].cid, blocks[1].cid]
  })

  describe('CarWriter: the names and types', () => {
    it('the same static and instance methods as @ipld/car\'s (Node: updateRootsInFile too); the core\'s is the Node entry\'s', () => {
      for (const name of ['create', 'createAppender', 'updateRootsInBytes', 'updateRootsInFile']) {
        assert.equal(typeof ipld.CarWriter[/** @type {'create'} */ (name)], 'function', `@ipld/car has ${name}`)
        assert.equal(typeof CarWriter[/** @type {'create'} */ (name)], 'function', name)
      }
      const { writer, out } = CarWriter.create()
      for (const name of ['put', 'close', 'version']) assert.equal(typeof writer[/** @type {'put'} */ (name)], 'function', name)
      assert.equal(typeof out[Symbol.asyncIterator], 'function')
      assert.equal(node.CarWriter, core.CarWriter)
      assert.equal(out instanceof CarWriterOut, true)
    })

    it('version() is 1', () => {
      assert.equal(CarWriter.create(roots).writer.version(), 1)
      assert.equal(CarWriter.createAppender().writer.version(), 1)
    })
  })

  describe('CarWriter: the bytes are @ipld/car\'s', () => {
    /** @type {[string, (r: CID[]) => any][]} */
    const rows = [
      ['no roots (create())', () => undefined],
      ['an empty array', () => []],
      ['one CID, not in an array', (r) => r[0]],
      ['an array of two', (r) => r],
      ['a CIDv0 and a sha2-512 CIDv1', (r) => [CID.parse('QmdfTbBqBPQ7VNxZEYEj14VmRuZBkqFbiwReogJgS1zR1n'), r[2]]]
    ]
    for (const [name, rootsOf] of rows) {
      it(name, async () => {
        const these = rootsOf([...roots, blocks[6].cid])
        const ours = await write(CarWriter, these, blocks)
        assert.deepEqual(ours, await write(ipld.CarWriter, these, blocks))
        const back = await ipld.CarReader.fromBytes(ours)
        assert.deepEqual((await back.getRoots()).map(String), (these === undefined ? [] : [these].flat()).map(String))
        const read = []
        for await (const b of await core.CarBlockIterator.fromBytes(ours, { allowUnverified: true })) read.push(b.cid.toString())
        assert.deepEqual(read, blocks.map((b) => b.cid.toString()))
      })
    }

    it('createAppender: sections only, no header; header + appended = the whole CAR', async () => {
      const header = await write(CarWriter, roots, [])
      const { writer, out } = CarWriter.createAppender()
      const reading = collect(out)
      for (const b of blocks) await writer.put(b)
      await writer.close()
      const appended = await reading
      assert.deepEqual(concat([header, appended]), await write(ipld.CarWriter, roots, blocks))
      assert.notEqual(appended[0], header[0]) // starts with a section, not the header
    })

    it('the chunks are the reader\'s own: changing a block\'s bytes after put() changes nothing written', async () => {
      const bytes = Uint8Array.from([1, 2, 3, 4])
      const b = { cid: CID.createV1(0x55, await sha256.digest(bytes)), bytes }
      const { writer, out } = CarWriter.create([])
      /** @type {Uint8Array[]} */
      const chunks = []
      const reading = collect(out, chunks)
      const put = writer.put(b)
      bytes.fill(9)
      await put
      await writer.close()
      const car = await reading
      assert.deepEqual(car.subarray(car.length - 4), Uint8Array.of(1, 2, 3, 4))
      assert.equal(chunks.some((c) => c.buffer === bytes.buffer || c.buffer === b.cid.bytes.buffer), false)
    })
  })

  describe('CarWriter: put() and close() resolve once out has been read (@ipld/car\'s backpressure)', () => {
    it('put() stays pending until the reader takes its bytes', async () => {
      const { writer, out } = CarWriter.create(roots)
      let done = false
      const put = writer.put(blocks[0]).then(() => { done = true })
      await tick()
      assert.equal(done, false, 'put resolved with nothing read')
      const it = out[Symbol.asyncIterator]()
      await it.next() // the header
      await tick()
      assert.equal(done, false, 'put resolved when only the header was read')
      const section = await it.next()
      assert.equal(section.done, false)
      await put
      assert.equal(done, true)
    })

    it('close() stays pending until the reader is told the CAR ended', async () => {
      const { writer, out } = CarWriter.create([])
      let closed = false
      const closing = writer.close().then(() => { closed = true })
      await tick()
      assert.equal(closed, false, 'close resolved with nothing read')
      const it = out[Symbol.asyncIterator]()
      assert.equal((await it.next()).done, false) // the header
      await tick()
      assert.equal(closed, false, 'close resolved before the end was read')
      assert.equal((await it.next()).done, true)
      await closing
    })

    it('"complete": with the writes queued and the reader attached first, the bytes are collected before the writes resolve', async () => {
      const { writer, out } = CarWriter.create(roots)
      const collection = collect(out)
      const queue = blocks.map((b) => writer.put(b))
      queue.push(writer.close())
      let collected = false
      collection.then(() => { collected = true })
      await Promise.all(queue)
      assert.equal(collected, true)
    })

    it('"complete, deferred collection": the reader attached after the writes were queued', async () => {
      const { writer, out } = CarWriter.create(roots)
      const queue = blocks.map((b) => writer.put(b))
      queue.push(writer.close())
      let collected = false
      collect(out).then(() => { collected = true })
      await Promise.all(queue)
      assert.equal(collected, true)
    })

    it('close() resolves after what the reader does on the end in the same turn (its loop\'s last lines, the Promises it settles)', async () => {
      const { writer, out } = CarWriter.create([])
      let after = false
      const reading = (async () => {
        for await (const c of out) void c
        for (let i = 0; i < 20; i++) await null
        after = true
      })()
      await writer.close()
      assert.equal(after, true)
      await reading
    })

    it('"complete, close after write": when the collection resolves, the writes have not', async () => {
      const { writer, out } = CarWriter.create(roots)
      const collection = collect(out)
      const queue = blocks.map((b) => writer.put(b))
      queue.push(writer.close())
      let written = false
      Promise.all(queue).then(() => { written = true })
      const bytes = await collection
      assert.equal(written, false)
      assert.deepEqual(bytes, await write(ipld.CarWriter, roots, blocks))
    })

    it('puts not awaited queue in memory and come out in order; 20,000 of them read back whole', async () => {
      const { writer, out } = CarWriter.create([])
      const small = await Promise.all(Array.from({ length: 20_000 }, (_, i) => block(i)))
      const puts = small.map((b) => writer.put(b))
      const closing = writer.close()
      const car = await collect(out)
      await Promise.all([...puts, closing])
      const read = []
      for await (const b of await core.CarBlockIterator.fromBytes(car)) read.push(b.cid.toString())
      assert.deepEqual(read, small.map((b) => b.cid.toString()))
    })
  })

  describe('CarWriter: refusals, with @ipld/car\'s messages', () => {
    const badRoots = [new Uint8Array(0), true, false, null, 'string', 100, { obj: 'nope' }, [false]]
    for (const arg of badRoots) {
      it(`create(${Array.isArray(arg) ? '[false]' : arg instanceof Uint8Array ? 'Uint8Array(0)' : JSON.stringify(arg)}) throws a TypeError (as @ipld/car does)`, () => {
        assert.throws(() => ipld.CarWriter.create(/** @type {any} */ (arg)))
        assert.throws(() => CarWriter.create(/** @type {any} */ (arg)), (err) => err instanceof TypeError && /^roots must be a single CID or an array of CIDs: /.test(err.message))
      })
    }

    it('create() refuses a CID-like object whose bytes are not a CID (which @ipld/car would write), naming the root', () => {
      const good = roots[0]
      const junk = Uint8Array.of(1, 0x71, 0x12, 0x20, 1, 2, 3) // a 32-byte digest declared, 3 bytes held
      const fake = { '/': junk, bytes: junk, version: 1, code: 0x71, multihash: good.multihash }
      assert.throws(() => CarWriter.create([good, /** @type {any} */ (fake)]), (err) => err instanceof TypeError && /roots\[1\] is a CID whose bytes are not one \(its multihash declares a 32-byte digest but 3 bytes follow\)/.test(err.message))
      const versionLie = { '/': good.bytes, bytes: good.bytes, version: 1, code: 0x55, multihash: good.multihash }
      assert.throws(() => CarWriter.create(/** @type {any} */ (versionLie)), /the root is a CID whose bytes are not one/)
    })

    it('put() rejects what is not a { cid, bytes } block (TypeError, @ipld/car\'s message), and a CID whose bytes are not one', async () => {
      const { writer } = CarWriter.create()
      const bad = [new Uint8Array(0), true, false, null, 'string', 100, { obj: 'nope' }, [false]]
      for (const arg of bad) {
        const err = await rejection(() => writer.put(/** @type {any} */ (arg)))
        assert.ok(err instanceof TypeError && /^Can only write \{cid, bytes\} objects/.test(err.message), String(err))
      }
      for (const cid of [true, false, null, 'string', 100, { obj: 'nope' }, [false]]) {
        assert.match(String(await rejection(() => writer.put(/** @type {any} */ ({ bytes: new Uint8Array(0), cid })))), /Can only write \{cid, bytes\} objects/)
        assert.match(String(await rejection(() => writer.put(/** @type {any} */ ({ cid: roots[0], bytes: cid })))), /Can only write \{cid, bytes\} objects/)
      }
      const junk = Uint8Array.of(1, 0x71, 0x12, 0x20, 1)
      const err = await rejection(() => writer.put({ cid: /** @type {any} */ ({ '/': junk, bytes: junk, version: 1, code: 0x71 }), bytes: new Uint8Array(1) }))
      assert.ok(err instanceof TypeError)
      assert.match(err.message, /the cid is a CID whose bytes are not one/)
    })

    it('put() after close() and a second close() reject: \'Already closed\' (@ipld/car\'s text)', async () => {
      for (const W of [ipld.CarWriter, CarWriter]) {
        const { writer, out } = W.create()
        const reading = collect(out)
        await writer.put(blocks[0])
        await writer.close()
        assert.equal((await rejection(() => writer.put(blocks[1]))).message, 'Already closed')
        assert.equal((await rejection(() => writer.close())).message, 'Already closed')
        await reading
      }
    })

    it('out is read once: a second reader is refused (\'Multiple iterator not supported\', as @ipld/car)', async () => {
      for (const W of [ipld.CarWriter, CarWriter]) {
        const { writer, out } = W.create()
        const first = collect(out)
        assert.throws(() => out[Symbol.asyncIterator](), { message: 'Multiple iterator not supported' })
        await assert.rejects(collect(out), /multiple iterator/i)
        await writer.close()
        await first
      }
    })
  })

  describe('CarWriter.updateRootsInBytes / updateRootsInFile', () => {
    const newRoots = [
      CID.parse('bafkreidbxzk2ryxwwtqxem4l3xyyjvw35yu4tcct4cqeqxwo47zhxgxqwq'),
      CID.parse('bafkreiebzrnroamgos2adnbpgw5apo3z4iishhbdx77gldnbk57d4zdio4')
    ]
    /** @type {Uint8Array} */
    let car
    before(async () => { car = await write(CarWriter, roots, blocks) })

    it('updateRootsInBytes overwrites the roots in place and returns the same bytes, as @ipld/car does', async () => {
      const ours = car.slice()
      const theirs = car.slice()
      assert.equal(await CarWriter.updateRootsInBytes(ours, newRoots), ours)
      await ipld.CarWriter.updateRootsInBytes(theirs, newRoots)
      assert.deepEqual(ours, theirs)
      assert.deepEqual((await (await ipld.CarReader.fromBytes(ours)).getRoots()).map(String), newRoots.map(String))
      assert.deepEqual(ours.subarray(headerLength(car)), car.subarray(headerLength(car)))
    })

    for (const [name, replacement] of /** @type {[string, (r: CID[]) => CID[]][]} */ ([['three roots for two', (r) => [...r, r[0]]], ['one for two', (r) => [r[0]]], ['none for two', () => []]])) {
      it(`a header of another length is refused, bytes untouched, with @ipld/car's message: ${name}`, async () => {
        const ours = car.slice()
        const theirs = car.slice()
        const expected = await rejection(() => ipld.CarWriter.updateRootsInBytes(theirs, replacement(newRoots)))
        const got = await rejection(() => CarWriter.updateRootsInBytes(ours, replacement(newRoots)))
        assert.equal(got.message, expected.message)
        assert.match(got.message, /^updateRoots\(\) can only overwrite a header of the same length \(old header is \d+ bytes, new header is \d+ bytes\)$/)
        assert.deepEqual(ours, car)
      })
    }

    it('updateRootsInBytes refuses bad roots, a header that is not one, and a CARv2 (whose roots it would not reach)', async () => {
      await assert.rejects(CarWriter.updateRootsInBytes(car.slice(), /** @type {any} */ ([true, true])), TypeError)
      await assert.rejects(CarWriter.updateRootsInBytes(Uint8Array.of(0), newRoots), /Invalid CAR header \(zero length\)/)
      await assert.rejects(CarWriter.updateRootsInBytes(car.slice(0, 10), newRoots), /Unexpected end of data/)
      const notHeader = dagCbor.encode({ roots: newRoots, version: 3 })
      await assert.rejects(CarWriter.updateRootsInBytes(concat([Uint8Array.of(notHeader.length), notHeader]), newRoots), /Invalid CAR version: 3/)
      const v2 = fs.readFileSync(fileURLToPath(new URL('../../fixtures/genesis-slice-v2.car', import.meta.url)))
      await assert.rejects(CarWriter.updateRootsInBytes(new Uint8Array(v2), newRoots), /only overwrite a CARv1 header/)
    })

    describe('updateRootsInFile', () => {
      /** @type {string} */
      let dir
      /** @type {string} */
      let file
      beforeEach(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-writers-'))
        file = path.join(dir, 'x.car')
        fs.writeFileSync(file, car)
      })
      afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

      it('a file descriptor number (fs.open r+) and a FileHandle: the file as updateRootsInBytes makes the bytes', async () => {
        const expected = await CarWriter.updateRootsInBytes(car.slice(), newRoots)
        const fd = fs.openSync(file, 'r+')
        try {
          await CarWriter.updateRootsInFile(fd, newRoots)
        } finally {
          fs.closeSync(fd)
        }
        assert.deepEqual(new Uint8Array(fs.readFileSync(file)), expected)
        fs.writeFileSync(file, car)
        const handle = await fs.promises.open(file, 'r+')
        try {
          await CarWriter.updateRootsInFile(handle, newRoots)
        } finally {
          await handle.close()
        }
        assert.deepEqual(new Uint8Array(fs.readFileSync(file)), expected)
      })

      it('a header longer than 256 bytes (@ipld/car reads it 256 bytes at a time)', async () => {
        const many = Array.from({ length: 9 }, (_, i) => blocks[i % 5].cid)
        const bigCar = await write(CarWriter, many, blocks)
        assert.ok(headerLength(bigCar) > 256)
        fs.writeFileSync(file, bigCar)
        const replaced = [...many.slice(1), many[0]]
        const handle = await fs.promises.open(file, 'r+')
        try {
          await CarWriter.updateRootsInFile(handle, replaced)
        } finally {
          await handle.close()
        }
        assert.deepEqual((await (await ipld.CarReader.fromBytes(fs.readFileSync(file))).getRoots()).map(String), replaced.map(String))
      })

      it('another length is refused with @ipld/car\'s message, the file untouched; a bad fd is TypeError \'Bad fd\'', async () => {
        const handle = await fs.promises.open(file, 'r+')
        try {
          for (const r of [[...newRoots, newRoots[0]], [newRoots[0]], []]) {
            const expected = await rejection(() => ipld.CarWriter.updateRootsInFile(handle, r))
            assert.equal((await rejection(() => CarWriter.updateRootsInFile(handle, r))).message, expected.message)
          }
        } finally {
          await handle.close()
        }
        assert.deepEqual(new Uint8Array(fs.readFileSync(file)), car)
        for (const fd of [true, null, 'x.car', {}]) {
          const err = await rejection(() => CarWriter.updateRootsInFile(/** @type {any} */ (fd), newRoots))
          assert.ok(err instanceof TypeError)
          assert.equal(err.message, 'Bad fd')
        }
      })

      it('without the Node entry\'s file descriptors (a browser), a number is refused and a FileHandle still works', async () => {
        installFileDescriptors(null)
        try {
          await assert.rejects(CarWriter.updateRootsInFile(3, newRoots), /^TypeError: Bad fd: a file descriptor number needs the Node entry/)
        } finally {
          await import('../../../lib/node/writer-file-descriptors.js?again')
        }
        const fd = fs.openSync(file, 'r+')
        try {
          await CarWriter.updateRootsInFile(fd, newRoots)
        } finally {
          fs.closeSync(fd)
        }
      })
    })
  })

  describe('CarBufferWriter', () => {
    it('the same functions as @ipld/car/buffer-writer, and the core\'s CarBufferWriter is them', () => {
      assert.deepEqual(Object.keys(bufferWriter).sort(), Object.keys(ipldBufferWriter).sort())
      assert.deepEqual(Object.keys(core.CarBufferWriter).sort(), Object.keys(ipldBufferWriter).sort())
      assert.equal(core.CarBufferWriter.createWriter, bufferWriter.createWriter)
      assert.equal(node.CarBufferWriter, core.CarBufferWriter)
    })

    it('calculateHeaderLength, headerLength and estimateHeaderLength are the header\'s length (CBOR head boundaries, long CIDs)', () => {
      const long = CID.createV1(0x55, identity.digest(new Uint8Array(300).fill(1)))
      for (const count of [0, 1, 10, 23, 24, 255, 256, 1000]) {
        for (const cid of [roots[0], blocks[6].cid, long, CID.parse('QmdfTbBqBPQ7VNxZEYEj14VmRuZBkqFbiwReogJgS1zR1n')]) {
          const these = new Array(count).fill(cid)
          const expected = ipldBufferWriter.calculateHeaderLength(these.map((c) => c.bytes.length))
          assert.equal(bufferWriter.calculateHeaderLength(these.map((c) => c.bytes.length)), expected, `${count} x ${cid.bytes.length}`)
          assert.equal(bufferWriter.headerLength({ roots: these }), expected)
        }
        assert.equal(bufferWriter.estimateHeaderLength(count), ipldBufferWriter.estimateHeaderLength(count))
        assert.equal(bufferWriter.estimateHeaderLength(count, 100), ipldBufferWriter.estimateHeaderLength(count, 100))
      }
    })

    it('blockLength is a block\'s section length', () => {
      for (const b of blocks) assert.equal(bufferWriter.blockLength(b), ipldBufferWriter.blockLength(b))
    })

    it('roots given: the bytes @ipld/car\'s CarBufferWriter writes, a view of the caller\'s buffer', async () => {
      const size = bufferWriter.headerLength({ roots }) + blocks.reduce((n, b) => n + bufferWriter.blockLength(b), 0)
      const ours = bufferWriter.createWriter(new ArrayBuffer(size + 10), { roots })
      const theirs = ipldBufferWriter.createWriter(new ArrayBuffer(size + 10), { roots })
      for (const b of blocks) { assert.equal(ours.write(b), ours); theirs.write(b) }
      const bytes = ours.close()
      assert.deepEqual(bytes, theirs.close())
      assert.equal(bytes.length, size)
      assert.equal(bytes.buffer, ours.bytes.buffer)
      assert.deepEqual(bytes, await write(ipld.CarWriter, roots, blocks))
    })

    it('byteOffset and byteLength: writes into that range only', () => {
      const buffer = new ArrayBuffer(1000)
      const writer = bufferWriter.createWriter(buffer, { roots: [roots[0]], byteOffset: 100, byteLength: 500 })
      writer.write(blocks[0])
      const bytes = writer.close()
      assert.equal(bytes.byteOffset, 100)
      assert.deepEqual(new Uint8Array(buffer, 0, 100), new Uint8Array(100))
    })

    it('overestimated header: close() is a RangeError (\'Header size was overestimated\'), close({ resize: true }) moves the blocks', async () => {
      const headerSize = bufferWriter.estimateHeaderLength(2)
      const writer = bufferWriter.createWriter(new ArrayBuffer(headerSize + 256), { headerSize })
      writer.write(blocks[0]).write(blocks[1]).addRoot(blocks[0].cid)
      assert.throws(() => writer.close(), (err) => err instanceof RangeError && /^Header size was overestimated/.test(err.message))
      assert.deepEqual(writer.close({ resize: true }), await write(ipld.CarWriter, [blocks[0].cid], blocks.slice(0, 2)))
    })

    it('underestimated header: addRoot is a RangeError (\'has no capacity\'), addRoot(root, { resize: true }) moves the blocks', async () => {
      const headerSize = bufferWriter.estimateHeaderLength(1)
      const writer = bufferWriter.createWriter(new ArrayBuffer(headerSize + 300), { headerSize })
      writer.write(blocks[0]).addRoot(blocks[0].cid).write(blocks[1])
      const long = blocks[6].cid // sha2-512: longer than the 36 bytes estimated
      assert.throws(() => writer.addRoot(long), (err) => err instanceof RangeError && /^Header of size \d+ has no capacity for new root/.test(err.message))
      assert.equal(writer.roots.length, 1)
      writer.addRoot(long, { resize: true })
      assert.deepEqual(writer.close(), await write(ipld.CarWriter, [blocks[0].cid, long], blocks.slice(0, 2)))
    })

    it('no room: \'Buffer has no capacity for a new root\' / \'for this block\' (RangeErrors), nothing written', async () => {
      const headerSize = bufferWriter.estimateHeaderLength(1)
      const room = bufferWriter.blockLength(blocks[0]) + bufferWriter.blockLength(blocks[1])
      const writer = bufferWriter.createWriter(new ArrayBuffer(headerSize + room), { headerSize })
      writer.write(blocks[0]).addRoot(blocks[0].cid).write(blocks[1])
      assert.throws(() => writer.addRoot(blocks[1].cid), /^RangeError: Buffer has no capacity for a new root/)
      assert.throws(() => writer.addRoot(blocks[1].cid, { resize: true }), /^RangeError: Buffer has no capacity for a new root/)
      assert.throws(() => writer.write(blocks[2]), /^RangeError: Buffer has no capacity for this block/)
      assert.equal(writer.roots.length, 1)
      assert.deepEqual(writer.close(), await write(ipld.CarWriter, [blocks[0].cid], blocks.slice(0, 2)))
    })

    it('a root that fits the buffer to its last byte is taken (@ipld/car refuses it)', async () => {
      const headerSize = bufferWriter.headerLength({ roots: [] })
      const needed = bufferWriter.headerLength({ roots: [roots[0]] }) + bufferWriter.blockLength(blocks[0])
      const ours = bufferWriter.createWriter(new ArrayBuffer(needed), { headerSize })
      ours.write(blocks[0]).addRoot(roots[0], { resize: true })
      assert.deepEqual(ours.close(), await write(ipld.CarWriter, [roots[0]], [blocks[0]]))
      const theirs = ipldBufferWriter.createWriter(new ArrayBuffer(needed), { headerSize })
      theirs.write(blocks[0])
      assert.throws(() => theirs.addRoot(roots[0], { resize: true }), /no capacity/)
    })

    it('a root or a block\'s cid that is not a CID is a TypeError', () => {
      const writer = bufferWriter.createWriter(new ArrayBuffer(1000))
      assert.throws(() => writer.addRoot(/** @type {any} */ ('bafy')), TypeError)
      assert.throws(() => writer.addRoot(/** @type {any} */ ({ bytes: roots[0].bytes })), /^TypeError: a root must be a CID: it is an object that is not a CID/)
      const junk = Uint8Array.of(1, 0x71, 0x12, 0x20, 1)
      assert.throws(() => writer.write({ cid: /** @type {any} */ ({ '/': junk, bytes: junk, version: 1, code: 0x71 }), bytes: new Uint8Array(1) }), /^TypeError: a block's cid must be a CID: it is a CID whose bytes are not one/)
      assert.throws(() => writer.write(/** @type {any} */ ({ cid: {}, bytes: new Uint8Array(1) })), TypeError)
      assert.throws(() => writer.write(/** @type {any} */ ({ cid: roots[0], bytes: [1] })), TypeError)
      assert.throws(() => bufferWriter.createWriter(new ArrayBuffer(1000), { roots: /** @type {any} */ ([null]) }), TypeError)
      assert.equal(writer.byteOffset, writer.headerSize)
    })
  })

  describe('the writers refuse what the readers would refuse (issue 61, item 9)', () => {
    const hello = new TextEncoder().encode('hello')
    const notHello = new TextEncoder().encode('not hello')
    /** @type {CID} */
    let helloCid
    before(async () => { helloCid = CID.createV1(0x55, await sha256.digest(hello)) })

    /** @param {number} size the buffer's size @param {Record<string, unknown>} [options] */
    const bufferWriterOf = (size, options) => bufferWriter.createWriter(new ArrayBuffer(size), /** @type {any} */ (options))

    it('CarWriter.put() rejects a block whose bytes do not hash to its CID, naming the CID and both digests; nothing of it is written', async () => {
      const { writer, out } = CarWriter.create([helloCid])
      const reading = collect(out)
      const err = await rejection(() => writer.put({ cid: helloCid, bytes: notHello }))
      assert.ok(!(err instanceof TypeError), String(err))
      assert.match(err.message, new RegExp(`^CarWriter\\.put\\(\\): the block's bytes do not hash to its CID ${helloCid}: `))
      assert.match(err.message, new RegExp(`the CID's sha2-256 digest is ${Buffer.from(helloCid.multihash.digest).toString('hex')}`))
      assert.match(err.message, new RegExp(`the 9 bytes given hash to ${Buffer.from(await sha256.encode(notHello)).toString('hex')}`))
      assert.match(err.message, /verifyHashes: false/)
      await writer.put({ cid: helloCid, bytes: hello })
      await writer.close()
      // what was written is a CAR the checking readers take: the good block only
      const car = await reading
      const read = []
      for await (const b of await core.CarBlockIterator.fromBytes(car)) read.push(b)
      assert.deepEqual(read.map((b) => [b.cid.toString(), new TextDecoder().decode(b.bytes)]), [[helloCid.toString(), 'hello']])
    })

    it('CarBufferWriter write() throws the same, and the buffer and offset are as before', () => {
      const writer = bufferWriterOf(200, { roots: [helloCid] })
      const offset = writer.byteOffset
      assert.throws(() => writer.write({ cid: helloCid, bytes: notHello }), (err) => !(err instanceof TypeError) && err instanceof Error &&
        new RegExp(`^CarBufferWriter write\\(\\): the block's bytes do not hash to its CID ${helloCid}: .*verifyHashes: false`).test(err.message))
      assert.equal(writer.byteOffset, offset)
      assert.deepEqual(writer.bytes.subarray(offset), new Uint8Array(200 - offset))
      const car = writer.write({ cid: helloCid, bytes: hello }).close({ resize: true })
      assert.deepEqual(core.CarBufferReader.fromBytes(car).blocks().map((b) => b.cid.toString()), [helloCid.toString()])
    })

    it('identity: the CID holds the block itself; a block other than it is refused by both writers', async () => {
      const cid = CID.createV1(0x55, identity.digest(hello))
      assert.throws(() => bufferWriterOf(200).write({ cid, bytes: notHello }), /the block's bytes do not hash to its CID .*identity: the CID holds 5 bytes, the block is 9/)
      assert.match(String(await rejection(() => CarWriter.create().writer.put({ cid, bytes: notHello }))), /the block's bytes do not hash to its CID/)
      bufferWriterOf(200).write({ cid, bytes: hello })
    })

    it('blake2b-256: checked too; sha2-512 (a hash the readers do not compute, nor the writers) is written as @ipld/car writes it', async () => {
      const cid = CID.createV1(0x55, Digest.create(0xb220, blake2b(hello, { dkLen: 32 })))
      assert.throws(() => bufferWriterOf(200).write({ cid, bytes: notHello }), /the block's bytes do not hash to its CID .*blake2b-256/)
      assert.match(String(await rejection(() => CarWriter.create().writer.put({ cid, bytes: notHello }))), /blake2b-256/)
      bufferWriterOf(200).write({ cid, bytes: hello })
      const sha512Cid = CID.createV1(0x55, await sha512.digest(hello))
      bufferWriterOf(200).write({ cid: sha512Cid, bytes: notHello })
    })

    it('a truncated multihash is checked as the readers check it: its prefix, from 20 bytes up', () => {
      const full = /** @type {Uint8Array} */ (/** @type {any} */ (sha256.digest(hello)).digest)
      const cid = CID.createV1(0x55, Digest.create(0x12, full.subarray(0, 20)))
      bufferWriterOf(200).write({ cid, bytes: hello })
      assert.throws(() => bufferWriterOf(200).write({ cid, bytes: notHello }), /the block's bytes do not hash to its CID .*truncated to 20 bytes/)
    })

    it('verifyHashes: false writes the block unchecked (then only a reader with verifyHashes: false takes it back)', async () => {
      const writer = bufferWriterOf(200, { roots: [helloCid], verifyHashes: false })
      const car = writer.write({ cid: helloCid, bytes: notHello }).close({ resize: true })
      assert.throws(() => core.CarBufferReader.fromBytes(car), /does not hash to its CID/)
      assert.deepEqual(core.CarBufferReader.fromBytes(car, { verifyHashes: false }).blocks().map((b) => new TextDecoder().decode(b.bytes)), ['not hello'])
      for (const channel of [CarWriter.create([helloCid], { verifyHashes: false }), CarWriter.createAppender({ verifyHashes: false })]) {
        const reading = collect(channel.out)
        await channel.writer.put({ cid: helloCid, bytes: notHello })
        await channel.writer.close()
        const bytes = await reading
        assert.deepEqual(bytes.subarray(bytes.length - 9), notHello)
      }
    })

    it('bytes that are not a Uint8Array (a string) are a TypeError in both writers', async () => {
      const err = await rejection(() => CarWriter.create().writer.put(/** @type {any} */ ({ cid: helloCid, bytes: 'not hello' })))
      assert.ok(err instanceof TypeError, String(err))
      assert.throws(() => bufferWriterOf(200).write(/** @type {any} */ ({ cid: helloCid, bytes: 'not hello' })), TypeError)
      assert.throws(() => bufferWriterOf(200).write(/** @type {any} */ (null)), /^TypeError: CarBufferWriter write\(\) takes a \{ cid, bytes \} block: it is null/)
      assert.throws(() => bufferWriter.blockLength(/** @type {any} */ ({ cid: helloCid, bytes: 'x' })), /^TypeError: a block's bytes must be a Uint8Array: they are string "x"/)
      assert.throws(() => bufferWriter.blockLength(/** @type {any} */ (undefined)), /^TypeError: blockLength\(\) takes a \{ cid, bytes \} block: it is undefined/)
    })

    it('the core alone (no hasher installed, as in a browser): sha2-256 in plain JS and blake2b-256 from @noble/hashes, synchronously', () => {
      const script = `
        import { CID } from 'multiformats/cid'
        import * as Digest from 'multiformats/hashes/digest'
        import { sha256 } from '@noble/hashes/sha2.js'
        import { blake2b } from '@noble/hashes/blake2.js'
        import { CarBufferWriter, CarBufferReader, hashBackends } from './lib/core/index.js'
        const before = hashBackends()
        const hello = new TextEncoder().encode('hello')
        const big = new Uint8Array(100_000).map((_, i) => i * 7)
        const result = {}
        for (const [name, code, hash] of [['sha2-256', 0x12, sha256], ['blake2b-256', 0xb220, (b) => blake2b(b, { dkLen: 32 })]]) {
          for (const bytes of [hello, big]) {
            const cid = CID.createV1(0x55, Digest.create(code, hash(bytes)))
            const writer = CarBufferWriter.createWriter(new ArrayBuffer(200_000), { roots: [cid] })
            writer.write({ cid, bytes })
            try { writer.write({ cid, bytes: bytes.subarray(1) }); result[name + bytes.length] = 'taken' } catch (err) { result[name + bytes.length] = err.message.includes('do not hash to its CID') }
            const car = writer.close({ resize: true })
            await CarBufferReader.ready()
            if (CarBufferReader.fromBytes(car).blocks().length !== 1) throw new Error('not read back')
          }
        }
        console.log(JSON.stringify({ before, result }))
      `
      const r = spawnSync(process.execPath, ['--conditions=deno', '--input-type=module', '-e', script], { cwd: fileURLToPath(new URL('../../../', import.meta.url)), encoding: 'utf8' })
      assert.equal(r.status, 0, r.stderr)
      const { before, result } = JSON.parse(r.stdout)
      assert.deepEqual(before, { 'sha2-256': null, 'blake2b-256': null, identity: 'multiformats' })
      assert.deepEqual(result, { 'sha2-2565': true, 'sha2-256100000': true, 'blake2b-2565': true, 'blake2b-256100000': true })
    })

    describe('every option is checked: a TypeError (wrong type) or RangeError (a number out of range), naming it', () => {
      /** @type {[string, () => unknown, typeof TypeError | typeof RangeError, RegExp][]} */
      const rows = [
        ['headerSize: NaN (was: close({ resize: true }) returned 0 bytes, the block lost)', () => bufferWriterOf(100, { headerSize: NaN }), RangeError, /headerSize must be a whole number of bytes from 0 to 100: it is NaN/],
        ['headerSize: -1', () => bufferWriterOf(100, { headerSize: -1 }), RangeError, /headerSize .* it is -1/],
        ['headerSize: 1.5', () => bufferWriterOf(100, { headerSize: 1.5 }), RangeError, /headerSize .* it is 1\.5/],
        ['headerSize: Infinity', () => bufferWriterOf(100, { headerSize: Infinity }), RangeError, /headerSize .* it is Infinity/],
        ['headerSize: \'20\'', () => bufferWriterOf(100, { headerSize: '20' }), TypeError, /headerSize must be a number: it is string "20"/],
        ['headerSize larger than the buffer', () => bufferWriterOf(100, { headerSize: 101 }), RangeError, /headerSize .* from 0 to 100: it is 101/],
        ['byteOffset: NaN', () => bufferWriterOf(100, { byteOffset: NaN }), RangeError, /byteOffset must be a whole number of bytes from 0 to 100: it is NaN/],
        ['byteOffset: -1', () => bufferWriterOf(100, { byteOffset: -1 }), RangeError, /byteOffset .* it is -1/],
        ['byteOffset: 0.5', () => bufferWriterOf(100, { byteOffset: 0.5 }), RangeError, /byteOffset .* it is 0\.5/],
        ['byteOffset: null', () => bufferWriterOf(100, { byteOffset: null }), TypeError, /byteOffset must be a number: it is null/],
        ['byteOffset past the buffer', () => bufferWriterOf(100, { byteOffset: 101 }), RangeError, /byteOffset .* from 0 to 100: it is 101/],
        ['byteLength: NaN', () => bufferWriterOf(100, { byteLength: NaN }), RangeError, /byteLength must be a whole number of bytes from 0 to 100: it is NaN/],
        ['byteLength: -5', () => bufferWriterOf(100, { byteLength: -5 }), RangeError, /byteLength .* it is -5/],
        ['byteLength: 2.5', () => bufferWriterOf(100, { byteLength: 2.5 }), RangeError, /byteLength .* it is 2\.5/],
        ['byteLength: \'50\'', () => bufferWriterOf(100, { byteLength: '50' }), TypeError, /byteLength must be a number/],
        ['byteOffset + byteLength past the buffer', () => bufferWriterOf(100, { byteOffset: 60, byteLength: 50 }), RangeError, /byteLength .* from 0 to 40 \(the buffer's 100 bytes from byteOffset 60\): it is 50/],
        ['roots whose header is larger than the buffer (was: a native RangeError from close())', () => bufferWriterOf(50, { roots: [blocks[0].cid, blocks[1].cid] }), RangeError, /^Buffer has no capacity for the header of these roots: it is \d+ bytes, the buffer 50/],
        ['roots: one CID, not an array', () => bufferWriterOf(100, { roots: blocks[0].cid }), TypeError, /roots must be an array of CIDs/],
        ['roots: [null]', () => bufferWriterOf(100, { roots: [null] }), TypeError, /roots\[0\] must be a CID: it is null/],
        ['verifyHashes: \'no\'', () => bufferWriterOf(100, { verifyHashes: 'no' }), TypeError, /verifyHashes must be true or false: it is string "no"/],
        ['options: null', () => bufferWriterOf(100, null), TypeError, /createWriter\(\)'s options must be an object/],
        ['options: 5', () => bufferWriterOf(100, 5), TypeError, /createWriter\(\)'s options must be an object/],
        ['buffer: a Uint8Array (@ipld/car would write into a copy of it)', () => bufferWriter.createWriter(/** @type {any} */ (new Uint8Array(100))), TypeError, /createWriter\(\) takes an ArrayBuffer: it is a Uint8Array; pass its \.buffer with \{ byteOffset, byteLength \}/],
        ['buffer: missing', () => bufferWriter.createWriter(/** @type {any} */ (undefined)), TypeError, /createWriter\(\) takes an ArrayBuffer: it is undefined/],
        ['addRoot(root, { resize: \'yes\' })', () => bufferWriterOf(100).addRoot(blocks[0].cid, /** @type {any} */ ({ resize: 'yes' })), TypeError, /addRoot\(\)'s resize must be true or false: it is string "yes"/],
        ['addRoot(root, null)', () => bufferWriterOf(100).addRoot(blocks[0].cid, /** @type {any} */ (null)), TypeError, /addRoot\(\)'s options must be an object/],
        ['close({ resize: 1 })', () => bufferWriterOf(100).close(/** @type {any} */ ({ resize: 1 })), TypeError, /close\(\)'s resize must be true or false: it is number 1/],
        ['close(\'resize\')', () => bufferWriterOf(100).close(/** @type {any} */ ('resize')), TypeError, /close\(\)'s options must be an object/],
        ['CarWriter.create(roots, { verifyHashes: 1 })', () => CarWriter.create([], /** @type {any} */ ({ verifyHashes: 1 })), TypeError, /verifyHashes must be true or false: it is number 1/],
        ['CarWriter.create(roots, null)', () => CarWriter.create([], /** @type {any} */ (null)), TypeError, /create\(\)'s options must be an object/],
        ['CarWriter.createAppender({ verifyHashes: \'x\' })', () => CarWriter.createAppender(/** @type {any} */ ({ verifyHashes: 'x' })), TypeError, /verifyHashes must be true or false/],
        ['estimateHeaderLength(NaN)', () => bufferWriter.estimateHeaderLength(NaN), RangeError, /rootCount must be a whole number: it is NaN/],
        ['estimateHeaderLength(1, -36)', () => bufferWriter.estimateHeaderLength(1, -36), RangeError, /rootByteLength must be a whole number: it is -36/],
        ['calculateHeaderLength([36, 1.5])', () => bufferWriter.calculateHeaderLength([36, 1.5]), RangeError, /rootLengths\[1\] must be a whole number: it is 1\.5/],
        ['calculateHeaderLength(36)', () => bufferWriter.calculateHeaderLength(/** @type {any} */ (36)), TypeError, /rootLengths must be an array/],
        ['headerLength({ roots: [\'bafy\'] })', () => bufferWriter.headerLength({ roots: /** @type {any} */ (['bafy']) }), TypeError, /roots\[0\] must be a CID/],
        ['resizeHeader(writer, NaN)', () => bufferWriter.resizeHeader(bufferWriterOf(100), NaN), RangeError, /resizeHeader\(\)'s byteLength must be a whole number of bytes from 0 to 100 \(the buffer less the blocks written\): it is NaN/]
      ]
      for (const [name, fn, type, message] of rows) {
        it(name, () => {
          assert.throws(fn, (err) => {
            assert.ok(err instanceof type, `${type.name} expected: ${err}`)
            assert.match(/** @type {Error} */ (err).message, message)
            return true
          })
        })
      }

      it('a header that grew past the space kept for it (roots pushed onto writer.roots): close() says so, close({ resize: true }) makes room or says there is none', async () => {
        const writer = bufferWriterOf(300, { headerSize: bufferWriter.headerLength({ roots: [] }) })
        writer.write(blocks[0])
        writer.roots.push(blocks[0].cid)
        assert.throws(() => writer.close(), /^RangeError: Header size was underestimated: the header is \d+ bytes, \d+ were kept; close\(\{ resize: true \}\)/)
        assert.deepEqual(writer.close({ resize: true }), await write(ipld.CarWriter, [blocks[0].cid], [blocks[0]]))
        const full = bufferWriterOf(bufferWriter.headerLength({ roots: [] }) + bufferWriter.blockLength(blocks[0]), { headerSize: bufferWriter.headerLength({ roots: [] }) })
        full.write(blocks[0])
        full.roots.push(blocks[0].cid)
        assert.throws(() => full.close({ resize: true }), /^RangeError: Buffer has no capacity for the header/)
      })

      it('byteLength defaults to the rest of the buffer after byteOffset (@ipld/car\'s default, the whole buffer\'s length, is a RangeError with a byteOffset)', () => {
        const writer = bufferWriterOf(300, { byteOffset: 100, roots: [blocks[0].cid] })
        assert.equal(writer.bytes.byteLength, 200)
        writer.write(blocks[0])
        assert.equal(core.CarBufferReader.fromBytes(writer.close()).blocks().length, 1)
      })
    })
  })

  it('writing needs no @ipld/car: nothing the writers import reaches it', () => {
    const seen = new Set()
    const todo = [path.join(LIB, 'core/api/car-writer.js'), path.join(LIB, 'core/api/car-buffer-writer.js'), path.join(LIB, 'node/writer-file-descriptors.js')]
    const packages = new Set()
    while (todo.length) {
      const file = /** @type {string} */ (todo.pop())
      if (seen.has(file)) continue
      seen.add(file)
      for (const [, from, dynamic, bare] of fs.readFileSync(file, 'utf8').matchAll(/(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|^import\s+'([^']+)'/gm)) {
        const spec = from ?? dynamic ?? bare
        if (spec.startsWith('.')) todo.push(path.resolve(path.dirname(file), spec))
        // #write-stages, #header-stages: what the writers load at their first call (outside Node, with them)
        else if (/^#\w+-stages$/.test(spec)) todo.push(path.join(LIB, 'core/run', `${spec.slice(1)}.js`))
        else packages.add(spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/'))
      }
    }
    assert.ok(seen.has(path.join(LIB, 'core/write/frames.js')))
    // the hash checks (check/hash.js: the platform's hashers, '#hashers' and '#bytes', and hash-wasm
    // and @noble/hashes where none is installed; '#modules-now': @noble/hashes for a block written
    // before the faster hasher is loaded)
    assert.deepEqual([...packages].sort(), ['#bytes', '#hashers', '#modules-now', '@noble/hashes', 'dag-cbor-fast', 'hash-wasm', 'multiformats', 'node:fs', 'node:util'])
  })
})

/** @param {Uint8Array} car @returns {number} its header's length, varint included */
function headerLength (car) {
  let length = 0
  let i = 0
  for (let scale = 1; ; scale *= 128) {
    const b = car[i++]
    length += (b & 0x7f) * scale
    if (b < 0x80) break
  }
  return i + length
}
