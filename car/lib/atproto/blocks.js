// The CAR's blocks, by CID, for a walk that follows links in any order. From a file, only where
// each block lies is kept (a few dozen bytes per block) and blocks are read again when reached;
// from a stream, which cannot be read again, the blocks themselves are kept.
import { openCar } from '../read.js'

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {{ start: number, length: number, bytes: Uint8Array | null }} Place
 * @typedef {object} BlockStore
 * @property {CID[]} roots the CAR header's roots
 * @property {number} carVersion 1 or 2
 * @property {number} blocks sections in the CAR
 * @property {number} distinct distinct CIDs among them
 * @property {(cid: CID) => boolean} has
 * @property {(cid: CID) => Promise<Uint8Array | undefined>} get the block's bytes (the first copy, if the CAR repeats it)
 * @property {() => Iterable<string>} cids every distinct CID, as strings
 */

/**
 * Read the whole CAR once (every section's length and CID is checked by openCar; a CAR that
 * cannot be read to the end throws its CarReadError, exit status 2).
 *
 * @param {import('../source.js').Source} source
 * @param {{ maxBlockSize?: number }} [options]
 * @returns {Promise<BlockStore>}
 */
export async function readBlocks (source, { maxBlockSize } = {}) {
  const car = await openCar(source.stream(), { size: source.size, maxBlockSize })
  /** @type {Map<string, Place>} */
  const places = new Map()
  let blocks = 0
  for await (const block of car.blocks()) {
    blocks++
    const key = block.cid.toString()
    if (places.has(key)) continue
    // openCar has just read the section: its block's bytes end where the reader now is
    const end = car.position()
    places.set(key, { start: end - block.bytes.length, length: block.bytes.length, bytes: source.seekable ? null : block.bytes.slice() })
  }
  return {
    roots: car.roots,
    carVersion: car.version,
    blocks,
    distinct: places.size,
    has: (cid) => places.has(cid.toString()),
    async get (cid) {
      const place = places.get(cid.toString())
      if (!place) return undefined
      return place.bytes ?? source.readRange(place.start, place.length)
    },
    cids: () => places.keys()
  }
}
