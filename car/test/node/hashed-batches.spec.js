// node/hashed-batches.js and the 'hash' jobs of node/workers.js (the one worker pool): the Node
// CarBlockIterator's batches hashed by a worker thread and by the main thread, handed out in order.
import assert from 'node:assert/strict'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { hashedBatches } from '../../lib/node/hashed-batches.js'
import { workerPool } from '../../lib/node/workers.js'

/** @param {number} n */
const varint = (n) => { const out = []; while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n >>>= 7 } out.push(n); return out }

/**
 * A batch of `count` sections of raw sha2-256 blocks, in an ArrayBuffer of its own.
 *
 * @param {number} index
 * @param {number} count
 */
async function batch (index, count) {
  const parts = []
  for (let k = 0; k < count; k++) {
    const bytes = new Uint8Array(2000 + k * 31).fill((index * 7 + k) & 0xff)
    bytes[0] = index & 0xff
    bytes[1] = index >> 8
    const cid = CID.create(1, 0x55, await sha256.digest(bytes))
    parts.push(Uint8Array.from([...varint(cid.bytes.length + bytes.length), ...cid.bytes, ...bytes]))
  }
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  const ends = new Uint32Array(count)
  let at = 0
  parts.forEach((p, k) => { bytes.set(p, at); at += p.length; ends[k] = at })
  return { bytes, ends, starts: Float64Array.from(ends, (e, k) => index * 1e6 + (k ? ends[k - 1] : 0)), first: index * count }
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

describe('node/workers: hash jobs', () => {
  it('says when its worker has started and how many batches it has left, without this thread turning its event loop', async function () {
    this.timeout(20000)
    const pool = await workerPool(1, null, {})
    try {
      while (pool.ready() === 0) await sleep(2)
      const batches = await Promise.all([0, 1, 2].map((i) => batch(i, 5)))
      const answers = batches.map((b) => pool.hash(b))
      // counted as sent at once; the worker may have hashed some already (this thread can be
      // descheduled on a busy machine between sending and looking), never more than were sent
      const sent = pool.pending()
      assert.ok(sent >= 0 && sent <= 3, `pending ${sent} of 3 sent`)
      // the worker's answers are messages this thread takes only when it turns its event loop: it
      // does not here, and still sees the worker done
      const pause = new Int32Array(new SharedArrayBuffer(4))
      for (let waited = 0; pool.pending() > 0 && waited < 10000; waited++) Atomics.wait(pause, 0, 0, 1)
      assert.equal(pool.pending(), 0)
      const got = await Promise.all(answers)
      assert.deepEqual(got.map((a) => a.verified), [5, 5, 5])
      assert.ok(got.every((a) => a.bytes.buffer instanceof ArrayBuffer && a.bytes.length > 0), 'each batch back, in an ArrayBuffer')
    } finally {
      await pool.close()
    }
  })
})

describe('node/hashed-batches', () => {
  it('batches hashed partly here, partly by the worker: in order, each with its count, a bad block where it is; each buffer back to be read into again', async function () {
    this.timeout(30000)
    const made = []
    for (let i = 0; i < 120; i++) made.push(await batch(i, 4))
    // batch 100's third block does not hash to its CID
    made[100].bytes[made[100].ends[2] - 1] ^= 1
    const expected = made.map((b) => Buffer.from(b.bytes).toString('hex'))
    const buffers = made.map((b) => b.bytes.buffer)
    // The split is steered by what the pool says, not by the clock: this thread hashes a batch
    // itself while no worker is ready (feed.js), so the pool says none is until batch HERE_UNTIL;
    // then the worker is waited for, and the next batch goes to it (none is waiting there yet).
    const HERE_UNTIL = 10
    let workerShown = false
    let sentToWorker = 0
    /** @type {Awaited<ReturnType<typeof workerPool>> | null} */
    let realPool = null
    /** @type {typeof workerPool} */
    const makePool = async (...args) => {
      const pool = await workerPool(...args)
      realPool = pool
      return {
        ...pool,
        ready: () => workerShown ? pool.ready() : 0,
        hash: (b) => { sentToWorker++; return pool.hash(b) }
      }
    }
    let here = 0
    let there = 0
    const car = /** @type {any} */ ({
      async * sectionBatches () {
        for (const [k, b] of made.entries()) {
          if (k === HERE_UNTIL) {
            workerShown = true
            const pool = /** @type {NonNullable<typeof realPool>} */ (realPool)
            while (pool.ready() === 0) await sleep(2) // the worker starting: an event awaited, not a time
          }
          yield { ...b }
        }
      }
    })
    /** @type {ArrayBufferLike[]} */
    const spare = []
    let i = 0
    for await (const b of hashedBatches(car, 1, spare, makePool)) {
      assert.equal(b.first, made[i].first, `batch ${i} in order`)
      assert.equal(b.verified, i === 100 ? 2 : 4, `batch ${i}'s verified count`)
      assert.equal(Buffer.from(b.bytes).toString('hex'), expected[i], `batch ${i}'s bytes`)
      // a batch the worker hashed comes back in a new ArrayBuffer object (transferred there and back)
      if (b.bytes.buffer === buffers[i]) here++
      else there++
      if (i < HERE_UNTIL) assert.equal(b.bytes.buffer, buffers[i], `batch ${i}, read while no worker was ready, hashed in this thread`)
      if (i === HERE_UNTIL) assert.notEqual(b.bytes.buffer, buffers[i], `batch ${i}, read with the worker ready and nothing waiting there, hashed by the worker`)
      assert.ok(b.bytes.buffer instanceof ArrayBuffer)
      if (spare.length < 8) spare.push(b.bytes.buffer)
      i++
    }
    assert.equal(i, made.length)
    assert.ok(here >= HERE_UNTIL && there >= 1, `batches hashed in this thread (${here}) and in the worker (${there})`)
    assert.equal(there, sentToWorker, 'the batches that came back in new buffers are the ones sent to the worker')
  })
})
