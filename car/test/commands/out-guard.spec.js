// Issue 61, items 3 and 11. Every command that writes a file refuses an --out (or --map) that is its
// input by any path (the same path spelled otherwise, a symlink, a hard link, standard input redirected
// from it), and leaves the input as it was. And the messages are the caller's own: a library caller
// is told the maxBlockSize option, the command line --max-block-size; a CARv2 nested in a CARv2 is
// named as that; standard input that is a directory is said to be one.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { tool, tempDir, shapesCar, TOOL } from './helpers.js'
import { carV1, carV2 } from '../helpers/car-oracle.js'
import * as core from '../../lib/core/index.js'
import * as node from '../../lib/node/node-library.js'

/**
 * The tool with standard input opened from `stdinPath` (a file or a directory), as `< path` gives it.
 *
 * @param {string[]} args
 * @param {string} stdinPath
 */
function toolWithStdin (args, stdinPath) {
  const fd = fs.openSync(stdinPath, 'r')
  try {
    const r = spawnSync(process.execPath, [TOOL, ...args], { stdio: [fd, 'pipe', 'pipe'], timeout: 60000 })
    if (r.error) throw r.error
    return { code: r.status, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') }
  } finally {
    fs.closeSync(fd)
  }
}

describe('--out is never the input (issue 61 item 3)', function () {
  this.timeout(60000)
  /** @type {string} */ let tmp
  /** @type {string} */ let input
  /** @type {Uint8Array} */ let original
  /** @type {ReturnType<typeof shapesCar>} */ let car
  before(() => {
    tmp = tempDir()
    car = shapesCar()
  })
  beforeEach(() => {
    // a fresh input for each case, its mtime set in the past so that any rewrite would move it
    input = path.join(tmp, 'repo.car')
    fs.writeFileSync(input, car.bytes)
    const past = new Date('2020-01-02T03:04:05Z')
    fs.utimesSync(input, past, past)
    original = fs.readFileSync(input)
  })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  /**
   * The refusal: exit status 2, one line naming the output and the input, nothing on stdout, and
   * the input's bytes and mtime as they were.
   *
   * @param {{ code: number | null, stdout: string, stderr: string }} r
   * @param {string} flag
   * @param {string} out
   * @param {string} inputName
   */
  function assertRefused (r, flag, out, inputName) {
    assert.equal(r.code, 2, r.stdout + r.stderr)
    const line = r.stderr.split('\n')[0]
    assert.ok(line.startsWith(`dag-cbor-car: ${flag} ${out} `), line)
    assert.ok(line.includes(inputName), `names the input ${inputName}: ${line}`)
    assert.match(line, /name another file/)
    assert.deepEqual(fs.readFileSync(input), original)
    assert.equal(fs.statSync(input).mtime.toISOString(), '2020-01-02T03:04:05.000Z')
    assert.deepEqual(fs.readdirSync(tmp).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left')
  }

  const root = () => car.root.cid.toString()
  /** @type {[string, (out: string) => string[]][]} */
  const commands = [
    ['filter', (out) => ['filter', input, '--codec', 'raw', '--out', out]],
    ['get-dag', (out) => ['get-dag', input, root(), '--out', out]],
    ['verify', (out) => ['verify', input, '--out', out]],
    ['import', (out) => ['import', input, '--out', out]]
  ]
  for (const [name, args] of commands) {
    it(`${name}: --out the input by the same path, and by another spelling of it`, () => {
      assertRefused(tool(args(input)), '--out', input, input)
      const other = path.join(tmp, '.', 'sub', '..', 'repo.car')
      fs.mkdirSync(path.join(tmp, 'sub'), { recursive: true })
      assertRefused(tool(args(other)), '--out', other, input)
    })

    it(`${name}: --out a symlink or a hard link to the input`, () => {
      const link = path.join(tmp, `link-${name}.car`)
      const hard = path.join(tmp, `hard-${name}.car`)
      fs.rmSync(link, { force: true })
      fs.rmSync(hard, { force: true })
      fs.symlinkSync(input, link)
      fs.linkSync(input, hard)
      assertRefused(tool(args(link)), '--out', link, input)
      assertRefused(tool(args(hard)), '--out', hard, input)
    })
  }

  it('a symlinked input, written to its target', () => {
    const link = path.join(tmp, 'input-link.car')
    fs.rmSync(link, { force: true })
    fs.symlinkSync(input, link)
    assertRefused(tool(['filter', link, '--codec', 'raw', '--out', input]), '--out', input, link)
  })

  it('standard input redirected from the file: - and no input name', () => {
    assertRefused(toolWithStdin(['filter', '-', '--codec', 'raw', '--out', input], input), '--out', input, 'standard input')
    assertRefused(toolWithStdin(['filter', '--codec', 'raw', '--out', input], input), '--out', input, 'standard input')
    assertRefused(toolWithStdin(['get-dag', '-', root(), '--out', input], input), '--out', input, 'standard input')
    assertRefused(toolWithStdin(['verify', '-', '--out', input], input), '--out', input, 'standard input')
    assertRefused(toolWithStdin(['verify', '--out', input], input), '--out', input, 'standard input')
    assertRefused(toolWithStdin(['import', '--out', input], input), '--out', input, 'standard input')
  })

  it('filter: --out not its --cids or --drop list either', () => {
    const list = path.join(tmp, 'list.txt')
    const text = `${root()}\n`
    for (const flag of ['--cids', '--drop']) {
      fs.writeFileSync(list, text)
      const r = tool(['filter', input, flag, list, '--out', list])
      assertRefused(r, '--out', list, list)
      assert.equal(fs.readFileSync(list, 'utf8'), text)
    }
  })

  it('verify --json: the refusal is also its JSON line', () => {
    const r = tool(['verify', input, '--out', input, '--json'])
    assertRefused(r, '--out', input, input)
    assert.match(JSON.parse(r.stdout.split('\n')[0] || 'null')?.error?.message ?? '', /^--out /)
  })

  it('verify --map: not the input, and not the --out file', () => {
    const out = path.join(tmp, 'out.car')
    assertRefused(tool(['verify', input, '--out', out, '--canonicalize', '--map', input]), '--map', input, input)
    assert.equal(fs.existsSync(out), false)
    const r = tool(['verify', input, '--out', out, '--canonicalize', '--map', out])
    assert.equal(r.code, 2, r.stderr)
    assert.match(r.stderr, /^dag-cbor-car: --map .*out\.car is the --out file/)
    assert.equal(fs.existsSync(out), false)
  })

  it('another file is written as before', () => {
    const out = path.join(tmp, 'raw.car')
    const r = tool(['filter', input, '--codec', 'raw', '--out', out])
    assert.equal(r.code, 0, r.stderr)
    assert.ok(fs.statSync(out).size > 0)
    assert.deepEqual(fs.readFileSync(input), original)
  })
})

describe('messages that are the caller\'s own (issue 61 item 11)', function () {
  this.timeout(60000)
  /** @type {string} */ let tmp
  before(() => { tmp = tempDir() })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it('a block over the maximum: the library names the maxBlockSize option, the command --max-block-size', async () => {
    const { bytes, root } = shapesCar()
    const library = { name: 'CarReadError', message: /maximum block size \(3 bytes\).*raise it with the maxBlockSize option$/ }
    await assert.rejects(core.verifyCar(bytes, { maxBlockSize: 3 }), library)
    await assert.rejects(node.CarReader.fromBytes(bytes, { maxBlockSize: 3 }), library)
    assert.throws(() => node.CarBufferReader.fromBytes(bytes, { maxBlockSize: 3 }), library)
    await assert.rejects(async () => { for await (const b of await node.CarIndexer.fromBytes(bytes, { maxBlockSize: 3 })) assert.ok(b) }, library)
    await assert.rejects(async () => { for await (const b of await core.CarBlockIterator.fromBytes(bytes, { maxBlockSize: 3 })) assert.ok(b) }, library)
    // a header over it too (over the maximum plus room for a CID)
    const manyRoots = carV1(Array.from({ length: 200 }, () => root.cid), [root])
    const header = { name: 'CarReadError', message: /maximum block size \(1 bytes, the maxBlockSize option\)/ }
    await assert.rejects(core.verifyCar(manyRoots, { maxBlockSize: 1 }), header)
    assert.throws(() => node.CarBufferReader.fromBytes(manyRoots, { maxBlockSize: 1 }), header)
    const headerFile = path.join(tmp, 'many-roots.car')
    fs.writeFileSync(headerFile, manyRoots)
    const r = tool(['verify', headerFile, '--max-block-size', '1'])
    assert.equal(r.code, 2, r.stderr)
    assert.match(r.stderr, /maximum block size \(1 bytes, --max-block-size\)/)

    const file = path.join(tmp, 'shapes.car')
    fs.writeFileSync(file, bytes)
    for (const args of [['verify', file], ['verify', file, '--json'], ['ls', file], ['filter', file, '--codec', 'raw', '--out', path.join(tmp, 'o.car')]]) {
      const r = tool([...args, '--max-block-size', '3'])
      assert.equal(r.code, 2, r.stderr)
      assert.match(r.stderr, /raise it with --max-block-size\n$/, args.join(' '))
      assert.doesNotMatch(r.stdout + r.stderr, /maxBlockSize/, args.join(' '))
    }
  })

  it('a CARv2 whose payload is another CARv2: the message says so, with the byte offset', async () => {
    const { bytes } = shapesCar()
    const nested = carV2(carV2(bytes))
    const said = /CARv2 payload at byte offset 51 must be a CARv1, but it starts with another CARv2 header \(a CARv2 nested in a CARv2\)/
    await assert.rejects(core.verifyCar(nested), { name: 'CarReadError', message: said })
    await assert.rejects(node.CarReader.fromBytes(nested), { message: said })
    assert.throws(() => node.CarBufferReader.fromBytes(nested), { message: said })
    const file = path.join(tmp, 'nested.car')
    fs.writeFileSync(file, nested)
    const r = tool(['verify', file])
    assert.equal(r.code, 2)
    assert.match(r.stderr, said)
    assert.doesNotMatch(r.stderr, /this tool reads versions 1 and 2/)
  })

  it('standard input that is a directory is said to be one, not an empty input', () => {
    for (const args of [['verify', '-'], ['verify'], ['ls', '-'], ['inspect'], ['filter', '-', '--codec', 'raw', '--out', path.join(tmp, 'x.car')], ['import', '--out', path.join(tmp, 'y.car')]]) {
      const r = toolWithStdin(args, tmp)
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`)
      assert.match(r.stderr.split('\n')[0], /^dag-cbor-car: standard input is a directory, not a file or a pipe/, args.join(' '))
      assert.doesNotMatch(r.stdout + r.stderr, /empty|sample/, args.join(' '))
    }
  })
})
