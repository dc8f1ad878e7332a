// run/: the one loop that feeds batches to the checks (feed.js), inline and with a pool. A fake pool
// (answers after random delays, out of order) must give the same results, in the same order, as
// this thread alone: the loop itself, verify's runs over it (batches of sections; batches of
// blocks when it writes a CAR), and the iterator's batches.
import assert from 'node:assert/strict'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import * as codec from '../../../lib/core/check/dag-cbor.js'
import { feed } from '../../../lib/core/run/feed.js'
import { EVENT_LOOP_TURN_MS } from '../../../lib/core/read/limits.js'
import { setClock } from '../../../lib/core/base/clock.js'
import { processSections } from '../../../lib/core/run/section-checks.js'
import { processBatch } from '../../../lib/core/run/batch.js'
import { hashedSections } from '../../../lib/core/run/hashed-sections.js'
import { hashedBatches } from '../../../lib/core/run/iterate.js'
import { runPipeline } from '../../../lib/core/run/pipeline.js'
import { openSource } from '../../../lib/core/read/source.js'
import { openCar } from '../../../lib/core/read/open-car.js'
import { headerBytes, sectionBytes, memoryTarget } from '../../../lib/core/write/memory-target.js'

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A pool that answers each job after a random delay (so out of order), counting what it has.
 *
 * @template B, R
 * @param {(batch: B) => R} work
 * @param {number} [size]
 */
function fakePool (work, size = 2) {
  let pending = 0
  let sent = 0
  return {
    size,
    sent: () => sent,
    pending: () => pending,
    ready: () => size,
    /** @param {B} batch @returns {Promise<R>} */
    send: async (batch) => {
      pending++
      sent++
      await sleep(Math.random() * 4)
      pending--
      return work(batch)
    }
  }
}

/** @param {number} n @param {number} [failAt] a reading error after this many batches */
async function * numbers (n, failAt = -1) {
  for (let i = 0; i < n; i++) {
    if (i === failAt) throw new Error(`read error at ${i}`)
    if (i % 7 === 0) await sleep(1)
    yield i
  }
}

/** @template T @param {AsyncIterable<T>} it */
async function collect (it) {
  const out = []
  for await (const x of it) out.push(x)
  return out
}

/** A CAR of DAG-CBOR and raw blocks, some not canonical, one not hashing to its CID. */
async function makeCar (count = 3000) {
  const parts = []
  /** @type {CID[]} */
  const cids = []
  for (let i = 0; i < count; i++) {
    let bytes = i % 3 === 0 ? new Uint8Array(4000 + (i % 50)).fill(i & 0xff) : dagCbor.encode({ i, name: `block ${i}`, prev: cids[i - 1] ?? null })
    if (i % 97 === 5) bytes = Uint8Array.from([0xa2, 0x61, 0x62, 0x02, 0x61, 0x61, 0x01, ...[]]) // {"b": 2, "a": 1}: keys out of order
    const cid = CID.createV1(i % 3 === 0 ? 0x55 : 0x71, await sha256.digest(i === 1234 ? Uint8Array.of(1) : bytes))
    cids.push(cid)
    parts.push(sectionBytes(cid, bytes))
  }
  parts.unshift(headerBytes([cids[count - 1]]))
  const car = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) { car.set(p, at); at += p.length }
  return car
}

/** @param {any} summary */
const comparable = (summary) => {
  const { seconds, mbPerSec, workers, ...rest } = summary
  return rest
}

describe('core/run: the one loop (feed.js)', () => {
  it('inline: each batch checked here, out in order', async () => {
    const out = await collect(feed(numbers(50), { here: (n) => n * 2 }))
    assert.deepEqual(out.map((o) => o.result), Array.from({ length: 50 }, (_, i) => 2 * i))
    assert.ok(out.every((o) => o.here))
  })

  it('checking here for longer than EVENT_LOOP_TURN_MS gives the event loop a turn, once each EVENT_LOOP_TURN_MS, not one per batch', async () => {
    // a clock of our own: each batch checked takes a twentieth of EVENT_LOOP_TURN_MS on it
    let time = 0
    const realClock = setClock(() => time)
    /** the batches checked by the time a callback waiting on the event loop ran */
    const ranAfter = new Set()
    let checked = 0
    let waiting = true
    const wait = () => setImmediate(() => { ranAfter.add(checked); if (waiting) wait() })
    wait()
    try {
      // 60 batches, read without any I/O (microtasks alone): three turns' worth of checking
      const batches = (async function * () { for (let i = 0; i < 60; i++) yield i })()
      const out = await collect(feed(batches, { here: (n) => { time += EVENT_LOOP_TURN_MS / 20; checked++; return n } }))
      assert.equal(out.length, 60)
    } finally {
      waiting = false
      setClock(realClock)
    }
    // a turn after batches 20 and 40 only (checks 20 apart: never one per batch); whether the
    // waiting callback runs at the first turn or only at the second is the event loop's phase
    // order (timers before or after immediates), so either counts, but it must run before the end
    assert.ok([...ranAfter].every((n) => n === 20 || n === 40 || n === 60), [...ranAfter].join())
    assert.ok([...ranAfter][0] < 60, `the event loop had no turn before the end: ${[...ranAfter].join()}`)
  })

  it('a check here that waits for a load (a Promise) holds the batches after it', async () => {
    const out = await collect(feed(numbers(30), { here: (n) => n % 5 === 0 ? sleep(3).then(() => -n) : -n }))
    assert.deepEqual(out.map((o) => o.batch), Array.from({ length: 30 }, (_, i) => i))
    assert.deepEqual(out.map((o) => o.result), Array.from({ length: 30 }, (_, i) => -i))
  })

  it('with a fake pool (answers out of order): the same results, in the same order; some checked here, some there', async () => {
    const pool = fakePool((/** @type {number} */ n) => n * 2)
    const out = await collect(feed(numbers(200), { here: (n) => n * 2, send: pool.send, pool, perWorker: 2, ahead: 12 }))
    assert.deepEqual(out.map((o) => o.batch), Array.from({ length: 200 }, (_, i) => i))
    assert.deepEqual(out.map((o) => o.result), Array.from({ length: 200 }, (_, i) => 2 * i))
    const here = out.filter((o) => o.here).length
    assert.ok(here > 0 && here < 200 && pool.sent() === 200 - here, `${here} here, ${pool.sent()} sent`)
  })

  it('only a pool (here: null): every batch is sent', async () => {
    const pool = fakePool((/** @type {number} */ n) => n + 1)
    const out = await collect(feed(numbers(40), { here: null, send: pool.send, pool, ahead: 4 }))
    assert.deepEqual(out.map((o) => o.result), Array.from({ length: 40 }, (_, i) => i + 1))
    assert.equal(pool.sent(), 40)
  })

  it('a reading error it holds comes after the batches before it; one it does not hold, at once', async () => {
    const pool = fakePool((/** @type {number} */ n) => n)
    const seen = []
    await assert.rejects(async () => { for await (const o of feed(numbers(100, 60), { here: null, send: pool.send, pool, ahead: 8 })) seen.push(o.batch) }, /read error at 60/)
    assert.deepEqual(seen, Array.from({ length: 60 }, (_, i) => i))
    const early = []
    await assert.rejects(async () => { for await (const o of feed(numbers(100, 60), { here: null, send: pool.send, pool, ahead: 8, holds: () => false })) early.push(o.batch) }, /read error at 60/)
    assert.ok(early.length < 60)
  })

  it('a failed job ends the loop at its place; the reading is stopped', async () => {
    let stopped = false
    async function * source () {
      try { for (let i = 0; ; i++) yield i } finally { stopped = true }
    }
    const pool = fakePool((/** @type {number} */ n) => { if (n === 25) throw new Error('worker failed: 25'); return n })
    const seen = []
    await assert.rejects(async () => { for await (const o of feed(source(), { here: null, send: pool.send, pool, ahead: 6 })) seen.push(o.result) }, /worker failed: 25/)
    assert.deepEqual(seen, Array.from({ length: 25 }, (_, i) => i))
    assert.ok(stopped)
  })

  describe('over a CAR', () => {
    /** @type {Uint8Array} */
    let car
    before(async () => { car = await makeCar() })

    /** a Processor whose jobs run here, after random delays */
    const fakeProcessor = () => async (/** @type {number} */ threads) => {
      const sections = fakePool((/** @type {[any, number]} */ [batch, maxBlockSize]) => processSections(codec, batch, { maxBlockSize }), threads)
      const blocks = fakePool((/** @type {any} */ batch) => processBatch(codec, batch, {}), threads)
      return {
        pending: () => sections.pending() + blocks.pending(),
        ready: () => threads,
        submitSections: (/** @type {any} */ batch, /** @type {number} */ max) => sections.send([batch, max]),
        submit: (/** @type {any} */ batch) => blocks.send(batch),
        close: async () => {}
      }
    }

    it('verify: inline and with a fake pool (with and without this thread checking), the same summary', async () => {
      const inline = await runPipeline({ source: openSource(car), codec })
      assert.equal(inline.blocks, 3000)
      assert.ok(inline.problemCount > 0, 'the planted problems are found')
      for (const mainThreadChecks of [true, false]) {
        const pooled = await runPipeline({ source: openSource(car), codec, workers: 3, workerPool: fakeProcessor(), mainThreadChecks })
        assert.deepEqual(comparable(pooled), comparable(inline), `mainThreadChecks ${mainThreadChecks}`)
      }
    })

    it('verify with each block reported (batches of blocks): inline and with a fake pool, the same blocks in order', async () => {
      /** @param {number} workers */
      const run = async (workers) => {
        const seen = []
        const summary = await runPipeline({ source: openSource(car), codec, workers, workerPool: workers > 1 ? fakeProcessor() : undefined, onBlock: (cidBytes, bytes, offset, index, r) => seen.push([index, offset, r === null ? 'common' : r.hash + (r.cls ?? '')]) })
        return { summary: comparable(summary), seen }
      }
      const inline = await run(1)
      const pooled = await run(3)
      assert.deepEqual(pooled.summary, inline.summary)
      assert.equal(inline.seen.length, 3000)
      // inline, a common block's result is null (section-checks.js); from the pool's batches of blocks, the shared verdict
      const norm = (/** @type {any[]} */ s) => s.map(([i, o, r]) => [i, o, r === 'common' ? 'ok' : r.replace(/^ok(canonical)$/, 'ok')])
      assert.deepEqual(norm(pooled.seen), norm(inline.seen))
    })

    it('verify writing a CAR (batches of blocks): inline and with a fake pool, the same bytes', async () => {
      /** @param {number} workers */
      const run = async (workers) => {
        const target = memoryTarget('out.car')
        const summary = await runPipeline({ source: openSource(car), codec, workers, workerPool: workers > 1 ? fakeProcessor() : undefined, output: target, passes: () => true })
        return { summary: comparable(summary), bytes: Buffer.concat(target.chunks()).toString('hex') }
      }
      const inline = await run(1)
      const pooled = await run(2)
      assert.deepEqual(pooled.summary, inline.summary)
      assert.deepEqual(pooled.bytes, inline.bytes)
    })

    it('the iterator\'s batches: without a pool and with a fake one, the same batches in order; the pool\'s verified where it hashed', async () => {
      const batches = async (/** @type {any} */ pool) => {
        const opened = await openCar(openSource(car).stream(), { shared: false })
        const out = []
        for await (const b of hashedBatches(opened, undefined, pool)) out.push({ first: b.first, bytes: Buffer.from(b.bytes).toString('hex'), verified: b.verified, n: b.ends.length })
        return out
      }
      const alone = await batches(null)
      const pool = fakePool((/** @type {any} */ b) => ({ verified: hashedSections(b.bytes, b.ends), bytes: b.bytes }))
      const pooled = await batches({ ...pool, hash: pool.send })
      assert.ok(alone.length > 1)
      assert.deepEqual(pooled.map(({ verified, ...b }) => b), alone.map(({ verified, ...b }) => b))
      assert.ok(alone.every((b) => b.verified === 0), 'alone: hashed as handed out')
      // one block (1234) does not hash to its CID: its batch stops there
      assert.equal(pooled.reduce((n, b) => n + b.verified, 0) < 3000, true)
      assert.ok(pooled.filter((b) => b.verified === b.n).length >= pooled.length - 1)
    })
  })
})
