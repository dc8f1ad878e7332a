// --canonicalize keeps the DAG consistent: when a block is rewritten (canonical form, new CID),
// every DAG-CBOR block that links to it is rewritten with the new link, so it gets a new CID in turn,
// and so on up to the roots. Parents can come before or after their children in the file, so:
//
//  1. the first pass (run.js) classifies every block and canonicalizes the non-canonical ones
//     (the "seeds"); it also notes where each SEGMENT of the file starts (one number per 4 MiB);
//  2. discovery passes re-read the file segment by segment, alternately backwards and forwards,
//     and add every block that links to an affected block to the affected set, until a pass adds
//     nothing. A file whose parents all come before their children (the usual order) is settled by
//     one backward pass, one with children first by one forward pass; each needs one more pass to
//     confirm. Only link positions are looked at (no decode, no re-encode);
//  3. new CIDs are computed children first, in memory, from the affected blocks' bytes: a parent's
//     links are spliced in its bytes (same position, same CID version, codec and hash function), so
//     a canonical parent stays canonical and nothing else in it changes;
//  4. the write pass copies the file again, replacing affected blocks and roots.
//
// Memory: the affected blocks' bytes and CIDs (while new CIDs are computed, old and new bytes of
// the blocks resolved so far), and nothing per unaffected block.
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import { linkSpans } from './cbor-walk.js'
import { digestOf, verifyBlock } from './verify.js'
import { sectionsIn } from './read.js'
import { ToolError } from './errors.js'

export const SEGMENT = 4 * 1024 * 1024
const DAG_CBOR = 0x71

/**
 * @typedef {object} Affected
 * @property {CID} cid the block's CID in the input
 * @property {Uint8Array} bytes bytes whose links are to be spliced: the canonical form of a seed, else the input bytes
 * @property {boolean} seed canonicalized in the first pass (else: rewritten only for its links)
 * @property {CID} [newCid] set by resolve()
 * @property {Uint8Array} [newBytes] set by resolve()
 * @property {boolean} [linksChanged] set by resolve(): some of its links were replaced
 */

/**
 * A CID that owns its bytes. One from CID.decodeFirst is a view into the buffer it was read from
 * (a 1 MiB chunk, a 4 MiB segment), and would keep that whole buffer alive while it is held.
 *
 * @param {CID} cid
 */
export const detach = (cid) => CID.decode(cid.bytes.slice())

/** @param {Uint8Array} cidBytes a map key for a CID: its bytes as a binary string */
export const cidKey = (cidBytes) => Buffer.from(cidBytes.buffer, cidBytes.byteOffset, cidBytes.byteLength).toString('latin1')

/**
 * Does `bytes` hold a tag 42 link whose CID is a key of `affected`? A byte search for the tag
 * (d8 2a) first, so blocks without links cost one memchr; the walk confirms real links.
 *
 * @param {Uint8Array} bytes
 * @param {Map<string, unknown>} affected
 */
function linksToAffected (bytes, affected) {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.indexOf(0xd8) < 0 || view.indexOf('d82a', 0, 'hex') < 0) return false
  for (const [, start, end] of linkSpans(bytes)) {
    if (affected.has(cidKey(bytes.subarray(start + 1, end)))) return true
  }
  return false
}

/**
 * Find every block that links, directly or through other blocks, to an affected block.
 *
 * @param {object} args
 * @param {import('./source.js').Source} args.source a seekable source
 * @param {number[]} args.segments byte offsets where segments start (each a section start)
 * @param {number} args.dataEnd where the last section ends
 * @param {Map<string, Affected>} args.affected the seeds; grows with what is found
 * @param {(pass: number, added: number) => void} [args.onPass]
 * @returns {Promise<{ passes: number, cannotRewrite: { cid: string, reason: string }[] }>}
 */
export async function findAffected ({ source, segments, dataEnd, affected, onPass }) {
  /** @type {Map<string, { cid: string, reason: string }>} */
  const cannotRewrite = new Map()
  const bounds = segments.map((start, i) => [start, i + 1 < segments.length ? segments[i + 1] : dataEnd])
  let passes = 0
  for (let backwards = true; ; backwards = !backwards) {
    passes++
    let added = 0
    const order = backwards ? [...bounds].reverse() : bounds
    for (const [start, end] of order) {
      const blocks = sectionsIn(await source.readRange(start, end - start), start)
      if (backwards) blocks.reverse()
      for (const { cid, bytes } of blocks) {
        if (cid.code !== DAG_CBOR) continue
        const key = cidKey(cid.bytes)
        if (affected.has(key) || cannotRewrite.has(key) || !linksToAffected(bytes, affected)) continue
        const hash = verifyBlock(cid, bytes)
        if (hash !== 'ok') {
          // a new CID would vouch for bytes that do not match the old one (or cannot be computed)
          cannotRewrite.set(key, { cid: cid.toString(), reason: hash === 'mismatch' ? 'its bytes do not match its CID' : 'its hash function is not supported' })
          continue
        }
        affected.set(key, { cid: detach(cid), bytes: bytes.slice(), seed: false }) // copies: the range is dropped after this segment
        added++
      }
    }
    onPass?.(passes, added)
    if (added === 0) break
  }
  return { passes, cannotRewrite: [...cannotRewrite.values()] }
}

/**
 * Compute every affected block's new bytes and CID, children before parents.
 *
 * @param {Map<string, Affected>} affected
 */
export function resolve (affected) {
  /** @type {Set<string>} */
  const visiting = new Set()
  /** @param {string} key */
  const visit = (key) => {
    // iterative depth-first post-order: a chain of rewritten blocks can be as deep as the file is long
    /** @type {{ key: string, entry: Affected, children: string[] }[]} */
    const stack = []
    const push = (/** @type {string} */ k) => {
      const entry = /** @type {Affected} */ (affected.get(k))
      const children = linkSpans(entry.bytes).map(([, s, e]) => cidKey(entry.bytes.subarray(s + 1, e))).filter((c) => c !== k && affected.has(c))
      visiting.add(k)
      stack.push({ key: k, entry, children })
    }
    push(key)
    while (stack.length) {
      const top = stack[stack.length - 1]
      const next = top.children.find((c) => !affected.get(c)?.newCid)
      if (next !== undefined) {
        if (visiting.has(next)) throw new ToolError(`the blocks linking to ${top.entry.cid} form a cycle; CIDs cannot (their hashes are forged)`)
        push(next)
        continue
      }
      stack.pop()
      visiting.delete(top.key)
      const { entry } = top
      entry.newBytes = spliceLinks(entry.bytes, (cidBytes) => affected.get(cidKey(cidBytes))?.newCid?.bytes)
      entry.linksChanged = entry.newBytes !== entry.bytes
      entry.bytes = entry.newBytes // the old bytes are not needed any more: hold one copy, not two
      const { code } = entry.cid.multihash
      const digest = /** @type {Uint8Array} */ (digestOf(code, entry.newBytes)) // verified (so supported) in discovery
      entry.newCid = CID.create(/** @type {1} */ (entry.cid.version), entry.cid.code, createDigest(code, digest))
    }
  }
  for (const [key, entry] of affected) if (!entry.newCid) visit(key)
}

/**
 * Replace the CIDs of links in CBOR bytes. A new CID of the same length (same hash function, same
 * digest size) is written in place; one of another length (identity hashes) gets a new byte string head.
 *
 * @param {Uint8Array} bytes
 * @param {(cid: Uint8Array) => Uint8Array | undefined} replacement new CID bytes for an old one, if any
 * @returns {Uint8Array} `bytes` itself when no link changes
 */
export function spliceLinks (bytes, replacement) {
  /** @type {Uint8Array[]} */
  const parts = []
  let from = 0
  let length = 0
  for (const [head, start, end] of linkSpans(bytes)) {
    const fresh = replacement(bytes.subarray(start + 1, end))
    if (!fresh) continue
    const before = bytes.subarray(from, head)
    const item = Uint8Array.from([...byteStringHead(fresh.length + 1), 0x00, ...fresh])
    parts.push(before, item)
    length += before.length + item.length
    from = end
  }
  if (parts.length === 0) return bytes
  parts.push(bytes.subarray(from))
  length += bytes.length - from
  const out = new Uint8Array(length)
  let at = 0
  for (const p of parts) { out.set(p, at); at += p.length }
  return out
}

/** @param {number} n a byte string's length, in shortest form */
function byteStringHead (n) {
  if (n < 24) return [0x40 | n]
  if (n < 0x100) return [0x58, n]
  if (n < 0x10000) return [0x59, n >> 8, n & 0xff]
  return [0x5a, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]
}
