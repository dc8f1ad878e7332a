// CarIndexedReader (issue 61, items 1 and 2): each section is read from its own place, so a CID
// the CAR holds twice is two blocks, each with its own bytes, hash check and offset; get() and
// has() answer for a duplicated CID as @ipld/car's CarIndexedReader does (its last copy); and a
// closed reader refuses to read rather than reading through a descriptor number that may by then
// belong to another file.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as ipld from '@ipld/car'
import * as raw from 'multiformats/codecs/raw'
import * as node from '../../lib/node/node-library.js'
import { carV1, cidOf } from '../helpers/car-oracle.js'

// a real AT Protocol repository export (CARv2) whose MST node at byte 473 is written again at 845
const REPO = fileURLToPath(new URL('../fixtures/atproto/repo-small-v2.car', import.meta.url))
const CLOSED = /^CarIndexedReader is closed: /

/** @param {AsyncIterable<any>} it */
async function all (it) {
  const out = []
  for await (const x of it) out.push(x)
  return out
}

/** @param {Uint8Array} bytes @returns {Promise<import('@ipld/car/api').BlockIndex[]>} every section, as @ipld/car indexes it */
async function ipldIndex (bytes) {
  return all(await ipld.CarIndexer.fromBytes(bytes))
}

/** @param {import('@ipld/car/api').BlockIndex[]} index @returns {[import('@ipld/car/api').BlockIndex, import('@ipld/car/api').BlockIndex]} a CID's first and later section */
function duplicated (index) {
  for (const [i, later] of index.entries()) {
    const first = index.slice(0, i).find((e) => e.cid.equals(later.cid))
    if (first) return [first, later]
  }
  throw new Error('the CAR repeats no CID')
}

/** a temporary directory, removed after each test */
let dir = ''
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'indexed-reader-')) })
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

/** @param {string} name @param {Uint8Array} bytes */
function write (name, bytes) {
  const file = path.join(dir, name)
  fs.writeFileSync(file, bytes)
  return file
}

/** @param {Uint8Array} bytes @param {number} at @returns {Uint8Array} a copy with one bit of byte `at` flipped */
function flipped (bytes, at) {
  const out = bytes.slice()
  out[at] ^= 1
  return out
}

/** @param {string} file @param {import('../../lib/node/car-indexed-reader.js').IndexedReaderOptions} [options] */
async function withReader (file, options, /** @type {(r: node.CarIndexedReader) => Promise<void>} */ use) {
  const reader = await node.CarIndexedReader.fromFile(file, options)
  try {
    await use(reader)
  } finally {
    await reader.close()
  }
}

describe('CarIndexedReader: a duplicated CID', () => {
  const bytes = new Uint8Array(fs.readFileSync(REPO))

  it('blocks() and cids(): every section, each block with its own section\'s offset and bytes (as @ipld/car\'s indexer places them)', async () => {
    const index = await ipldIndex(bytes)
    const [first, later] = duplicated(index)
    assert.notEqual(first.offset, later.offset)
    await withReader(write('repo.car', bytes), {}, async (reader) => {
      const blocks = await all(reader.blocks())
      assert.deepEqual(blocks.map((b) => String(b.cid)), index.map((e) => String(e.cid)))
      assert.deepEqual(blocks.map((b) => b.offset), index.map((e) => e.offset), 'each block its own section\'s offset')
      for (const [i, e] of index.entries()) assert.deepEqual(blocks[i].bytes, bytes.subarray(e.blockOffset, e.blockOffset + e.blockLength))
      assert.deepEqual((await all(reader.cids())).map(String), index.map((e) => String(e.cid)))
    })
  })

  it('a bit flipped in the later copy: blocks() refuses it at its own offset, as CarBlockIterator and CarReader do', async () => {
    const [, later] = duplicated(await ipldIndex(bytes))
    const bad = flipped(bytes, later.blockOffset + 3)
    const refused = { name: 'CarBlockError', kind: 'hash-mismatch', offset: later.offset }
    await assert.rejects(async () => { for await (const _ of await node.CarBlockIterator.fromBytes(bad)); }, refused) // eslint-disable-line no-unused-vars
    await assert.rejects(async () => all((await node.CarReader.fromBytes(bad)).blocks()), refused)
    await withReader(write('bad.car', bad), {}, async (reader) => {
      await assert.rejects(all(reader.blocks()), { ...refused, message: new RegExp(`byte offset ${later.offset} `) })
    })
  })

  it('a bit flipped in the first copy: blocks() refuses it at its own offset', async () => {
    const [first] = duplicated(await ipldIndex(bytes))
    await withReader(write('bad.car', flipped(bytes, first.blockOffset + 3)), {}, async (reader) => {
      await assert.rejects(all(reader.blocks()), { name: 'CarBlockError', kind: 'hash-mismatch', offset: first.offset })
    })
  })

  it('get() reads the last copy, as @ipld/car\'s CarIndexedReader does (its index keeps the last place per CID)', async () => {
    const [first, later] = duplicated(await ipldIndex(bytes))
    const own = bytes.subarray(later.blockOffset, later.blockOffset + later.blockLength)
    // the first copy damaged: @ipld/car's get() hands out the later copy's bytes, intact; ours too, with its offset
    const firstBad = write('first-bad.car', flipped(bytes, first.blockOffset + 3))
    const theirs = await ipld.CarIndexedReader.fromFile(firstBad)
    try {
      assert.deepEqual(/** @type {any} */ (await theirs.get(first.cid)).bytes, own)
    } finally {
      await theirs.close()
    }
    await withReader(firstBad, {}, async (reader) => {
      assert.equal(await reader.has(first.cid), true)
      const got = await reader.get(first.cid)
      assert.ok(got)
      assert.deepEqual(got.bytes, own)
      assert.equal(got.offset, later.offset)
    })
    // the later copy damaged: ours refuses it (@ipld/car would hand out the damaged bytes)
    await withReader(write('later-bad.car', flipped(bytes, later.blockOffset + 3)), {}, async (reader) => {
      await assert.rejects(reader.get(first.cid), { name: 'CarBlockError', kind: 'hash-mismatch', offset: later.offset })
    })
  })

  it('a CID written three times in a small CARv1: three blocks with their own offsets; get() gives the third', async () => {
    const make = async (/** @type {string} */ text) => {
      const b = new TextEncoder().encode(text)
      return { cid: await cidOf(b, { code: raw.code }), bytes: b }
    }
    const [a, b] = [await make('aaaa'), await make('bbbb')]
    const car = new Uint8Array(carV1([a.cid], [a, b, a, b, a]))
    const index = await ipldIndex(car)
    await withReader(write('three.car', car), {}, async (reader) => {
      assert.deepEqual((await all(reader.blocks())).map((x) => x.offset), index.map((e) => e.offset))
      assert.equal(/** @type {any} */ (await reader.get(a.cid)).offset, index[4].offset)
      assert.equal(/** @type {any} */ (await reader.get(b.cid)).offset, index[3].offset)
    })
  })
})

describe('CarIndexedReader: closed', () => {
  const bytes = new Uint8Array(fs.readFileSync(REPO))

  /** @param {string} file @returns {string[]} this process's descriptors open on `file` (Linux) */
  const fdsOn = (file) => fs.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === file
    } catch { // the directory's own descriptor, closed by now
      return false
    }
  })

  it('get(), blocks() and cids() refuse with a clear Error; has() and getRoots() answer from memory; a second close() resolves (as @ipld/car\'s)', async () => {
    const file = write('repo.car', bytes)
    const reader = await node.CarIndexedReader.fromFile(file)
    const roots = await reader.getRoots()
    const [cid] = await all(reader.cids())
    await reader.get(cid)
    await reader.close()
    await assert.rejects(reader.get(cid), { name: 'Error', message: CLOSED })
    await assert.rejects(reader.get(cid), new RegExp(`CarIndexedReader is closed: .*${file.replace(/[.\\/]/g, '\\$&')}`))
    await assert.rejects(all(reader.blocks()), { name: 'Error', message: CLOSED })
    await assert.rejects(all(reader.cids()), { name: 'Error', message: CLOSED })
    assert.equal(await reader.has(cid), true)
    assert.deepEqual((await reader.getRoots()).map(String), roots.map(String))
    assert.equal(await reader.close(), undefined)
  })

  it('a CAR with no blocks: blocks() and cids() refuse once closed too', async () => {
    const rootBytes = new TextEncoder().encode('root')
    const root = await cidOf(rootBytes, { code: raw.code })
    const reader = await node.CarIndexedReader.fromFile(write('empty.car', new Uint8Array(carV1([root], []))))
    assert.deepEqual(await all(reader.blocks()), [])
    await reader.close()
    await assert.rejects(all(reader.blocks()), { name: 'Error', message: CLOSED })
    await assert.rejects(all(reader.cids()), { name: 'Error', message: CLOSED })
    await assert.rejects(reader.get(root), { name: 'Error', message: CLOSED })
    assert.equal(await reader.has(root), false)
  })

  it('blocks() and cids() begun before close() stop at their next step', async () => {
    await withReader(write('repo.car', bytes), {}, async (reader) => {
      const blocks = reader.blocks()
      const cids = reader.cids()
      assert.equal((await blocks.next()).done, false)
      assert.equal((await cids.next()).done, false)
      await reader.close()
      await assert.rejects(blocks.next(), { message: CLOSED })
      await assert.rejects(cids.next(), { message: CLOSED })
    })
  })

  it('get() after close() does not read another file that took the descriptor number', async function () {
    if (!fs.existsSync('/proc/self/fd')) this.skip() // the descriptor numbers are read from Linux's /proc
    const file = write('repo.car', bytes)
    // another file as long as the CAR, every byte different: what a read through a reused number would give
    const other = write('other.bin', bytes.map((x) => x ^ 0xff))
    for (const verifyHashes of [true, false]) {
      const reader = await node.CarIndexedReader.fromFile(file, { verifyHashes })
      const own = fdsOn(file)
      assert.equal(own.length, 1, 'the reader holds one descriptor')
      const [cid] = await all(reader.cids())
      assert.ok(await reader.get(cid))
      await reader.close()
      const fd = fs.openSync(other, 'r')
      try {
        assert.equal(String(fd), own[0], 'the other file took the reader\'s descriptor number')
        assert.deepEqual(fdsOn(other), own)
        await assert.rejects(reader.get(cid), { name: 'Error', message: CLOSED })
        await assert.rejects(all(reader.blocks()), { name: 'Error', message: CLOSED })
      } finally {
        fs.closeSync(fd)
      }
    }
  })
})
