// The progress line (lib/progress.js): drawn only on a terminal, ended with the final counts, which
// are the summary's; verify's bar follows the blocks counted, not the reader running ahead of them.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { CarIndexer } from '@ipld/car'
import { fixturePath } from '../../../test/helpers/fixtures.js'
import { createProgress, drawProgress } from '../../lib/node/progress.js'
import { openCar } from '../../lib/core/read/open-car.js'
import { openInput } from '../../lib/node/input-source.js'
import { roundTrip } from '../../lib/node/run.js'

const GENESIS = fileURLToPath(fixturePath('cars/filecoin-calibnet-genesis.car'))

/** A stand-in for a terminal's stderr that keeps what is written to it. @param {boolean} isTTY */
function fakeStream (isTTY) {
  /** @type {string[]} */
  const writes = []
  return { writes, stream: /** @type {any} */ ({ isTTY, columns: 200, write: (/** @type {string} */ s) => { writes.push(s); return true } }) }
}

describe('progress line', function () {
  this.timeout(60000)

  it('on a terminal: updates, then a last line with the final counts and a newline; nothing when not a terminal', () => {
    const tty = fakeStream(true)
    const p = createProgress({ total: 1000, stream: tty.stream, intervalMs: 0 })
    p.update(5, 500)
    p.done(10, 1000)
    assert.equal(tty.writes.length, 2)
    assert.match(tty.writes[0], /50% {2}5 blocks/)
    assert.match(tty.writes[1], /^\r\[#{24}\] 100% {2}10 blocks .*\n$/)
    const pipe = fakeStream(false)
    const q = createProgress({ total: 1000, stream: pipe.stream, intervalMs: 0 })
    q.update(5, 500)
    q.done(10, 1000)
    assert.deepEqual(pipe.writes, [])
  })

  it('a run stopped by an error clears the line instead', () => {
    const tty = fakeStream(true)
    const p = createProgress({ total: 1000, stream: tty.stream, intervalMs: 0 })
    p.update(5, 500)
    p.done()
    assert.equal(tty.writes[1], '\r\x1b[K')
  })

  it('every command that reads blocks (drawProgress): the last line counts every block of the real genesis CAR', async () => {
    const tty = fakeStream(true)
    const bytes = fs.readFileSync(GENESIS)
    const car = await openCar((async function * () { yield new Uint8Array(bytes) })(), { size: bytes.length })
    drawProgress(car, createProgress({ total: bytes.length, stream: tty.stream, intervalMs: 0 }))
    let n = 0
    for await (const block of car.blocks()) if (block) n++
    assert.equal(n, 1207)
    assert.match(tty.writes[tty.writes.length - 1], /100% {2}1207 blocks {2}1\.1\/1\.1 MB.*\n$/)
  })

  it('verify with worker threads: each update\'s bytes end where its counted blocks end; the last is the summary\'s count', async () => {
    // where each block's section ends, read independently (@ipld/car)
    const ends = []
    const indexer = await CarIndexer.fromBytes(fs.readFileSync(GENESIS))
    for await (const entry of indexer) ends.push(entry.blockOffset + entry.blockLength)
    /** @type {[number, number][]} */
    const calls = []
    const source = await openInput(GENESIS)
    let summary
    try {
      summary = await roundTrip({ source, workers: 2, mainThreadChecks: false, onProgress: (blocks, bytes) => { calls.push([blocks, bytes]) } })
    } finally {
      await source.close()
    }
    assert.ok(calls.length > 0)
    for (const [blocks, bytes] of calls) assert.ok(bytes <= ends[blocks - 1], `${blocks} blocks counted, but the line says ${bytes} bytes (they end at ${ends[blocks - 1]})`)
    assert.equal(calls[calls.length - 1][0], summary.blocks)
  })

  it('import, on a terminal: the same line, ending with the count of blocks written', () => {
    const bin = fileURLToPath(new URL('../../bin/dag-cbor-car.js', import.meta.url))
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-progress-'))
    try {
      const lines = path.join(dir, 'g.jsonl')
      fs.writeFileSync(lines, execFileSync(process.execPath, [bin, 'export', GENESIS], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 }))
      const out = path.join(dir, 'g.car')
      // script(1) runs the command on a pseudo-terminal, so that its stderr is a terminal
      const shown = execFileSync('script', ['-qec', `"${process.execPath}" "${bin}" import "${lines}" --out "${out}"`, '/dev/null'], { encoding: 'utf8' })
      const drawn = shown.split('\r').filter((l) => /blocks/.test(l) && !/wrote/.test(l))
      assert.ok(drawn.length >= 2, shown)
      assert.match(drawn[drawn.length - 1], /100% {2}1207 blocks/)
      assert.deepEqual(fs.readFileSync(out), fs.readFileSync(GENESIS))
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
