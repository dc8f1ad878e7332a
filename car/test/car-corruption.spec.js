// No lie under corruption: seeded random bit flips, inserted bytes and deleted bytes in CARs made of
// the real blocks of test/fixtures/cars/ (every header byte flipped too), each run through the
// tool's pipeline in this process. No damaged CAR may pass (exit 0): every block's bytes, CID and
// length, and the header's roots, are covered by a check. Every failure must say where (a byte
// offset) in one line, and nothing may fail other than as the tool's own errors. A sample of the
// cases also runs through the real command line, for its exit status and its stderr.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CarReader, CarIndexer } from '@ipld/car'
import * as codec from 'dag-cbor-fast'
import { roundTrip } from '../lib/node/run.js'
import { bytesSource } from '../lib/node/input-source.js'
import { exitCode } from '../lib/core/report/summary.js'
import { ToolError } from '../lib/core/base/errors.js'
import { carWriterBytes } from './helpers/car-oracle.js'

const TOOL = fileURLToPath(new URL('../bin/dag-cbor-car.js', import.meta.url))
const CARS = ['filecoin-calibnet-genesis.car', 'filecoin-sample-v1.car'].map((name) => fileURLToPath(new URL(`../../test/fixtures/cars/${name}`, import.meta.url)))
/** blocks in each clean base CAR (the root, then the first valid blocks): small, so thousands of runs stay quick */
const BASE_BLOCKS = 40
const RANDOM_CASES = 1500 // per base CAR, a third each flips, inserts, deletes
const CLI_SAMPLE = 8 // per base CAR
const STACK_LINE = /\n\s+at .+:\d+:\d+/
const OFFSET = /byte (offset )?\d+/

/** @param {number} seed */
function xorshift (seed) {
  let s = seed >>> 0 || 1
  return () => {
    s ^= s << 13; s >>>= 0
    s ^= s >>> 17
    s ^= s << 5; s >>>= 0
    return s / 2 ** 32
  }
}

/**
 * A CAR of real blocks that passes every check: the root and the first blocks that our codec's
 * strict decode re-encodes byte for byte (DAG-CBOR) or that are raw, written by @ipld/car.
 *
 * @param {string} file
 */
async function cleanBase (file) {
  const reader = await CarReader.fromBytes(new Uint8Array(fs.readFileSync(file)))
  const [root] = await reader.getRoots()
  const kept = []
  for await (const b of reader.blocks()) {
    if (kept.length >= BASE_BLOCKS && !b.cid.equals(root)) continue
    if (b.cid.code === 0x71) {
      try {
        if (!Buffer.from(codec.encode(codec.decode(b.bytes))).equals(b.bytes)) continue
      } catch { continue }
    } else if (b.cid.code !== 0x55) continue
    if (kept.length < BASE_BLOCKS || b.cid.equals(root)) kept.push(b)
  }
  assert.ok(kept.some((b) => b.cid.equals(root)), `${file}: its root is not a clean block`)
  return carWriterBytes([root], kept)
}

/**
 * The tool's verdict on bytes, in this process: the exit status the command line would give and
 * the one-line reasons it would print.
 *
 * @param {Uint8Array} bytes
 * @returns {Promise<{ code: number, reasons: string[] }>}
 */
async function verdict (bytes) {
  try {
    const s = await roundTrip({ source: bytesSource('case', bytes), workers: 1 })
    return { code: exitCode(s), reasons: s.problems.map((p) => p.message) }
  } catch (err) {
    // the command line prints a ToolError as one line and exits 2; anything else is a crash
    if (!(err instanceof ToolError)) throw new Error(`not a ToolError: ${/** @type {any} */ (err)?.stack ?? err}`)
    return { code: 2, reasons: [err.message] }
  }
}

/** @param {Uint8Array} b @param {number} at @param {number} bit */
const flip = (b, at, bit) => { const c = b.slice(); c[at] ^= bit; return c }
/** @param {Uint8Array} b @param {number} at @param {number} value */
const insert = (b, at, value) => { const c = new Uint8Array(b.length + 1); c.set(b.subarray(0, at)); c[at] = value; c.set(b.subarray(at), at + 1); return c }
/** @param {Uint8Array} b @param {number} at */
const remove = (b, at) => { const c = new Uint8Array(b.length - 1); c.set(b.subarray(0, at)); c.set(b.subarray(at + 1), at); return c }

describe('dag-cbor-car: no lie under corruption (seeded flips, inserts, deletes in real CARs)', function () {
  this.timeout(240_000)
  /** @type {string} */
  let tmp
  before(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-corruption-')) })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  /** @type {{ name: string, bytes: Uint8Array, code: number }[]} cases kept for the command-line sample */
  const sample = []

  for (const [n, file] of CARS.entries()) {
    it(`${path.basename(file)}: every header bit flip, every CID codec bit flip and ${RANDOM_CASES} random cases fail, each with a byte offset`, async () => {
      const base = await cleanBase(file)
      const clean = await verdict(base)
      assert.equal(clean.code, 0, `the clean base does not pass: ${clean.reasons.join('; ')}`)
      const headerEnd = base[0] + 1 // a one-byte varint: the header's length, then the header
      assert.ok(base[0] < 0x80)
      const rnd = xorshift(0x5eed + n)
      /** @type {{ label: string, bytes: Uint8Array }[]} */
      const cases = []
      for (let at = 0; at < headerEnd; at++) for (const bit of [0x01, 0x04, 0x20, 0x80]) cases.push({ label: `header byte ${at} ^ 0x${bit.toString(16)}`, bytes: flip(base, at, bit) })
      // every bit of each block's CID codec byte: the hash still matches, only a content check can tell
      const indexer = await CarIndexer.fromBytes(base)
      for await (const { cid, blockOffset } of indexer) {
        const codecByte = blockOffset - cid.bytes.length + 1 // a CIDv1: version 0x01, then a one-byte codec
        assert.equal(base[codecByte], cid.code)
        for (let bit = 1; bit < 0x100; bit <<= 1) cases.push({ label: `CID codec byte ${codecByte} ^ 0x${bit.toString(16)}`, bytes: flip(base, codecByte, bit) })
      }
      for (let i = 0; i < RANDOM_CASES; i++) {
        const kind = i % 3
        const at = Math.floor(rnd() * base.length)
        if (kind === 0) {
          const bit = 1 << Math.floor(rnd() * 8)
          cases.push({ label: `byte ${at} ^ 0x${bit.toString(16)}`, bytes: flip(base, at, bit) })
        } else if (kind === 1) {
          const value = Math.floor(rnd() * 256)
          cases.push({ label: `0x${value.toString(16)} inserted at ${at}`, bytes: insert(base, at, value) })
        } else {
          cases.push({ label: `byte ${at} deleted`, bytes: remove(base, at) })
        }
      }
      const passed = []
      const noOffset = []
      const codes = [0, 0, 0]
      for (const c of cases) {
        const v = await verdict(c.bytes)
        codes[v.code]++
        if (v.code === 0) passed.push(c.label)
        for (const r of v.reasons) {
          if (!OFFSET.test(r) || r.includes('\n')) noOffset.push(`${c.label}: ${r}`)
        }
        if (v.reasons.length === 0 && v.code !== 0) noOffset.push(`${c.label}: exit ${v.code} with no reason`)
        if (sample.length < CLI_SAMPLE * (n + 1) && cases.indexOf(c) % Math.floor(cases.length / CLI_SAMPLE) === 0) sample.push({ name: `${n}-${sample.length}.car`, bytes: c.bytes, code: v.code })
      }
      console.log(`      ${cases.length} cases: exit 1 ${codes[1]}, exit 2 ${codes[2]}, exit 0 ${codes[0]}`)
      assert.deepEqual(passed, [], `${passed.length} damaged CARs passed`)
      assert.deepEqual(noOffset.slice(0, 10), [], `${noOffset.length} reasons without a byte offset, or not one line`)
      assert.ok(codes[1] > 0 && codes[2] > 0, 'both kinds of failure are exercised')
    })
  }

  it('a sample of the cases through the command line: the same exit status, one-line reasons, no stack trace', () => {
    assert.equal(sample.length, CLI_SAMPLE * CARS.length)
    for (const c of sample) {
      const file = path.join(tmp, c.name)
      fs.writeFileSync(file, c.bytes)
      const r = spawnSync(process.execPath, [TOOL, file], { encoding: 'utf8', timeout: 60000 })
      assert.equal(r.status, c.code, `${c.name}: ${r.stdout}${r.stderr}`)
      assert.doesNotMatch(r.stderr, STACK_LINE)
      if (c.code === 2) {
        const lines = r.stderr.trim().split('\n')
        assert.equal(lines.length, 1, r.stderr)
        assert.match(lines[0], /^dag-cbor-car: .*byte (offset )?\d+/)
      } else {
        assert.match(r.stdout, /result {6}FAIL/)
        for (const line of r.stdout.split('\n').filter((l) => /^ {4}\S+ {2}[a-z-]+: /.test(l))) assert.match(line, OFFSET)
      }
    }
  })
})
