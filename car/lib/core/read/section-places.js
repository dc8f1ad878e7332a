// Where each section of a CAR lies, read batch by batch for the indexers (api/car-indexer.js's
// CarIndexer, the Node shell's CarIndexedReader): each section's CID checked (a valid CID, in its one
// form) and its block's size bounded, with no object per section.
import { openCar, asReadError, decodeSectionCid, sectionError } from './open-car.js'
import { BATCH_BYTES, BATCH_SECTIONS } from './limits.js'

/**
 * @typedef {import('./source.js').Source} Source
 */

/**
 * Where the CID at bytes[from] ends, when it is a plain one: a CIDv0 (`12 20` and 32 bytes), or a
 * CIDv1 whose three varints are each written in their one (shortest) form, lying whole before `to`;
 * -1 for anything else, which decodeSectionCid then takes or refuses (with why). What is taken
 * here is what decodeSectionCid takes, without multiformats' decoding of each CID twice.
 *
 * @param {Uint8Array} bytes @param {number} from @param {number} to
 */
export function plainCidEnd (bytes, from, to) {
  if (bytes[from] === 0x12 && bytes[from + 1] === 0x20) return from + 34 <= to ? from + 34 : -1
  if (bytes[from] !== 1) return -1
  let p = from + 1
  let value = 0
  for (let k = 0; k < 3; k++) { // codec, multihash code, digest size
    value = 0
    let scale = 1
    for (let i = 0; ; i++) {
      if (p >= to || i === 8) return -1
      const b = bytes[p++]
      value += (b & 0x7f) * scale
      if (b < 0x80) {
        if (b === 0 && i > 0) return -1 // a varint written longer than needed
        break
      }
      scale *= 128
    }
  }
  return p + value <= to ? p + value : -1
}

/**
 * @typedef {(bytes: Uint8Array, cidStart: number, cidEnd: number, offset: number, length: number, blockOffset: number) => void} SectionVisit
 *   a section: its CID is bytes[cidStart, cidEnd) (checked: a valid CID, in its one form), its own
 *   byte offset and length (length varint included), and its block's byte offset (the block runs
 *   to the section's end); `bytes` is read into again after the call
 */

/**
 * Every section of an opened CAR, in order, to `visit`, batch by batch (read/open-car.js
 * sectionBatches: no await and no object per section); a batch's sections are visited before its
 * error, if any, is thrown: the one blocks() gives.
 *
 * @param {import('./open-car.js').Car} car opened with shared: false
 * @param {number} maxBlockSize
 * @param {SectionVisit} visit
 * @returns {AsyncGenerator<number>} after each batch, how many sections were visited in all
 */
export async function * visitSections (car, maxBlockSize, visit) {
  /** @type {SharedArrayBuffer[]} */
  const spare = []
  let count = 0
  for await (const { bytes, ends, starts } of car.sectionBatches(BATCH_BYTES, BATCH_SECTIONS, spare)) {
    let failure = null
    let from = 0
    for (let i = 0; i < ends.length; i++) {
      const start = from
      const to = ends[i]
      while (bytes[from++] >= 0x80); // the length varint, checked by sectionBatches
      let cidEnd = plainCidEnd(bytes, from, to)
      if (cidEnd < 0) {
        try {
          cidEnd = to - decodeSectionCid(bytes.subarray(from, to))[1].length
        } catch (err) {
          failure = sectionError(starts[i], count, 'cid', String(/** @type {any} */ (err)?.message ?? err).split('\n')[0], 0, maxBlockSize)
          break
        }
      }
      if (to - cidEnd > maxBlockSize) {
        failure = sectionError(starts[i], count, 'too-big', '', to - cidEnd, maxBlockSize)
        break
      }
      visit(bytes, from, cidEnd, starts[i], to - start, starts[i] + cidEnd - start)
      count++
      from = to
    }
    if (spare.length < 4) spare.push(/** @type {SharedArrayBuffer} */ (bytes.buffer))
    yield count
    if (failure) throw failure
  }
}

/**
 * Open a CAR to index it: its sections read in batches, by position where the source allows.
 *
 * @param {Source} source closed on failure
 * @param {number} maxBlockSize
 */
export async function openForIndex (source, maxBlockSize) {
  try {
    return await openCar(source.stream(), { size: source.size, maxBlockSize, file: source.seekable ? source : undefined, shared: false, reuse: true })
  } catch (err) {
    await source.close()
    throw asReadError(err, 0, 0)
  }
}
