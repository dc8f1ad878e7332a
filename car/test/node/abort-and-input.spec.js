// verifyCar's signal ends a run whatever its input is waiting on, and cancels that input; inputs
// that are not what they claim (a Blob's size, chunks that are not bytes) are refused in the tool's
// words. Waits are bounded (a run that hangs fails the test at BOUND_MS); no elapsed time is asserted.
import assert from 'node:assert/strict'
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { verifyCar, CarReadError } from '../../lib/node/node-library.js'
import { smallCarV1 } from '../helpers/small-cars.js'

/** how long an aborted run may take to settle before the test calls it a hang */
const BOUND_MS = 2000

/**
 * The run's outcome, or 'pending' if it has not settled BOUND_MS after the call.
 *
 * @param {Promise<unknown>} run
 */
async function settled (run) {
  let timer
  const bound = new Promise((resolve) => { timer = setTimeout(() => resolve('pending'), BOUND_MS) })
  try {
    return await Promise.race([run.then(() => 'resolved', (err) => err), bound])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Start a run over `input`, let it read what the input sends and wait on it, then abort.
 *
 * @param {unknown} input
 * @param {() => Promise<unknown>} waiting resolves once the run has taken what the input sent and
 *   asks for more (an event of the input, not a time: on a loaded machine the run may take long)
 */
async function abortWhileWaiting (input, waiting) {
  const controller = new AbortController()
  const run = verifyCar(input, { signal: controller.signal })
  run.catch(() => {})
  await waiting()
  const reason = new Error('stopped by the test')
  controller.abort(reason)
  return { outcome: await settled(run), reason }
}

describe('library: an aborted run ends at once and cancels its input', function () {
  this.timeout(10000)
  let car
  before(async () => { car = await smallCarV1() })

  it('a ReadableStream that sends 100 bytes and stalls: rejects with the reason, the stream is cancelled', async () => {
    let cancelled = false
    /** @type {(value?: unknown) => void} */
    let askedForMore = () => {}
    const asked = new Promise((resolve) => { askedForMore = resolve })
    // pull() is called once the run has read the queued 100 bytes; it sends nothing more
    const stream = new ReadableStream({ start (c) { c.enqueue(car.subarray(0, 100)) }, pull () { askedForMore() }, cancel () { cancelled = true } })
    const { outcome, reason } = await abortWhileWaiting(stream, () => asked)
    assert.equal(outcome, reason)
    assert.equal(cancelled, true)
  })

  it('an async iterator that stalls: rejects with the reason, its return() is called', async () => {
    let returned = false
    let calls = 0
    /** @type {(value?: unknown) => void} */
    let askedForMore = () => {}
    const asked = new Promise((resolve) => { askedForMore = resolve })
    const iterator = {
      [Symbol.asyncIterator] () { return iterator },
      next: () => {
        if (calls++ === 0) return Promise.resolve({ done: false, value: car.subarray(0, 100) })
        askedForMore()
        return new Promise(() => {})
      },
      return: () => { returned = true; return Promise.resolve({ done: true, value: undefined }) }
    }
    const { outcome, reason } = await abortWhileWaiting(iterator, () => asked)
    assert.equal(outcome, reason)
    assert.equal(returned, true)
  })

  it('a FIFO whose writer stalls: rejects with the reason, the FIFO is closed', async function () {
    if (process.platform === 'win32') this.skip()
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-abort-'))
    const fifo = path.join(dir, 'stalled.car')
    execFileSync('mkfifo', [fifo])
    // the writer's open of the FIFO returns once a reader has it open: the run (which opens it
    // without waiting for a writer); it says so, then sends 100 bytes and stalls
    const writer = spawn('sh', ['-c', `exec 3>"${fifo}"; echo opened; head -c 100 >&3; exec sleep 30`], { stdio: ['pipe', 'pipe', 'ignore'] })
    const runHasIt = once(writer.stdout, 'data')
    writer.stdin.end(car)
    const opened = () => fs.readdirSync('/proc/self/fd').filter((fd) => { try { return fs.readlinkSync(`/proc/self/fd/${fd}`) === fifo } catch { return false } }).length
    try {
      const { outcome, reason } = await abortWhileWaiting(fifo, () => runHasIt)
      assert.equal(outcome, reason)
      if (fs.existsSync('/proc/self/fd')) {
        await new Promise((resolve) => setImmediate(resolve))
        assert.equal(opened(), 0, 'the FIFO is still open')
      }
    } finally {
      writer.kill()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a FIFO closed by an abort stays closed: its fd is not closed again when collected (no EBADF crash)', function () {
    if (process.platform === 'win32') this.skip()
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-abort-'))
    const fifo = path.join(dir, 'stalled.car')
    execFileSync('mkfifo', [fifo])
    const entry = new URL('../../lib/node/node-library.js', import.meta.url).href
    // in a process of its own, whose collector the script runs: a FileHandle left owning the FIFO's
    // fd would close it again when collected, and that failure ends the process
    const script = `
      import { spawn } from 'node:child_process'
      import { verifyCar } from ${JSON.stringify(entry)}
      import { once } from 'node:events'
      const writer = spawn('sh', ['-c', 'exec 3>"$0"; echo opened; printf x >&3; exec sleep 30', ${JSON.stringify(fifo)}], { stdio: ['ignore', 'pipe', 'ignore'] })
      const runHasIt = once(writer.stdout, 'data') // the writer's open returns once the run has the FIFO open
      const controller = new AbortController()
      const run = verifyCar(${JSON.stringify(fifo)}, { signal: controller.signal })
      await runHasIt
      controller.abort(new Error('stopped'))
      await run.catch(() => {})
      for (let i = 0; i < 5; i++) { globalThis.gc(); await new Promise((resolve) => setTimeout(resolve, 50)) }
      writer.kill()
      console.log('collected')`
    try {
      const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30000 })
      assert.equal(r.status, 0, r.stderr)
      assert.equal(r.stdout.trim(), 'collected')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a signal aborted before the run starts rejects with its reason', async () => {
    const reason = new Error('already stopped')
    assert.equal(await settled(verifyCar(car, { signal: AbortSignal.abort(reason) })), reason)
  })

  it('a run that ends before the signal is aborted is not changed by it', async () => {
    const controller = new AbortController()
    const summary = await verifyCar(car, { signal: controller.signal })
    controller.abort()
    assert.equal(summary.result, 'ok')
  })
})

describe('library: inputs that are not what they claim (CarReadErrors, as every failure of a read)', () => {
  let car
  before(async () => { car = await smallCarV1() })

  it('a Blob whose size overstates its bytes: a CarReadError saying so, with the offset', async () => {
    class OverstatedBlob extends Blob { get size () { return super.size + 100 } }
    const liar = new OverstatedBlob([car])
    const err = await settled(verifyCar(liar))
    assert.ok(err instanceof CarReadError, String(err))
    assert.equal(typeof err.offset, 'number')
    assert.match(err.message, new RegExp(`says it holds ${car.length + 100} bytes, but reading \\d+ bytes at byte offset \\d+ gave \\d+`))
  })

  it('chunks that are not bytes: a CarReadError naming what came, with the offset', async () => {
    for (const input of [['not bytes'], (async function * () { yield [1, 2, 3] })()]) {
      const err = await settled(verifyCar(input))
      assert.ok(err instanceof CarReadError, String(err?.stack ?? err))
      assert.equal(err.offset, 0)
      assert.match(err.message, /the input gave a chunk that is not bytes \((string|an array)\); a CAR input yields Uint8Array chunks/)
    }
  })
})
