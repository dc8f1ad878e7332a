// The blocks of a CAR, one by one, for the library's CarBlockIterator: read in batches of whole
// sections (read/section-batches.js sectionBatches: no await per block, no object per length
// varint) through the one loop (feed.js: hashed here, or by a shell's worker pool), each CID
// built from the batch's bytes without multiformats' checks of what is already checked here, and
// each block's hash verified as it is handed out. The errors are the ones read/section-reader.js's blocks() gives.
// Each block's bytes and its CID's bytes are copied out of the batch by default, each into an array
// of its own: a kept CID or block would otherwise hold its whole 1 MiB batch alive, and a caller
// keeping every CID (a common pattern) would hold the whole file. `viewBytes` opts into views.
import { CID } from 'multiformats/cid'
import { sectionError, decodeSectionCid } from '../read/open-car.js'
import { plainCid } from '../read/sections.js'
import { missing, loadFor } from '../check/on-demand.js'
import { ownedCopy } from '../base/bytes.js'
import { hashedSections } from './hashed-sections.js'
import { feed } from './feed.js'

import { BATCH_BYTES, BATCH_SECTIONS, SPARE_BUFFERS, HASHING_AHEAD, READ_SPARE } from '../read/limits.js'
// the CIDs built from a batch's bytes (read/sections.js; the tests check HEAP_CIDS here)
export { HEAP_CIDS } from '../read/sections.js'

/**
 * @typedef {import('../read/open-car.js').SectionBatch & { verified?: number }} HashedBatch a batch of
 *   sections whose first `verified` blocks are known to hash to their CIDs (a shell's worker threads
 *   checked them: see hashed-sections.js); the others are checked as they are handed out
 */

/**
 * @typedef {import('./feed.js').Pool & { size: number, hash: (batch: import('../read/open-car.js').SectionBatch) => Promise<{ verified: number, bytes: Uint8Array }> }} HashPool
 *   a shell's worker threads checking the hashes of batches of sections (Node: lib/node/workers.js's
 *   'hash' jobs), each batch's buffer transferred there and back
 */

/**
 * The CAR's sections in batches, through the one loop (feed.js): without a pool, each as it is read
 * (its blocks' hashes are checked as they are handed out); with a shell's worker threads, each sent
 * to them to have its hashes checked, or checked here (hashed-sections.js) while the workers have
 * HASHING_AHEAD batches each still to hash, or have not started yet. Batches come out in order;
 * a few more than the workers hold are read ahead (more only holds more memory).
 *
 * @param {import('../read/open-car.js').Car} car
 * @param {ArrayBufferLike[]} [spare] buffers to read into again
 * @param {HashPool | null} [pool]
 * @returns {AsyncGenerator<HashedBatch>}
 */
export async function * hashedBatches (car, spare, pool = null) {
  const batches = feed(car.sectionBatches(BATCH_BYTES, BATCH_SECTIONS, /** @type {SharedArrayBuffer[]} */ (spare)), {
    // a worker's answer, or this thread's: how many of the batch's first blocks were verified
    here: (batch) => ({ verified: pool === null ? 0 : hashedSections(batch.bytes, batch.ends), bytes: batch.bytes }),
    send: pool === null ? null : (batch) => pool.hash(batch),
    pool,
    perWorker: HASHING_AHEAD,
    ahead: pool === null ? 1 : HASHING_AHEAD * pool.size + READ_SPARE
  })
  for await (const { batch, result } of batches) {
    const { ends, starts, first } = batch
    yield { bytes: result.bytes, ends, starts, first, verified: result.verified }
  }
}

/**
 * The blocks in batches (one per batch of sections read), each block passed through `check` as it
 * is put in its batch (with whether its hash was checked already); an error (of reading, or thrown
 * by `check`) comes after a batch holding the blocks before it.
 *
 * @template T
 * @param {AsyncIterable<HashedBatch>} batches
 * @param {number} maxBlockSize
 * @param {(block: import('../read/open-car.js').Block, hashChecked: boolean) => T} check
 * @param {ArrayBufferLike[]} [spare] given: each block's bytes and CID are copied out of their batch,
 *   whose buffer then goes here to be read into again; not given: views of the batch are handed out
 *   (viewBytes), and the batch stays alive while any is kept
 * @returns {AsyncGenerator<T[]>}
 */
export async function * blockBatches (batches, maxBlockSize, check, spare) {
  const copy = spare !== undefined
  let count = 0
  for await (const { bytes, ends, starts, verified = 0 } of batches) {
    /** @type {T[]} */
    const out = []
    let failure = null
    let from = 0
    for (let i = 0; i < ends.length; i++) {
      const to = ends[i]
      while (bytes[from++] >= 0x80); // the length varint, checked by sectionBatches
      let cid = plainCid(bytes, from, to, copy)
      let dataAt = cid === null ? to : from + cid.bytes.length
      try {
        if (cid === null) {
          let rest
          try {
            [cid, rest] = decodeSectionCid(bytes.subarray(from, to))
          } catch (err) {
            throw sectionError(starts[i], count, 'cid', String(/** @type {any} */ (err)?.message ?? err).split('\n')[0], 0, maxBlockSize)
          }
          dataAt = to - rest.length
          if (copy) cid = CID.decode(bytes.slice(from, dataAt))
        }
        if (to - dataAt > maxBlockSize) throw sectionError(starts[i], count, 'too-big', '', to - dataAt, maxBlockSize)
        if (missing(cid.code, cid.multihash.code)) await loadFor(cid.code, cid.multihash.code)
        out.push(check({ cid, bytes: copy ? ownedCopy(bytes, dataAt, to) : bytes.subarray(dataAt, to), offset: starts[i] }, i < verified))
      } catch (err) {
        failure = err
        break
      }
      count++
      from = to
    }
    // every block copied out: the buffer is free (a few kept: as many as the reader has in use at once)
    if (copy && spare.length < SPARE_BUFFERS) spare.push(bytes.buffer)
    if (out.length) yield out
    if (failure) throw failure
  }
}
