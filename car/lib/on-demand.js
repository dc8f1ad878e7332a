// What checking a CAR loads when its blocks need it, not at start-up: blake2b-256's WebAssembly
// (verify.js) at the first blake2b-256 CID, @ipld/dag-pb and @ipld/dag-json (codecs.js) at the
// first block of theirs. DAG-CBOR, raw, json, sha2-256 and identity need nothing more. Every path
// that hands blocks to the synchronous checks goes through here first: read.js's blocks() for each
// block, and the section batches (sections.js) on whichever thread checks them; until everything
// is loaded, a batch's CIDs are read here before it is checked.
import { loadHasher, hasherMissing } from './verify.js'
import { loadCodec, codecMissing } from './codecs.js'

const DAG_PB = 0x70
const DAG_JSON = 0x0129
const SHA2_256 = 0x12
const BLAKE2B_256 = 0xb220

/**
 * Does checking a block with this codec and multihash code wait for a load?
 *
 * @param {number} codec
 * @param {number} hash
 */
export function missing (codec, hash) {
  return codecMissing(codec) || hasherMissing(hash)
}

/**
 * @param {number} codec
 * @param {number} hash
 * @returns {Promise<void>}
 */
export async function loadFor (codec, hash) {
  await Promise.all([loadCodec(codec), loadHasher(hash)])
}

/** Is anything left to load? */
const anyMissing = () => hasherMissing(BLAKE2B_256) || codecMissing(DAG_PB) || codecMissing(DAG_JSON)

/**
 * Load what the blocks need.
 *
 * @param {{ cid: import('multiformats').CID }[]} blocks
 * @returns {Promise<void> | null} null: nothing to wait for
 */
export function loadForBlocks (blocks) {
  if (!anyMissing()) return null
  /** @type {Promise<void>[]} */
  const loads = []
  for (const { cid } of blocks) if (missing(cid.code, cid.multihash.code)) loads.push(loadFor(cid.code, cid.multihash.code))
  return loads.length ? Promise.all(loads).then(() => {}) : null
}

/**
 * Load what the blocks of a batch of whole sections need, read off their CIDs' codec and
 * multihash codes. A section whose CID cannot be read is left to the checks, which report it.
 *
 * @param {import('./read.js').SectionBatch} batch
 * @returns {Promise<void> | null} null: nothing to wait for
 */
export function loadForSections ({ bytes, ends }) {
  if (!anyMissing()) return null
  /** @type {Promise<void>[]} */
  const loads = []
  let from = 0
  for (let i = 0; i < ends.length; i++) {
    const to = ends[i]
    let p = from
    from = to
    while (p < to && bytes[p] >= 0x80) p++ // the section's length varint
    p++
    let codec, hash
    if (bytes[p] === SHA2_256 && bytes[p + 1] === 0x20) { // a CIDv0: dag-pb, sha2-256
      codec = DAG_PB
      hash = SHA2_256
    } else {
      const version = varint(bytes, p, to)
      if (version < 0) continue
      codec = varint(bytes, next, to)
      if (codec < 0) continue
      hash = varint(bytes, next, to)
      if (hash < 0) continue
    }
    if (missing(codec, hash)) loads.push(loadFor(codec, hash))
  }
  return loads.length ? Promise.all(loads).then(() => {}) : null
}

/** where varint() stopped */
let next = 0

/**
 * The unsigned varint at `at` (at most 4 bytes), setting `next` past it; -1 if there is none.
 *
 * @param {Uint8Array} bytes
 * @param {number} at
 * @param {number} end
 */
function varint (bytes, at, end) {
  let value = 0
  let scale = 1
  for (let i = 0; i < 4 && at < end; i++) {
    const b = bytes[at++]
    value += (b & 0x7f) * scale
    if (b < 0x80) {
      next = at
      return value
    }
    scale *= 128
  }
  return -1
}
