// Every one-bit flip of a small CAR of each kind (a CARv1 of DAG-CBOR, dag-pb, raw and identity-CID
// blocks; the same payload in a CARv2 with an index) through every entry: the command's pipeline
// (in this process, as bin/ runs it), verifyCar, canonicalizeCar (which reads block by block, as
// --out does) and CarBlockIterator with `validate` (blocks copied out, and viewBytes). None may
// pass: the command and verifyCar end in a failed summary or a CarReadError; the iterator hands
// out only the sections the file holds, byte for byte, each changed one flagged by its status, or
// throws a CarReadError or CarBlockError. The counts per CAR and entry are printed.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { verifyCar, canonicalizeCar, CarBlockIterator, CarReadError, CarBlockError } from '../lib/node/node-library.js'
import { roundTrip } from '../lib/node/run.js'
import { bytesSource } from '../lib/node/input-source.js'
import { exitCode } from '../lib/core/report/summary.js'
import { ToolError } from '../lib/core/base/errors.js'
import { smallCarV1, smallCarV2 } from './helpers/small-cars.js'

const TOOL = fileURLToPath(new URL('../bin/dag-cbor-car.js', import.meta.url))

/**
 * @typedef {{ cid: Uint8Array, bytes: Uint8Array }} Original a block as the clean CAR holds it
 * @typedef {'failed' | 'read-error' | 'block-error' | 'passed'} Outcome
 */

/** @param {unknown} err @returns {Outcome} */
function refused (err) {
  if (err instanceof CarReadError) return 'read-error'
  throw new Error(`not a CarReadError: ${/** @type {any} */ (err)?.stack ?? err}`)
}

/** @type {Record<string, (car: Uint8Array, originals: Map<number, Original>) => Promise<Outcome>>} */
const ENTRIES = {
  async command (car) {
    try {
      const summary = await roundTrip({ source: bytesSource('flipped.car', car), workers: 1 })
      return exitCode(summary) === 0 ? 'passed' : 'failed'
    } catch (err) {
      if (err instanceof ToolError) return 'read-error' // printed as one line, exit 2
      throw new Error(`not the tool's error: ${/** @type {any} */ (err)?.stack ?? err}`)
    }
  },
  async verifyCar (car) {
    try {
      return (await verifyCar(car)).result === 'ok' ? 'passed' : 'failed'
    } catch (err) {
      return refused(err)
    }
  },
  async canonicalizeCar (car) {
    try {
      const { summary } = canonicalizeCar(car)
      return (await summary).result === 'ok' ? 'passed' : 'failed'
    } catch (err) {
      return refused(err)
    }
  },
  iterator: (car, originals) => iterate(car, originals, {}),
  'iterator viewBytes': (car, originals) => iterate(car, originals, { viewBytes: true })
}

/**
 * Every block handed out must be exactly the section the (flipped) file holds at its offset; one
 * that differs from the original must be flagged (`validate`: a content check is what tells a
 * flipped codec byte, whose hash still matches). 'passed': every block, none flagged.
 *
 * @param {Uint8Array} car
 * @param {Map<number, Original>} originals
 * @param {object} options
 * @returns {Promise<Outcome>}
 */
async function iterate (car, originals, options) {
  let good = 0
  try {
    for await (const { cid, bytes, offset, status } of await CarBlockIterator.fromBytes(car, { ...options, validate: true })) {
      let at = offset
      let length = 0
      for (let scale = 1; ; scale *= 128) { const b = car[at++]; length += (b & 0x7f) * scale; if (b < 0x80) break }
      const section = car.subarray(at, at + length)
      assert.ok(Buffer.concat([cid.bytes, bytes]).equals(section), `the block handed out at byte offset ${offset} (${cid}) is not the section the file holds there`)
      const original = originals.get(offset)
      const same = original !== undefined && Buffer.from(cid.bytes).equals(original.cid) && Buffer.from(bytes).equals(original.bytes)
      const flagged = status !== 'canonical' && status !== 'ok'
      assert.ok(same || flagged, `a changed block at byte offset ${offset} (${cid}) was handed out as ${status}`)
      if (!flagged) good++
    }
  } catch (err) {
    if (err instanceof CarBlockError) return 'block-error'
    return refused(err)
  }
  // every block as the original holds it: the flip was in what the iterator does not check (the roots)
  return good === originals.size ? 'passed' : 'failed'
}

/** @param {Uint8Array} car @returns {Promise<Map<number, Original>>} the blocks by their section's offset */
async function blocksOf (car) {
  const out = new Map()
  for await (const { cid, bytes, offset } of await CarBlockIterator.fromBytes(car)) out.set(offset, { cid: cid.bytes.slice(), bytes: bytes.slice() })
  return out
}

/**
 * Whether the byte at `at` is in a section, which the iterator reads (not in the CARv1 header, nor
 * in a CARv2's pragma, fixed header or index).
 *
 * @param {Uint8Array} car @param {number} at
 */
function readByIterator (car, at) {
  const v2 = car[0] === 0x0a && car[10] === 0x02
  const view = new DataView(car.buffer, car.byteOffset, car.byteLength)
  const dataOffset = v2 ? Number(view.getBigUint64(27, true)) : 0
  const dataEnd = v2 ? dataOffset + Number(view.getBigUint64(35, true)) : car.length
  return at >= dataOffset + car[dataOffset] + 1 && at < dataEnd // the payload's header length is a one-byte varint here
}

/** @param {Uint8Array} car @param {number} bit */
const flipped = (car, bit) => { const c = car.slice(); c[bit >> 3] ^= 1 << (bit & 7); return c }

describe('every one-bit flip of a small CAR of each kind, through every entry', function () {
  this.timeout(300_000)
  for (const [name, make] of /** @type {const} */ ([['CARv1', smallCarV1], ['CARv2 with an index', smallCarV2]])) {
    it(`${name}: no flip passes the command or verifyCar; the iterator hands out only the file's blocks`, async () => {
      const car = await make()
      const originals = await blocksOf(car)
      assert.equal(originals.size, 4)
      const started = performance.now()
      const lines = []
      for (const [entry, run] of Object.entries(ENTRIES)) {
        const entryStarted = performance.now()
        assert.equal(await run(car, originals), 'passed', `${entry}: the clean ${name} does not pass`)
        /** @type {Record<Outcome, number>} */
        const counts = { failed: 0, 'read-error': 0, 'block-error': 0, passed: 0 }
        const passed = []
        for (let bit = 0; bit < car.length * 8; bit++) {
          const outcome = await run(flipped(car, bit), originals)
          counts[outcome]++
          if (outcome === 'passed') passed.push(`byte ${bit >> 3} bit ${bit & 7}`)
        }
        const failed = entry.startsWith('iterator') ? 'with a block flagged by its status' : 'failed summaries'
        lines.push(`${entry}: ${car.length * 8} flips, ${((performance.now() - entryStarted) / 1000).toFixed(1)} s: ${counts.failed} ${failed}, ${counts['read-error']} CarReadErrors, ${counts['block-error']} CarBlockErrors, ${counts.passed} passed`)
        if (entry.startsWith('iterator')) {
          // the iterator reads the blocks, not the header's roots (getRoots gives what the file
          // says), nor a CARv2's characteristics or index: only flips there may give every block
          assert.deepEqual(passed.filter((p) => readByIterator(car, Number(/\d+/.exec(p)?.[0]))), [], `${entry}: flips in the sections gave every block unflagged`)
        } else {
          assert.deepEqual(passed, [], `${entry}: ${passed.length} flipped CARs passed`)
        }
      }
      console.log(`      ${name} (${car.length} bytes), ${((performance.now() - started) / 1000).toFixed(1)} s:\n${lines.map((l) => `        ${l}`).join('\n')}`)
    })
  }

  it('the command line on the dag-pb and DAG-CBOR CID version flips (01 to 00): exit 2, the section\'s offset, no stack trace', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-flip-'))
    try {
      const car = await smallCarV1()
      const originals = await blocksOf(car)
      for (const [offset, { cid }] of originals) {
        if (cid[0] !== 1 || (cid[1] !== 0x70 && cid[1] !== 0x71)) continue
        let at = offset // past the length varint, to the CID's version byte
        while (car[at] >= 0x80) at++
        at++
        assert.equal(car[at], 1)
        const file = path.join(dir, `flip-${at}.car`)
        fs.writeFileSync(file, flipped(car, at * 8))
        const r = spawnSync(process.execPath, [TOOL, 'verify', file], { encoding: 'utf8', timeout: 60000 })
        assert.equal(r.status, 2, r.stdout + r.stderr)
        assert.match(r.stderr, new RegExp(`the section at byte offset ${offset} does not start with a valid CID \\(its version byte is 00, which no CID has`))
        assert.doesNotMatch(r.stderr, /\n\s+at .+:\d+:\d+/)
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
