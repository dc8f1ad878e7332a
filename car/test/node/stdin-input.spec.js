// With no file named, a command reads standard input when it is a pipe, a socket or a file
// redirected with <; the embedded sample runs only when standard input holds nothing to read (a
// terminal, /dev/null as CI gives, or closed), and says why. A piped CAR is never swapped for the
// sample: a script piping CARs in gets their verdicts.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { smallCarV1 } from '../helpers/small-cars.js'

const TOOL = fileURLToPath(new URL('../../bin/dag-cbor-car.js', import.meta.url))
const REPO = fileURLToPath(new URL('../../../', import.meta.url))
const STACK_LINE = /\n\s+at .+:\d+:\d+/

/**
 * @param {string[]} args
 * @param {{ input?: Uint8Array | string, stdio?: any }} options input: piped in; stdio: as spawnSync takes it
 */
function tool (args, { input, stdio } = {}) {
  const r = spawnSync(process.execPath, [TOOL, ...args], { input, stdio: stdio ?? ['pipe', 'pipe', 'pipe'], encoding: 'utf8', timeout: 60000 })
  if (r.error) throw r.error
  assert.doesNotMatch(r.stderr, STACK_LINE)
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('standard input: read when piped, the sample only when nothing is', function () {
  this.timeout(120000)
  let car = new Uint8Array(0)
  let dir = ''
  before(async () => {
    car = await smallCarV1()
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-stdin-'))
  })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('a piped CAR is checked, not the sample: OK for a good one, FAIL for a bad one', () => {
    const good = tool([], { input: car })
    assert.equal(good.code, 0, good.stdout + good.stderr)
    assert.match(good.stdout, /^standard input \(CARv1, 1 root\)/)
    assert.doesNotMatch(good.stdout, /sample/)
    const bad = car.slice()
    bad[bad.length - 1] ^= 1 // inside the last block: a hash mismatch
    const failed = tool(['--json'], { input: bad })
    assert.equal(failed.code, 1)
    assert.equal(JSON.parse(failed.stdout).input, 'standard input')
    assert.equal(JSON.parse(failed.stdout).hashMismatches, 1)
  })

  it('an empty pipe is an error naming standard input, not the sample', () => {
    const r = tool([], { input: '' })
    assert.equal(r.code, 2)
    assert.equal(r.stdout, '')
    assert.equal(r.stderr, 'dag-cbor-car: standard input: not a CAR file: bad header (the input is empty)\n')
  })

  it('a file redirected with < is read', () => {
    const file = path.join(dir, 'small.car')
    fs.writeFileSync(file, car)
    const fd = fs.openSync(file, 'r')
    try {
      const r = tool([], { stdio: [fd, 'pipe', 'pipe'] })
      assert.equal(r.code, 0, r.stderr)
      assert.match(r.stdout, /^standard input \(CARv1, 1 root\)/)
    } finally {
      fs.closeSync(fd)
    }
  })

  it('standard input /dev/null: the sample, saying why; exit 0', () => {
    const r = tool([], { stdio: ['ignore', 'pipe', 'pipe'] })
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /^embedded sample CAR/)
    assert.match(r.stdout, /sample {6}no file was named and standard input is a device \(such as \/dev\/null\), not a pipe or a file: this is the embedded sample/)
    assert.match(r.stdout, /result {6}OK for the sample/)
  })

  it('standard input a terminal: the sample, saying why; exit 0', function () {
    // util-linux's script(1) runs the tool on a pseudo-terminal of its own
    const r = spawnSync('script', ['-qec', `"${process.execPath}" "${TOOL}" --json`, '/dev/null'], { encoding: 'utf8', timeout: 60000, stdio: ['ignore', 'pipe', 'pipe'] })
    if (r.error && /** @type {any} */ (r.error).code === 'ENOENT') this.skip() // no script(1) on this system
    assert.equal(r.status, 0, r.stdout + r.stderr)
    const line = r.stdout.split(/\r?\n/).find((l) => l.startsWith('{'))
    assert.equal(JSON.parse(/** @type {string} */ (line)).sample.why, 'no file was named and standard input is a terminal, not a pipe or a file')
  })

  it('standard input closed: the sample, saying why; exit 0', () => {
    // Node opens /dev/null on a closed standard input before any code runs: it reads as the device
    const r = spawnSync('sh', ['-c', `exec "${process.execPath}" "${TOOL}" --json <&-`], { encoding: 'utf8', timeout: 60000 })
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.equal(JSON.parse(r.stdout).sample.why, 'no file was named and standard input is a device (such as /dev/null), not a pipe or a file')
  })

  it('every command that reads one CAR reads a piped one when given no file', () => {
    for (const [args, pattern] of /** @type {const} */ ([
      [['inspect'], /^standard input: CARv1, 4 blocks/],
      [['ls'], /\tdag-pb\t/],
      [['roots'], /^bafyrei/],
      [['export'], /^\{"roots":\[\{"\/":"bafyrei/]
    ])) {
      const r = tool([...args], { input: car })
      assert.equal(r.code, 0, `${args}: ${r.stderr}`)
      assert.match(r.stdout, pattern, args.join(' '))
    }
    const none = tool(['inspect'], { stdio: ['ignore', 'pipe', 'pipe'] })
    assert.equal(none.code, 2)
    assert.match(none.stderr, /^dag-cbor-car: missing in\.car \(name a CAR file, or - or a pipe for standard input\)/)
  })

  it('npm start with standard input /dev/null (as in CI): the sample, exit 0', () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
    const r = spawnSync(npm, ['start', '--silent'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 110000 })
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /result {6}OK for the sample/)
  })
})
