// One MST node (atproto.com/specs/repository, "MST Structure"): `l` (nullable link to the subtree
// left of every entry) and `e`, the entries `{p, k, v, t}`: p bytes shared with the previous key in
// this node, k the rest of the key, v the record link, t the (nullable) subtree right of the entry.
// Every field must be present, nullable ones as explicit nulls, as the reference implementations write them.
import { asCid } from './blessed-cids.js'
import { commonPrefixLength } from './mst-key.js'

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {{ key: Uint8Array, value: CID, tree: CID | null }} NodeEntry
 * @typedef {{ left: CID | null, entries: NodeEntry[] }} MstNode
 * @typedef {{ key: Uint8Array, message: string }} PrefixFault a prefix length that is valid but not the longest shared prefix
 */

/**
 * Read a decoded node and rebuild its keys from the prefix compression.
 *
 * @param {unknown} value the strictly decoded block
 * @returns {{ node: MstNode, prefixFaults: PrefixFault[] } | { error: string }} error: not a usable MST node
 */
export function readNode (value) {
  if (!isPlainMap(value)) return { error: 'the block is not a map, so not an MST node' }
  const map = /** @type {Record<string, unknown>} */ (value)
  if (!('l' in map)) return { error: 'the node has no "l" field' }
  const left = map.l === null ? null : asCid(map.l)
  if (map.l !== null && !left) return { error: '"l" is neither null nor a link' }
  if (!Array.isArray(map.e)) return { error: '"e" is missing or not a list' }
  /** @type {NodeEntry[]} */
  const entries = []
  /** @type {PrefixFault[]} */
  const prefixFaults = []
  let previous = new Uint8Array(0)
  for (let i = 0; i < map.e.length; i++) {
    const e = map.e[i]
    if (!isPlainMap(e)) return { error: `entry ${i} is not a map` }
    const { p, k, v, t } = /** @type {Record<string, unknown>} */ (e)
    if (typeof p !== 'number' || !Number.isInteger(p) || p < 0) return { error: `entry ${i}: "p" is not a non-negative integer` }
    if (!(k instanceof Uint8Array)) return { error: `entry ${i}: "k" is not bytes` }
    const valueLink = asCid(v)
    if (!valueLink) return { error: `entry ${i}: "v" is not a link` }
    if (!('t' in e)) return { error: `entry ${i} has no "t" field` }
    const tree = t === null ? null : asCid(t)
    if (t !== null && !tree) return { error: `entry ${i}: "t" is neither null nor a link` }
    if (i === 0 && p !== 0) return { error: `entry 0 has prefix length ${p}; the first entry of a node holds its whole key (p = 0)` }
    if (p > previous.length) return { error: `entry ${i} has prefix length ${p}, longer than the previous key (${previous.length} bytes)` }
    const key = new Uint8Array(p + k.length)
    key.set(previous.subarray(0, p))
    key.set(k, p)
    const shared = commonPrefixLength(previous, key)
    if (i > 0 && shared !== p) prefixFaults.push({ key, message: `prefix length ${p}, but the key shares ${shared} bytes with the previous one (the compression is mandatory and exact)` })
    entries.push({ key, value: valueLink, tree })
    previous = key
  }
  return { node: { left, entries }, prefixFaults }
}

/** @param {unknown} v */
function isPlainMap (v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) && !asCid(v)
}
