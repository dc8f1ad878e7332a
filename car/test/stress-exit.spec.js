// car/test/stress-exit.js, briefly: one run of each mode ends, and the detector itself catches a
// process that prints its output and then never exits. (The long runs are by hand: see its header.)
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const STRESS = fileURLToPath(new URL('./stress-exit.js', import.meta.url))

describe('stress-exit.js', function () {
  this.timeout(120000)

  it('one round of every mode: every run ends', () => {
    const r = spawnSync(process.execPath, [STRESS, '--rounds', '1'], { encoding: 'utf8' })
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /^OK: 8 runs, 0 hung$/m)
  })

  it('a process alive after its last output is reported as hung, and the script fails', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stress-exit-'))
    try {
      const hangs = path.join(dir, 'hangs.js')
      fs.writeFileSync(hangs, "process.stdout.write('summary\\n'); setInterval(() => {}, 1000)\n")
      const r = spawnSync(process.execPath, [STRESS, '--bin', hangs, '--mode', 'inline', '--rounds', '1', '--grace', '1', '--no-gdb'], { encoding: 'utf8', timeout: 60000 })
      assert.equal(r.status, 1, r.stdout + r.stderr)
      assert.match(r.stdout, /HUNG: inline \(round 1\): alive 1 s after its last output/)
      assert.match(r.stdout, /^FAIL: 1 runs, 1 hung$/m)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
