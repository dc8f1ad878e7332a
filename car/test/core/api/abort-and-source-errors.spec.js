// Issue 61, items 6, 7 and 8: a call's options (an AbortSignal above all) are checked before it
// opens anything; after an abort no callback runs again (one thread or worker threads); and an
// input that fails (its own error: a disk, a network, a producer) is said to be the input's
// failure, itself or as the `cause` of a CarReadError, never "CAR is truncated or corrupt", at any
// point of the CAR and through every read path. Nothing here is decided by a clock.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { Readable } from 'node:stream'
import { inspect } from 'node:util'
import * as raw from 'multiformats/codecs/raw'
import * as core from '../../../lib/core/index.js'
import * as node from '../../../lib/node/node-library.js'
import { carV1, cidOf, section } from '../../helpers/car-oracle.js'

/**
 * A CAR of `count` raw blocks of `size` bytes each, and the byte offset where each section starts.
 *
 * @param {number} count @param {number} size
 */
async function manyBlocks (count, size) {
  const blocks = []
  for (let i = 0; i < count; i++) {
    const bytes = new Uint8Array(size).fill(i & 0xff)
    new DataView(bytes.buffer).setUint32(0, i)
    blocks.push({ cid: await cidOf(bytes, { code: raw.code }), bytes })
  }
  const bytes = new Uint8Array(carV1([blocks[0].cid], blocks))
  const headerLength = bytes.length - blocks.reduce((n, b) => n + section(b).length, 0)
  const starts = []
  let at = headerLength
  for (const b of blocks) { starts.push(at); at += section(b).length }
  return { bytes, starts, headerLength }
}

/** An input that records whether anything began reading it. */
function watchedInput (bytes) {
  const input = {
    opened: false,
    [Symbol.asyncIterator] () {
      input.opened = true
      let done = false
      return { next: async () => done ? { done: true, value: undefined } : (done = true, { done: false, value: bytes }) }
    }
  }
  return input
}

/** The input's own failure, with a code as a system error has. */
const diskError = () => Object.assign(new Error('the disk went away'), { code: 'EIO' })

/**
 * `err` is `original` itself, or an InputFailedError (a CarReadError) that says the input failed (not
 * that the CAR is corrupt) and carries it as its cause, with its code.
 *
 * @param {any} err @param {Error & { code?: string }} original @param {string} what
 */
function assertBlamesInput (err, original, what) {
  if (err === original) return
  assert.ok(err instanceof core.CarReadError, `${what}: ${err?.stack ?? err}`)
  assert.ok(err instanceof core.InputFailedError && err instanceof node.InputFailedError, `${what}: an InputFailedError, as both entries export it (${err.name})`)
  assert.equal(err.cause, original, `${what}: the input's error is the cause (${err.message})`)
  assert.equal(err.code, original.code, `${what}: its code is kept`)
  assert.match(err.message, /input failed/, what)
  assert.doesNotMatch(err.message, /truncated or corrupt/, what)
}

/** @param {AsyncIterable<unknown>} iterable */
async function drain (iterable) {
  let n = 0
  for await (const _ of iterable) n++ // eslint-disable-line no-unused-vars
  return n
}

describe('library: options are checked before anything is opened', function () {
  /** @type {Uint8Array} */
  let car
  before(async () => { car = (await manyBlocks(3, 10)).bytes })

  const badVerifyOptions = [
    [null, TypeError, /its options must be an object/],
    [{ signal: { aborted: false } }, TypeError, /options\.signal must be an AbortSignal/],
    [{ signal: 'stop' }, TypeError, /options\.signal/],
    [{ signal: null }, TypeError, /options\.signal/],
    [{ maxBlockSize: NaN }, RangeError, /options\.maxBlockSize/],
    [{ maxBlockSize: -1 }, RangeError, /options\.maxBlockSize/],
    [{ maxBlockSize: 1.5 }, RangeError, /options\.maxBlockSize/],
    [{ maxBlockSize: '4M' }, TypeError, /options\.maxBlockSize/],
    [{ onBlock: 'log' }, TypeError, /options\.onBlock must be a function/],
    [{ onProgress: 5 }, TypeError, /options\.onProgress must be a function/],
    [{ relaxed: 'yes' }, TypeError, /options\.relaxed/],
    [{ partial: 1 }, TypeError, /options\.partial/]
  ]
  for (const [options, type, message] of badVerifyOptions) {
    for (const [entry, api] of /** @type {const} */ ([[core, 'core'], [node, 'node']])) {
      it(`${api} verifyCar(input, ${inspect(options)}) rejects with a ${type.name}, opens nothing, starts no run`, async () => {
        const input = watchedInput(car)
        await assert.rejects(entry.verifyCar(/** @type {any} */ (input), /** @type {any} */ (options)), (err) => err instanceof type && message.test(err.message))
        assert.equal(input.opened, false)
      })
    }
  }

  it('an invalid signal: the process ends cleanly once the rejection is handled (no second, unhandled rejection)', () => {
    // a process of its own, which ends when nothing is left to do: a run started before the
    // signal was found invalid would end then, and its rejection, unhandled, would exit with 1
    const script = `
      import { verifyCar } from ${JSON.stringify(new URL('../../../lib/node/node-library.js', import.meta.url).href)}
      const car = Uint8Array.from(${JSON.stringify([...car])})
      for (const workers of [1, 2]) {
        await verifyCar(car, { workers, signal: { aborted: false } }).then(() => { throw new Error('resolved') }, (err) => { if (!(err instanceof TypeError)) throw err })
      }
      console.log('handled')`
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    assert.equal(run.stderr, '')
    assert.equal(run.stdout, 'handled\n')
    assert.equal(run.status, 0)
  })

  it('node verifyCar with workers: 2 and an invalid signal opens nothing either', async () => {
    const input = watchedInput(car)
    await assert.rejects(node.verifyCar(/** @type {any} */ (input), { workers: 2, signal: /** @type {any} */ ({ aborted: false }) }), TypeError)
    assert.equal(input.opened, false)
  })

  it('canonicalizeCar (core and node, bytes and a file path) throws a TypeError for an invalid signal, before it opens anything', () => {
    assert.throws(() => core.canonicalizeCar(car, { signal: /** @type {any} */ ({ aborted: false }) }), /options\.signal/)
    assert.throws(() => node.canonicalizeCar(car, { signal: /** @type {any} */ ({ aborted: false }) }), /options\.signal/)
    assert.throws(() => node.canonicalizeCar('/nonexistent/file.car', { signal: /** @type {any} */ ({ aborted: false }) }), /options\.signal/)
    // a file path is opened by the Node entry before the core sees the options: checked before that too
    assert.throws(() => node.canonicalizeCar('/nonexistent/file.car', /** @type {any} */ ({ outName: 5 })), /options\.outName must be a string/)
  })

  const badReadOptions = [
    [null, TypeError, /its options must be an object/],
    [{ maxBlockSize: NaN }, RangeError, /options\.maxBlockSize/],
    [{ maxBlockSize: 0 }, RangeError, /options\.maxBlockSize/],
    [{ maxBlockSize: '4M' }, TypeError, /options\.maxBlockSize/],
    [{ verifyHashes: 'no' }, TypeError, /options\.verifyHashes/]
  ]
  const readers = /** @type {const} */ ([
    ['core CarReader.fromIterable', (/** @type {any} */ i, /** @type {any} */ o) => core.CarReader.fromIterable(i, o)],
    ['node CarReader.fromIterable', (/** @type {any} */ i, /** @type {any} */ o) => node.CarReader.fromIterable(i, o)],
    ['core CarBlockIterator.fromIterable', (/** @type {any} */ i, /** @type {any} */ o) => core.CarBlockIterator.fromIterable(i, o)],
    ['node CarBlockIterator.fromIterable', (/** @type {any} */ i, /** @type {any} */ o) => node.CarBlockIterator.fromIterable(i, o)],
    ['core CarCIDIterator.fromIterable', (/** @type {any} */ i, /** @type {any} */ o) => core.CarCIDIterator.fromIterable(i, o)],
    ['node CarCIDIterator.fromIterable', (/** @type {any} */ i, /** @type {any} */ o) => node.CarCIDIterator.fromIterable(i, o)],
    ['core CarIndexer.fromIterable', (/** @type {any} */ i, /** @type {any} */ o) => core.CarIndexer.fromIterable(i, o)],
    ['node CarIndexer.fromIterable', (/** @type {any} */ i, /** @type {any} */ o) => node.CarIndexer.fromIterable(i, o)]
  ])
  for (const [name, read] of readers) {
    for (const [options, type, message] of badReadOptions) {
      it(`${name}(input, ${inspect(options)}) rejects with a ${type.name} naming the option, opens nothing`, async () => {
        const input = watchedInput(car)
        await assert.rejects(read(input, options), (err) => err instanceof type && message.test(err.message))
        assert.equal(input.opened, false)
      })
    }
  }

  it('CarReader.fromBytes checks maxBlockSize too', async () => {
    await assert.rejects(core.CarReader.fromBytes(car, { maxBlockSize: NaN }), RangeError)
  })

  it('the other calls that read a CAR check their options as the readers do', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'options-')), 'in.car')
    fs.writeFileSync(file, car)
    try {
      for (const [options, type, message] of badReadOptions) {
        assert.throws(() => core.CarBufferReader.fromBytes(car, /** @type {any} */ (options)), (err) => err instanceof type && message.test(err.message), `CarBufferReader.fromBytes ${inspect(options)}`)
        await assert.rejects(core.CarIndexer.fromBytes(car, /** @type {any} */ (options)), (err) => err instanceof type && message.test(err.message), `CarIndexer.fromBytes ${inspect(options)}`)
        await assert.rejects(node.CarIndexedReader.fromFile(file, /** @type {any} */ (options)), (err) => err instanceof type && message.test(err.message), `CarIndexedReader.fromFile ${inspect(options)}`)
      }
      for (const options of [null, { maxBlockSize: NaN }, { maxBlockSize: '4M' }]) {
        await assert.rejects(core.readBlockAt(car, 0, /** @type {any} */ (options)), (err) => (err instanceof TypeError || err instanceof RangeError) && /readBlockAt: /.test(err.message), `readBlockAt ${inspect(options)}`)
      }
      for (const options of [null, { maxBlockSize: NaN }, { records: 'yes' }, { onFault: 'log' }, { onRecord: 1 }, { didKey: 5 }, { didDocument: 'did:plc:x' }, { name: 7 }]) {
        await assert.rejects(core.checkRepo(car, /** @type {any} */ (options)), (err) => (err instanceof TypeError || err instanceof RangeError) && /checkRepo: /.test(err.message), `checkRepo ${inspect(options)}`)
      }
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true })
    }
  })
})

describe('library: after an abort, no callback runs again', function () {
  this.timeout(20000)
  /** @type {Uint8Array} */
  let car
  before(async () => { car = (await manyBlocks(5000, 40)).bytes })

  for (const workers of [1, 2]) {
    for (const from of /** @type {const} */ (['onBlock', 'onProgress'])) {
      it(`verifyCar, workers: ${workers}: aborted from ${from}, neither onBlock nor onProgress is called after it`, async () => {
        const controller = new AbortController()
        const reason = new Error('stopped by the test')
        let aborted = false
        let after = 0
        let blocks = 0
        const options = {
          workers,
          signal: controller.signal,
          onBlock: () => {
            if (aborted) after++
            if (from === 'onBlock' && ++blocks === 10) { aborted = true; controller.abort(reason) }
          },
          onProgress: () => {
            if (aborted) after++
            if (from === 'onProgress') { aborted = true; controller.abort(reason) }
          }
        }
        await assert.rejects(node.verifyCar(car, options), (err) => err === reason)
        assert.equal(aborted, true)
        assert.equal(after, 0, 'callbacks after the abort')
      })
    }
  }

  it('the core verifyCar too (aborted from onBlock)', async () => {
    const controller = new AbortController()
    let aborted = false
    let after = 0
    let blocks = 0
    await assert.rejects(core.verifyCar(car, {
      signal: controller.signal,
      onBlock: () => { if (aborted) after++; if (++blocks === 10) { aborted = true; controller.abort() } },
      onProgress: () => { if (aborted) after++ }
    }), { name: 'AbortError' })
    assert.equal(after, 0)
  })
})

describe('library: an input that fails is blamed as the input, not the CAR', function () {
  this.timeout(60000)
  /** @type {{ bytes: Uint8Array, starts: number[], headerLength: number }} */
  let car
  before(async () => { car = await manyBlocks(3000, 1000) }) // 3 MB: past the 1 MiB reads of a Blob

  /** the chunks a stream sends: 64 KiB, the last cut at the failure */
  const CHUNK = 64 * 1024
  /** @param {Uint8Array} bytes @param {number} failAt */
  function * chunksUpTo (bytes, failAt) {
    for (let at = 0; at < failAt; at += CHUNK) yield bytes.subarray(at, Math.min(at + CHUNK, failAt))
  }

  /** @type {Record<string, (bytes: Uint8Array, failAt: number, error: Error) => any>} */
  const failingInputs = {
    'an async iterable that throws': (bytes, failAt, error) => (async function * () {
      yield * chunksUpTo(bytes, failAt)
      throw error
    })(),
    'a ReadableStream that errors': (bytes, failAt, error) => {
      const chunks = chunksUpTo(bytes, failAt)
      return new ReadableStream({
        pull (controller) {
          const next = chunks.next()
          if (next.done) controller.error(error)
          else controller.enqueue(next.value)
        }
      })
    },
    "a Node stream that emits 'error'": (bytes, failAt, error) => {
      const chunks = chunksUpTo(bytes, failAt)
      return new Readable({
        read () {
          const next = chunks.next()
          if (next.done) this.destroy(error)
          else this.push(next.value)
        }
      })
    },
    'a Blob whose read fails': (bytes, failAt, error) => {
      // every read that reaches past failAt fails, as a file on a failing disk
      class FailingBlob extends Blob {
        /** @param {number} [start] @param {number} [end] */
        slice (start = 0, end = this.size) {
          const part = super.slice(start, end)
          if (end <= failAt) return part
          return /** @type {Blob} */ (/** @type {unknown} */ ({ arrayBuffer: () => Promise.reject(error) }))
        }
      }
      return new FailingBlob([bytes])
    }
  }

  /** @type {Record<string, (input: any) => Promise<unknown>>} */
  const readPaths = {
    'core verifyCar': (input) => core.verifyCar(input),
    'node verifyCar, workers: 2': (input) => node.verifyCar(input, { workers: 2 }),
    'verifyCar with onBlock': (input) => core.verifyCar(input, { onBlock: () => {} }),
    'CarReader.fromIterable': (input) => core.CarReader.fromIterable(input),
    'CarBlockIterator.fromIterable': async (input) => drain(await core.CarBlockIterator.fromIterable(input)),
    'node CarBlockIterator.fromIterable, workers: 2': async (input) => drain(await node.CarBlockIterator.fromIterable(input, { workers: 2 })),
    'CarCIDIterator.fromIterable': async (input) => drain(await core.CarCIDIterator.fromIterable(input)),
    'CarIndexer.fromIterable': async (input) => drain(await core.CarIndexer.fromIterable(input))
  }

  /** where the input fails: in the header, mid-section, between sections */
  const points = {
    'at its first byte': () => 0,
    'in the header': () => 5,
    'mid-section (block 1500)': () => car.starts[1500] + 300,
    'between sections (before block 1500)': () => car.starts[1500]
  }

  for (const [inputName, make] of Object.entries(failingInputs)) {
    for (const [pointName, point] of Object.entries(points)) {
      for (const [pathName, read] of Object.entries(readPaths)) {
        it(`${inputName}, failing ${pointName}: ${pathName} says the input failed`, async () => {
          const error = diskError()
          const err = await read(make(car.bytes, point(), error)).then(() => null, (e) => e)
          assert.notEqual(err, null, 'the read must fail')
          assertBlamesInput(err, error, `${inputName} ${pointName} ${pathName}`)
        })
      }
    }
  }

  it('a failure the input throws as a non-Error value is still the cause', async () => {
    const err = await core.verifyCar((async function * () { yield car.bytes.subarray(0, car.starts[10] + 3); throw 'gone' })()).then(() => null, (e) => e) // eslint-disable-line no-throw-literal
    assert.ok(err instanceof core.CarReadError)
    assert.equal(err.cause, 'gone')
    assert.match(err.message, /input failed/)
  })

  it('verifyCar: the error says where the input failed and carries the summary of what was read before', async () => {
    const failAt = car.starts[1500] + 300
    const error = diskError()
    const err = await core.verifyCar(failingInputs['an async iterable that throws'](car.bytes, failAt, error)).then(() => null, (e) => e)
    assertBlamesInput(err, error, 'verifyCar')
    if (err !== error) {
      assert.equal(err.blocks, 1500)
      assert.ok(err.summary, 'the summary of what was read')
      assert.equal(err.summary.blocks, 1500)
    }
  })

  it('a fault of the CAR read before a read ahead failed is still the CAR\'s fault (the failed read ahead was never waited on)', async () => {
    const bytes = car.bytes.slice()
    bytes[car.starts[10]] = 0 // section 10 claims length 0
    const failAt = 2 * 1024 * 1024 // reads ahead past 2 MiB fail: the reader stops long before
    for (const [name, read] of Object.entries(readPaths)) {
      if (name === 'CarReader.fromIterable') continue // it reads the whole input before it looks at it: the input fails first
      const err = await read(failingInputs['a Blob whose read fails'](bytes, failAt, diskError())).then(() => null, (e) => e)
      assert.ok(err instanceof core.CarReadError, `${name}: ${err}`)
      assert.match(err.message, /section at byte offset \d+ has length 0/, name)
      assert.equal(err.cause, undefined, name)
    }
  })

  it('a CAR that is really cut short is still called truncated (no input failure)', async () => {
    await assert.rejects(core.verifyCar(car.bytes.subarray(0, car.starts[10] + 3)), /truncated or corrupt/)
  })

  it('an input that fails after the whole CAR was read still fails the read (its end was not seen)', async () => {
    const error = diskError()
    const err = await core.verifyCar(failingInputs['an async iterable that throws'](car.bytes, car.bytes.length, error)).then(() => null, (e) => e)
    assertBlamesInput(err, error, 'after the last byte')
  })
})
