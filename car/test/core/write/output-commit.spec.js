// An output takes its name only when the run passed and, with --canonicalize, the copy written read
// back clean: here the pipeline writes to a target whose read-back is corrupted on purpose, and must
// abort the output, never commit it.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { runPipeline } from '../../../lib/core/run/pipeline.js'
import { memoryTarget } from '../../../lib/core/write/memory-target.js'
import { bytesSource } from '../../../lib/core/read/source.js'
import { exitCode } from '../../../lib/core/report/summary.js'

// one non-canonical block (keys out of order), which --canonicalize rewrites
const GENESIS = fileURLToPath(new URL('../../../../test/fixtures/cars/filecoin-calibnet-genesis.car', import.meta.url))

/**
 * A memory target that records what the pipeline did with its output; `corrupt` flips a bit of
 * what reading it back gives.
 *
 * @param {boolean} corrupt
 */
function watchedTarget (corrupt) {
  const target = memoryTarget('out.car')
  const calls = /** @type {string[]} */ ([])
  const open = target.open
  target.open = async (roots) => {
    const output = await open(roots)
    return {
      ...output,
      commit: async () => { calls.push('commit'); await output.commit() },
      abort: async () => { calls.push('abort'); await output.abort() },
      reopen: async () => {
        calls.push('reopen')
        const source = await output.reopen()
        if (!corrupt || source === null) return source
        const bytes = await source.readRange(0, /** @type {number} */ (source.size))
        bytes[bytes.length - 10] ^= 1 // inside the last block: a hash mismatch when read back
        return bytesSource(source.name, bytes)
      }
    }
  }
  return { target, calls }
}

describe('--out: committed only when the run passed and the copy read back clean', function () {
  this.timeout(60000)
  const input = () => bytesSource('genesis.car', new Uint8Array(fs.readFileSync(GENESIS)))

  it('a copy that reads back clean is committed: fixed', async () => {
    const { target, calls } = watchedTarget(false)
    const summary = await runPipeline({ source: input(), output: target, canonicalize: true })
    assert.equal(summary.result, 'fixed')
    assert.equal(summary.output?.written, true)
    assert.ok(calls.includes('reopen') && calls.at(-1) === 'commit', calls.join())
    assert.ok(target.chunks().length > 0)
  })

  it('a copy that does not read back clean is aborted, never committed: fail, exit 1', async () => {
    const { target, calls } = watchedTarget(true)
    const summary = await runPipeline({ source: input(), output: target, canonicalize: true })
    assert.equal(summary.result, 'fail')
    assert.equal(exitCode(summary), 1)
    assert.deepEqual(summary.output?.check, { result: 'fail', problems: 1 })
    assert.equal(summary.output?.written, false)
    assert.ok(!calls.includes('commit'), calls.join())
    assert.equal(calls.at(-1), 'abort')
    assert.deepEqual(target.chunks(), [])
  })
})
