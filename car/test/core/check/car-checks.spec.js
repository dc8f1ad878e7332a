// The checks on the CAR as a whole that go-car's `car verify` makes (roots present as blocks, a header
// with roots, a CARv2 index that matches the payload), duplicates counted, --partial, and the command
// line's own behaviour (--version, unknown flags, units, rounded JSON, exit statuses). CARs are built
// with @ipld/car and @ipld/dag-cbor (not the tool); the CARv2 indexes were written by go-car (fixtures/README.md).
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { sha256, sha512 } from 'multiformats/hashes/sha2'
import { identity } from 'multiformats/hashes/identity'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import * as dagPb from '@ipld/dag-pb'
import * as dagJson from '@ipld/dag-json'
import { roundTrip } from '../../../lib/node/run.js'
import { openInput, bytesSource } from '../../../lib/node/input-source.js'
import { carWriterBytes, carV1, carV2, varint } from '../../helpers/car-oracle.js'
import { verifyCar, CarReader, CarBlockIterator } from '../../../lib/node/node-library.js'
import * as core from '../../../lib/core/index.js'
import { BATCH_BYTES } from '../../../lib/core/read/limits.js'

const TOOL = fileURLToPath(new URL('../../../bin/dag-cbor-car.js', import.meta.url))
const V2_MH = fileURLToPath(new URL('../../fixtures/genesis-slice-v2.car', import.meta.url))
const V2_SORTED = fileURLToPath(new URL('../../fixtures/genesis-slice-v2-index-sorted.car', import.meta.url))
const STACK_LINE = /\n\s+at .+:\d+:\d+/

/** @type {string} */
let tmp

/** @param {string[]} args */
function tool (...args) {
  const r = spawnSync(process.execPath, [TOOL, ...args], { encoding: 'utf8', timeout: 60000 })
  if (r.error) throw r.error
  assert.doesNotMatch(r.stderr, STACK_LINE)
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** @param {string[]} args */
function toolJson (...args) {
  const r = tool(...args, '--json')
  return { ...r, summary: JSON.parse(r.stdout) }
}

/** @param {unknown} value */
async function block (value) {
  const bytes = dagCbor.encode(value)
  return { cid: CID.create(1, dagCbor.code, await sha256.digest(bytes)), bytes }
}

/**
 * @param {string} name
 * @param {CID[]} roots
 * @param {{ cid: CID, bytes: Uint8Array }[]} blocks
 */
async function writeCar (name, roots, blocks) {
  const file = path.join(tmp, name)
  fs.writeFileSync(file, await carWriterBytes(roots, blocks))
  return file
}

/** @param {string} file @param {(b: Buffer) => Buffer} change */
function corruptCopy (file, change) {
  const out = path.join(tmp, `${path.basename(file, '.car')}-${Math.random().toString(36).slice(2)}.car`)
  fs.writeFileSync(out, change(Buffer.from(fs.readFileSync(file))))
  return out
}

/** the CARv2 fixed header: data offset, data size, index offset */
function v2Header (/** @type {Buffer} */ b) {
  return { dataOffset: Number(b.readBigUInt64LE(27)), dataSize: Number(b.readBigUInt64LE(35)), indexOffset: Number(b.readBigUInt64LE(43)) }
}

describe('dag-cbor-car: checks on the CAR as a whole', function () {
  this.timeout(60000)
  /** @type {{ cid: CID, bytes: Uint8Array }} */ let leaf
  /** @type {{ cid: CID, bytes: Uint8Array }} */ let root
  /** @type {{ cid: CID, bytes: Uint8Array }} */ let other

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-checks-'))
    leaf = await block({ text: 'leaf' })
    root = await block({ child: leaf.cid, n: 1 })
    other = await block({ somewhere: 'else' })
  })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  describe('roots', () => {
    it('a CAR whose roots are all present as blocks: exit 0', async () => {
      const r = toolJson(await writeCar('ok.car', [root.cid], [root, leaf]))
      assert.equal(r.code, 0, r.stdout)
      assert.deepEqual(r.summary.missingRoots, [])
      assert.equal(r.summary.result, 'ok')
    })

    it('the root block removed: exit 1, naming the root, with the header\'s byte offset; --partial accepts it', async () => {
      const file = await writeCar('no-root-block.car', [root.cid], [leaf])
      const r = toolJson(file)
      assert.equal(r.code, 1)
      assert.deepEqual(r.summary.missingRoots, [root.cid.toString()])
      assert.deepEqual(r.summary.problems.map((/** @type {any} */ p) => [p.kind, p.cid, p.at]), [['missing-root', root.cid.toString(), 0]])
      assert.match(r.summary.problems[0].message, /not present as a block/)
      const text = tool(file)
      assert.match(text.stdout, /roots {7}0 of 1 present as blocks; missing: /)
      assert.match(text.stdout, /result {6}FAIL: 1 root not present as a block/)
      const partial = toolJson(file, '--partial')
      assert.equal(partial.code, 0, partial.stdout)
      assert.deepEqual(partial.summary.missingRoots, [root.cid.toString()])
      assert.equal(partial.summary.problemCount, 0)
    })

    it('two roots, one missing: only the missing one is named', async () => {
      const r = toolJson(await writeCar('one-missing.car', [root.cid, other.cid], [root, leaf]))
      assert.equal(r.code, 1)
      assert.deepEqual(r.summary.missingRoots, [other.cid.toString()])
    })

    it('a root that differs from a block\'s CID only in its CID version is missing (CIDs are compared whole)', async () => {
      const v0like = CID.create(1, 0x55, root.cid.multihash) // same multihash, raw codec
      const r = toolJson(await writeCar('codec-differs.car', [v0like], [root, leaf]))
      assert.equal(r.code, 1)
      assert.deepEqual(r.summary.missingRoots, [v0like.toString()])
    })

    it('a header that lists no roots: exit 1; --partial accepts it', async () => {
      const file = await writeCar('no-roots.car', [], [root, leaf])
      const r = toolJson(file)
      assert.equal(r.code, 1)
      assert.deepEqual(r.summary.problems.map((/** @type {any} */ p) => p.kind), ['no-roots'])
      assert.match(r.summary.problems[0].message, /lists no roots/)
      assert.equal(toolJson(file, '--partial').code, 0)
    })
  })

  it('duplicate blocks are counted (the same CID twice), not a failure, as go-car does', async () => {
    const r = toolJson(await writeCar('dup.car', [root.cid], [root, leaf, leaf, root, leaf]))
    assert.equal(r.code, 0)
    assert.equal(r.summary.duplicates, 3)
    assert.match(tool(path.join(tmp, 'dup.car')).stdout, /blocks {6}5 .*; 3 duplicates/)
  })

  it('blocks of other codecs: checked against their codec; an unknown codec is reported, not passed', async () => {
    const pbBytes = dagPb.encode(dagPb.prepare({ Data: Uint8Array.of(8, 1), Links: [] }))
    const pb = { cid: CID.create(1, dagPb.code, await sha256.digest(pbBytes)), bytes: pbBytes }
    const fakePb = { cid: CID.create(1, dagPb.code, await sha256.digest(leaf.bytes)), bytes: leaf.bytes } // DAG-CBOR bytes named dag-pb
    const cbor = { cid: CID.create(1, 0x51, await sha256.digest(leaf.bytes)), bytes: leaf.bytes } // codec 0x51 (cbor): not one the tool knows
    const r = toolJson(await writeCar('codecs.car', [root.cid], [root, leaf, pb, fakePb, cbor]))
    assert.equal(r.code, 1)
    assert.deepEqual(r.summary.otherCodecs, { invalid: 1, unknown: 1 })
    assert.deepEqual(r.summary.problems.map((/** @type {any} */ p) => [p.kind, p.cid]), [['invalid', fakePb.cid.toString()], ['unknown-codec', cbor.cid.toString()]])
    assert.match(r.summary.problems[0].message, /^block at byte offset \d+: not valid dag-pb, as its CID says it is/)
    assert.match(r.summary.problems[1].message, /codec 0x51 is not one this tool knows/)
  })

  it('the section pipeline (no --out; inline and on workers) and the block pipeline (--out) give the same summary', async () => {
    const blocks = [root, leaf]
    const add = async (/** @type {number} */ code, /** @type {Uint8Array} */ bytes, /** @type {any} */ hasher) => {
      const b = { cid: CID.create(1, code, await hasher.digest(bytes)), bytes }
      blocks.push(b)
      return b
    }
    await add(0x71, dagCbor.encode({ b: 'blake2b' }), blake2b256)
    await add(0x55, Uint8Array.of(1, 2, 3), sha256)
    await add(0x55, Uint8Array.of(4, 5), identity)
    await add(0x71, dagCbor.encode({ h: 'sha512' }), sha512) // unverified
    await add(0x71, Uint8Array.of(0xa2, 0x61, 0x62, 0x01, 0x61, 0x61, 0x02), sha256) // keys out of order
    await add(0x71, Uint8Array.of(0xa1, 0x61, 0x66, 0xfb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0), sha256) // {"f": 1.0} as float64
    await add(0x71, Uint8Array.of(0xff), sha256) // invalid
    await add(0x0129, dagJson.encode({ j: 1 }), sha256)
    await add(0x55, dagCbor.encode({ x: 1 }), { digest: async () => sha256.digest(Uint8Array.of(9)) }) // hash mismatch
    blocks.push(leaf) // a duplicate
    const file = await writeCar('mixed.car', [root.cid], blocks)
    const run = async (/** @type {any} */ options) => {
      const source = await openInput(file)
      try {
        const { seconds, mbPerSec, workers, output, ...rest } = await roundTrip({ source, ...options })
        return rest
      } finally {
        await source.close()
      }
    }
    const viaBlocks = await run({ workers: 1, out: path.join(tmp, 'mixed-out.car') })
    assert.equal(viaBlocks.blocks, 12)
    assert.equal(viaBlocks.unverified, 1)
    assert.equal(viaBlocks.hashMismatches, 1)
    assert.equal(viaBlocks.integralFloats.blocks, 1)
    assert.deepEqual(viaBlocks.dagCbor.rules, { 'map-key-order': 1, 'indefinite-length': 1 })
    assert.equal(viaBlocks.duplicates, 1)
    assert.deepEqual(await run({ workers: 1 }), viaBlocks)
    assert.deepEqual(await run({ workers: 2 }), viaBlocks)
    assert.deepEqual(await run({ workers: 2, mainThreadChecks: false }), viaBlocks) // every batch on the worker thread
  })

  it('two bad sections in different batches: every way of reading reports the first, with the blocks before it', async () => {
    const raw = async (/** @type {number} */ i) => {
      const bytes = new Uint8Array(4000).fill(i & 0xff)
      return { cid: CID.create(1, 0x55, await sha256.digest(bytes)), bytes }
    }
    const blocks = await Promise.all(Array.from({ length: 500 }, (_, i) => raw(i)))
    const good = carV1([blocks[0].cid], blocks)
    // a section whose CID starts with version byte 5, at about 0.8 MB (the first 1 MiB batch) and at about 1.6 MB (the second)
    const bad = Buffer.concat([varint(50), Buffer.alloc(50, 5)])
    const sectionAt = (/** @type {number} */ n) => good.length - (blocks.length - n) * (varint(4036).length + 4036)
    const first = sectionAt(200)
    const bytes = Buffer.concat([good.subarray(0, first), bad, good.subarray(first, sectionAt(400)), bad, good.subarray(sectionAt(400))])
    /** @returns {import('../../../lib/node/input-source.js').Source} standard input, say: read once, front to back */
    const stream = () => ({ ...bytesSource('stream', bytes), size: undefined, seekable: false, stream: () => (async function * () { for (let i = 0; i < bytes.length; i += 65536) yield bytes.subarray(i, i + 65536) })() })
    const runs = /** @type {[string, () => import('../../../lib/node/input-source.js').Source, object][]} */ ([
      ['a file, --workers 1', () => bytesSource('file', bytes), { workers: 1 }],
      ['a file, --workers 2', () => bytesSource('file', bytes), { workers: 2 }],
      ['a file, every batch on the worker', () => bytesSource('file', bytes), { workers: 2, mainThreadChecks: false }],
      ['a stream', stream, { workers: 1 }]
    ])
    for (const [what, source, options] of runs) {
      await assert.rejects(roundTrip({ source: source(), ...options }), (/** @type {any} */ err) => {
        assert.equal(err.offset, first, what)
        assert.equal(err.blocks, 200, what)
        assert.match(err.message, new RegExp(`after 200 complete blocks: the section at byte offset ${first} does not start with a valid CID`), what)
        return true
      })
    }
  })

  describe('length varints in their shortest form (the multiformats unsigned-varint spec)', () => {
    /** n as a varint with `extra` needless continuation bytes (n's value unchanged) @param {number} n @param {number} extra */
    const longVarint = (n, extra) => {
      const out = [...varint(n)]
      if (extra === 0) return Uint8Array.from(out)
      out[out.length - 1] |= 0x80
      for (let i = 1; i < extra; i++) out.push(0x80)
      return Uint8Array.from([...out, 0])
    }
    /**
     * A CARv1 of 500 raw 4000-byte blocks (two 1 MiB batches), the header's and the chosen sections'
     * length varints written longer than needed; the byte offset of every section.
     *
     * @param {(i: number) => boolean} long section i's varint is long @param {boolean} header
     */
    const carWithLongVarints = async (long, header) => {
      const blocks = await Promise.all(Array.from({ length: 500 }, async (_, i) => {
        const bytes = new Uint8Array(4000).fill(i & 0xff)
        return { cid: CID.create(1, 0x55, await sha256.digest(bytes)), bytes }
      }))
      const head = dagCbor.encode({ roots: [blocks[0].cid], version: 1 })
      const parts = [longVarint(head.length, header ? 2 : 0), head]
      let at = parts[0].length + head.length
      const starts = blocks.map((b, i) => {
        const length = longVarint(b.cid.bytes.length + b.bytes.length, long(i) ? 1 + (i % 3) : 0)
        parts.push(length, b.cid.bytes, b.bytes)
        const start = at
        at += length.length + b.cid.bytes.length + b.bytes.length
        return start
      })
      return { bytes: Buffer.concat(parts), starts, blocks }
    }
    /** every way verify reads a CAR (sections in batches from a file, inline and on workers; a stream; blocks one by one with --out) */
    const everyRun = (/** @type {Uint8Array} */ bytes) => /** @type {[string, () => import('../../../lib/node/input-source.js').Source, object][]} */ ([
      ['a file, --workers 1', () => bytesSource('file', bytes), { workers: 1 }],
      ['a file, --workers 2', () => bytesSource('file', bytes), { workers: 2 }],
      ['a file, every batch on the worker', () => bytesSource('file', bytes), { workers: 2, mainThreadChecks: false }],
      ['a stream', () => ({ ...bytesSource('stream', bytes), size: undefined, seekable: false, stream: () => (async function * () { for (let i = 0; i < bytes.length; i += 65536) yield bytes.subarray(i, i + 65536) })() }), { workers: 1 }],
      ['blocks one by one (--out)', () => bytesSource('file', bytes), { workers: 1, out: path.join(tmp, 'varints-out.car') }]
    ])

    it('a long header varint, and long section varints in each batch, across a batch\'s end and last: a problem each, at its offset, in every way of reading; the readers read them all', async () => {
      const probe = await carWithLongVarints(() => false, true)
      // the section a 1 MiB batch read from the first section cuts short
      const across = probe.starts.findIndex((start, i) => start < probe.starts[0] + BATCH_BYTES && (probe.starts[i + 1] ?? Infinity) > probe.starts[0] + BATCH_BYTES)
      const chosen = [0, across, 250, 499].sort((a, b) => a - b)
      const { bytes, starts } = await carWithLongVarints((i) => chosen.includes(i), true)
      const expected = [0, ...chosen.map((i) => starts[i])]
      for (const [what, source, options] of everyRun(bytes)) {
        const summary = await roundTrip({ source: source(), ...options })
        assert.equal(summary.result, 'fail', what)
        assert.deepEqual(summary.problems.map((/** @type {any} */ p) => `${p.kind}@${p.at}`), expected.map((at) => `varint@${at}`), what)
        assert.equal(summary.blocks, 500, what)
      }
      const [first] = (await roundTrip({ source: bytesSource('file', bytes), workers: 1 })).problems
      assert.equal(first.message, 'the header at byte offset 0 has a length varint written longer than its shortest form; CAR varints are multiformats unsigned varints, which must be minimally encoded')
      // the library's verifyCar (Node and core) says the same; the readers read every block, as @ipld/car does
      for (const summary of [await verifyCar(bytes, { workers: 2 }), await core.verifyCar(new Blob([bytes]).stream(), { onBlock: () => {} })]) {
        assert.deepEqual(summary.problems.map((/** @type {any} */ p) => p.at), expected)
      }
      let read = 0
      for await (const b of (await CarReader.fromBytes(bytes)).blocks()) read += b.bytes.length > 0 ? 1 : 0
      for await (const b of await CarBlockIterator.fromBytes(bytes)) read += b.bytes.length > 0 ? 1 : 0
      assert.equal(read, 1000)
    })

    it('every length varint long: each counted once (a section a batch cuts short is read again), the first 10 listed', async () => {
      const { bytes, starts } = await carWithLongVarints(() => true, true)
      for (const [what, source, options] of everyRun(bytes)) {
        const summary = await roundTrip({ source: source(), ...options })
        assert.deepEqual([summary.result, summary.problemCount, summary.carProblems], ['fail', 501, 501], what)
        assert.deepEqual(summary.problems.map((/** @type {any} */ p) => p.at), [0, ...starts.slice(0, 9)], what)
      }
    })

    it('a CARv2: its payload header\'s long varint is at the data offset; the command exits 1, and 0 for the same CAR in shortest form', async () => {
      const { bytes, starts } = await carWithLongVarints((i) => i === 3, true)
      const file = path.join(tmp, 'long-varints-v2.car')
      fs.writeFileSync(file, carV2(bytes, { padding: 5 }))
      const r = toolJson('verify', file)
      assert.equal(r.code, 1)
      assert.deepEqual(r.summary.problems.map((/** @type {any} */ p) => `${p.kind}@${p.at}`), ['varint@56', `varint@${56 + starts[3]}`])
      const minimal = path.join(tmp, 'minimal-varints-v2.car')
      fs.writeFileSync(minimal, carV2((await carWithLongVarints(() => false, false)).bytes, { padding: 5 }))
      assert.equal(tool('verify', minimal).code, 0)
    })
  })

  describe('CARv2 index (written by go-car)', () => {
    for (const [file, format] of [[V2_MH, 'MultihashIndexSorted'], [V2_SORTED, 'IndexSorted']]) {
      it(`${format}: read and matched against all 33 blocks (identity CIDs included)`, () => {
        const r = toolJson(file)
        assert.deepEqual(r.summary.index, { format, entries: 33, problems: 0 })
        assert.equal(r.summary.carProblems, 0)
        assert.equal(r.code, 1) // the one non-canonical block the slice keeps
      })

      it(`${format}: a bit flipped in any byte of the index (identity entries too) is a problem, never passed`, async () => {
        const clean = new Uint8Array(fs.readFileSync(file))
        const { indexOffset } = v2Header(Buffer.from(clean))
        const passed = []
        for (let at = indexOffset; at < clean.length; at++) {
          for (const bit of [0x01, 0x80]) {
            const b = clean.slice()
            b[at] ^= bit
            // --relaxed: the clean slice passes (its one non-canonical block is lossless)
            const r = await verifyCar(b, { relaxed: true }).then((s) => s.result, () => 'incomplete')
            if (r === 'ok') passed.push(`byte ${at} ^ 0x${bit.toString(16)}`)
          }
        }
        assert.deepEqual(passed, [])
      })

      it(`${format}: an entry whose offset is changed is a mismatch, with byte offsets`, () => {
        const bad = corruptCopy(file, (b) => {
          const { indexOffset } = v2Header(b)
          b[b.length - 8] ^= 0x01 // the low byte of the last record's offset
          assert.ok(b.length - 8 > indexOffset)
          return b
        })
        const r = toolJson(bad)
        assert.equal(r.code, 1)
        assert.ok(r.summary.index.problems >= 1, JSON.stringify(r.summary.index))
        const p = r.summary.problems.filter((/** @type {any} */ p) => p.kind === 'index')
        assert.ok(p.length >= 1)
        for (const q of p) assert.match(q.message, /byte offset \d+/)
      })

      it(`${format}: an index cut short cannot be read: a problem, not OK`, () => {
        const bad = corruptCopy(file, (b) => b.subarray(0, b.length - 3))
        const r = toolJson(bad)
        assert.equal(r.code, 1)
        assert.deepEqual(r.summary.problems.filter((/** @type {any} */ p) => p.kind === 'index').length, 1)
        assert.match(r.summary.problems.find((/** @type {any} */ p) => p.kind === 'index').message, /CARv2 index at byte offset \d+ cannot be read/)
      })
    }

    it('an index in a format the tool does not read is a problem (never passed unchecked)', () => {
      const bad = corruptCopy(V2_MH, (b) => {
        const { indexOffset } = v2Header(b)
        b[indexOffset] = 0x03 // the format varint 0x81 0x08 (0x401) becomes 0x03: one byte, format 3
        return b
      })
      const r = toolJson(bad)
      assert.equal(r.code, 1)
      assert.match(r.summary.problems.find((/** @type {any} */ p) => p.kind === 'index').message, /format 0x3 is not one this tool reads/)
    })

    it('a header that says "no index" with bytes after the payload is a problem', () => {
      const bad = corruptCopy(V2_MH, (b) => { b.writeBigUInt64LE(0n, 43); return b })
      const r = toolJson(bad)
      assert.equal(r.code, 1)
      assert.equal(r.summary.index, null)
      assert.match(r.summary.problems.find((/** @type {any} */ p) => p.kind === 'car-v2').message, /bytes follow the CARv2 data payload at byte offset \d+, but the header says there is no index/)
    })

    it('from a pipe, the index is read after the payload and checked the same way', () => {
      const fd = fs.openSync(V2_MH, 'r')
      try {
        const r = spawnSync('sh', ['-c', `cat | "${process.execPath}" "${TOOL}" - --json`], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8' })
        assert.deepEqual(JSON.parse(r.stdout).index, { format: 'MultihashIndexSorted', entries: 33, problems: 0 })
      } finally {
        fs.closeSync(fd)
      }
    })
  })
})

describe('dag-cbor-car: the command line', function () {
  this.timeout(60000)
  before(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-cli-')) })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it('--version prints the package\'s name and version', () => {
    const manifest = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'))
    const r = tool('--version')
    assert.equal(r.code, 0)
    assert.equal(r.stdout, `dag-cbor-car ${manifest.version}\n`)
  })

  it('an unknown flag or a missing value: our own one-line message, then the usage, exit 2', () => {
    for (const [args, message] of [[['--frobnicate'], 'unknown option --frobnicate'], [['x.car', '--out'], 'option --out needs a value'], [['--json=1'], 'option --json takes no value']]) {
      const r = tool(...args)
      assert.equal(r.code, 2)
      assert.equal(r.stderr.split('\n')[0], `dag-cbor-car: ${message}`)
      assert.doesNotMatch(r.stderr, /To specify a positional argument/)
      assert.match(r.stderr, /\nusage: dag-cbor-car/)
    }
  })

  it('sizes in units that fit: a 5 kB CAR is not "0.00 MB"; JSON numbers are rounded', async () => {
    const blocks = []
    for (let i = 0; i < 40; i++) blocks.push(await block({ i, text: 'x'.repeat(100) }))
    const file = await writeCar('small.car', [blocks[0].cid], blocks)
    const size = fs.statSync(file).size
    assert.ok(size > 4000 && size < 10000, String(size))
    const r = tool(file)
    assert.match(r.stdout, new RegExp(`blocks {6}40 \\(\\d\\.\\d\\d kB of block data, ${(size / 1000).toFixed(2).replace('.', '\\.')} kB read\\)`))
    assert.doesNotMatch(r.stdout, /0\.00 MB/)
    const s = toolJson(file).summary
    assert.equal(s.seconds, Math.round(s.seconds * 1000) / 1000)
    assert.equal(s.mbPerSec, Math.round(s.mbPerSec * 10) / 10)
  })

  it('--out into a missing directory: the one-line error, no empty summary beside it, exit 2', () => {
    const r = tool(fileURLToPath(new URL('../../../../test/fixtures/cars/filecoin-sample-v1.car', import.meta.url)), '--out', path.join(tmp, 'no/such/dir/x.car'))
    assert.equal(r.code, 2)
    assert.equal(r.stdout, '')
    assert.equal(r.stderr.trim().split('\n').length, 1)
    assert.match(r.stderr, /cannot write .*x\.car: no such file or directory/)
  })

  it('a run that finds non-canonical blocks names the flags that fix them', () => {
    const r = tool(fileURLToPath(new URL('../../../../test/fixtures/cars/filecoin-calibnet-genesis.car', import.meta.url)))
    assert.equal(r.code, 1)
    assert.match(r.stdout, /result {6}FAIL: 1 non-canonical; --relaxed accepts it as it is \(relaxed decode reads it losslessly\); --out FILE --canonicalize writes a copy/)
  })
})
