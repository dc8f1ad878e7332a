// The checks over the CAR as a whole (those go-car's `car verify` makes, and a duplicate count): the header lists at
// least one root, every root is present as a block, duplicate blocks are counted, and a CARv2 index
// (when there is one) matches the blocks. Fed block by block in CAR order on the main thread.
import { CID } from 'multiformats/cid'
import { SeenCids } from './seen.js'
import { BlockRecords, checkIndex } from './car-index.js'

const MAX_CAR_PROBLEMS = 10

/**
 * @param {import('./read.js').Car} car
 * @param {{ partial?: boolean }} options partial: the CAR is part of a larger DAG, so its roots may be
 *   stored elsewhere (absent from its blocks) and its header may list none
 */
export function createChecks (car, { partial = false } = {}) {
  /** @type {Map<number, CID[]>} roots by the last 4 bytes of their CID, a cheap first filter per block */
  const rootsByTail = new Map()
  for (const root of car.roots) {
    const t = tail(root.bytes)
    rootsByTail.set(t, [...(rootsByTail.get(t) ?? []), root])
  }
  /** @type {Set<CID>} */
  const found = new Set()
  const seen = new SeenCids()
  let duplicates = 0
  const dataOffset = car.v2 ? car.v2.dataOffset : 0
  const records = car.v2 && car.v2.indexOffset !== 0 ? new BlockRecords() : null

  /**
   * @param {Uint8Array} bytes the block's CID
   * @param {number} offset its section's byte offset
   * @param {CID | null} cid the same CID, when at hand
   */
  const check = (bytes, offset, cid) => {
    const candidates = rootsByTail.get(tail(bytes))
    if (candidates) for (const root of candidates) if (sameCid(root.bytes, bytes)) found.add(root)
    const duplicate = seen.add(bytes)
    if (duplicate) duplicates++
    if (records) {
      const mh = (cid ?? CID.decode(bytes)).multihash
      records.add(mh.code, mh.digest, offset - dataOffset, duplicate)
    }
  }

  return {
    /**
     * @param {import('./read.js').Block} block
     */
    block (block) {
      check(block.cid.bytes, block.offset, block.cid)
    },

    /**
     * The same, for blocks a worker read (sections.js): their CIDs' bytes end to end.
     *
     * @param {Uint8Array} cids
     * @param {Uint32Array} cidEnds
     * @param {Float64Array} offsets
     */
    cids (cids, cidEnds, offsets) {
      let from = 0
      for (let i = 0; i < cidEnds.length; i++) {
        check(cids.subarray(from, cidEnds[i]), offsets[i], null)
        from = cidEnds[i]
      }
    },

    /**
     * After the last block: record the results in the summary (problems included).
     *
     * @param {import('./summary.js').Summary} s
     */
    async finish (s) {
      s.partial = partial
      s.duplicates = duplicates
      const header = car.v2 ? car.v2.dataOffset : 0
      if (car.roots.length === 0 && !partial) {
        addProblem(s, { cid: '', kind: 'no-roots', at: header, message: `the CAR header (byte offset ${header}) lists no roots; if this CAR is part of a larger DAG, --partial accepts it` })
      }
      for (const root of car.roots) {
        if (found.has(root)) continue
        s.missingRoots.push(root.toString())
        if (!partial) addProblem(s, { cid: root.toString(), kind: 'missing-root', at: header, message: `listed as a root in the CAR header (byte offset ${header}) but not present as a block; if its blocks are stored elsewhere, --partial accepts it` })
      }
      if (car.v2 && car.v2.indexOffset === 0) {
        const trailing = await car.trailingBytes()
        if (trailing > 0) {
          const at = car.v2.dataOffset + car.v2.dataSize
          addProblem(s, { cid: '', kind: 'car-v2', at, message: `${trailing} bytes follow the CARv2 data payload at byte offset ${at}, but the header says there is no index` })
        }
      }
      if (records && car.v2) {
        const { indexOffset } = car.v2
        const bytes = await car.readIndex()
        s.index = checkIndex(bytes, indexOffset, dataOffset, records, (p) => addProblem(s, { cid: '', kind: 'index', at: p.offset, message: p.message }))
      }
    }
  }
}

/**
 * @param {import('./summary.js').Summary} s
 * @param {import('./summary.js').Problem} p
 */
function addProblem (s, p) {
  s.carProblems++
  s.problemCount++
  if (s.carProblems <= MAX_CAR_PROBLEMS) s.problems.push(p) // shown even after a full list of block problems
}

/** @param {Uint8Array} b */
const tail = (b) => b.length < 4 ? b.length : (b[b.length - 1] | b[b.length - 2] << 8 | b[b.length - 3] << 16) + b[b.length - 4] * 2 ** 24

/** @param {Uint8Array} a @param {Uint8Array} b */
function sameCid (a, b) {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
