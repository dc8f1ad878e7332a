// The page's list of blocks, in CAR order, over typed arrays: a million blocks cost a few tens of
// megabytes and no object each. The worker fills batches (BlockBatch) as the check runs and hands
// them over (transferred, not copied); the page appends them to a BlockTable, whose CIDs sit in one
// CidTable (duplicates share an id), so that a CID found in a block's links resolves to its block.
import { CidTable, grow } from '../lib/core/graph/cid-table.js'

/** A block's status in the list; the order is the Uint8Array code. 'orphan' is not a status but a filter. */
export const STATUSES = /** @type {const} */ (['ok', 'canonical', 'non-canonical', 'invalid', 'hash-mismatch', 'unverified', 'unknown-codec'])
const STATUS_CODE = new Map(STATUSES.map((s, i) => [s, i]))

/** @param {string} status */
export function statusCode (status) {
  const code = STATUS_CODE.get(/** @type {typeof STATUSES[number]} */ (status))
  if (code === undefined) throw new Error(`unknown block status ${JSON.stringify(status)}`)
  return code
}

/**
 * @typedef {object} BlockBatch
 * @property {number} count
 * @property {Float64Array} offset section offset in the file
 * @property {Uint32Array} length section length
 * @property {Uint32Array} codec multicodec code
 * @property {Uint32Array} hash multihash code
 * @property {Uint8Array} status STATUSES index
 * @property {Uint32Array} cidEnd where each CID's bytes end in cidBytes
 * @property {Uint8Array} cidBytes
 */

/** Collects blocks in the worker until `take()` hands them over as one batch. */
export class BatchBuilder {
  /** @param {number} capacity blocks per batch */
  constructor (capacity) {
    const n = capacity
    this.capacity = n
    this.count = 0
    this.offset = new Float64Array(n)
    this.length = new Uint32Array(n)
    this.codec = new Uint32Array(n)
    this.hash = new Uint32Array(n)
    this.status = new Uint8Array(n)
    this.cidEnd = new Uint32Array(n)
    this.cidBytes = new Uint8Array(n * 40)
    this.cidUsed = 0
  }

  get full () { return this.count === this.capacity }

  /**
   * @param {number} offset @param {number} length @param {number} codec @param {number} hash
   * @param {number} status @param {Uint8Array} cid
   */
  add (offset, length, codec, hash, status, cid) {
    const i = this.count++
    this.offset[i] = offset
    this.length[i] = length
    this.codec[i] = codec
    this.hash[i] = hash
    this.status[i] = status
    if (this.cidUsed + cid.length > this.cidBytes.length) this.cidBytes = grow(this.cidBytes, this.cidUsed + cid.length)
    this.cidBytes.set(cid, this.cidUsed)
    this.cidUsed += cid.length
    this.cidEnd[i] = this.cidUsed
  }

  /** @returns {{ batch: BlockBatch, transfer: ArrayBuffer[] }} */
  take () {
    const n = this.count
    /** @type {BlockBatch} */
    const batch = {
      count: n,
      offset: this.offset.slice(0, n),
      length: this.length.slice(0, n),
      codec: this.codec.slice(0, n),
      hash: this.hash.slice(0, n),
      status: this.status.slice(0, n),
      cidEnd: this.cidEnd.slice(0, n),
      cidBytes: this.cidBytes.slice(0, this.cidUsed)
    }
    this.count = 0
    this.cidUsed = 0
    const transfer = [batch.offset.buffer, batch.length.buffer, batch.codec.buffer, batch.hash.buffer,
      batch.status.buffer, batch.cidEnd.buffer, batch.cidBytes.buffer]
    return { batch, transfer: /** @type {ArrayBuffer[]} */ (transfer) }
  }
}

/** Every block of a CAR, appended batch by batch. */
export class BlockTable {
  constructor () {
    this.count = 0
    this.cids = new CidTable()
    this.offset = new Float64Array(1024)
    this.length = new Uint32Array(1024)
    this.codec = new Uint32Array(1024)
    this.hash = new Uint32Array(1024)
    this.status = new Uint8Array(1024)
    /** @type {Int32Array} the CidTable id of each block's CID */
    this.cidId = new Int32Array(1024)
    /** @type {Int32Array} per CidTable id: its first block */
    this.firstBlock = new Int32Array(1024)
    /** @type {Uint8Array | null} per block: 1 when reachable from a root (set once links are indexed) */
    this.reached = null
  }

  /** @param {BlockBatch} batch */
  append (batch) {
    const need = this.count + batch.count
    if (need > this.offset.length) {
      this.offset = grow(this.offset, need)
      this.length = grow(this.length, need)
      this.codec = grow(this.codec, need)
      this.hash = grow(this.hash, need)
      this.status = grow(this.status, need)
      this.cidId = grow(this.cidId, need)
    }
    this.offset.set(batch.offset, this.count)
    this.length.set(batch.length, this.count)
    this.codec.set(batch.codec, this.count)
    this.hash.set(batch.hash, this.count)
    this.status.set(batch.status, this.count)
    let start = 0
    for (let i = 0; i < batch.count; i++) {
      const end = batch.cidEnd[i]
      const before = this.cids.size
      const id = this.cids.add(batch.cidBytes, start, end)
      if (id === before) {
        if (id >= this.firstBlock.length) this.firstBlock = grow(this.firstBlock, id + 1)
        this.firstBlock[id] = this.count + i
      }
      this.cidId[this.count + i] = id
      start = end
    }
    this.count = need
  }

  /** @param {number} block @returns {Uint8Array} its CID's bytes (a view: copy to keep) */
  cidBytes (block) { return this.cids.bytesOf(this.cidId[block]) }

  /**
   * The first block with this CID, or -1.
   *
   * @param {Uint8Array} cid
   */
  find (cid) {
    const id = this.cids.find(cid, 0, cid.length)
    return id < 0 ? -1 : this.firstBlock[id]
  }
}
