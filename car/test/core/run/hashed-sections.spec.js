// core/hashed-sections.js: the hash check a worker thread makes on a batch of sections.
import assert from 'node:assert/strict'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { hashedSections } from '../../../lib/core/run/hashed-sections.js'

/** @param {number} n */
const varint = (n) => { const out = []; while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n >>>= 7 } out.push(n); return out }

/**
 * A batch of sections (length varint, CID, block) and where each ends.
 *
 * @param {{ cid: CID, bytes: Uint8Array }[]} blocks
 */
function batch (blocks) {
  const parts = []
  const ends = []
  let at = 0
  for (const { cid, bytes } of blocks) {
    const section = Uint8Array.from([...varint(cid.bytes.length + bytes.length), ...cid.bytes, ...bytes])
    parts.push(section)
    at += section.length
    ends.push(at)
  }
  const out = new Uint8Array(at)
  let p = 0
  for (const s of parts) { out.set(s, p); p += s.length }
  return { bytes: out, ends: Uint32Array.from(ends) }
}

describe('core/hashed-sections', () => {
  const blocks = async () => Promise.all([0, 1, 2, 3].map(async (i) => {
    const bytes = new Uint8Array(300 + i * 100).fill(i + 1)
    return { cid: CID.create(1, 0x55, await sha256.digest(bytes)), bytes }
  }))

  it('counts every section of a good batch', async () => {
    const { bytes, ends } = batch(await blocks())
    assert.equal(hashedSections(bytes, ends), 4)
  })

  it('stops at a block that does not hash to its CID', async () => {
    const { bytes, ends } = batch(await blocks())
    bytes[ends[2] - 1] ^= 1 // the last byte of the third block
    assert.equal(hashedSections(bytes, ends), 2)
  })

  it('stops at a section it does not verify: a CIDv0, or a hash it does not compute', async () => {
    const good = await blocks()
    const v0 = { cid: CID.createV0(await sha256.digest(new Uint8Array(5))), bytes: new Uint8Array(5) }
    let { bytes, ends } = batch([good[0], v0, good[1]])
    assert.equal(hashedSections(bytes, ends), 1)
    const other = { cid: CID.create(1, 0x55, { code: 0x13, size: 32, digest: new Uint8Array(32), bytes: Uint8Array.of(0x13, 0x20, ...new Uint8Array(32)) }), bytes: new Uint8Array(3) };
    ({ bytes, ends } = batch([good[0], good[1], other]))
    assert.equal(hashedSections(bytes, ends), 2)
  })
})
