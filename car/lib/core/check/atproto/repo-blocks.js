// The CAR's blocks, by CID, for a walk that follows links in any order. From a file, only where
// each block lies is kept (a few dozen bytes per block) and blocks are read again when reached,
// through a few read-ahead windows (neighbouring blocks are often reached together: a node's
// records, a run of nodes), so a read serves many blocks; from a stream, which cannot be read
// again, the blocks themselves are kept.
import { openCar } from '../../read/open-car.js'
import { toLatin1 } from '../../base/bytes.js'
import { readyFor } from '../on-demand.js'

const WINDOW = 64 * 1024
const WINDOWS = 8

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {{ start: number, length: number, bytes: Uint8Array | null }} Place
 * @typedef {object} BlockStore
 * @property {CID[]} roots the CAR header's roots
 * @property {number} carVersion 1 or 2
 * @property {number} blocks sections in the CAR
 * @property {number} distinct distinct CIDs among them
 * @property {(cid: CID) => Promise<Uint8Array | undefined>} get the block's bytes (the first copy, if the CAR repeats it)
 * @property {() => Iterable<string>} keys every distinct CID, as its blockKey
 * @property {import('../../read/section-reader.js').CarFileReader['nonMinimal']} nonMinimal the length
 *   varints read that were written longer than their shortest form (the reader's record of them)
 */

/**
 * A CID as a map key: its bytes as a one-byte-per-char string (about 36 characters for a sha2-256
 * CID). CID.toString() would do, but it builds the base32 text one character at a time, and V8
 * keeps such a string as a chain of pieces until it is first hashed: several KB per key.
 *
 * @param {CID} cid
 */
export function blockKey (cid) {
  return toLatin1(cid.bytes)
}

/**
 * Read the whole CAR once (every section's length and CID is checked by openCar; a CAR that
 * cannot be read to the end throws its CarReadError, exit status 2).
 *
 * @param {import('../../read/source.js').Source} source
 * @param {{ maxBlockSize?: number, onOpen?: (car: import('../../read/open-car.js').Car) => void }} [options] onOpen: called with the
 *   CAR once its header is read, before its blocks (the CLI draws its progress line from it)
 * @returns {Promise<BlockStore>}
 */
export async function readBlocks (source, { maxBlockSize, onOpen } = {}) {
  const car = await openCar(source.stream(), { size: source.size, maxBlockSize, ready: readyFor })
  onOpen?.(car)
  /** @type {Map<string, Place>} */
  const places = new Map()
  let blocks = 0
  for await (const block of car.blocks()) {
    blocks++
    const key = blockKey(block.cid)
    if (places.has(key)) continue
    // openCar has just read the section: its block's bytes end where the reader now is
    const end = car.position()
    places.set(key, { start: end - block.bytes.length, length: block.bytes.length, bytes: source.seekable ? null : block.bytes.slice() })
  }
  const windows = readAhead(source)
  return {
    roots: car.roots,
    carVersion: car.version,
    blocks,
    distinct: places.size,
    nonMinimal: car.nonMinimal,
    async get (cid) {
      const place = places.get(blockKey(cid))
      if (!place) return undefined
      return place.bytes ?? windows.read(place.start, place.length)
    },
    keys: () => places.keys()
  }
}

/**
 * Reads of a seekable source through the last few windows read, least recently used replaced.
 *
 * @param {import('../../read/source.js').Source} source
 */
function readAhead (source) {
  /** @type {{ start: number, bytes: Uint8Array }[]} most recently used first */
  const recent = []
  return {
    /** @param {number} start @param {number} length */
    async read (start, length) {
      for (let i = 0; i < recent.length; i++) {
        const w = recent[i]
        if (start >= w.start && start + length <= w.start + w.bytes.length) {
          if (i > 0) { recent.splice(i, 1); recent.unshift(w) }
          return w.bytes.subarray(start - w.start, start - w.start + length)
        }
      }
      const size = Math.max(length, Math.min(WINDOW, /** @type {number} */ (source.size) - start))
      const w = { start, bytes: await source.readRange(start, size) }
      recent.unshift(w)
      if (recent.length > WINDOWS) recent.pop()
      return w.bytes.subarray(0, length)
    }
  }
}
