// The CAR round-trip tool (car/bin/dag-cbor-car.js): run as a child process for CLI behaviour (exit codes,
// messages, files written), and through its modules where that is cheaper. Expected counts come from
// test/fixtures/README.md and independent oracles (@ipld/car, @ipld/dag-cbor, the hashers), never from the tool.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CarReader, CarIndexer } from '@ipld/car'
import * as dagCbor from '@ipld/dag-cbor'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import { CID } from 'multiformats/cid'
import { sha256, sha512 } from 'multiformats/hashes/sha2'
import { fixturePath } from '../../../test/helpers/fixtures.js'
import { assertNoNewDanglingLinks } from '../helpers/car-oracle.js'
import * as codec from 'dag-cbor-fast'
import { verdict } from '../../lib/core/check/classify.js'
import { PHRASES } from '../../lib/core/check/phrases.js'
import { RULES } from '../../../lib/errors.js'
import { sampleCar } from '../../lib/node/sample.js'
import { buildSampleCar } from '../../scripts/sample-car.js'

const TOOL = fileURLToPath(new URL('../../bin/dag-cbor-car.js', import.meta.url))
const GENESIS = fileURLToPath(fixturePath('cars/filecoin-calibnet-genesis.car'))
const SAMPLE_V1 = fileURLToPath(fixturePath('cars/filecoin-sample-v1.car'))
const STACK_LINE = /\n\s+at .+:\d+:\d+/

/**
 * @param {string[]} args
 * @returns {{ code: number|null, stdout: string, stderr: string }}
 */
function tool (...args) {
  // stdin is /dev/null: with no file named, the tool checks its sample (a pipe would be read)
  const r = spawnSync(process.execPath, [TOOL, ...args], { encoding: 'utf8', timeout: 60000, stdio: ['ignore', 'pipe', 'pipe'] })
  if (r.error) throw r.error
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** Run with --json; the summary must be exactly one JSON object on stdout. */
function toolJson (/** @type {string[]} */ ...args) {
  const r = tool(...args, '--json')
  assert.doesNotMatch(r.stderr, STACK_LINE)
  return { ...r, summary: JSON.parse(r.stdout) }
}

/** @param {string} file */
async function readCar (file) {
  const reader = await CarReader.fromBytes(new Uint8Array(fs.readFileSync(file)))
  const blocks = []
  for await (const b of reader.blocks()) blocks.push(b)
  return { roots: (await reader.getRoots()).map(String), blocks }
}

/** @param {string} file */
async function blockIndex (file) {
  const indexer = await CarIndexer.fromBytes(new Uint8Array(fs.readFileSync(file)))
  const index = []
  for await (const entry of indexer) index.push(entry)
  return index
}

/** Summary fields that legitimately differ between runs. */
function withoutTiming (/** @type {any} */ s) {
  const { seconds, mbPerSec, workers, ...rest } = s
  if (rest.output) rest.output = { ...rest.output, file: '<out>' }
  return rest
}

/**
 * Walk CBOR and report whether any text string (major type 3) is invalid UTF-8. A tiny independent
 * reader, enough for definite-length DAG-CBOR.
 *
 * @param {Uint8Array} b
 * @param {TextDecoder} fatal
 */
function scanText (b, fatal) {
  let i = 0
  let bad = false
  const arg = (/** @type {number} */ info) => {
    if (info < 24) return info
    const n = 1 << (info - 24)
    let v = 0
    for (let k = 0; k < n; k++) v = v * 256 + b[i++]
    return v
  }
  const item = () => {
    const ib = b[i++]
    const major = ib >> 5
    const v = arg(ib & 31)
    if (major === 2 || major === 3) {
      if (major === 3) { try { fatal.decode(b.subarray(i, i + v)) } catch { bad = true } }
      i += v
    } else if (major === 4) { for (let k = 0; k < v; k++) item() } else if (major === 5) { for (let k = 0; k < 2 * v; k++) item() } else if (major === 6) item()
  }
  item()
  return bad
}

describe('dag-cbor-car (CAR round-trip tool)', () => {
  let tmp = ''
  before(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-test-')) })
  after(() => { fs.rmSync(tmp, { recursive: true, force: true }) })

  describe('CAR tool: filecoin-calibnet-genesis.car', function () {
    this.timeout(60000)
    let run, outRun, out

    before(() => {
      out = path.join(tmp, 'genesis-out.car')
      run = toolJson(GENESIS)
      // --out writes only a run that passes: --relaxed accepts the one non-canonical block (lossless)
      outRun = toolJson(GENESIS, '--out', out, '--relaxed')
    })

    it('verifies all 1207 hashes and finds 1196 canonical, 1 non-canonical (unsorted keys); exit 1', () => {
      const s = run.summary
      assert.equal(run.code, 1)
      assert.equal(s.blocks, 1207)
      assert.equal(s.verified, 1207)
      assert.equal(s.hashMismatches, 0)
      assert.equal(s.unverified, 0)
      assert.deepEqual(s.codecs, { 'dag-cbor': 1197, raw: 10 })
      assert.equal(s.dagCbor.canonical, 1196)
      assert.equal(s.dagCbor.nonCanonical, 1)
      assert.equal(s.dagCbor.invalid, 0)
      assert.deepEqual(s.dagCbor.rules, { 'map-key-order': 1 })
      assert.equal(s.bytes, fs.statSync(GENESIS).size)
      assert.equal(typeof s.seconds, 'number')
      assert.equal(s.problems.length, 1)
      assert.match(s.problems[0].message, /^block at byte offset 368: keys out of order at \/\S*/)
      assert.equal(s.problems[0].at, 368)
    })

    it('the reported block really is non-canonical per @ipld/dag-cbor too', async () => {
      const { blocks } = await readCar(GENESIS)
      const bad = blocks.find((b) => b.cid.toString() === run.summary.problems[0].cid)
      assert.ok(bad, 'reported CID is in the CAR')
      assert.notDeepEqual(dagCbor.encode(dagCbor.decode(bad.bytes)), bad.bytes)
      const canonical = blocks.filter((b) => b.cid.code === 0x71 && b !== bad)
      assert.equal(canonical.length, 1196)
    })

    it('--out writes a CAR @ipld/car reads back with the same roots and blocks', async () => {
      const a = await readCar(GENESIS)
      const b = await readCar(out)
      assert.deepEqual(b.roots, a.roots)
      assert.equal(b.blocks.length, a.blocks.length)
      b.blocks.forEach((blk, i) => {
        assert.equal(blk.cid.toString(), a.blocks[i].cid.toString())
        assert.deepEqual(blk.bytes, a.blocks[i].bytes)
      })
      assert.equal(outRun.code, 0)
      assert.equal(outRun.summary.output.written, true)
      assert.equal(outRun.summary.output.blocks, 1207)
      assert.equal(outRun.summary.output.unchanged, 1207)
      assert.equal(outRun.summary.output.canonicalized, 0)
      assert.equal(outRun.summary.output.relinked, 0)
    })

    it('the written CAR, re-read by the tool, gets the same classification', () => {
      const again = toolJson(out)
      assert.equal(again.code, 1)
      const { input, output, ...a } = withoutTiming(again.summary)
      const { input: _i, output: _o, ...b } = withoutTiming(run.summary)
      assert.deepEqual(a, b)
    })

    it('--canonicalize rewrites the unsorted block as @ipld/dag-cbor would, relinks its parent (the root), maps old -> new CID', async () => {
      const file = path.join(tmp, 'genesis-canonical.car')
      const r = toolJson(GENESIS, '--out', file, '--canonicalize')
      assert.equal(r.code, 0) // fixed, and the written CAR read back clean
      assert.equal(r.summary.result, 'fixed')
      const a = await readCar(GENESIS)
      const b = await readCar(file)
      assert.equal(b.blocks.length, a.blocks.length)
      const changed = b.blocks.map((blk, i) => [a.blocks[i], blk]).filter(([x, y]) => x.cid.toString() !== y.cid.toString())
      // the non-canonical block, and the genesis root, which links to it
      assert.equal(changed.length, 2)
      const [[oldBad, newBad]] = changed.filter(([x]) => x.cid.toString() === r.summary.problems[0].cid)
      const expected = dagCbor.encode(dagCbor.decode(oldBad.bytes))
      assert.deepEqual(newBad.bytes, expected)
      const hasher = { [sha256.code]: sha256, [blake2b256.code]: blake2b256 }[oldBad.cid.multihash.code]
      const expectedCid = CID.create(1, 0x71, await hasher.digest(expected))
      assert.equal(newBad.cid.toString(), expectedCid.toString())
      const [[oldRoot, newRoot]] = changed.filter(([x]) => x.cid.toString() === a.roots[0])
      assert.deepEqual(b.roots, [newRoot.cid.toString()], 'the header names the new root')
      assert.equal(newRoot.cid.multihash.code, oldRoot.cid.multihash.code, 'same hash function')
      assert.equal(newRoot.cid.version, oldRoot.cid.version)
      assert.equal(newRoot.cid.code, oldRoot.cid.code)
      assert.deepEqual(r.summary.output.mappings.map((/** @type {any} */ m) => [m.old, m.new, m.why]).sort(), [
        [oldBad.cid.toString(), expectedCid.toString(), 'canonicalized'],
        [oldRoot.cid.toString(), newRoot.cid.toString(), 'relinked']
      ].sort())
      assert.equal(r.summary.output.rootsReplaced, 1)
      await assertNoNewDanglingLinks(GENESIS, file)
      const recheck = toolJson(file)
      assert.equal(recheck.code, 0, recheck.stdout)
      assert.equal(recheck.summary.dagCbor.canonical, 1197)
    })
  })

  describe('CAR tool: filecoin-sample-v1.car (blake2b-256, invalid UTF-8 keys)', function () {
    this.timeout(60000)

    it('verifies 1049 blocks, reports the 140 non-UTF-8-key blocks non-canonical; --out writes nothing (the run fails)', async () => {
      const out = path.join(tmp, 'sample-v1-out.car')
      const { code, summary: s } = toolJson(SAMPLE_V1, '--out', out)
      assert.equal(code, 1)
      assert.equal(s.blocks, 1049)
      assert.equal(s.verified, 1049)
      assert.equal(s.hashes['blake2b-256'] > 0, true)
      assert.equal(s.dagCbor.nonCanonical, 140)
      assert.equal(s.dagCbor.canonical, 1043 - 140)
      assert.equal(s.dagCbor.invalid, 0)
      assert.equal(s.problemCount, 140)
      assert.equal(s.output.written, false)
      assert.equal(fs.existsSync(out), false)
      const a = await readCar(SAMPLE_V1)
      // the reported blocks are exactly those whose text strings are not valid UTF-8
      const fatal = new TextDecoder('utf-8', { fatal: true })
      const expectBad = a.blocks.filter((blk) => blk.cid.code === 0x71 && scanText(blk.bytes, fatal)).length
      assert.equal(expectBad, 140)
      const badCids = new Set(a.blocks.filter((blk) => blk.cid.code === 0x71 && scanText(blk.bytes, fatal)).map((blk) => blk.cid.toString()))
      assert.ok(s.problems.length > 0)
      for (const p of s.problems) assert.ok(badCids.has(p.cid), `${p.cid} reported but its text is valid UTF-8`)
    })

    it('--canonicalize cannot rewrite the invalid-UTF-8 blocks: says so, exit 1, writes nothing', () => {
      const out = path.join(tmp, 'sample-v1-canon.car')
      const { code, summary: s } = toolJson(SAMPLE_V1, '--out', out, '--canonicalize')
      assert.equal(code, 1)
      assert.equal(s.output.canonicalized, 0)
      assert.equal(s.output.keptUnchanged, 140)
      assert.equal(s.output.written, false)
      assert.equal(fs.existsSync(out), false)
      assert.match(s.problems[0].message, /invalid UTF-8.*so --canonicalize cannot fix it/)
    })
  })

  describe('CAR tool: damaged and bad input', function () {
    this.timeout(60000)

    it('truncated CAR (cut mid-block): exit 2, says how many blocks and the byte offset, prints the summary so far', async () => {
      const index = await blockIndex(GENESIS)
      const cut = index[500]
      const file = path.join(tmp, 'truncated.car')
      fs.writeFileSync(file, fs.readFileSync(GENESIS).subarray(0, cut.blockOffset + Math.floor(cut.blockLength / 2)))
      const r = tool(file)
      assert.equal(r.code, 2)
      assert.match(r.stderr, /truncated/)
      assert.match(r.stderr, /after 500 complete blocks/)
      assert.match(r.stderr, new RegExp(`byte offset ${cut.offset}\\b`))
      assert.equal(r.stderr.trim().split('\n').length, 1, 'one line')
      assert.doesNotMatch(r.stderr, STACK_LINE)
      assert.match(r.stdout, /blocks {6}500 /)
      assert.match(r.stdout, new RegExp(`INCOMPLETE: the run stopped after 500 blocks, at byte offset ${cut.offset}`))
      const j = toolJson(file)
      assert.equal(j.code, 2)
      assert.equal(j.summary.blocks, 500)
      assert.equal(j.summary.verified, 500)
      assert.deepEqual({ offset: j.summary.error.offset, blocks: j.summary.error.blocks }, { offset: cut.offset, blocks: 500 })
      assert.match(j.summary.error.message, /truncated/)
    })

    it('truncated CAR with --out leaves no partial output file', async () => {
      const index = await blockIndex(GENESIS)
      const file = path.join(tmp, 'truncated2.car')
      fs.writeFileSync(file, fs.readFileSync(GENESIS).subarray(0, index[900].blockOffset + 3))
      const out = path.join(tmp, 'truncated2-out.car')
      const r = tool(file, '--out', out)
      assert.equal(r.code, 2)
      assert.match(r.stderr, /after 900 complete blocks/)
      assert.equal(fs.existsSync(out), false)
    })

    it('a flipped byte inside a block: hash mismatch reported with its CID, exit 1', async () => {
      const index = await blockIndex(GENESIS)
      const victim = index.find((e, i) => i > 300 && e.cid.code === 0x71 && e.blockLength > 100)
      assert.ok(victim)
      const bytes = new Uint8Array(fs.readFileSync(GENESIS))
      const at = victim.blockOffset + victim.blockLength - 5
      bytes[at] ^= 0x01
      const file = path.join(tmp, 'flipped.car')
      fs.writeFileSync(file, bytes)
      const { code, summary: s } = toolJson(file)
      assert.equal(code, 1)
      assert.equal(s.blocks, 1207)
      assert.equal(s.hashMismatches, 1)
      assert.equal(s.verified, 1206)
      const p = s.problems.find((x) => x.kind === 'hash-mismatch')
      assert.equal(p.cid, victim.cid.toString())
    })

    it('not a CAR / bad header: exit 2 with a clear message', () => {
      const junk = path.join(tmp, 'junk.car')
      fs.writeFileSync(junk, 'this is not a CAR file\n')
      let r = tool(junk)
      assert.equal(r.code, 2)
      assert.match(r.stderr, /not a CAR file/)
      assert.doesNotMatch(r.stderr, STACK_LINE)

      // a well-formed header block claiming version 3
      const header = dagCbor.encode({ version: 3, roots: [] })
      const v3 = path.join(tmp, 'v3.car')
      fs.writeFileSync(v3, Buffer.concat([Buffer.from([header.length]), header]))
      r = tool(v3)
      assert.equal(r.code, 2)
      assert.match(r.stderr, /not a CAR file: bad header .*version/i)
      assert.doesNotMatch(r.stderr, STACK_LINE)
    })

    it('missing file, directory, bad options: exit 2, no stack trace', () => {
      for (const args of [[path.join(tmp, 'nope.car')], [tmp], [GENESIS, '--workers', '0'], [GENESIS, '--bogus'], [GENESIS, '--canonicalize']]) {
        const r = tool(...args)
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`)
        assert.match(r.stderr, /^dag-cbor-car: /)
        assert.doesNotMatch(r.stderr, STACK_LINE)
      }
      assert.match(tool(path.join(tmp, 'nope.car')).stderr, /no such file/)
    })

    it('unwritable --out: exit 2, says which file', () => {
      const r = tool(SAMPLE_V1, '--out', path.join(tmp, 'no-such-dir', 'out.car'))
      assert.equal(r.code, 2)
      assert.match(r.stderr, /^dag-cbor-car: cannot write .*no-such-dir.*: no such file or directory/)
      assert.doesNotMatch(r.stderr, STACK_LINE)
    })

    it('refuses to overwrite its input with --out', () => {
      const copy = path.join(tmp, 'copy.car')
      fs.copyFileSync(SAMPLE_V1, copy)
      const r = tool(copy, '--out', copy)
      assert.equal(r.code, 2)
      assert.deepEqual(fs.readFileSync(copy), fs.readFileSync(SAMPLE_V1))
    })

    it('reads a CARv2 (hand-wrapped around the genesis CARv1)', () => {
      const v1 = fs.readFileSync(GENESIS)
      const pragma = Buffer.from('0aa16776657273696f6e02', 'hex')
      const fixed = Buffer.alloc(40)
      fixed.writeBigUInt64LE(BigInt(pragma.length + 40), 16) // data offset
      fixed.writeBigUInt64LE(BigInt(v1.length), 24) // data size
      const file = path.join(tmp, 'genesis-v2.car')
      fs.writeFileSync(file, Buffer.concat([pragma, fixed, v1]))
      const { code, summary: s } = toolJson(file)
      assert.equal(code, 1)
      assert.equal(s.version, 2)
      assert.equal(s.blocks, 1207)
      assert.equal(s.dagCbor.canonical, 1196)
      assert.equal(s.dagCbor.nonCanonical, 1)
    })
  })

  describe('CAR tool: workers', function () {
    this.timeout(60000)

    it('same summary and same output file with --workers 1 and --workers 2', () => {
      const out1 = path.join(tmp, 'w1.car')
      const out2 = path.join(tmp, 'w2.car')
      const one = toolJson(GENESIS, '--workers', '1', '--out', out1, '--canonicalize')
      const two = toolJson(GENESIS, '--workers', '2', '--out', out2, '--canonicalize')
      assert.equal(one.code, two.code)
      assert.deepEqual(withoutTiming(two.summary), withoutTiming(one.summary))
      assert.equal(one.summary.blocks, 1207)
      assert.deepEqual(fs.readFileSync(out2), fs.readFileSync(out1))
    })
  })

  describe('CAR tool: embedded default', function () {
    this.timeout(60000)

    it('no arguments: checks the sample, finds exactly its planted blocks, says so, exit 0', async () => {
      const r = tool()
      assert.equal(r.code, 0, r.stdout + r.stderr)
      assert.equal(r.stderr, '')
      assert.match(r.stdout, /embedded sample/)
      assert.match(r.stdout, /2 non-canonical, 0 invalid/)
      assert.match(r.stdout, /keys out of order at \//)
      assert.match(r.stdout, /non-shortest/)
      assert.match(r.stdout, / 0 mismatched, 0 unverified/)
      assert.match(r.stdout, /at \/Ticket\/1, \/Weight/)
      assert.match(r.stdout, /result {6}OK for the sample/)
      const { expected } = await sampleCar()
      for (const p of expected.problems) assert.match(r.stdout, new RegExp(`${p.cid}  non-canonical`))
      const j = toolJson()
      assert.equal(j.code, 0)
      assert.equal(j.summary.sample.asExpected, true)
      assert.deepEqual(j.summary.integralFloats.examples.map((/** @type {any} */ e) => e.cid), expected.integralFloats)
    })

    it('the sample is deterministic and has the promised shapes', async () => {
      const a = await buildSampleCar()
      const b = await buildSampleCar()
      assert.deepEqual(a.bytes, b.bytes)
      assert.ok(a.blocks >= 200 && a.blocks <= 1000, `${a.blocks} blocks`)
      const reader = await CarReader.fromBytes(a.bytes)
      const codes = new Set()
      const hashes = new Set()
      for await (const blk of reader.blocks()) { codes.add(blk.cid.code); hashes.add(blk.cid.multihash.code) }
      const numeric = (/** @type {Set<number>} */ set) => [...set].sort((x, y) => x - y)
      assert.deepEqual(numeric(codes), [0x55, 0x71])
      assert.deepEqual(numeric(hashes), [0x00, 0x12, 0xb220])
    })

    it('every rule the codec can name has a phrase in the tool, and every phrase names a rule', () => {
      const rules = Object.keys(RULES).sort()
      assert.deepEqual(Object.keys(PHRASES).sort(), rules)
      for (const rule of rules) assert.ok(PHRASES[rule].length > 3, rule)
    })

    it('bin/ and lib/ import nothing from test/ or from dev dependencies (they ship in the package)', () => {
      const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
      const allowed = new Set(['node', ...Object.keys(pkg.dependencies)])
      const binDir = fileURLToPath(new URL('../../', import.meta.url))
      const files = ['bin', 'lib'].flatMap((d) => fs.readdirSync(path.join(binDir, d), { recursive: true }).map((f) => path.join(d, String(f)))).filter((f) => f.endsWith('.js'))
      assert.ok(files.length > 5)
      for (const f of files) {
        const source = fs.readFileSync(path.join(binDir, f), 'utf8')
        for (const [, spec] of source.matchAll(/(?:\bfrom\s+|\bimport\()\s*'([^'\n]+)'/g)) { // not a flag such as '--reachable-from'
          if (spec.startsWith('#')) { // the package's own imports map (#hashers, #bytes): files of the package
            assert.ok(Object.hasOwn(pkg.imports ?? {}, spec), `${f} imports ${spec}, which package.json's "imports" does not name`)
            continue
          }
          if (spec.startsWith('.')) {
            const resolved = path.resolve(path.dirname(path.join(binDir, f)), spec)
            assert.ok(!resolved.includes(`${path.sep}test${path.sep}`), `${f} imports ${spec}`)
            continue
          }
          const name = spec.startsWith('node:') ? 'node' : spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/')
          assert.ok(allowed.has(name), `${f} imports ${spec}, not a dependency`)
        }
      }
    })
  })

  describe('CAR tool: verdict (check/classify.js)', () => {
    const cidFor = async (/** @type {Uint8Array} */ bytes, code = 0x71, hasher = sha256) => CID.create(1, code, await hasher.digest(bytes))
    const hex = (/** @type {string} */ h) => Uint8Array.from(Buffer.from(h, 'hex'))

    it('canonical block', async () => {
      const bytes = dagCbor.encode({ a: 1, bb: [true, null] })
      assert.deepEqual(verdict(codec, await cidFor(bytes), bytes), { hash: 'ok', cls: 'canonical' })
    })

    it('unsorted keys: non-canonical, rule and path from the decoder', async () => {
      const bytes = hex('a2616202616101') // {"b": 2, "a": 1}
      const r = verdict(codec, await cidFor(bytes), bytes)
      assert.equal(r.cls, 'nonCanonical')
      assert.equal(r.rule, 'map-key-order')
      assert.match(r.reason, /^keys out of order at \//)
    })

    it('non-shortest int, canonicalized on request', async () => {
      const bytes = hex('a161611801') // {"a": 1} with 1 as 0x18 0x01
      const cid = await cidFor(bytes)
      const r = verdict(codec, cid, bytes, { canonicalize: true })
      assert.equal(r.cls, 'nonCanonical')
      assert.equal(r.rule, 'non-shortest')
      assert.deepEqual(r.out, hex('a1616101'))
      assert.equal(r.newCid, (await cidFor(hex('a1616101'))).toString())
    })

    it('canonicalize: a valid astral character (surrogate pair) is not mistaken for escaped bytes', async () => {
      const skull = [...new TextEncoder().encode('\u{1F480}')] // U+1F480 is \uD83D\uDC80 in UTF-16
      const bytes = Uint8Array.from([0xa2, 0x62, 0x7a, 0x7a, 0x01, 0x61, 0x61, 0x64, ...skull]) // {"zz": 1, "a": "💀"}, unsorted
      const r = verdict(codec, await cidFor(bytes), bytes, { canonicalize: true })
      assert.equal(r.cls, 'nonCanonical')
      assert.equal(r.keptReason, undefined)
      assert.deepEqual(r.out, dagCbor.encode({ zz: 1, a: '\u{1F480}' }))
    })

    it('canonicalize: escaped invalid UTF-8 cannot be rewritten, with the reason', async () => {
      const bytes = hex('a2627a7a01616161ff') // {"zz": 1, "a": <text 0xff>}, unsorted and invalid UTF-8
      const r = verdict(codec, await cidFor(bytes), bytes, { canonicalize: true })
      assert.equal(r.cls, 'nonCanonical')
      assert.equal(r.out, undefined)
      assert.match(r.keptReason, /invalid UTF-8.*so --canonicalize cannot fix it/)
    })

    it('invalid: not decodable even relaxed', async () => {
      const bytes = hex('a26161') // truncated map
      const r = verdict(codec, await cidFor(bytes), bytes)
      assert.equal(r.cls, 'invalid')
      assert.ok(r.reason.length > 0)
    })

    it('raw blocks pass through; unknown hash functions are "unverified"; wrong bytes are "mismatch"', async () => {
      const raw = hex('00ff00')
      assert.deepEqual(verdict(codec, await cidFor(raw, 0x55), raw), { hash: 'ok' })
      assert.deepEqual(verdict(codec, await cidFor(raw, 0x55, sha512), raw), { hash: 'unverified' })
      assert.deepEqual(verdict(codec, await cidFor(raw, 0x55), hex('00ff01')), { hash: 'mismatch' })
    })
  })
})
