// The atproto-mst corpus's blocks (bench/corpora.js): AT Protocol MST nodes, as the repository spec
// lays them out (a list `e` of entries { p, k, v, t }, and `l`).
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'

/**
 * An AT Protocol MST node: up to 16 entries, each a key suffix (its shared prefix length `p`), a
 * record CID and, for some, a subtree CID; `l` the leftmost subtree or null.
 *
 * @param {() => number} rnd
 * @returns {unknown}
 */
export function mstNode (rnd) {
  const bytes = (/** @type {number} */ n) => Uint8Array.from({ length: n }, () => (rnd() * 256) | 0)
  const cid = () => CID.create(1, 0x71, createDigest(0x12, bytes(32)))
  const alphabet = '234567abcdefghijklmnopqrstuvwxyz'
  const e = []
  for (let i = 0, n = 4 + ((rnd() * 13) | 0); i < n; i++) {
    const first = i === 0
    let key = first ? 'app.bsky.feed.post/' : ''
    for (let j = 0, m = first ? 13 : 2 + ((rnd() * 8) | 0); j < m; j++) key += alphabet[(rnd() * 32) | 0]
    e.push({ k: new TextEncoder().encode(key), p: first ? 0 : 19 + ((rnd() * 5) | 0), t: rnd() < 0.3 ? cid() : null, v: cid() })
  }
  return { e, l: rnd() < 0.5 ? cid() : null }
}
