// The CAR tool never loses or misreports data (issue 14): length claims checked before reading,
// atomic --out (also on SIGINT/SIGTERM), CARv2 header checks, standard input and FIFOs, --workers
// capped, a summary even after a fatal read error, and --canonicalize writing a consistent DAG.
// Expected results come from independent oracles (test/helpers/car-oracle.js), not from the tool.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { CarIndexer } from '@ipld/car'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { identity } from 'multiformats/hashes/identity'
import { fixturePath } from '../../../test/helpers/fixtures.js'
import { assertNoNewDanglingLinks, carV1, carV2, cidOf, readAll, section, varint } from '../helpers/car-oracle.js'
import { openCar } from '../../lib/core/read/open-car.js'
import { progressLine } from '../../lib/node/progress.js'

const TOOL = fileURLToPath(new URL('../../bin/dag-cbor-car.js', import.meta.url))
const GENESIS = fileURLToPath(fixturePath('cars/filecoin-calibnet-genesis.car'))
const STACK_LINE = /\n\s+at .+:\d+:\d+/

/**
 * @param {string[]} args
 * @param {{ input?: Uint8Array | string, stdio?: any }} [options]
 */
function tool (args, options = {}) {
  const r = spawnSync(process.execPath, [TOOL, ...args], { input: options.input, stdio: options.stdio, encoding: 'utf8', timeout: 60000 })
  if (r.error) throw r.error
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr }
}

/** @param {string[]} args @param {{ input?: Uint8Array, stdio?: any }} [options] */
function toolJson (args, options) {
  const r = tool([...args, '--json'], options)
  assert.doesNotMatch(r.stderr, STACK_LINE)
  return { ...r, summary: JSON.parse(r.stdout) }
}

/** One clean line on stderr, no stack trace. */
function assertOneLineError (/** @type {{ stderr: string }} */ r, /** @type {RegExp} */ pattern) {
  assert.doesNotMatch(r.stderr, STACK_LINE)
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
  assert.match(r.stderr, /^dag-cbor-car: /)
  assert.match(r.stderr, pattern)
}

/** @param {string} dir */
const temporaryFilesIn = (dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))

/** @param {number} n */
const rawBytes = (n) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff)

describe('dag-cbor-car: data is never lost or misreported', function () {
  this.timeout(60000)
  let tmp = ''
  before(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-integrity-')) })
  after(() => { fs.rmSync(tmp, { recursive: true, force: true }) })

  /** @param {string} name @param {Uint8Array} bytes */
  const write = (name, bytes) => {
    const file = path.join(tmp, name)
    fs.writeFileSync(file, bytes)
    return file
  }

  describe('length claims are checked before anything is read', () => {
    it('a section claiming 4 GB in a small file: exit 2, says the claim, what is left and where', async () => {
      const leaf = dagCbor.encode({ a: 1 })
      const good = { cid: await cidOf(leaf), bytes: leaf }
      const v1 = carV1([good.cid], [good])
      const file = write('claim.car', Buffer.concat([v1, varint(2 ** 32), Buffer.alloc(100)]))
      const r = tool([file])
      assert.equal(r.code, 2)
      assertOneLineError(r, new RegExp(`after 1 complete blocks: the section at byte offset ${v1.length} claims 4294967296 bytes, but only 100 are left in the file`))
    })

    it('a header claiming 4 GB: exit 2, bad header, says the claim', () => {
      const r = tool([write('header-claim.car', Buffer.concat([varint(2 ** 32), Buffer.alloc(50)]))])
      assert.equal(r.code, 2)
      assertOneLineError(r, /not a CAR file: bad header \(header at byte 0 claims 4294967296 bytes, but only 50 are left in the file\)/)
    })

    it('from a pipe (size unknown) a claim over the maximum block size is refused without waiting for its bytes', async () => {
      // stdin stays open: a reader that tried to read the claimed bytes would wait forever (test timeout)
      const header = dagCbor.encode({ roots: [], version: 1 })
      const child = spawn(process.execPath, [TOOL, '-'], { stdio: ['pipe', 'pipe', 'pipe'] })
      let stderr = ''
      child.stderr.on('data', (d) => { stderr += d })
      child.stdin.on('error', () => {}) // the tool may exit before reading everything
      child.stdin.write(Buffer.concat([varint(header.length), header, varint(2 ** 32)]))
      const [code] = await once(child, 'exit')
      child.stdin.destroy()
      assert.equal(code, 2)
      assertOneLineError({ stderr }, new RegExp(`section at byte offset ${1 + header.length} claims`))
      assertOneLineError({ stderr }, /claims 4294967296 bytes, more than the maximum block size \(4 MiB\); .*--max-block-size/)
    })

    it('the reader pulls no chunk past the one holding a hostile claim', async () => {
      const header = dagCbor.encode({ roots: [], version: 1 })
      let pulled = 0
      async function * chunks () {
        pulled++
        yield Buffer.concat([varint(header.length), header, varint(2 ** 40)])
        for (;;) { // as much as anyone asks for, but a reader that reads the claim fails the test fast
          if (++pulled > 8) throw new Error('the reader kept pulling chunks for the claimed bytes')
          yield new Uint8Array(1 << 20)
        }
      }
      const car = await openCar(chunks())
      await assert.rejects(async () => { for await (const b of car.blocks()) assert.fail(`read a block ${b.cid}`) }, /claims 1099511627776 bytes, more than the maximum block size/)
      assert.ok(pulled <= 2, `pulled ${pulled} chunks`)
    })

    it('--max-block-size: a 100 KiB block is refused under 64K, read under the default and 128K; bad values are usage errors', async () => {
      const big = rawBytes(100 * 1024)
      const block = { cid: await cidOf(big, { code: 0x55 }), bytes: big }
      const file = write('big-block.car', carV1([block.cid], [block]))
      const refused = tool([file, '--max-block-size', '64K'])
      assert.equal(refused.code, 2)
      assertOneLineError(refused, /claims \d+ bytes, more than the maximum block size \(64 KiB\)/)
      assert.equal(tool([file]).code, 0)
      assert.equal(tool([file, '--max-block-size', '128KiB']).code, 0)
      for (const bad of ['0', 'lots', '2G', '1.5M']) {
        const r = tool([file, '--max-block-size', bad])
        assert.equal(r.code, 2, bad)
        assert.match(r.stderr, /--max-block-size must be a size/)
      }
    })
  })

  describe('CARv2 header fields are checked against the file', () => {
    /** @type {Buffer} */
    let v1
    before(() => { v1 = fs.readFileSync(GENESIS) })

    it('a valid CARv2 with padding before the payload and an index after it is read whole', () => {
      const v2 = carV2(v1, { padding: 13, indexOffset: 11 + 40 + 13 + v1.length, trailer: Buffer.alloc(64, 1) })
      const { code, summary } = toolJson([write('good-v2.car', v2)])
      assert.equal(code, 1) // the genesis CAR's one non-canonical block, and the made-up index
      assert.equal(summary.version, 2)
      assert.equal(summary.blocks, 1207)
      // 64 bytes of 0x01 are not an index: format 0x1 is reported, not passed unchecked
      assert.match(summary.problems.find((/** @type {any} */ p) => p.kind === 'index').message, /format 0x1 is not one this tool reads/)
      assert.equal(summary.error, null)
    })

    for (const [name, fields, pattern] of /** @type {const} */ ([
      ['data size runs past the end of the file', { dataSize: 10_000_000 }, /CARv2 data payload \(bytes 51 to 10000051\) runs past the end of the file/],
      ['data size is 0', { dataSize: 0 }, /CARv2 data size is 0/],
      ['data offset points inside the CARv2 header', { dataOffset: 20 }, /CARv2 data offset 20 points inside the 51-byte CARv2 header/],
      ['index offset points inside the payload', { indexOffset: 1000 }, /CARv2 index offset 1000 points inside the data payload/],
      ['index offset past the end of the file', { indexOffset: 1e9 }, /CARv2 index offset 1000000000 is past the end of the file/]
    ])) {
      it(`${name}: exit 2`, () => {
        const r = tool([write('bad-v2.car', carV2(v1, fields))])
        assert.equal(r.code, 2)
        assertOneLineError(r, pattern)
      })
    }

    it('from a pipe, a payload shorter than its stated size: exit 2 after the blocks it held', async () => {
      // cut at a section boundary: every section is whole, only the stated size says data is missing
      const index = []
      for await (const entry of await CarIndexer.fromBytes(new Uint8Array(v1))) index.push(entry)
      const cut = v1.subarray(0, index[300].offset)
      const r = tool(['-', '--json'], { input: carV2(cut, { dataSize: v1.length }) })
      assert.equal(r.code, 2)
      assertOneLineError(r, new RegExp(`CARv2 payload is shorter than its stated size after 300 complete blocks: the header says it ends at byte ${51 + v1.length}, the input ends at byte ${51 + index[300].offset}`))
      assert.equal(JSON.parse(r.stdout).blocks, 300)
    })
  })

  describe('--out is atomic', () => {
    it('a failing run (truncated input) leaves an existing target untouched and no temporary file', () => {
      const target = write('keep.car', Buffer.from('precious'))
      const input = write('cut.car', fs.readFileSync(GENESIS).subarray(0, 700_000))
      const r = tool([input, '--out', target])
      assert.equal(r.code, 2)
      assert.equal(fs.readFileSync(target, 'utf8'), 'precious')
      assert.deepEqual(temporaryFilesIn(tmp), [])
    })

    it('a successful run replaces the target (through a symlink, the file it points to)', async () => {
      const real = write('real-target.car', Buffer.from('old'))
      const link = path.join(tmp, 'link-target.car')
      fs.symlinkSync(real, link)
      const r = tool([GENESIS, '--out', link, '--relaxed']) // passes: its one non-canonical block is lossless
      assert.equal(r.code, 0)
      assert.ok(fs.lstatSync(link).isSymbolicLink(), 'the symlink is kept')
      assert.deepEqual(fs.readFileSync(real), fs.readFileSync(GENESIS))
      assert.deepEqual(temporaryFilesIn(tmp), [])
    })

    it('--out /dev/null is written directly, not replaced', () => {
      const r = tool([GENESIS, '--out', '/dev/null'])
      assert.equal(r.code, 1)
      assert.ok(fs.statSync('/dev/null').isCharacterDevice())
    })

    it('a run that fails (a hash mismatch, a non-canonical block) writes nothing: no target, nothing beside it, an existing one untouched', () => {
      const flipped = new Uint8Array(fs.readFileSync(GENESIS))
      flipped[200000] ^= 1 // inside a block: a hash mismatch
      const input = write('mismatch.car', flipped)
      const dir = fs.mkdtempSync(path.join(tmp, 'fail-'))
      for (const args of [['--canonicalize'], []]) {
        const target = path.join(dir, 'fixed.car')
        const r = tool([input, '--out', target, ...args])
        assert.equal(r.code, 1)
        assert.match(r.stdout, /output {6}.*fixed\.car: not written, since the run did not pass.*; nothing is left of it/)
        assert.doesNotMatch(r.stdout, /--relaxed|--canonicalize writes/, 'no fix offered that cannot fix a hash mismatch')
        assert.deepEqual(fs.readdirSync(dir), [])
      }
      const kept = path.join(dir, 'kept.car')
      fs.writeFileSync(kept, 'precious')
      assert.equal(tool([GENESIS, '--out', kept]).code, 1) // its non-canonical block fails the run without --canonicalize or --relaxed
      assert.equal(fs.readFileSync(kept, 'utf8'), 'precious')
      assert.deepEqual(fs.readdirSync(dir), ['kept.car'])
    })

    for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT', 'SIGHUP'])) {
      it(`${signal} mid-run: the temporary file is removed, the target untouched, the process dies of ${signal}`, async () => {
        const dir = fs.mkdtempSync(path.join(tmp, 'signal-'))
        const target = path.join(dir, 'out.car')
        fs.writeFileSync(target, 'precious')
        const child = spawn(process.execPath, [TOOL, '-', '--out', target], { stdio: ['pipe', 'pipe', 'pipe'] })
        let stderr = ''
        child.stderr.on('data', (d) => { stderr += d })
        const exited = once(child, 'exit')
        child.stdin.on('error', () => {}) // EPIPE for what was still unwritten when the signal came
        // half of the CAR, and stdin left open: the tool has a partial output and waits for more
        child.stdin.write(fs.readFileSync(GENESIS).subarray(0, 600_000))
        while (temporaryFilesIn(dir).length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
        child.kill(signal)
        const [code, killedBy] = await exited
        child.stdin.destroy()
        assert.equal(code, null)
        assert.equal(killedBy, signal)
        assert.match(stderr, new RegExp(`stopped by ${signal}; the partial output was removed, the target is untouched`))
        assert.equal(fs.readFileSync(target, 'utf8'), 'precious')
        assert.deepEqual(fs.readdirSync(dir), ['out.car'])
      })
    }

    it('SIGKILL mid-run (no handler runs): the watchdog removes the temporary file, the target is untouched', async function () {
      this.timeout(60_000)
      const dir = fs.mkdtempSync(path.join(tmp, 'sigkill-'))
      const target = path.join(dir, 'out.car')
      fs.writeFileSync(target, 'precious')
      const child = spawn(process.execPath, [TOOL, '-', '--out', target], { stdio: ['pipe', 'ignore', 'ignore'] })
      const exited = once(child, 'exit')
      child.stdin.on('error', () => {})
      child.stdin.write(fs.readFileSync(GENESIS).subarray(0, 600_000))
      while (temporaryFilesIn(dir).length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
      child.kill('SIGKILL')
      const [, killedBy] = await exited
      child.stdin.destroy()
      assert.equal(killedBy, 'SIGKILL')
      // the watchdog notices the closed pipe and removes the file: wait for it, up to 30 s
      for (let waited = 0; temporaryFilesIn(dir).length > 0 && waited < 30_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50))
      assert.deepEqual(fs.readdirSync(dir), ['out.car'], 'nothing left beside the target')
      assert.equal(fs.readFileSync(target, 'utf8'), 'precious')
    })
  })

  describe('standard input, pipes and FIFOs', () => {
    it('- reads a piped CAR, streaming, with the same summary as the file', () => {
      const fromFile = toolJson([GENESIS]).summary
      const fromPipe = toolJson(['-'], { input: fs.readFileSync(GENESIS) })
      assert.equal(fromPipe.code, 1)
      const strip = (/** @type {any} */ s) => ({ ...s, input: '', seconds: 0, mbPerSec: 0 })
      assert.deepEqual(strip(fromPipe.summary), strip(fromFile))
      assert.equal(fromPipe.summary.input, 'standard input')
    })

    it('--canonicalize from a pipe is refused (it must read the input again); from a redirected file it works', () => {
      // a small input, all in the pipe's buffer before the tool refuses it (no EPIPE)
      const piped = tool(['-', '--out', path.join(tmp, 'never.car'), '--canonicalize'], { input: fs.readFileSync(GENESIS).subarray(0, 4096) })
      assert.equal(piped.code, 2)
      assertOneLineError(piped, /--canonicalize needs an input it can read more than once .* standard input is a stream; save it to a file first/)
      assert.equal(fs.existsSync(path.join(tmp, 'never.car')), false)
      const fd = fs.openSync(GENESIS, 'r')
      try {
        const redirected = tool(['-', '--out', path.join(tmp, 'from-stdin.car'), '--canonicalize', '--json'], { stdio: [fd, 'pipe', 'pipe'] })
        assert.equal(redirected.code, 0, redirected.stderr) // fixed: the written CAR read back clean
        assert.equal(JSON.parse(redirected.stdout).output.canonicalized, 1)
      } finally {
        fs.closeSync(fd)
      }
    })

    it('a FIFO: opening it does not block, and the tool reads what a writer sends later', async () => {
      const fifo = path.join(tmp, 'car.fifo')
      spawnSync('mkfifo', [fifo])
      const child = spawn(process.execPath, [TOOL, fifo, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] })
      let stdout = ''
      child.stdout.on('data', (d) => { stdout += d })
      const exited = once(child, 'exit')
      fs.writeFileSync(fifo, fs.readFileSync(GENESIS)) // opens the write end: blocks until the tool reads
      const [code] = await exited
      assert.equal(code, 1)
      assert.equal(JSON.parse(stdout).blocks, 1207)
    })

    it('a FIFO with no writer: open() does not hang, the tool says it waits, and a signal stops it cleanly', async () => {
      const fifo = path.join(tmp, 'idle.fifo')
      spawnSync('mkfifo', [fifo])
      const child = spawn(process.execPath, [TOOL, fifo], { stdio: ['ignore', 'pipe', 'pipe'] })
      let stderr = ''
      child.stderr.on('data', (d) => { stderr += d })
      const exited = once(child, 'exit')
      // the note comes after open() returned; an open() blocked for want of a writer never gets there
      while (!/waiting for data on .*idle\.fifo/.test(stderr)) await once(child.stderr, 'data')
      child.kill('SIGINT')
      const [, signal] = await exited
      assert.equal(signal, 'SIGINT')
      assert.match(stderr, /stopped by SIGINT/)
    })

    it('the progress line has a percentage and ETA only when the size is known', () => {
      const unknown = progressLine({ blocks: 10, bytes: 2e6, total: undefined, seconds: 1 })
      assert.doesNotMatch(unknown, /%|ETA/)
      assert.match(unknown, /10 blocks {2}2\.0 MB {2}2\.0 MB\/s/)
      const known = progressLine({ blocks: 10, bytes: 2e6, total: 4e6, seconds: 1 })
      assert.match(known, / 50% .*2\.0\/4\.0 MB.*ETA 1 s/)
    })
  })

  describe('--workers is capped at the available parallelism', () => {
    it('asking for more than the machine has: a note on stderr, and that many workers used', () => {
      const cap = os.availableParallelism()
      const r = tool([GENESIS, '--workers', String(cap + 62), '--json'])
      assert.equal(r.code, 1)
      assert.match(r.stderr, new RegExp(`--workers ${cap + 62} is more than this machine's available parallelism; using ${cap}`))
      assert.equal(JSON.parse(r.stdout).workers, cap)
      assert.equal(tool([GENESIS, '--workers', '0']).code, 2)
    })
  })

  describe('--canonicalize writes a consistent DAG', () => {
    /** {"b": n, "a": link...}: keys out of order on purpose, links as tag 42 */
    const unsorted = (/** @type {number} */ n, /** @type {CID[]} */ links = []) => {
      const tail = dagCbor.encode({ a: links }) // a1 61 61 <array of links>
      return Uint8Array.from([0xa2, 0x61, 0x62, n, ...tail.subarray(1)])
    }
    /** @param {Uint8Array} bytes @param {any} [hasher] */
    const block = async (bytes, hasher) => ({ cid: await cidOf(bytes, hasher ? { hasher } : {}), bytes })

    /**
     * Leaf (non-canonical) <- mid <- top <- root, plus a canonical side leaf, in a given file order.
     *
     * @param {string[]} order
     */
    async function chain (order) {
      const leaf = await block(unsorted(1))
      const side = await block(dagCbor.encode({ side: true }))
      const mid = await block(dagCbor.encode({ child: leaf.cid, n: 2 }))
      const top = await block(dagCbor.encode({ child: mid.cid, side: side.cid }))
      const root = await block(dagCbor.encode({ top: top.cid, list: [top.cid, mid.cid] }))
      const all = /** @type {Record<string, { cid: CID, bytes: Uint8Array }>} */ ({ leaf, side, mid, top, root })
      return { all, bytes: carV1([root.cid], order.map((k) => all[k])) }
    }

    // passes over the input: the first, the discovery passes (backwards first), the write pass
    for (const [order, passes] of /** @type {[string[], number | undefined][]} */ ([
      [['root', 'top', 'mid', 'leaf', 'side'], 1 + 2 + 1], // parents first: one backward pass finds all, one confirms
      [['leaf', 'side', 'mid', 'top', 'root'], 1 + 3 + 1], // children first: backward finds the parent, forward the rest
      [['mid', 'root', 'leaf', 'side', 'top'], undefined]
    ])) {
      it(`a chain in file order ${order.join(', ')}: every ancestor relinked, root replaced, no dangling link`, async () => {
        const { all, bytes } = await chain(order)
        const input = write(`chain-${order[0]}.car`, bytes)
        const out = path.join(tmp, `chain-${order[0]}-out.car`)
        const map = path.join(tmp, `chain-${order[0]}.map`)
        const r = toolJson([input, '--out', out, '--canonicalize', '--map', map])
        assert.equal(r.code, 0) // every problem fixed, and the written CAR read back clean
        assert.equal(r.summary.result, 'fixed')
        assert.deepEqual(r.summary.output.check, { result: 'ok', problems: 0 })
        const o = r.summary.output
        assert.deepEqual([o.canonicalized, o.relinked, o.unchanged, o.rootsReplaced], [1, 3, 1, 1])
        if (passes) assert.equal(o.passes, passes)
        const { input: before, output: after } = await assertNoNewDanglingLinks(input, out)
        assert.equal(before.dangling.size, 0)
        assert.equal(after.links, 6)
        const written = await readAll(out)
        assert.equal(written.blocks.length, 5)
        // every old CID except the side leaf's is gone; each mapping is listed once, and the map file agrees
        const oldCids = new Set(Object.values(all).map((b) => b.cid.toString()))
        assert.deepEqual(written.blocks.filter((b) => oldCids.has(b.cid.toString())).map((b) => b.cid.toString()), [all.side.cid.toString()])
        assert.deepEqual(o.mappings.map((/** @type {any} */ m) => m.old).sort(), ['leaf', 'mid', 'top', 'root'].map((k) => all[k].cid.toString()).sort())
        assert.equal(fs.readFileSync(map, 'utf8'), o.mappings.map((/** @type {any} */ m) => `${m.old} ${m.new} ${m.why}\n`).join(''))
        const rootMapping = o.mappings.find((/** @type {any} */ m) => m.old === all.root.cid.toString())
        assert.deepEqual(written.roots, [rootMapping.new])
        // the output, checked again, is all canonical
        const again = toolJson([out])
        assert.equal(again.code, 0, again.stdout)
      })
    }

    it('a parent whose bytes do not match its CID is not rewritten, its dangling link is reported, nothing is written', async () => {
      const leaf = await block(unsorted(3))
      const honest = dagCbor.encode({ child: leaf.cid, x: 1 })
      const forged = { cid: await cidOf(dagCbor.encode({ other: 1 })), bytes: honest }
      const file = write('forged.car', carV1([forged.cid], [forged, leaf]))
      const out = path.join(tmp, 'forged-out.car')
      const { code, summary } = toolJson([file, '--out', out, '--canonicalize'])
      assert.equal(code, 1)
      assert.deepEqual(summary.output.cannotRewrite, [{ cid: forged.cid.toString(), reason: 'its bytes do not match its CID' }])
      assert.equal(summary.output.written, false)
      assert.equal(fs.existsSync(out), false)
    })

    it('identity-hashed blocks, a seed linking to a seed, a duplicate block and a float64 parent', async () => {
      // an identity-hashed non-canonical block: its canonical form is shorter, so its CID is too
      const tiny = await block(Uint8Array.from([0xa1, 0x61, 0x6e, 0x18, 0x05]), identity) // {"n": 5} with 5 as 0x18 0x05
      const seedParent = await block(unsorted(4, [tiny.cid]))
      // a Go-written parent: {"f": 1.0, "l": link} with 1.0 as float64; relinked, never re-encoded
      const link = dagCbor.encode(seedParent.cid) // d8 2a 58 25 00 ...
      const goParent = await block(Uint8Array.from([0xa2, 0x61, 0x66, 0xfb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x61, 0x6c, ...link]))
      const root = await block(dagCbor.encode({ go: goParent.cid, again: seedParent.cid }))
      const file = write('mixed.car', carV1([root.cid], [root, goParent, seedParent, tiny, seedParent]))
      const out = path.join(tmp, 'mixed-out.car')
      const { code, summary } = toolJson([file, '--out', out, '--canonicalize'])
      assert.equal(code, 0) // fixed; a duplicate block is counted, not a problem
      assert.equal(summary.duplicates, 1)
      assert.equal(summary.integralFloats.blocks, 1)
      assert.equal(summary.output.blocks, 5)
      assert.deepEqual([summary.output.canonicalized, summary.output.relinked], [3, 2])
      assert.equal(summary.output.mappings.length, 4, 'the duplicate is mapped once')
      await assertNoNewDanglingLinks(file, out)
      const written = await readAll(out)
      const newGo = written.blocks[1]
      assert.deepEqual(newGo.bytes.subarray(0, 12), goParent.bytes.subarray(0, 12), 'the float64 is kept byte for byte')
      assert.equal(newGo.bytes.length, goParent.bytes.length)
      const again = toolJson([out])
      assert.equal(again.code, 0, again.stdout)
      assert.equal(again.summary.integralFloats.blocks, 1)
    })

    it('a non-canonical block whose bytes do not match its CID is not canonicalized (a new CID would launder it)', async () => {
      const bytes = unsorted(5)
      const wrong = { cid: await cidOf(unsorted(6)), bytes }
      const file = write('wrong-seed.car', carV1([wrong.cid], [wrong]))
      const out = path.join(tmp, 'wrong-seed-out.car')
      const { code, summary } = toolJson([file, '--out', out, '--canonicalize'])
      assert.equal(code, 1)
      assert.equal(summary.output.canonicalized, 0)
      assert.match(summary.problems.find((/** @type {any} */ p) => p.kind === 'non-canonical').message, /do not match its CID; not canonicalized/)
      assert.equal(fs.existsSync(out), false)
    })

    it('--map and --out are written together: an unwritable map leaves no output CAR', () => {
      const out = path.join(tmp, 'with-bad-map.car')
      const r = tool([GENESIS, '--out', out, '--canonicalize', '--map', path.join(tmp, 'no-such-dir', 'x.map')])
      assert.equal(r.code, 2)
      assert.match(r.stderr, /cannot write .*no-such-dir.*: no such file or directory/)
      assert.equal(fs.existsSync(out), false)
      assert.deepEqual(temporaryFilesIn(tmp), [])
    })

    it('genesis: the full mapping is in the JSON, nothing is cut', async () => {
      const out = path.join(tmp, 'genesis-canon.car')
      const { summary } = toolJson([GENESIS, '--out', out, '--canonicalize'])
      const before = await readAll(GENESIS)
      const after = await readAll(out)
      const changed = after.blocks.filter((b, i) => b.cid.toString() !== before.blocks[i].cid.toString())
      assert.equal(summary.output.mappings.length, changed.length)
      assert.equal(summary.output.canonicalized + summary.output.relinked, changed.length)
    })
  })

  describe('float64 integers (valid DAG-CBOR that JavaScript re-encodes differently)', () => {
    it('a block {"a": 1.0} written with fb 3ff0000000000000 is canonical, reported with its path, exit 0, copied unchanged', async () => {
      const bytes = Uint8Array.from(Buffer.from('a16161fb3ff0000000000000', 'hex'))
      const b = { cid: await cidOf(bytes), bytes }
      const file = write('float.car', carV1([b.cid], [b]))
      const { code, summary } = toolJson([file])
      assert.equal(code, 0)
      assert.equal(summary.dagCbor.canonical, 1)
      assert.deepEqual(summary.integralFloats, { blocks: 1, values: 1, examples: [{ cid: b.cid.toString(), paths: ['/a'] }] })
      const text = tool([file])
      assert.match(text.stdout, /1 canonical block holds 1 float64 integer/)
      assert.match(text.stdout, new RegExp(`${b.cid}  at /a`))
      const out = path.join(tmp, 'float-out.car')
      assert.equal(tool([file, '--out', out, '--canonicalize']).code, 0)
      assert.deepEqual(fs.readFileSync(out), fs.readFileSync(file))
    })
  })

  it('section helper sanity: a CAR the oracle reads back', async () => {
    const bytes = dagCbor.encode({ ok: true })
    const b = { cid: await cidOf(bytes), bytes }
    assert.equal(section(b).length, 1 + b.cid.bytes.length + bytes.length)
    assert.equal((await readAll(carV1([b.cid], [b]))).blocks.length, 1)
  })
})
