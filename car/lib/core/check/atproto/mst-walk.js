// Walk a repo's MST from its root, in key order, checking the structure as it goes
// (atproto.com/specs/repository, "MST Structure"): every node present, hash-verified, strict
// DAG-CBOR and well formed; node links in the blessed CID form; keys strictly increasing over the
// whole tree (which also keeps every subtree inside its key range); every key at its node's
// height, subtrees exactly one level down; no empty leaf nodes and no root that only links a
// subtree; keys that are valid repo paths. Iterative (an explicit stack), and no node is entered
// twice, so neither a deep nor a crafted tree can overflow the stack or make the walk explode.
import * as codec from 'dag-cbor-fast'
import { verifyBlock, hashName } from '../hash.js'
import { describeError } from '../classify.js'
import { readNode } from './mst-node.js'
import { keyHeight, compareKeys } from './mst-key.js'
import { unblessed } from './blessed-cids.js'
import { blockKey } from './repo-blocks.js'
import { parseRepoPath, printable } from './syntax.js'
import { toHex } from '../../base/bytes.js'

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {{ rule: string, node: string | null, key: string | null, message: string, at?: number, lexicon?: { rule: string, path: string, offset: number } }} Fault
 *   at: the byte offset in the CAR a fault of its framing is about (car-varint)
 *   lexicon: on a `record-lexicon` fault, the Lexicon rule broken, the place in the record and the byte
 * @typedef {object} Entry a record's place in the tree
 * @property {string} path the key as text (printable)
 * @property {string | null} collection null when the key is not a valid repo path
 * @property {string | null} rkey
 * @property {CID} value the record's CID
 * @property {string} node the CID of the node holding the entry
 * @typedef {object} WalkStats
 * @property {number} nodes MST nodes read
 * @property {number | null} height the root's height (null: empty or unknown)
 * @property {boolean} empty the MST is an empty repo's single empty node
 * @property {{ cid: string, from: string | null, range: string }[]} missingNodes
 * @property {Set<string>} reached the nodes reached (by blockKey)
 * @typedef {(rule: string, node: string | null, key: string | null, message: string) => void} OnFault
 * @typedef {{ cid: CID, parent: string | null, height: number | null, after: string | null, before: string | null }} NodeTask
 *   height: the height this node must have (null: the root, or under a faulty link: take it from the keys)
 *   after, before: the keys around the link, to say what a missing node would hold
 * @typedef {{ entry: Entry, key: Uint8Array }} EntryTask
 */

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * @param {import('./repo-blocks.js').BlockStore} store
 * @param {CID} root the commit's `data`
 * @param {(fault: Fault) => void} onFault
 * @param {WalkStats} stats filled in as the walk goes
 * @returns {AsyncGenerator<Entry>}
 */
export async function * walkMst (store, root, onFault, stats) {
  /** @type {OnFault} */
  const fault = (rule, node, key, message) => onFault({ rule, node, key, message })
  /** @type {Array<NodeTask | EntryTask>} */
  const stack = [{ cid: root, parent: null, height: null, after: null, before: null }]
  /** @type {Uint8Array | null} */
  let lastKey = null
  let lastPath = ''
  while (stack.length > 0) {
    const task = /** @type {NodeTask | EntryTask} */ (stack.pop())
    if ('entry' in task) {
      const { entry, key } = task
      if (lastKey && compareKeys(key, lastKey) <= 0) fault('mst-key-order', entry.node, entry.path, `does not sort after ${lastPath}, the key before it in tree order`)
      lastKey = key
      lastPath = entry.path
      yield entry
      continue
    }
    const id = task.cid.toString()
    const key = blockKey(task.cid)
    if (stats.reached.has(key)) {
      fault('mst-node-linked-twice', id, null, `linked again from node ${task.parent}; a tree reaches each node once`)
      continue
    }
    stats.reached.add(key)
    const read = await loadNode(store, task, id, fault, stats)
    if (read === null) continue
    stats.nodes++
    const { left, entries } = read.node
    for (const p of read.prefixFaults) fault('mst-prefix', id, shownKey(p.key), p.message)

    /** @type {Entry[]} */
    const placed = entries.map((e) => {
      const text = keyText(e.key)
      const parsed = text === null ? { reason: 'it is not UTF-8 text' } : parseRepoPath(text)
      const path = shownKey(e.key)
      if ('reason' in parsed) {
        fault('mst-repo-path', id, path, `not a valid repo path: ${parsed.reason}`)
        return { path, collection: null, rkey: null, value: e.value, node: id }
      }
      return { path, collection: parsed.collection, rkey: parsed.rkey, value: e.value, node: id }
    })

    // heights: the root sits at its highest key; every other node where its parent says
    const heights = entries.map((e) => keyHeight(e.key))
    let height = task.height
    if (height === null && entries.length > 0) height = heights.reduce((a, b) => Math.max(a, b))
    if (height !== null) {
      for (let i = 0; i < entries.length; i++) {
        if (heights[i] !== height) fault('mst-key-height', id, placed[i].path, `the key's height is ${heights[i]} (leading zero bits of its SHA-256 / 2), but it sits in a node of height ${height}`)
      }
    }
    if (task.parent === null) {
      stats.height = height
      if (entries.length === 0 && left === null) stats.empty = true
      if (entries.length === 0 && left !== null) fault('mst-root-not-pruned', id, null, 'the root holds no entries and only links a subtree; empty nodes must be pruned from the top of the tree')
    } else if (entries.length === 0 && left === null) {
      fault('mst-empty-node', id, null, 'an empty node that links no subtree; only an empty repo\'s root may be empty')
    }

    const links = [left, ...entries.map((e) => e.tree)].filter((l) => l !== null)
    let childHeight = height === null ? null : height - 1
    if (height === 0 && links.length > 0) {
      fault('mst-subtree-height', id, null, 'a height-0 node links a subtree; subtrees sit one level lower, and nothing is below height 0')
      childHeight = null
    }
    for (const link of links) {
      const why = unblessed(/** @type {CID} */ (link))
      if (why) fault('mst-cid', id, null, `link to node ${link} ${why}`)
    }
    // children last-first on the stack, so they come off in key order: l, e0, t0, e1, t1, ...
    for (let i = entries.length - 1; i >= 0; i--) {
      const tree = entries[i].tree
      if (tree) stack.push({ cid: tree, parent: id, height: childHeight, after: placed[i].path, before: i + 1 < entries.length ? placed[i + 1].path : task.before })
      stack.push({ entry: placed[i], key: entries[i].key })
    }
    if (left) stack.push({ cid: left, parent: id, height: childHeight, after: task.after, before: entries.length > 0 ? placed[0].path : task.before })
  }
}

/**
 * A node the walk reached, read: present, hash-verified, strict DAG-CBOR and an MST node; null,
 * with the fault reported, when it is not.
 *
 * @param {import('./repo-blocks.js').BlockStore} store
 * @param {NodeTask} task
 * @param {string} id the node's CID as text
 * @param {OnFault} fault
 * @param {WalkStats} stats a missing node is noted in it
 */
async function loadNode (store, task, id, fault, stats) {
  const bytes = await store.get(task.cid)
  if (!bytes) {
    const bounds = [task.after !== null && `after ${task.after}`, task.before !== null && `before ${task.before}`].filter(Boolean)
    const range = bounds.length ? `the keys ${bounds.join(' and ')}` : 'every key'
    stats.missingNodes.push({ cid: id, from: task.parent, range })
    fault('mst-node-missing', id, null, `not in the CAR (${task.parent ? `linked from node ${task.parent}` : 'the MST root'}; it holds ${range})`)
    return null
  }
  const hash = verifyBlock(task.cid, bytes)
  if (hash !== 'ok') {
    fault('block-hash', id, null, hash === 'mismatch' ? 'the block\'s bytes do not hash to its CID' : `its hash function (${hashName(task.cid.multihash.code)}) is not one this tool can check`)
    return null
  }
  let value
  try {
    value = codec.decode(bytes)
  } catch (err) {
    fault('mst-node-dag-cbor', id, null, `not strict DAG-CBOR: ${describeError(err)}`)
    return null
  }
  const read = readNode(value)
  if ('error' in read) {
    fault('mst-node-schema', id, null, read.error)
    return null
  }
  return read
}

/** A key as a report shows it: its text made printable, or its hex when it is not UTF-8. @param {Uint8Array} key */
function shownKey (key) {
  const text = keyText(key)
  return text === null ? `0x${toHex(key)}` : printable(text)
}

/** @param {Uint8Array} key @returns {string | null} */
function keyText (key) {
  try {
    return utf8.decode(key)
  } catch {
    return null
  }
}
