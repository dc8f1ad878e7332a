// The checks over the CAR as a whole (those go-car's `car verify` makes, and a duplicate count): the header lists at
// least one root, every root is present as a block, duplicate blocks are counted, a CARv2 index
// (when there is one) matches the blocks, and every length varint the reader read was minimal.
// Fed block by block in CAR order on the main thread.
import { SeenCids, fingerprintInto } from '../graph/seen.js'
import { BlockRecords, checkIndex } from '../read/carv2-index.js'
import { toHex } from '../base/bytes.js'

/** @typedef {import('multiformats/cid').CID} CID */

const MAX_CAR_PROBLEMS = 10

/**
 * @param {import('../read/open-car.js').Car} car
 * @param {{ partial?: boolean }} options partial: the CAR is part of a larger DAG, so its roots may be
 *   stored elsewhere (absent from its blocks) and its header may list none
 */
export function createChecks (car, { partial = false } = {}) {
  /** @type {Map<number, CID[]>} roots by their fingerprint's first word, a cheap first filter per block */
  const rootsByFingerprint = new Map()
  /** one bit per value of a fingerprint's low 10 bits, set for the roots': most blocks pass with one read */
  const rootBits = new Uint32Array(32)
  const fingerprint = new Uint32Array(2)
  for (const root of car.roots) {
    fingerprintInto(root.bytes, 0, root.bytes.length, fingerprint, 0)
    const key = fingerprint[0] & KEY_MASK
    rootsByFingerprint.set(key, [...(rootsByFingerprint.get(key) ?? []), root])
    rootBits[(key & 1023) >>> 5] |= 1 << (key & 31)
  }
  /** @type {Set<CID>} */
  const found = new Set()
  const seen = new SeenCids()
  let duplicates = 0
  const dataOffset = car.v2 ? car.v2.dataOffset : 0
  const records = car.v2 && car.v2.indexOffset !== 0 ? new BlockRecords() : null

  /**
   * @param {number} a @param {number} b the CID's fingerprint (seen.js fingerprintInto)
   * @param {Uint8Array} bytes @param {number} from @param {number} to the CID is bytes[from, to)
   * @param {number} offset its section's byte offset
   */
  const check = (a, b, bytes, from, to, offset) => {
    if ((rootBits[(a & 1023) >>> 5] >>> (a & 31)) & 1) {
      const candidates = rootsByFingerprint.get(a & KEY_MASK)
      if (candidates) for (const root of candidates) if (sameCid(root.bytes, bytes, from, to)) found.add(root)
    }
    const duplicate = seen.addFingerprint(a, b)
    if (duplicate) duplicates++
    if (records) records.addCid(bytes, from, to, offset - dataOffset, duplicate)
  }

  return {
    /**
     * @param {import('../read/open-car.js').Block} block
     */
    block (block) {
      const bytes = block.cid.bytes
      fingerprintInto(bytes, 0, bytes.length, fingerprint, 0)
      check(fingerprint[0], fingerprint[1], bytes, 0, bytes.length, block.offset)
    },

    /**
     * The same, for blocks a worker read (run/section-checks.js): their CIDs' bytes end to end, and the
     * fingerprint of each, two words per CID.
     *
     * @param {Uint8Array} cids
     * @param {Uint32Array} cidEnds
     * @param {Uint32Array} fingerprints
     * @param {Float64Array} offsets
     */
    cids (cids, cidEnds, fingerprints, offsets) {
      let from = 0
      for (let i = 0; i < cidEnds.length; i++) {
        check(fingerprints[2 * i], fingerprints[2 * i + 1], cids, from, cidEnds[i], offsets[i])
        from = cidEnds[i]
      }
    },

    /**
     * After the last block: record the results in the summary (problems included).
     *
     * @param {import('../report/summary.js').Summary} s
     */
    async finish (s) {
      s.partial = partial
      s.duplicates = duplicates
      const header = car.v2 ? car.v2.dataOffset : 0
      const varints = nonMinimalVarints(car)
      for (const p of varints.problems) addProblem(s, p)
      for (let more = varints.count - varints.problems.length; more > 0; more--) addProblem(s, null)
      if (car.roots.length === 0 && !partial) {
        addProblem(s, { cid: '', kind: 'no-roots', at: header, message: `the CAR header (byte offset ${header}) lists no roots; if this CAR is part of a larger DAG, --partial accepts it` })
      }
      for (const root of car.roots) {
        if (found.has(root)) continue
        s.missingRoots.push(root.toString())
        if (!partial) addProblem(s, { cid: root.toString(), kind: 'missing-root', at: header, message: `listed as a root in the CAR header (byte offset ${header}) but not present as a block; if its blocks are stored elsewhere, --partial accepts it` })
      }
      for (const p of await carV2Problems(car)) addProblem(s, p)
      if (records && car.v2) {
        const { indexOffset } = car.v2
        const bytes = await car.readIndex()
        s.index = checkIndex(bytes, indexOffset, dataOffset, records, fullyIndexed(car.v2), (p) => addProblem(s, { cid: '', kind: 'index', at: p.offset, message: p.message }))
      }
    }
  }
}

/** where the CARv2 characteristics are in the file: right after the 11-byte pragma */
const CHARACTERISTICS_AT = 11
/** the one characteristic the CARv2 spec defines: the leftmost bit, "fully indexed" */
const FULLY_INDEXED = 0x80

/** @param {import('../read/open-car.js').V2Header} v2 the index lists every block, identity CIDs too */
const fullyIndexed = (v2) => (v2.characteristics[0] & FULLY_INDEXED) !== 0

/**
 * The CARv2 header's problems (kind car-v2), after the last block: the characteristics (a bit the
 * spec does not define is no writer's, so it is corruption, which would otherwise pass; "fully
 * indexed" needs an index), and bytes after the payload where the header says there is no index.
 * verify and inspect report them from here (inspect leaves out only the index's own check).
 *
 * @param {Pick<import('../read/open-car.js').Car, 'v2' | 'trailingBytes'>} car
 * @returns {Promise<import('../report/summary.js').Problem[]>}
 */
export async function carV2Problems ({ v2, trailingBytes }) {
  /** @type {import('../report/summary.js').Problem[]} */ const problems = []
  if (!v2) return problems
  const bits = v2.characteristics
  const at = CHARACTERISTICS_AT
  if ((bits[0] & ~FULLY_INDEXED) !== 0 || bits.subarray(1).some((b) => b !== 0)) {
    problems.push({ cid: '', kind: 'car-v2', at, message: `the CARv2 characteristics at byte offset ${at} (${toHex(bits)}) set bits the CARv2 spec does not define: only the first bit (fully indexed, 80 in the first byte) has a meaning` })
  }
  if (fullyIndexed(v2) && v2.indexOffset === 0) {
    problems.push({ cid: '', kind: 'car-v2', at, message: `the CARv2 characteristics at byte offset ${at} say the CAR is fully indexed, but its header says there is no index` })
  }
  if (v2.indexOffset === 0) {
    const trailing = await trailingBytes()
    if (trailing > 0) {
      const end = v2.dataOffset + v2.dataSize
      problems.push({ cid: '', kind: 'car-v2', at: end, message: `${trailing} bytes follow the CARv2 data payload at byte offset ${end}, but the header says there is no index` })
    }
  }
  return problems
}

/**
 * The length varints the reader found written longer than their shortest form (its nonMinimal), as
 * problems of kind varint at the header's or section's byte offset: the first few it kept, and how
 * many in all. Every check that reads a whole CAR (verify, inspect, checkRepo) reports them from here.
 *
 * @param {{ nonMinimal: import('../read/section-reader.js').CarFileReader['nonMinimal'] }} car
 * @returns {{ problems: import('../report/summary.js').Problem[], count: number }}
 */
export function nonMinimalVarints ({ nonMinimal }) {
  return {
    count: nonMinimal.count,
    problems: nonMinimal.first.map(({ at, what }) => ({ cid: '', kind: 'varint', at, message: `the ${what} at byte offset ${at} has a length varint written longer than its shortest form; CAR varints are multiformats unsigned varints, which must be minimally encoded` }))
  }
}

/**
 * @param {import('../report/summary.js').Summary} s
 * @param {import('../report/summary.js').Problem | null} p null: one counted past those the reader kept
 */
function addProblem (s, p) {
  s.carProblems++
  s.problemCount++
  if (p && s.carProblems <= MAX_CAR_PROBLEMS) s.problems.push(p) // shown even after a full list of block problems
}

/** a small integer key for the roots map (a fingerprint word can exceed V8's small-integer range) */
const KEY_MASK = 0x3fffffff

/** @param {Uint8Array} cid @param {Uint8Array} bytes @param {number} from @param {number} to */
function sameCid (cid, bytes, from, to) {
  if (cid.length !== to - from) return false
  for (let i = 0; i < cid.length; i++) if (cid[i] !== bytes[from + i]) return false
  return true
}
