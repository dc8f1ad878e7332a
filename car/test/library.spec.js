// The library API (lib/core/index.js, and the Node entry lib/node/node-library.js over it), against the
// CLI (its --json output, its written files) and against @ipld/car (test/helpers/car-oracle.js):
// the same blocks, offsets, summaries and bytes, from every kind of input.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CarBlockIterator as IpldIterator } from '@ipld/car/iterator'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import * as core from '../lib/core/index.js'
import * as node from '../lib/node/node-library.js'
import { carV1, carV2, cidOf, carWriterBytes } from './helpers/car-oracle.js'
import { buildRepo, keyPair, post } from './core/check/atproto/helpers/repo-builder.js'

const BIN = fileURLToPath(new URL('../bin/dag-cbor-car.js', import.meta.url))
const FIXTURES = [
  fileURLToPath(new URL('../../test/fixtures/cars/filecoin-calibnet-genesis.car', import.meta.url)),
  fileURLToPath(new URL('../../test/fixtures/cars/filecoin-sample-v1.car', import.meta.url)),
  fileURLToPath(new URL('fixtures/genesis-slice-v2.car', import.meta.url)),
  fileURLToPath(new URL('fixtures/genesis-slice-v2-index-sorted.car', import.meta.url)),
  fileURLToPath(new URL('fixtures/atproto/repo-small-v2.car', import.meta.url))
]

/** @param {string[]} args */
function cli (args) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** @param {any} s a summary without its timings */
const counts = ({ seconds, mbPerSec, ...rest }) => rest

/** @param {Uint8Array} bytes @param {number} [size] chunks of this size */
async function * chunked (bytes, size = 1000) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
}

/** @param {Uint8Array} bytes */
function readable (bytes) {
  let at = 0
  return new ReadableStream({
    pull (controller) {
      if (at >= bytes.length) return controller.close()
      controller.enqueue(bytes.slice(at, at + 777))
      at += 777
    }
  })
}

/** @param {AsyncIterable<Uint8Array>} out */
async function collect (out) {
  const chunks = []
  for await (const c of out) chunks.push(c)
  return new Uint8Array(Buffer.concat(chunks))
}

describe('library: verifyCar', function () {
  this.timeout(60_000)
  for (const file of FIXTURES) {
    it(`${path.basename(file)}: the summary the CLI's --json prints, from a path, bytes, a Blob, a ReadableStream and chunks`, async () => {
      const expected = counts(JSON.parse(cli([file, '--json', '--workers', '1']).stdout))
      const bytes = new Uint8Array(fs.readFileSync(file))
      assert.deepEqual(counts(await node.verifyCar(file)), expected)
      for (const input of [bytes, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), new Blob([bytes]), readable(bytes), chunked(bytes)]) {
        assert.deepEqual(counts(await core.verifyCar(input, { name: file })), expected)
      }
    })
  }

  it('workers (the Node entry): the same summary as the CLI with as many threads', async () => {
    const file = FIXTURES[0]
    const expected = counts(JSON.parse(cli([file, '--json', '--workers', '2']).stdout))
    assert.deepEqual(counts(await node.verifyCar(file, { workers: 2 })), expected)
  })

  it('onBlock: one call per block, in order, statuses as the summary counts them; onProgress ends at the last block', async () => {
    const bytes = new Uint8Array(fs.readFileSync(FIXTURES[1]))
    /** @type {Record<string, number>} */
    const statuses = {}
    const offsets = []
    let progress = [0, 0]
    const s = await core.verifyCar(bytes, {
      onBlock: (info) => {
        statuses[info.status] = (statuses[info.status] ?? 0) + 1
        offsets.push(info.offset)
        assert.equal(info.index, offsets.length - 1)
        assert.equal(info.length, info.bytes.length)
        assert.equal(info.codec, info.cid.code)
      },
      onProgress: (blocks, at) => { progress = [blocks, at] }
    })
    assert.equal(offsets.length, s.blocks)
    assert.deepEqual(statuses, { canonical: s.dagCbor.canonical, 'non-canonical': s.dagCbor.nonCanonical, ok: s.codecs.raw })
    const oracle = []
    for await (const b of await IpldIterator.fromBytes(bytes)) oracle.push(b.cid.toString())
    assert.equal(oracle.length, s.blocks)
    assert.equal(progress[0], s.blocks)
  })

  it('onBlock from a Blob, a ReadableStream and a CAR with a bad block: every block once, in order, in a script of its own (no test runner keeping it alive)', () => {
    // the first batch waits for blake2b-256's WebAssembly: the batches after it wait for it too
    const script = `
      import fs from 'node:fs'
      import * as core from ${JSON.stringify(new URL('../lib/core/index.js', import.meta.url).href)}
      const bytes = new Uint8Array(fs.readFileSync(${JSON.stringify(FIXTURES[0])}))
      const flipped = bytes.slice()
      flipped[5000] ^= 1
      const out = []
      for (const input of [new Blob([bytes]), new Blob([bytes]).stream(), new Blob([flipped]), bytes]) {
        const seen = []
        const s = await core.verifyCar(input, { onBlock: (info) => seen.push(info.index) })
        out.push({ blocks: s.blocks, inOrder: seen.every((index, i) => index === i), calls: seen.length, mismatches: s.hashMismatches })
      }
      console.log(JSON.stringify(out))
    `
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 })
    assert.equal(r.status, 0, r.stderr || 'the script did not finish')
    const runs = JSON.parse(r.stdout)
    for (const run of runs) assert.deepEqual({ ...run, mismatches: 0 }, { blocks: 1207, inOrder: true, calls: 1207, mismatches: 0 })
    assert.deepEqual(runs.map((/** @type {any} */ run) => run.mismatches), [0, 0, 1, 0])
  })

  it('a corrupted block is a hash-mismatch problem; a truncated CAR rejects with a CarReadError carrying the summary so far', async () => {
    const blocks = await Promise.all(['a', 'b', 'c'].map(async (t) => { const bytes = dagCbor.encode({ t }); return { cid: await cidOf(bytes), bytes } }))
    const car = carV1([blocks[0].cid], blocks)
    const bad = car.slice()
    bad[bad.length - 1] ^= 1
    const s = await core.verifyCar(bad)
    assert.equal(s.result, 'fail')
    assert.equal(s.hashMismatches, 1)
    assert.equal(s.problems[0].kind, 'hash-mismatch')
    await assert.rejects(core.verifyCar(car.subarray(0, car.length - 3)), (/** @type {any} */ err) => {
      assert.ok(err instanceof core.CarReadError, err)
      assert.match(err.message, /byte offset \d+/)
      assert.equal(err.summary.blocks, 2)
      return true
    })
  })

  it('a truncated CAR: the same summary (bytes: up to the section cut short) from a stream, a Blob, a file and a pipe', async () => {
    const cut = new Uint8Array(fs.readFileSync(FIXTURES[0]).subarray(0, 9000))
    /** @param {any} input */
    const partial = async (input) => {
      const err = await core.verifyCar(input, { name: 'cut' }).then(() => null, (e) => e)
      assert.ok(err instanceof core.CarReadError, String(err))
      const { error, ...rest } = counts(err.summary)
      return rest
    }
    const fromBlob = await partial(new Blob([cut]))
    assert.equal(fromBlob.bytes, 8304)
    assert.deepEqual(await partial(new Blob([cut]).stream()), fromBlob)
    assert.deepEqual(await partial(chunked(cut, 100)), fromBlob)
    const piped = spawnSync(process.execPath, [BIN, '-', '--json'], { input: cut, encoding: 'utf8' })
    assert.equal(piped.status, 2)
    assert.equal(JSON.parse(piped.stdout).bytes, 8304)
  })

  it('signal: an aborted run rejects with the signal\'s reason', async () => {
    const controller = new AbortController()
    const reason = new Error('stop here')
    let calls = 0
    const run = core.verifyCar(new Uint8Array(fs.readFileSync(FIXTURES[0])), { onBlock: () => { if (++calls === 10) controller.abort(reason) }, signal: controller.signal })
    await assert.rejects(run, (err) => err === reason)
  })
})

describe('library: CarBlockIterator', function () {
  this.timeout(60_000)
  for (const file of FIXTURES) {
    it(`${path.basename(file)}: the blocks @ipld/car's CarBlockIterator gives, with their section offsets, roots and version`, async () => {
      const bytes = new Uint8Array(fs.readFileSync(file))
      const theirs = await IpldIterator.fromBytes(bytes)
      const expected = []
      for await (const { cid, bytes: b } of theirs) expected.push([cid.toString(), Buffer.from(b).toString('hex')])
      for (const iterator of [await core.CarBlockIterator.fromBytes(bytes), await core.CarBlockIterator.fromIterable(chunked(bytes, 4096)), await core.CarBlockIterator.fromIterable(new Blob([bytes])), await node.CarBlockIterator.fromIterable(file)]) {
        assert.deepEqual((await iterator.getRoots()).map(String), (await theirs.getRoots()).map(String))
        assert.equal(iterator.version, theirs.version)
        const got = []
        for await (const { cid, bytes: b, offset } of iterator) {
          got.push([cid.toString(), Buffer.from(b).toString('hex')])
          // the offset is where the section starts: its length varint, then the CID, then the block
          assert.ok(Buffer.from(bytes.subarray(offset, offset + 12 + cid.bytes.length)).includes(Buffer.from(cid.bytes)))
        }
        assert.deepEqual(got, expected)
      }
    })
  }

  it('a block that does not hash to its CID throws a CarBlockError naming its offset, after the blocks before it', async () => {
    const blocks = await Promise.all(['a', 'b', 'c'].map(async (t) => { const bytes = dagCbor.encode({ t }); return { cid: await cidOf(bytes), bytes } }))
    const car = carV1([blocks[0].cid], blocks)
    car[car.length - 1] ^= 1
    const seen = []
    await assert.rejects((async () => { for await (const b of await core.CarBlockIterator.fromBytes(car)) seen.push(b.cid.toString()) })(), (/** @type {any} */ err) => {
      assert.ok(err instanceof core.CarBlockError)
      assert.equal(err.kind, 'hash-mismatch')
      assert.equal(err.cid.toString(), blocks[2].cid.toString())
      assert.match(err.message, new RegExp(`byte offset ${err.offset}\\b`))
      return true
    })
    assert.deepEqual(seen, blocks.slice(0, 2).map((b) => b.cid.toString()))
    // verifyHashes: false reads it all, as @ipld/car does
    let n = 0
    for await (const b of await core.CarBlockIterator.fromBytes(car, { verifyHashes: false })) n += b.bytes.length ? 1 : 0
    assert.equal(n, 3)
  })

  it('a hash function it does not compute throws, unless allowUnverified', async () => {
    const bytes = dagCbor.encode({ x: 1 })
    const cid = CID.create(1, 0x71, { code: 0x13, size: 64, digest: new Uint8Array(64), bytes: Uint8Array.of(0x13, 0x40, ...new Uint8Array(64)) })
    const car = carV1([cid], [{ cid, bytes }])
    await assert.rejects((async () => { for await (const b of await core.CarBlockIterator.fromBytes(car)) void b })(), { name: 'CarBlockError', kind: 'unverified' })
    const got = []
    for await (const b of await core.CarBlockIterator.fromBytes(car, { allowUnverified: true })) got.push(b.cid.toString())
    assert.deepEqual(got, [cid.toString()])
  })

  it('validate and decode: statuses as verify counts them, values strict (or relaxed, marked) as decode gives them', async () => {
    const bytes = new Uint8Array(fs.readFileSync(FIXTURES[0]))
    const summary = await core.verifyCar(bytes)
    /** @type {Record<string, number>} */
    const statuses = {}
    let relaxed = 0
    for await (const b of await core.CarBlockIterator.fromBytes(bytes, { validate: true, decode: true, relaxed: true })) {
      statuses[/** @type {string} */ (b.status)] = (statuses[/** @type {string} */ (b.status)] ?? 0) + 1
      if (b.status === 'non-canonical') {
        assert.equal(b.problem?.rule, 'map-key-order')
        assert.equal(b.relaxed, true)
        relaxed++
      }
      if (b.status === 'canonical') assert.ok(Buffer.from(dagCbor.encode(b.value)).equals(b.bytes), String(b.cid))
    }
    assert.deepEqual(statuses, { canonical: summary.dagCbor.canonical, 'non-canonical': summary.dagCbor.nonCanonical, ...(summary.codecs.raw ? { ok: summary.codecs.raw } : {}) })
    assert.equal(relaxed, 1)
  })

  it('Node entry, fromBytes takes the Node options as fromIterable does (workers checked and used), and gives the Node class', async () => {
    const leaf = new Uint8Array(3000).fill(7)
    const cid = CID.create(1, 0x55, await sha256.digest(leaf))
    const car = carV1([cid], [{ cid, bytes: leaf }])
    await assert.rejects(node.CarBlockIterator.fromBytes(car, { workers: 0 }), RangeError)
    const iterator = await node.CarBlockIterator.fromBytes(car, { workers: 2 })
    assert.ok(iterator instanceof node.CarBlockIterator)
    const got = []
    for await (const block of iterator) got.push(block.cid.toString())
    assert.deepEqual(got, [cid.toString()])
  })

  it('Node entry, workers: 2 (worker threads hash the blocks): the same blocks, in order, in ArrayBuffers; a bad block and a cut-short file fail where workers: 1 fails', async () => {
    // 12 MB of 20 KB raw blocks: batches go to the worker, and some are checked in this thread
    const blocks = []
    for (let i = 0; i < 600; i++) {
      const bytes = new Uint8Array(20_000).fill(i & 0xff)
      bytes[0] = i >> 8
      blocks.push({ cid: CID.create(1, 0x55, await sha256.digest(bytes)), bytes })
    }
    const car = carV1([blocks[0].cid], blocks)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'car-iterate-'))
    try {
      const file = path.join(dir, 'big.car')
      /**
       * @param {number} workers
       * @param {number} [pause] ms to wait at the first block: the worker thread starts meanwhile,
       *   and hashes the batches read after (before, this thread hashes them)
       */
      const read = async (workers, pause = 0) => {
        const got = []
        /** @type {unknown} */
        let error = null
        try {
          for await (const b of await node.CarBlockIterator.fromIterable(file, { workers })) {
            if (got.length === 0 && pause > 0) await new Promise((resolve) => setTimeout(resolve, pause))
            assert.ok(b.bytes.buffer instanceof ArrayBuffer)
            assert.ok(b.bytes.byteOffset === 0 && b.bytes.buffer.byteLength === b.bytes.length, 'each block owns exactly its bytes')
            assert.ok(b.cid.bytes.byteOffset === 0 && b.cid.bytes.buffer.byteLength === b.cid.bytes.length, 'each CID owns exactly its bytes')
            got.push(`${b.cid} ${b.offset} ${Buffer.from(b.bytes).subarray(0, 4).toString('hex')}`)
          }
        } catch (err) {
          error = err
        }
        return { got, error }
      }
      fs.writeFileSync(file, car)
      const one = await read(1)
      const two = await read(2)
      const twoStarted = await read(2, 300)
      assert.equal(one.error, null)
      assert.equal(two.error, null)
      assert.equal(twoStarted.error, null)
      assert.equal(one.got.length, 600)
      assert.deepEqual(two.got, one.got)
      assert.deepEqual(twoStarted.got, one.got)
      // a flipped byte in block 450's data
      const bad = new Uint8Array(car) // a copy (a Buffer's slice() is a view)
      bad[Number(one.got[451].split(' ')[1]) - 100] ^= 1
      fs.writeFileSync(file, bad)
      for (const [workers, pause] of [[1, 0], [2, 0], [2, 300]]) {
        const r = await read(workers, pause)
        assert.deepEqual(r.got, one.got.slice(0, 450))
        assert.ok(r.error instanceof node.CarBlockError)
        assert.equal(/** @type {any} */ (r.error).offset, Number(one.got[450].split(' ')[1]))
        assert.equal(/** @type {any} */ (r.error).kind, 'hash-mismatch')
      }
      fs.writeFileSync(file, car.subarray(0, car.length - 10))
      for (const workers of [1, 2]) {
        const r = await read(workers)
        assert.deepEqual(r.got, one.got.slice(0, 599))
        assert.ok(r.error instanceof node.CarReadError)
        assert.match(/** @type {any} */ (r.error).message, /after 599 complete blocks/)
      }
      await assert.rejects(node.CarBlockIterator.fromIterable(file, { workers: 0 }), RangeError)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a CARv2 and a truncated CAR: the payload\'s blocks; a CarReadError at the byte offset where reading failed', async () => {
    const blocks = await Promise.all(['a', 'b'].map(async (t) => { const bytes = dagCbor.encode({ t }); return { cid: await cidOf(bytes), bytes } }))
    const v1 = carV1([blocks[0].cid], blocks)
    const v2 = await core.CarBlockIterator.fromBytes(carV2(v1))
    assert.equal(v2.version, 2)
    let n = 0
    for await (const b of v2) n += b.bytes.length ? 1 : 0
    assert.equal(n, 2)
    await assert.rejects((async () => { for await (const b of await core.CarBlockIterator.fromBytes(v1.subarray(0, v1.length - 2))) void b })(), (/** @type {any} */ err) => {
      assert.ok(err instanceof core.CarReadError)
      assert.match(err.message, /after 1 complete blocks: the section at byte offset \d+/)
      return true
    })
  })
})

describe('library: readBlockAt, blockToJson', () => {
  it('readBlockAt: the block whose section starts at an offset onBlock gave, hash checked', async () => {
    const bytes = new Uint8Array(fs.readFileSync(FIXTURES[1]))
    /** @type {{ offset: number, cid: string }[]} */
    const seen = []
    await core.verifyCar(bytes, { onBlock: (info) => { if (seen.length < 50) seen.push({ offset: info.offset, cid: info.cid.toString() }) } })
    for (const { offset, cid } of seen) {
      const b = await core.readBlockAt(new Blob([bytes]), offset)
      assert.equal(b.cid.toString(), cid)
      assert.equal(b.hash, 'ok')
    }
    await assert.rejects(core.readBlockAt(bytes, seen[1].offset + 1), { name: 'CarReadError' })
    await assert.rejects(core.readBlockAt(bytes, bytes.length + 5), RangeError)
  })

  it('blockToJson: DAG-JSON of a canonical block with its links; a non-canonical one through relaxed decode, marked; undecodable ones say why', async () => {
    const child = await cidOf(dagCbor.encode('child'))
    const bytes = dagCbor.encode({ a: 1, link: child })
    const view = core.blockToJson(await cidOf(bytes), bytes)
    assert.deepEqual(JSON.parse(view.json), { a: 1, link: { '/': child.toString() } })
    assert.deepEqual(view.links, [child.toString()])
    assert.equal(view.relaxed, false)
    const unsorted = Uint8Array.from([0xa2, 0x61, 0x62, 0x01, 0x61, 0x61, 0x02]) // {"b": 1, "a": 2}: keys out of order
    const relaxed = core.blockToJson(await cidOf(unsorted), unsorted)
    assert.equal(relaxed.relaxed, true)
    assert.deepEqual(JSON.parse(relaxed.json), { a: 2, b: 1 })
    const strictOnly = core.blockToJson(await cidOf(unsorted), unsorted, { relaxed: false })
    assert.equal(strictOnly.json, '')
    assert.match(String(strictOnly.error), /cannot decode/)
    const markup = dagCbor.encode({ '<img src=x onerror=alert(1)>': '<script>alert(1)</script>' })
    assert.deepEqual(JSON.parse(core.blockToJson(await cidOf(markup), markup).json), { '<img src=x onerror=alert(1)>': '<script>alert(1)</script>' })
    const raw = Uint8Array.of(1, 2, 3)
    assert.deepEqual(JSON.parse(core.blockToJson(await cidOf(raw, { code: 0x55 }), raw).json), { '/': { bytes: 'AQID' } })
  })
})

describe('library: CarWriter, canonicalizeCar, checkRepo', function () {
  this.timeout(60_000)
  it('CarWriter: the bytes @ipld/car\'s CarWriter writes, read back by both iterators', async () => {
    const blocks = await Promise.all(Array.from({ length: 300 }, async (_, i) => { const bytes = dagCbor.encode({ i, pad: 'x'.repeat(i * 40) }); return { cid: await cidOf(bytes), bytes } }))
    const { writer, out } = core.CarWriter.create([blocks[0].cid])
    const written = collect(out)
    for (const b of blocks) await writer.put(b)
    await writer.close()
    const ours = await written
    assert.deepEqual(ours, await carWriterBytes([blocks[0].cid], blocks))
    const back = []
    for await (const b of await core.CarBlockIterator.fromBytes(ours)) back.push(b.cid.toString())
    assert.deepEqual(back, blocks.map((b) => b.cid.toString()))
  })

  it('CarWriter: put resolves once its reader took the bytes (as @ipld/car\'s); put after close and a second close are refused', async () => {
    const big = new Uint8Array(600_000)
    const cid = CID.create(1, 0x55, await sha256.digest(big))
    const { writer, out } = core.CarWriter.create([])
    let first = false
    const pending = writer.put({ cid, bytes: big }).then(() => { first = true })
    await new Promise((resolve) => setTimeout(resolve, 20))
    assert.equal(first, false, 'put resolved with nothing read')
    const reading = collect(out)
    await pending
    await writer.put({ cid, bytes: big })
    await writer.close()
    assert.ok((await reading).length > 1_200_000)
    await assert.rejects(writer.put({ cid, bytes: big }), /Already closed/)
    await assert.rejects(writer.close(), /Already closed/)
  })

  it('canonicalizeCar: the same bytes and summary as verify --out --canonicalize', async () => {
    const file = FIXTURES[0]
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-library-'))
    try {
      const out = path.join(dir, 'fixed.car')
      const r = cli([file, '--out', out, '--canonicalize', '--json', '--workers', '1'])
      assert.equal(r.status, 0, r.stderr)
      const expected = counts(JSON.parse(r.stdout))
      const { out: chunks, summary } = core.canonicalizeCar(new Blob([fs.readFileSync(file)]), { name: file, outName: out })
      assert.deepEqual(await collect(chunks), new Uint8Array(fs.readFileSync(out)))
      assert.deepEqual(counts(await summary), expected)
      const viaPath = node.canonicalizeCar(file, { outName: out })
      assert.deepEqual(await collect(viaPath.out), new Uint8Array(fs.readFileSync(out)))
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  for (const fixture of [FIXTURES[2], FIXTURES[3]]) {
    it(`canonicalizeCar and --out --canonicalize on a CARv2 (${path.basename(fixture)}): the relinking passes read the payload, not the index after it`, async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-library-'))
      try {
        const out = path.join(dir, 'fixed.car')
        const r = cli([fixture, '--out', out, '--canonicalize', '--json', '--workers', '1'])
        assert.equal(r.status, 0, r.stdout + r.stderr)
        const s = JSON.parse(r.stdout)
        assert.equal(s.result, 'fixed')
        assert.equal(s.output.relinked + s.output.canonicalized >= 2, true)
        const { out: chunks, summary } = core.canonicalizeCar(new Blob([fs.readFileSync(fixture)]), { name: fixture, outName: out })
        assert.deepEqual(await collect(chunks), new Uint8Array(fs.readFileSync(out)))
        assert.deepEqual(counts(await summary), counts(s))
        assert.equal(cli([out]).status, 0)
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    })
  }

  it('checkRepo: the report repo verify --json prints, with and without a did:key; a wrong key fails', async () => {
    const signer = keyPair('k256', new Uint8Array(32).fill(7))
    const other = keyPair('k256', new Uint8Array(32).fill(8))
    const { car } = await buildRepo([{ key: 'app.bsky.feed.post/3k00000000001', value: post('hello <b>there</b>') }], { signer })
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-library-'))
    try {
      const file = path.join(dir, 'repo.car')
      fs.writeFileSync(file, car)
      const expected = JSON.parse(cli(['repo', 'verify', file, '--json', '--key', signer.did]).stdout)
      const got = await core.checkRepo(car, { didKey: signer.did, name: file })
      assert.deepEqual(got, expected)
      assert.equal(got.result, 'ok')
      assert.deepEqual(await node.checkRepo(file, { didKey: signer.did }), expected)
      const unsigned = JSON.parse(cli(['repo', 'verify', file, '--json']).stdout)
      assert.deepEqual(await core.checkRepo(new Blob([car]), { name: file }), unsigned)
      const wrong = await core.checkRepo(car, { didKey: other.did })
      assert.notEqual(wrong.result, 'ok')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('checkRepo with lexicons (the documents): the report repo verify --lexicons --json prints; a broken document is refused before the input is read', async () => {
    const signer = keyPair('k256', new Uint8Array(32).fill(7))
    const { car } = await buildRepo([{ key: 'app.bsky.feed.post/3k00000000001', value: post('x'.repeat(301)) }, { key: 'app.bsky.feed.post/3k00000000002', value: post('fine') }], { signer })
    const lexiconDir = fileURLToPath(new URL('../../test/fixtures/lexicons', import.meta.url))
    const documents = fs.readdirSync(lexiconDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(lexiconDir, f), 'utf8')))
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-library-'))
    try {
      const file = path.join(dir, 'repo.car')
      fs.writeFileSync(file, car)
      const expected = JSON.parse(cli(['repo', 'verify', file, '--json', '--lexicons', lexiconDir]).stdout)
      const got = await core.checkRepo(car, { name: file, lexicons: documents })
      assert.deepEqual(got, expected)
      assert.deepEqual([got.result, got.lexicons?.valid, got.lexicons?.invalid, got.faults.map((f) => [f.rule, f.key, f.lexicon?.rule])], ['faults', 1, 1, [['record-lexicon', 'app.bsky.feed.post/3k00000000001', 'lexicon-max-graphemes']]])
      const broken = structuredClone(documents)
      broken.find((d) => d.id === 'app.bsky.feed.post').defs.main.record.properties.text.maxLength = -1
      await assert.rejects(core.checkRepo(new Uint8Array(0), { lexicons: broken }), { name: 'LexiconDocumentError', message: /app\.bsky\.feed\.post, at \/defs\/main\/record\/properties\/text\/maxLength/ })
      await assert.rejects(core.checkRepo(car, { lexicons: /** @type {any} */ ('not a list') }), { name: 'TypeError', message: /options\.lexicons must be an array/ })
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('library: hashes where WebAssembly cannot be compiled', function () {
  this.timeout(60_000)
  // the core with the hashers it gets outside Node (the package's #hashers import resolved to
  // lib/core/check/hashers-default.js, as in Deno, Bun, browsers and workerd), by a resolve hook
  const hooks = `export async function resolve (specifier, context, next) {
    return next(specifier === '#hashers' ? ${JSON.stringify(new URL('../lib/core/check/hashers-default.js', import.meta.url).href)} : specifier, context)
  }`
  const register = `import { register } from 'node:module'; register(${JSON.stringify('data:text/javascript,' + encodeURIComponent(hooks))})`
  const elsewhere = ['--import', 'data:text/javascript,' + encodeURIComponent(register)]

  it('node --jitless (no WebAssembly): the core with the hashers it gets outside Node falls back to @noble/hashes, with the same summary, and says so', () => {
    const script = `
      import fs from 'node:fs'
      import * as core from ${JSON.stringify(new URL('../lib/core/index.js', import.meta.url).href)}
      const s = await core.verifyCar(new Uint8Array(fs.readFileSync(${JSON.stringify(FIXTURES[1])})))
      const r = await core.checkRepo(new Uint8Array(fs.readFileSync(${JSON.stringify(FIXTURES[4])})))
      console.log(JSON.stringify({ wasm: typeof WebAssembly, verified: s.verified, result: s.result, repo: r.result, backends: core.hashBackends() }))
    `
    const r = spawnSync(process.execPath, ['--jitless', ...elsewhere, '--input-type=module', '-e', script], { encoding: 'utf8' })
    assert.equal(r.status, 0, r.stderr)
    const got = JSON.parse(r.stdout)
    assert.equal(got.wasm, 'undefined')
    assert.deepEqual({ ...got, backends: undefined }, { wasm: 'undefined', verified: 1049, result: 'fail', repo: 'ok', backends: undefined })
    assert.deepEqual(got.backends, { 'sha2-256': 'js', 'blake2b-256': 'js', identity: 'multiformats' })
  })

  it('in Node the core (and so the Node entry) hashes sha2-256 with node:crypto; with the hashers it gets elsewhere, with hash-wasm', async () => {
    await node.verifyCar(FIXTURES[4])
    assert.equal(node.hashBackends()['sha2-256'], 'node:crypto')
    const inNode = spawnSync(process.execPath, ['--input-type=module', '-e', `
      import * as core from ${JSON.stringify(new URL('../lib/core/index.js', import.meta.url).href)}
      console.log(core.hashBackends()['sha2-256'])`], { encoding: 'utf8' })
    assert.equal(inNode.stdout.trim(), 'node:crypto', inNode.stderr)
    const script = `
      import fs from 'node:fs'
      import * as core from ${JSON.stringify(new URL('../lib/core/index.js', import.meta.url).href)}
      await core.verifyCar(new Uint8Array(fs.readFileSync(${JSON.stringify(FIXTURES[1])})))
      await core.verifyCar(new Uint8Array(fs.readFileSync(${JSON.stringify(FIXTURES[4])})))
      console.log(JSON.stringify(core.hashBackends()))
    `
    const r = spawnSync(process.execPath, [...elsewhere, '--input-type=module', '-e', script], { encoding: 'utf8' })
    assert.equal(r.status, 0, r.stderr)
    assert.deepEqual(JSON.parse(r.stdout), { 'sha2-256': 'wasm', 'blake2b-256': 'wasm', identity: 'multiformats' })
  })
})

describe('library: what the iterator and readBlockAt return own exactly their bytes', () => {
  /** @param {Uint8Array} u */
  const ownsExactly = (u) => u.byteOffset === 0 && u.buffer.byteLength === u.length

  for (const [name, open] of /** @type {const} */ ([
    ['core, from bytes', (/** @type {Uint8Array} */ b, /** @type {any} */ o) => core.CarBlockIterator.fromBytes(b, o)],
    ['core, from chunks', (/** @type {Uint8Array} */ b, /** @type {any} */ o) => core.CarBlockIterator.fromIterable(chunked(b, 4096), o)],
    // a file path, as a script with a large CAR calls it
    ['Node, a file path, two workers', async (/** @type {Uint8Array} */ b, /** @type {any} */ o) => node.CarBlockIterator.fromIterable(await writeTemp(b), { ...o, workers: 2 })]
  ])) {
    it(`${name}: every block's bytes and CID bytes by default; views of a batch with viewBytes`, async () => {
      const bytes = fs.readFileSync(FIXTURES[0])
      let blocks = 0
      for await (const { cid, bytes: data } of await open(bytes, {})) {
        assert.ok(ownsExactly(data), `block ${blocks}: bytes are a view (offset ${data.byteOffset} of ${data.buffer.byteLength})`)
        assert.ok(ownsExactly(cid.bytes), `block ${blocks}: CID bytes are a view`)
        // the multihash and digest: arrays of their own, or views of the CID's own bytes (a CIDv0), never of a batch
        const { bytes: mh, digest } = cid.multihash
        assert.ok(ownsExactly(mh) || mh.buffer === cid.bytes.buffer, `block ${blocks}: the multihash is a view of something else`)
        assert.ok(ownsExactly(digest) || digest.buffer === cid.bytes.buffer || digest.buffer === mh.buffer, `block ${blocks}: the digest is a view of something else`)
        assert.deepEqual(mh, cid.bytes.subarray(cid.bytes.length - mh.length))
        assert.deepEqual(digest, mh.subarray(mh.length - digest.length))
        // a whole multiformats CID, as CID.decode makes it
        const decoded = CID.decode(cid.bytes.slice())
        assert.ok(cid instanceof CID && CID.asCID(cid) === cid && cid.equals(decoded) && decoded.equals(cid))
        assert.equal(cid.toString(), decoded.toString())
        assert.deepEqual(Object.keys(cid), Object.keys(decoded))
        assert.deepEqual(Object.keys(cid.multihash), Object.keys(decoded.multihash))
        assert.deepEqual([cid.version, cid.code, cid.multihash.code, cid.multihash.size], [decoded.version, decoded.code, decoded.multihash.code, decoded.multihash.size])
        blocks++
      }
      assert.ok(blocks > 1000)
      let views = 0
      for await (const { cid, bytes: data } of await open(bytes, { viewBytes: true })) {
        if (!ownsExactly(data) && !ownsExactly(cid.bytes)) views++
      }
      assert.equal(views, blocks, 'viewBytes: every block and CID a view of its batch')
    })
  }

  it('copied CIDs are built as multiformats\' constructors build them, without views (the installed multiformats passes the check at load)', async () => {
    const { HEAP_CIDS } = await import('../lib/core/run/iterate.js')
    assert.equal(HEAP_CIDS, true)
  })

  it('readBlockAt: the block and CID do not hold the input they were read from', async () => {
    const bytes = fs.readFileSync(FIXTURES[0])
    const offsets = []
    await core.verifyCar(bytes, { onBlock: (info) => { if (offsets.length < 3) offsets.push(info.offset) } })
    for (const offset of offsets) {
      const { cid, bytes: data } = await core.readBlockAt(bytes, offset)
      assert.ok(ownsExactly(data) && ownsExactly(cid.bytes), `block at ${offset}`)
    }
  })
})

describe('library: batches read into again once their blocks are copied out', () => {
  it('blocks kept from early batches still hold their own bytes after the whole CAR is read (5 MB, many batches)', async () => {
    /** @type {{ cid: CID, bytes: Uint8Array }[]} */
    const blocks = []
    for (let i = 0; i < 400; i++) {
      const bytes = new Uint8Array(8000 + i * 17).map((_, j) => (i * 131 + j * 7) & 0xff)
      blocks.push({ cid: await cidOf(bytes, { code: 0x55 }), bytes })
    }
    const car = carV1([blocks[0].cid], blocks)
    for (const [name, it] of /** @type {const} */ ([
      ['core, from bytes', await core.CarBlockIterator.fromBytes(car)],
      ['core, from chunks', await core.CarBlockIterator.fromIterable(chunked(car, 65536))],
      ['Node, a file path', await node.CarBlockIterator.fromIterable(await writeTemp(car))]
    ])) {
      const kept = []
      for await (const block of it) kept.push(block)
      assert.equal(kept.length, blocks.length, name)
      kept.forEach((b, i) => {
        assert.ok(b.cid.equals(blocks[i].cid), `${name}: block ${i}'s CID`)
        assert.deepEqual(b.bytes, blocks[i].bytes, `${name}: block ${i}'s bytes were overwritten`)
      })
    }
  })
})

/** @param {Uint8Array} bytes @returns {Promise<string>} a temporary file holding them (removed at exit) */
async function writeTemp (bytes) {
  const file = path.join(os.tmpdir(), `dag-cbor-car-library-${process.pid}-${Math.random().toString(36).slice(2)}.car`)
  fs.writeFileSync(file, bytes)
  process.on('exit', () => fs.rmSync(file, { force: true }))
  return file
}
