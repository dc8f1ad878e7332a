// Small CARs of every kind of block, for tests that run every one-bit flip of a whole CAR: a CARv1
// whose DAG-CBOR root links to a dag-pb, a raw and an identity-CID block, and the same payload in a
// CARv2 with a MultihashIndexSorted index (as go-car writes it). Built with @ipld/* and multiformats,
// not the tool.
import * as dagPb from '@ipld/dag-pb'
import { CID } from 'multiformats/cid'
import { identity } from 'multiformats/hashes/identity'
import { sha256 } from 'multiformats/hashes/sha2'
import * as dagCbor from '@ipld/dag-cbor'
import { carV1, carV2, varint } from './car-oracle.js'

const MULTIHASH_INDEX_SORTED = 0x0401

/** @param {number} code @param {Uint8Array} bytes */
async function block (code, bytes, hasher = sha256) {
  return { cid: CID.create(1, code, await hasher.digest(bytes)), bytes }
}

/** The blocks: a dag-pb node, a raw block, an identity-CID raw block, and a DAG-CBOR root linking to all three. */
export async function smallBlocks () {
  const raw = await block(0x55, new TextEncoder().encode('a raw block'))
  const inline = await block(0x55, new TextEncoder().encode('inline'), identity)
  const pb = await block(0x70, dagPb.encode(dagPb.prepare({ Data: new TextEncoder().encode('dag-pb data'), Links: [{ Hash: raw.cid, Name: 'raw', Tsize: raw.bytes.length }] })))
  const root = await block(0x71, dagCbor.encode({ name: 'root', pb: pb.cid, raw: raw.cid, inline: inline.cid }))
  return [root, pb, raw, inline]
}

/** @returns {Promise<Uint8Array>} the CARv1 of smallBlocks(), rooted at its DAG-CBOR block */
export async function smallCarV1 () {
  const blocks = await smallBlocks()
  return new Uint8Array(carV1([blocks[0].cid], blocks))
}

/**
 * The same payload as a CARv2 with a MultihashIndexSorted index listing every block but the
 * identity one (go-car leaves identity CIDs out): one multihash code (sha2-256), one bucket of
 * 40-byte records (digest, then the section's offset in the payload as a little-endian u64), sorted
 * by digest.
 *
 * @returns {Promise<Uint8Array>}
 */
export async function smallCarV2 () {
  const blocks = await smallBlocks()
  const v1 = carV1([blocks[0].cid], blocks)
  const header = dagCbor.encode({ roots: [blocks[0].cid], version: 1 })
  let offset = varint(header.length).length + header.length
  const records = []
  for (const b of blocks) {
    const sectionLength = b.cid.bytes.length + b.bytes.length
    if (b.cid.multihash.code === sha256.code) records.push({ digest: b.cid.multihash.digest, offset })
    offset += varint(sectionLength).length + sectionLength
  }
  records.sort((a, b) => Buffer.compare(a.digest, b.digest))
  const bucket = Buffer.alloc(40 * records.length)
  records.forEach((r, i) => { bucket.set(r.digest, 40 * i); bucket.writeBigUInt64LE(BigInt(r.offset), 40 * i + 32) })
  const head = Buffer.alloc(4 + 8 + 4 + 12)
  head.writeInt32LE(1, 0) // multihash codes
  head.writeBigUInt64LE(BigInt(sha256.code), 4)
  head.writeInt32LE(1, 12) // buckets
  head.writeUInt32LE(40, 16) // record width
  head.writeBigUInt64LE(BigInt(bucket.length), 20)
  const index = Buffer.concat([varint(MULTIHASH_INDEX_SORTED), head, bucket])
  const dataOffset = 51
  return new Uint8Array(carV2(v1, { indexOffset: dataOffset + v1.length, trailer: index }))
}
