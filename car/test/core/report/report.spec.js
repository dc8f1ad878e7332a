// report/: what the tool says. Units as `ls -h --si` prints them, export lines that read back to
// the same block, and a summary whose verdict follows its counts.
import assert from 'node:assert/strict'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { humanBytes, humanRate, humanSeconds, parseSize } from '../../../lib/core/report/units.js'
import { headerLine, blockLine, parseHeaderLine, parseBlockLine } from '../../../lib/core/report/block-json.js'
import { createSummary, countBlocks, resultOf, exitCode } from '../../../lib/core/report/summary.js'

describe('core/report', () => {
  describe('units', () => {
    const bytes = [[0, '0 B'], [999, '999 B'], [1000, '1.00 kB'], [5200, '5.20 kB'], [99_949, '99.9 kB'], [315_000_000, '315 MB'], [1_070_000_000, '1.07 GB']]
    for (const [n, text] of bytes) it(`${n} bytes: ${text}`, () => assert.equal(humanBytes(/** @type {number} */ (n)), text))
    const sizes = [['4096', 4096], ['4k', 4096], ['4KiB', 4096], ['2M', 2 * 1024 ** 2], ['1g', 1024 ** 3], ['x', NaN], ['-1', NaN], ['1.5M', NaN]]
    for (const [text, n] of sizes) it(`--max-block-size ${text}: ${n}`, () => assert.deepEqual(parseSize(/** @type {string} */ (text)), n))
    it('seconds and rates', () => {
      assert.equal(humanSeconds(0.0234), '0.023 s')
      assert.equal(humanSeconds(1.234), '1.23 s')
      assert.equal(humanSeconds(42.4), '42 s')
      assert.equal(humanRate(315_000_000, 2), '158 MB/s')
      assert.equal(humanRate(1, 0), 'n/a')
    })
  })

  describe('export lines read back to the same block', () => {
    /** @type {{ name: string, codec: number, bytes: () => Uint8Array }[]} */
    const rows = [
      { name: 'a DAG-CBOR map', codec: 0x71, bytes: () => dagCbor.encode({ a: 1, b: [true, null, 'x'], c: Uint8Array.of(1, 2) }) },
      { name: 'raw bytes', codec: 0x55, bytes: () => Uint8Array.of(0, 255, 10, 13) },
      { name: 'non-canonical DAG-CBOR (kept as bytes)', codec: 0x71, bytes: () => Uint8Array.of(0xa2, 0x61, 0x62, 0x01, 0x61, 0x61, 0x02) }
    ]
    for (const row of rows) {
      it(row.name, async () => {
        const bytes = row.bytes()
        const cid = CID.createV1(row.codec, await sha256.digest(bytes))
        const line = blockLine(cid, bytes)
        const back = parseBlockLine(new TextEncoder().encode(line.line), 2)
        assert.equal(back.cid.toString(), cid.toString())
        assert.deepEqual(back.bytes, bytes)
      })
    }
    it('the header line', async () => {
      const root = CID.createV1(0x55, await sha256.digest(Uint8Array.of(1)))
      const line = headerLine([root])
      assert.deepEqual(JSON.parse(line), { roots: [{ '/': root.toString() }], version: 1 })
      assert.deepEqual(parseHeaderLine(new TextEncoder().encode(line), 1).map(String), [root.toString()])
    })
  })

  describe('a summary\'s verdict follows its counts', () => {
    /** @type {{ name: string, set: (s: any) => void, result: string, exit: number }[]} */
    const rows = [
      { name: 'a verified block, its root present', set: (s) => { s.roots = ['x']; countBlocks(s, 0x55, 0x12, 1, 10); s.verified = 1 }, result: 'ok', exit: 0 },
      { name: 'a hash mismatch', set: (s) => { s.roots = ['x']; countBlocks(s, 0x55, 0x12, 1, 10); s.hashMismatches = 1 }, result: 'fail', exit: 1 },
      { name: 'a non-canonical block', set: (s) => { s.roots = ['x']; s.dagCbor.nonCanonical = 1 }, result: 'fail', exit: 1 },
      { name: 'a non-canonical block relaxed decode reads exactly, with --relaxed', set: (s) => { s.roots = ['x']; s.relaxed = true; s.dagCbor.nonCanonical = 1; s.dagCbor.lossless = 1 }, result: 'ok', exit: 0 },
      { name: 'a run that stopped on an error', set: (s) => { s.error = 'truncated' }, result: 'incomplete', exit: 2 }
    ]
    for (const row of rows) {
      it(row.name, () => {
        const s = createSummary()
        row.set(s)
        assert.equal(resultOf(s), row.result)
        assert.equal(exitCode(s), row.exit)
      })
    }
  })
})
