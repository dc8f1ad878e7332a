// write/: the bytes a CAR is written with, and --canonicalize's relinking of a parent's links.
// @ipld/car (a test-only oracle here) reads what the helpers write.
import assert from 'node:assert/strict'
import * as dagCbor from '@ipld/dag-cbor'
import { CarReader } from '@ipld/car/reader'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { identity } from 'multiformats/hashes/identity'
import { headerBytes, sectionBytes } from '../../../lib/core/write/memory-target.js'
import { spliceLinks, cidFor, cidKey, resolve, rewritten } from '../../../lib/core/write/relink.js'

/** @param {unknown} value */
const block = async (value) => {
  const bytes = dagCbor.encode(value)
  return { cid: CID.createV1(0x71, await sha256.digest(bytes)), bytes }
}

describe('core/write', () => {
  it('a header and sections that @ipld/car reads back', async () => {
    const blocks = await Promise.all([{ a: 1 }, [1, 2, 3], 'x'.repeat(300)].map(block))
    const parts = [headerBytes([blocks[0].cid, blocks[2].cid]), ...blocks.map((b) => sectionBytes(b.cid, b.bytes))]
    const car = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
    let at = 0
    for (const p of parts) { car.set(p, at); at += p.length }
    const reader = await CarReader.fromBytes(car)
    assert.deepEqual((await reader.getRoots()).map(String), [blocks[0].cid, blocks[2].cid].map(String))
    const read = []
    for await (const b of reader.blocks()) read.push(b)
    assert.deepEqual(read.map((b) => [b.cid.toString(), b.bytes]), blocks.map((b) => [b.cid.toString(), b.bytes]))
  })

  describe('spliceLinks: new CIDs in place of old, everything else byte for byte', () => {
    /** @type {{ name: string, value: (a: CID, b: CID) => unknown, fresh: (a: CID) => Promise<CID> }[]} */
    const rows = [
      { name: 'same length (sha2-256 for sha2-256)', value: (a, b) => ({ x: a, y: [b, a] }), fresh: async (a) => (await block({ new: 1 })).cid },
      { name: 'a shorter CID (an identity hash)', value: (a, b) => ({ x: a, y: [b, a] }), fresh: async () => CID.createV1(0x55, identity.digest(Uint8Array.of(1, 2))) },
      { name: 'a longer CID (identity, 40 bytes)', value: (a, b) => [a, 'between', b], fresh: async () => CID.createV1(0x55, identity.digest(new Uint8Array(40).fill(9))) }
    ]
    for (const row of rows) {
      it(row.name, async () => {
        const a = (await block('a')).cid
        const b = (await block('b')).cid
        const fresh = await row.fresh(a)
        const bytes = dagCbor.encode(row.value(a, b))
        const spliced = spliceLinks(bytes, (cid) => CID.decode(cid).equals(a) ? fresh.bytes : undefined)
        const swap = (/** @type {unknown} */ v) => JSON.parse(JSON.stringify(v, (k, x) => CID.asCID(x)?.equals(a) ? fresh.toString() : CID.asCID(x) ? x.toString() : x))
        assert.deepEqual(swap(dagCbor.decode(spliced)), swap(row.value(fresh, b)))
        assert.deepEqual(Uint8Array.from(spliced), Uint8Array.from(dagCbor.encode(row.value(fresh, b)))) // same bytes as encoding the new value
      })
    }
    it('returns the same bytes when no link changes', async () => {
      const bytes = dagCbor.encode({ x: (await block('a')).cid })
      assert.equal(spliceLinks(bytes, () => undefined), bytes)
    })
  })

  it('the write pass splices where resolve() found the links, and refuses bytes that are not the block resolve() read', async () => {
    const seed = await block('non-canonical child')
    const canonical = dagCbor.encode('child, canonical')
    const other = (await block('unaffected')).cid
    const parent = await block({ x: seed.cid, y: other })
    const file = { readRange: async (/** @type {number} */ start, /** @type {number} */ length) => parent.bytes.slice(start, start + length) }
    /** @type {Map<string, import('../../../lib/core/write/relink.js').Affected>} */
    const affected = new Map()
    affected.set(cidKey(seed.cid.bytes), { cid: seed.cid, canonical })
    /** @type {import('../../../lib/core/write/relink.js').Affected} */
    const entry = { cid: parent.cid, at: { start: 0, length: parent.bytes.length } }
    affected.set(cidKey(parent.cid.bytes), entry)
    await resolve(affected, /** @type {any} */ (file))
    const childCid = CID.createV1(0x71, await sha256.digest(canonical))
    const expected = dagCbor.encode({ x: childCid, y: other })
    const bytes = rewritten(affected, entry, parent.bytes)
    assert.deepEqual(bytes && Uint8Array.from(bytes), Uint8Array.from(expected))
    assert.equal(String(entry.newCid), cidFor(parent.cid, expected).toString())
    const changed = parent.bytes.slice()
    changed[changed.length - 1] ^= 1 // in the unaffected link: the spans still fit, the bytes are another block's
    assert.equal(rewritten(affected, entry, changed), null)
  })

  it('cidFor keeps the version, codec and hash function', async () => {
    const like = (await block('a')).cid
    const bytes = dagCbor.encode({ b: 2 })
    const made = cidFor(like, bytes)
    assert.equal(made.toString(), CID.createV1(0x71, await sha256.digest(bytes)).toString())
  })
})
