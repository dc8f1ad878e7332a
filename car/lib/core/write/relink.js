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
//  3. new CIDs are computed children first: each affected block's bytes are read again by offset,
//     walked once for where its links to affected blocks are (its spans), and those links spliced
//     (same position, same CID version, codec and hash function), so a canonical parent stays
//     canonical and nothing else in it changes;
//  4. the write pass copies the file again, splicing the affected blocks at their spans as they go
//     by (no second walk) and replacing the roots.
//
// Memory: per affected block, its old and new CID, its offset and three numbers per link it has to
// an affected block (a few hundred bytes); plus the canonical bytes of the canonicalized blocks,
// which are not in the file. Nothing per other block.
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import { linkSpans, scanLinks } from '../graph/cbor-walk.js'
import { digestOf, verifyBlock } from '../check/hash.js'
import { scanSections } from '../read/open-car.js'
import { ToolError } from '../base/errors.js'
import { missing, loadFor } from '../check/on-demand.js'
import { toLatin1, indexOfPair } from '../base/bytes.js'

export const SEGMENT = 4 * 1024 * 1024
const DAG_CBOR = 0x71

/**
 * @typedef {object} Affected
 * @property {CID} cid the block's CID in the input
 * @property {Uint8Array} [canonical] a seed's canonical bytes (not in the file)
 * @property {{ start: number, length: number }} [at] where the block's bytes are in the file (not a seed)
 * @property {CID} [newCid] set by resolve()
 * @property {boolean} [linksChanged] set by resolve(): some of its links were replaced
 * @property {number[]} [spans] set by resolve(): where its links to affected blocks are in its
 *   bytes, [head start, content start, content end] after each other (linkSpans'), for splicing
 */

/**
 * A CID that owns its bytes. One from CID.decodeFirst is a view into the buffer it was read from
 * (a 1 MiB chunk, a 4 MiB segment), and would keep that whole buffer alive while it is held.
 *
 * @param {CID} cid
 */
export const detach = (cid) => CID.decode(cid.bytes.slice())

/** @param {Uint8Array} cidBytes a map key for a CID: its bytes as a binary string */
export const cidKey = (cidBytes) => toLatin1(cidBytes)

/** @param {Uint8Array} b @param {number} end the last 4 bytes before `end`, as a number: a cheap CID pre-check */
const tail = (b, end) => ((b[end - 4] << 24) | (b[end - 3] << 16) | (b[end - 2] << 8) | b[end - 1]) >>> 0

/**
 * The affected set, with the tails of its CIDs' digests in a Set of numbers so that most links
 * are ruled out without making a key string.
 */
class AffectedIndex {
  /** @param {Map<string, Affected>} affected */
  constructor (affected) {
    this.affected = affected
    this.tails = new Set([...affected.values()].map((e) => tail(e.cid.bytes, e.cid.bytes.length)))
  }

  /** @param {string} key @param {Affected} entry */
  add (key, entry) {
    this.affected.set(key, entry)
    this.tails.add(tail(entry.cid.bytes, entry.cid.bytes.length))
  }

  /**
   * Does bytes[from, to), a DAG-CBOR block, hold a link to an affected block?
   *
   * @param {Uint8Array} bytes
   * @param {number} from
   * @param {number} to
   */
  linkedFrom (bytes, from, to) {
    return scanLinks(bytes, from, to, (start, end) => this.tails.has(tail(bytes, end)) && this.affected.has(cidKey(bytes.subarray(start + 1, end))))
  }
}

/**
 * Find every block that links, directly or through other blocks, to an affected block.
 *
 * @param {object} args
 * @param {import('../read/source.js').Source} args.source a seekable source
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
  const index = new AffectedIndex(affected)
  // one segment buffer, reused across segments and passes; candidate blocks as offsets, not objects
  let buffer = new Uint8Array(0)
  /** @type {number[]} */
  const candidates = [] // [cidStart, bytesStart, end] for each DAG-CBOR block holding a tag 42
  for (let backwards = true; ; backwards = !backwards) {
    passes++
    let added = 0
    const order = backwards ? [...bounds].reverse() : bounds
    for (const [start, end] of order) {
      if (buffer.length < end - start) buffer = new Uint8Array(end - start)
      const range = await source.readRange(start, end - start, buffer)
      let nextTag = indexOfPair(range, 0xd8, 0x2a) // tag 42
      candidates.length = 0
      scanSections(range, start, (codec, cidStart, bytesStart, blockEnd) => {
        if (nextTag >= 0 && nextTag < bytesStart) nextTag = indexOfPair(range, 0xd8, 0x2a, bytesStart)
        if (codec === DAG_CBOR && nextTag >= 0 && nextTag < blockEnd) candidates.push(cidStart, bytesStart, blockEnd)
      })
      // in pass order, block by block, so a chain running in the pass's direction is found in one pass
      for (let c = 0; c < candidates.length; c += 3) {
        const i = backwards ? candidates.length - 3 - c : c
        const cidStart = candidates[i]
        const bytesStart = candidates[i + 1]
        const blockEnd = candidates[i + 2]
        if (!index.linkedFrom(range, bytesStart, blockEnd)) continue
        const key = cidKey(range.subarray(cidStart, bytesStart))
        if (affected.has(key) || cannotRewrite.has(key)) continue
        const cid = CID.decode(range.slice(cidStart, bytesStart)) // owns its bytes: the buffer is reused
        if (missing(cid.code, cid.multihash.code)) await loadFor(cid.code, cid.multihash.code) // the first pass saw it, unless the file changed since
        const hash = verifyBlock(cid, range.subarray(bytesStart, blockEnd))
        if (hash !== 'ok') {
          // a new CID would vouch for bytes that do not match the old one (or cannot be computed)
          cannotRewrite.set(key, { cid: cid.toString(), reason: hash === 'mismatch' ? 'its bytes do not match its CID' : 'its hash function is not supported' })
          continue
        }
        index.add(key, { cid, at: { start: start + bytesStart, length: blockEnd - bytesStart } })
        added++
      }
    }
    onPass?.(passes, added)
    if (added === 0) break
  }
  return { passes, cannotRewrite: [...cannotRewrite.values()] }
}

/**
 * The bytes whose links an affected block's new form splices: a seed's canonical bytes, or the
 * block's bytes read again from the file.
 *
 * @param {import('../read/source.js').Source} source
 * @param {Affected} entry
 */
export function bytesOf (source, entry) {
  if (entry.canonical) return Promise.resolve(entry.canonical)
  const at = /** @type {NonNullable<Affected['at']>} */ (entry.at)
  return source.readRange(at.start, at.length)
}

/** @type {number[]} the spans of a block that links to no affected block (shared: never written to) */
const NO_SPANS = []

/**
 * Where `bytes` link to affected blocks (the block itself included): the one walk of an affected
 * block's bytes for its links, whose spans both resolve() and the write pass splice.
 *
 * @param {Map<string, Affected>} affected
 * @param {Uint8Array} bytes
 * @returns {number[]} [head start, content start, content end] of each such link, after each other
 */
function affectedSpans (affected, bytes) {
  /** @type {number[]} */
  let spans = NO_SPANS
  for (const [head, start, end] of linkSpans(bytes)) {
    if (!affected.has(cidKey(bytes.subarray(start + 1, end)))) continue
    if (spans === NO_SPANS) spans = []
    spans.push(head, start, end)
  }
  return spans
}

/**
 * An affected block's new bytes: its links to affected blocks (at the spans resolve() found)
 * replaced by their new CIDs, where they have one.
 *
 * @param {Map<string, Affected>} affected
 * @param {Uint8Array} bytes
 * @param {number[]} spans the entry's, from resolve()
 */
export function relinked (affected, bytes, spans) {
  return spliceSpans(bytes, spans, (cidBytes) => affected.get(cidKey(cidBytes))?.newCid?.bytes)
}

/**
 * An affected block's new bytes in the write pass, spliced at the spans resolve() found: a seed's
 * from its canonical bytes, any other's from `read`, the block as read again. Null when `read` is
 * not the block resolve() spliced (it no longer matches its CID: the file changed under us).
 *
 * @param {Map<string, Affected>} affected
 * @param {Affected} entry
 * @param {Uint8Array} read
 */
export function rewritten (affected, entry, read) {
  const spans = /** @type {number[]} */ (entry.spans)
  if (entry.canonical) return relinked(affected, entry.canonical, spans)
  return verifyBlock(entry.cid, read) === 'ok' ? relinked(affected, read, spans) : null
}

/**
 * Compute every affected block's new CID, children before parents (depth first, iteratively: a
 * chain of rewritten blocks can be as deep as the file is long). A block's bytes are read when it is
 * reached and again when its children are done, so no bytes are held while its subtree is resolved.
 *
 * @param {Map<string, Affected>} affected
 * @param {import('../read/source.js').Source} source
 */
export async function resolve (affected, source) {
  /** @type {Set<string>} */
  const visiting = new Set()
  /** @type {{ key: string, entry: Affected, children: string[] }[]} */
  const stack = []
  const push = async (/** @type {string} */ key) => {
    const entry = /** @type {Affected} */ (affected.get(key))
    const bytes = await bytesOf(source, entry)
    const spans = entry.spans = affectedSpans(affected, bytes)
    /** @type {string[]} */
    const children = []
    for (let i = 0; i < spans.length; i += 3) {
      const child = cidKey(bytes.subarray(spans[i + 1] + 1, spans[i + 2]))
      if (child !== key) children.push(child)
    }
    visiting.add(key)
    stack.push({ key, entry, children })
  }
  for (const [key, first] of affected) {
    if (first.newCid) continue
    await push(key)
    while (stack.length) {
      const top = stack[stack.length - 1]
      const next = top.children.find((c) => !affected.get(c)?.newCid)
      if (next !== undefined) {
        if (visiting.has(next)) throw new ToolError(`the blocks linking to ${top.entry.cid} form a cycle, which CIDs cannot (a forged hash)`)
        await push(next)
        continue
      }
      stack.pop()
      visiting.delete(top.key)
      const { entry } = top
      const bytes = await bytesOf(source, entry)
      const fresh = relinked(affected, bytes, /** @type {number[]} */ (entry.spans))
      entry.linksChanged = fresh !== bytes
      entry.newCid = cidFor(entry.cid, fresh)
    }
  }
}

/**
 * A CID for `bytes` with the version, codec and hash function of `like`.
 *
 * @param {CID} like
 * @param {Uint8Array} bytes
 */
export function cidFor (like, bytes) {
  const { code } = like.multihash
  const digest = /** @type {Uint8Array} */ (digestOf(code, bytes)) // verified (so supported) before it was added
  return CID.create(/** @type {1} */ (like.version), like.code, createDigest(code, digest))
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
  return spliceSpans(bytes, linkSpans(bytes).flat(), replacement)
}

/**
 * spliceLinks at spans already found: `spans` holds [head start, content start, content end] of
 * each link that may be replaced, after each other, in order.
 *
 * @param {Uint8Array} bytes
 * @param {number[]} spans
 * @param {(cid: Uint8Array) => Uint8Array | undefined} replacement
 * @returns {Uint8Array} `bytes` itself when no link changes
 */
function spliceSpans (bytes, spans, replacement) {
  /** @type {Uint8Array[]} */
  const parts = []
  let from = 0
  let length = 0
  for (let i = 0; i < spans.length; i += 3) {
    const head = spans[i]
    const start = spans[i + 1]
    const end = spans[i + 2]
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
