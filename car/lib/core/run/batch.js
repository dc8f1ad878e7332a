// Blocks travel to worker threads in batches: CID bytes and block bytes packed into one transferable
// buffer each, so a batch costs one copy and one message instead of one per block.
import { CID } from 'multiformats/cid'
import { verdict } from '../check/classify.js'

/**
 * @typedef {{ cid: CID, bytes: Uint8Array }} Block
 * @typedef {{ data: Uint8Array, ends: Uint32Array, cids: Uint8Array, cidEnds: Uint32Array }} PackedBatch
 */

/**
 * @param {Block[]} blocks
 * @returns {PackedBatch}
 */
export function pack (blocks) {
  let size = 0
  let cidSize = 0
  for (const b of blocks) { size += b.bytes.length; cidSize += b.cid.bytes.length }
  const data = new Uint8Array(size)
  const cids = new Uint8Array(cidSize)
  const ends = new Uint32Array(blocks.length)
  const cidEnds = new Uint32Array(blocks.length)
  let at = 0
  let cidAt = 0
  blocks.forEach((b, i) => {
    data.set(b.bytes, at)
    ends[i] = at += b.bytes.length
    cids.set(b.cid.bytes, cidAt)
    cidEnds[i] = cidAt += b.cid.bytes.length
  })
  return { data, ends, cids, cidEnds }
}

/** @param {PackedBatch} p */
export function transferList (p) {
  return /** @type {ArrayBuffer[]} */ ([p.data.buffer, p.ends.buffer, p.cids.buffer, p.cidEnds.buffer])
}

/**
 * @param {PackedBatch} p
 * @returns {Block[]}
 */
export function unpack (p) {
  const blocks = []
  let at = 0
  let cidAt = 0
  for (let i = 0; i < p.ends.length; i++) {
    blocks.push({ cid: CID.decode(p.cids.subarray(cidAt, p.cidEnds[i])), bytes: p.data.subarray(at, p.ends[i]) })
    at = p.ends[i]
    cidAt = p.cidEnds[i]
  }
  return blocks
}

/**
 * @param {import('../check/classify.js').Codec} codec
 * @param {Block[]} blocks
 * @param {{ canonicalize?: boolean }} options
 */
export function processBatch (codec, blocks, options) {
  return blocks.map((b) => verdict(codec, b.cid, b.bytes, options))
}
