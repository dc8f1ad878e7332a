// lib/node/input-source.js: a file input is opened and read front to back synchronously (no thread pool
// for a small CAR), yet a long read still gives the event loop a turn between its chunks, as reads
// through the pool did, so an application's timers and I/O are not held up until the file ends.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openInput } from '../../lib/node/input-source.js'
import { STREAM_CHUNK } from '../../lib/core/read/limits.js'

describe('a file input (lib/node/input-source.js)', function () {
  /** @type {string} */
  let dir
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-source-')) })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('an empty CAR file is refused by the reader as empty bytes are: a CarReadError at byte 0, on every path', async () => {
    const file = path.join(dir, 'empty.car')
    fs.writeFileSync(file, '')
    const { verifyCar, CarBlockIterator, CarIndexedReader, CarReadError, CarReader } = await import('../../lib/node/node-library.js')
    /** @param {any} e */
    const same = (e) => e instanceof CarReadError && e.offset === 0 && e.message === 'not a CAR file: bad header (the input is empty)'
    await assert.rejects(CarReader.fromBytes(new Uint8Array(0)), same)
    await assert.rejects(verifyCar(file), same)
    await assert.rejects(CarBlockIterator.fromIterable(file), same)
    await assert.rejects(CarIndexedReader.fromFile(file), same)
    // a file that is not a CAR keeps its own words (import's JSON lines)
    await assert.rejects(openInput(file, { expected: 'JSON lines' }), /the file is empty, not JSON lines/)
  })

  it('reads a file front to back, every byte, in chunks of at most STREAM_CHUNK', async () => {
    const file = path.join(dir, 'three-chunks.bin')
    const bytes = new Uint8Array(2 * STREAM_CHUNK + 12345).map((_, i) => (i * 31 + (i >> 11)) & 0xff)
    fs.writeFileSync(file, bytes)
    const source = await openInput(file)
    try {
      assert.equal(source.size, bytes.length)
      const chunks = []
      for await (const chunk of source.stream()) {
        assert.ok(chunk.length <= STREAM_CHUNK)
        chunks.push(chunk)
      }
      assert.equal(chunks.length, 3)
      assert.deepEqual(Buffer.concat(chunks), Buffer.from(bytes))
      const rest = []
      for await (const chunk of source.stream(STREAM_CHUNK + 7)) rest.push(chunk)
      assert.deepEqual(Buffer.concat(rest), Buffer.from(bytes.subarray(STREAM_CHUNK + 7)))
    } finally {
      await source.close()
    }
  })

  it('gives the event loop a turn between chunks: a callback queued before the read runs before it ends', async () => {
    const file = path.join(dir, 'four-chunks.bin')
    fs.writeFileSync(file, new Uint8Array(4 * STREAM_CHUNK))
    const source = await openInput(file)
    try {
      let ran = false
      setImmediate(() => { ran = true })
      let chunks = 0
      let ranBeforeLast = false
      for await (const chunk of source.stream()) {
        chunks++
        if (chunks === 4) ranBeforeLast = ran
        assert.equal(chunk.length, STREAM_CHUNK)
      }
      assert.equal(chunks, 4)
      assert.ok(ranBeforeLast, 'the queued callback had not run by the last chunk: the reads held the event loop')
    } finally {
      await source.close()
    }
  })

  it('closes once: a second close does nothing (the descriptor may belong to another file by then)', async () => {
    const file = path.join(dir, 'small.bin')
    fs.writeFileSync(file, new Uint8Array([1, 2, 3]))
    const source = await openInput(file)
    await source.close()
    // the lowest free number: most likely the one the source had
    const other = fs.openSync(file, 'r')
    try {
      await source.close()
      assert.equal(fs.fstatSync(other).size, 3, 'the second close closed a descriptor it did not own')
    } finally {
      fs.closeSync(other)
    }
  })
})
