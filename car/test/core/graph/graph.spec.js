// graph/: links found in a block's bytes, and CIDs kept as sets and tables. The oracle for links is
// @ipld/dag-cbor's decode walked for CID values.
import assert from 'node:assert/strict'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { linkSpans, scanLinks } from '../../../lib/core/graph/cbor-walk.js'
import { linksOf } from '../../../lib/core/graph/links.js'
import { CidTable } from '../../../lib/core/graph/cid-table.js'
import { DagIndex } from '../../../lib/core/graph/dag-index.js'
import { SeenCids } from '../../../lib/core/graph/seen.js'

/** @param {number} i */
const cidOf = async (i) => CID.createV1(0x71, await sha256.digest(Uint8Array.of(i, i >> 8, i >> 16)))

/** Every CID in a decoded value, depth first, in key order as encoded. @param {unknown} v @returns {CID[]} */
function cidsIn (v) {
  const c = CID.asCID(v)
  if (c) return [c]
  if (Array.isArray(v)) return v.flatMap(cidsIn)
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) return Object.values(v).flatMap(cidsIn)
  return []
}

describe('core/graph', () => {
  describe('links in DAG-CBOR bytes, as @ipld/dag-cbor finds them', () => {
    /** @type {{ name: string, value: (c: CID[]) => unknown }[]} */
    const rows = [
      { name: 'none', value: () => ({ a: 1, b: 'x' }) },
      { name: 'one at the top', value: (c) => c[0] },
      { name: 'in a list', value: (c) => [c[0], 1, c[1]] },
      { name: 'in nested maps', value: (c) => ({ a: { b: { c: c[2] } }, z: [c[0], { y: c[1] }] }) },
      { name: 'beside bytes that look like tag 42', value: (c) => ({ b: Uint8Array.of(0xd8, 0x2a, 0x58, 0x25, 0), l: c[0] }) },
      { name: 'many', value: (c) => c.concat(c) }
    ]
    for (const row of rows) {
      it(row.name, async () => {
        const cids = await Promise.all([1, 2, 3].map(cidOf))
        const bytes = dagCbor.encode(row.value(cids))
        const expected = cidsIn(dagCbor.decode(bytes)).map((c) => c.toString())
        assert.deepEqual(linksOf(0x71, bytes).map((c) => c.toString()), expected)
        assert.equal(linkSpans(bytes).length, expected.length)
        let n = 0
        scanLinks(bytes, 0, bytes.length, () => { n++ })
        assert.equal(n, expected.length)
      })
    }
    it('raw blocks link nowhere', async () => {
      assert.deepEqual(linksOf(0x55, (await cidOf(1)).bytes), [])
    })
  })

  it('CidTable numbers CIDs in the order added, and finds them again', async () => {
    const table = new CidTable()
    const cids = await Promise.all(Array.from({ length: 5000 }, (_, i) => cidOf(i)))
    cids.forEach((c, i) => assert.equal(table.add(c.bytes, 0, c.bytes.length), i))
    assert.equal(table.size, 5000)
    cids.forEach((c, i) => assert.equal(table.find(c.bytes, 0, c.bytes.length), i))
    assert.equal(table.add(cids[42].bytes, 0, cids[42].bytes.length), 42)
    const absent = await cidOf(99999)
    assert.equal(table.find(absent.bytes, 0, absent.bytes.length), -1)
    assert.deepEqual(table.bytesOf(7), cids[7].bytes)
  })

  it('SeenCids: true for a CID added before', async () => {
    const seen = new SeenCids(4)
    const cids = await Promise.all(Array.from({ length: 300 }, (_, i) => cidOf(i)))
    assert.equal(cids.map((c) => seen.add(c.bytes)).filter(Boolean).length, 0) // all new (growing past 4)
    assert.equal(cids.map((c) => seen.add(c.bytes)).filter(Boolean).length, 300) // all seen
  })

  it('DagIndex: duplicates, and what is reachable from a root', async () => {
    const [leafA, leafB, lone] = await Promise.all([cidOf(1), cidOf(2), cidOf(3)])
    const mid = dagCbor.encode({ a: leafA })
    const midCid = CID.createV1(0x71, await sha256.digest(mid))
    const top = dagCbor.encode([midCid, leafB])
    const topCid = CID.createV1(0x71, await sha256.digest(top))
    const index = new DagIndex()
    const ids = [
      index.addBlock(topCid.bytes, 100, 10, 0x71, top),
      index.addBlock(midCid.bytes, 200, 10, 0x71, mid),
      index.addBlock(leafA.bytes, 300, 10, 0x55, null),
      index.addBlock(lone.bytes, 400, 10, 0x55, null),
      index.addBlock(leafA.bytes, 500, 10, 0x55, null)
    ]
    assert.equal(ids[4], -1)
    assert.equal(index.duplicates, 1)
    const reached = index.reach([ids[0]])
    assert.deepEqual([ids[0], ids[1], ids[2], ids[3]].map((id) => reached[id]), [1, 1, 1, 0])
    assert.equal(index.offsetOf(ids[1]), 200)
  })
})
