// The default number of threads (lib/node/run.js defaultWorkers, lib/node/idle-cores.js): one below
// 96 MiB or for an input of unknown size; above, no more threads than the cores other processes leave idle.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { idleCores } from '../../lib/node/idle-cores.js'
import { defaultWorkers } from '../../lib/node/run.js'

describe('default threads', () => {
  it('one thread below 96 MiB and for an input of unknown size', () => {
    assert.equal(defaultWorkers(undefined), 1)
    assert.equal(defaultWorkers(1 << 20), 1)
    assert.equal(defaultWorkers((96 << 20) - 1), 1)
    assert.equal(defaultWorkers((96 << 20) - 1, true), 1)
  })

  it('above: between 1 and the available cores', () => {
    const n = defaultWorkers(1 << 30)
    assert.ok(Number.isInteger(n) && n >= 1 && n <= os.availableParallelism(), String(n))
    const idle = idleCores()
    assert.ok(Number.isInteger(idle) && idle >= 1 && idle <= os.availableParallelism(), String(idle))
  })

  it('with every core taken by another busy process, one thread (Linux, where the system says what is runnable)', async function () {
    // one spinning process per core: skipped where that would be many processes
    if (!fs.existsSync('/proc/loadavg') || os.availableParallelism() > 8) this.skip()
    this.timeout(20000)
    const busy = Array.from({ length: os.availableParallelism() }, () => spawn(process.execPath, ['-e', 'process.send("up"); for (;;);'], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] }))
    try {
      await Promise.all(busy.map((child) => once(child, 'message')))
      await new Promise((resolve) => setTimeout(resolve, 100)) // each spinning on its core
      assert.equal(idleCores(), 1)
      assert.equal(defaultWorkers(1 << 30), 1)
      assert.equal(defaultWorkers(1 << 30, true), 1)
    } finally {
      for (const child of busy) child.kill('SIGKILL')
    }
  })
})
