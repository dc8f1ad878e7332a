// The hash check of a batch of sections on its own, for a shell's worker threads (the Node
// CarBlockIterator's): it imports only the hashers, so such a thread starts quickly.
import { digest32Matches, hasherMissing } from '../check/hash.js'
import { uvarint, varintEnd } from '../base/varint.js'

/**
 * How many of a batch's first sections are plain CIDv1s (short varints in shortest form) with a 32-byte sha2-256
 * or blake2b-256 digest that their blocks hash to. It stops at the first section it does not
 * verify (another hash, a CIDv0, a hasher not loaded, a mismatch), which the thread handing the
 * blocks out then checks and reports as it would have.
 *
 * @param {Uint8Array} bytes whole sections end to end (read/section-reader.js SectionBatch)
 * @param {Uint32Array} ends where each ends in `bytes`
 */
export function hashedSections (bytes, ends) {
  let from = 0
  for (let i = 0; i < ends.length; i++) {
    const to = ends[i]
    while (bytes[from++] >= 0x80); // the length varint, checked by the reader
    // version 1, then codec, hash code and digest size, each a varint of at most 4 bytes
    if (bytes[from] !== 1 || uvarint(bytes, from + 1, to) < 0) return i
    const code = uvarint(bytes, varintEnd, to)
    if (code < 0 || uvarint(bytes, varintEnd, to) !== 32) return i
    const p = varintEnd
    if (p + 32 > to || code === 0 || hasherMissing(code)) return i
    if (!digest32Matches(code, bytes.subarray(p + 32, to), bytes, p)) return i
    from = to
  }
  return ends.length
}
