// The CAR's blocks and links as a graph over CidTable ids, built in one pass in CAR order (a link
// may point forward, so reachability is answered after the pass). Per CID: its section's offset and
// length (when the CAR holds it) and its links as ids in one growing Int32Array: a few tens of bytes
// per block and four per link, no object per block. Walks are iterative (explicit stacks): a chain
// of a million blocks cannot overflow the call stack.
import { CidTable, grow } from './cid-table.js'
import { forEachLink } from './links.js'

export class DagIndex {
  constructor () {
    this.cids = new CidTable()
    /** @type {Float64Array} section offset + 1 per id; 0: the CAR does not hold this CID */
    this.where = new Float64Array(1024)
    /** @type {Uint32Array} section length (varint, CID and block) per id */
    this.sectionLength = new Uint32Array(1024)
    /** @type {Int32Array} first edge per id; -1: links not known (not a block, or a codec whose links are not read) */
    this.edgeStart = new Int32Array(1024).fill(-1)
    /** @type {Int32Array} edges per id */
    this.edgeCount = new Int32Array(1024)
    /** @type {Int32Array} every block's links, as ids, block after block */
    this.edges = new Int32Array(4096)
    this.edgeTotal = 0
    this.blocks = 0
    this.duplicates = 0
    /** blocks whose codec's links are not read (not dag-cbor, dag-pb, dag-json, raw or json) */
    this.linksNotRead = 0
    /** @private */
    this.linkTarget = -1
    /** @private bound once: forEachLink calls it for every link of every block */
    this.onLink = (/** @type {Uint8Array} */ bytes, /** @type {number} */ start, /** @type {number} */ end) => this.addEdge(this.cids.add(bytes, start, end))
  }

  /** ids of CIDs met so far, blocks and link targets */
  get size () { return this.cids.size }

  /** @param {number} id make the per-id arrays hold `id` */
  ensure (id) {
    if (id < this.where.length) return
    const before = this.edgeStart.length
    this.where = grow(this.where, id + 1)
    this.sectionLength = grow(this.sectionLength, id + 1)
    this.edgeStart = grow(this.edgeStart, id + 1)
    this.edgeStart.fill(-1, before)
    this.edgeCount = grow(this.edgeCount, id + 1)
  }

  /**
   * Record a block (its CID in cidBytes[start, end)) and, when `bytes` is given, its links.
   *
   * @param {Uint8Array} cidBytes @param {number} offset section offset @param {number} length section length
   * @param {number} code codec @param {Uint8Array | null} bytes the block, to read its links; null: do not
   * @returns {number} the block's id, or -1 when the CAR held this CID already (a duplicate)
   */
  addBlock (cidBytes, offset, length, code, bytes) {
    const id = this.cids.add(cidBytes, 0, cidBytes.length)
    this.ensure(id)
    if (this.where[id] !== 0) {
      this.duplicates++
      return -1
    }
    this.blocks++
    this.where[id] = offset + 1
    this.sectionLength[id] = length
    if (bytes) this.readLinks(id, code, bytes)
    return id
  }

  /**
   * @param {number} id @param {number} code @param {Uint8Array} bytes
   * @returns {boolean} false when the codec's links are not read
   */
  readLinks (id, code, bytes) {
    const start = this.edgeTotal
    if (!forEachLink(code, bytes, this.onLink)) {
      this.linksNotRead++
      return false
    }
    this.ensure(this.cids.size - 1)
    this.edgeStart[id] = start
    this.edgeCount[id] = this.edgeTotal - start
    return true
  }

  /** @param {number} target */
  addEdge (target) {
    if (this.edgeTotal === this.edges.length) this.edges = grow(this.edges, this.edgeTotal + 1)
    this.edges[this.edgeTotal++] = target
  }

  /** @param {number} id */
  has (id) { return id >= 0 && id < this.where.length && this.where[id] !== 0 }

  /** @param {number} id */
  offsetOf (id) { return this.where[id] - 1 }

  /**
   * Mark every id reachable from `from` along links (the starting ids included, present or not).
   *
   * @param {number[]} from
   * @returns {Uint8Array} 1 per reached id
   */
  reach (from) {
    this.ensure(this.cids.size - 1)
    const seen = new Uint8Array(this.cids.size)
    let stack = new Int32Array(64)
    let top = 0
    for (const id of from) {
      if (id < 0 || seen[id]) continue
      seen[id] = 1
      stack[top++] = id
      while (top > 0) {
        const node = stack[--top]
        const first = this.edgeStart[node]
        if (first < 0) continue
        for (let e = first + this.edgeCount[node] - 1; e >= first; e--) {
          const child = this.edges[e]
          if (seen[child]) continue
          seen[child] = 1
          if (top === stack.length) stack = grow(stack, top + 1)
          stack[top++] = child
        }
      }
    }
    return seen
  }

  /**
   * The longest chain of links from any of `roots` (a post-order walk memoizing each id's depth).
   * A link back into the chain being walked (possible only with a block whose bytes do not match
   * its CID) is not followed, and counted.
   *
   * @param {number[]} roots
   * @returns {{ links: number, from: number, to: number, cycles: number }} links: 0 for a lone root; from/to: -1 with no root
   */
  deepest (roots) {
    const n = this.cids.size
    this.ensure(n - 1)
    const depth = new Int32Array(n) // links below each finished id
    const next = new Int32Array(n).fill(-1) // the child on that longest chain
    const state = new Uint8Array(n) // 0 new, 1 on the walk, 2 done
    let stack = new Int32Array(64)
    let cursor = new Int32Array(64) // per stack entry: next edge to look at
    let cycles = 0
    let best = { links: -1, from: -1, to: -1 }
    for (const root of roots) {
      if (root < 0) continue
      if (state[root] === 0) {
        let top = 0
        stack[0] = root
        cursor[0] = Math.max(this.edgeStart[root], 0)
        state[root] = 1
        top = 1
        while (top > 0) {
          const node = stack[top - 1]
          const first = this.edgeStart[node]
          const end = first < 0 ? 0 : first + this.edgeCount[node]
          const e = cursor[top - 1]
          if (first >= 0 && e < end) {
            cursor[top - 1] = e + 1
            const child = this.edges[e]
            if (state[child] === 1) { cycles++; continue }
            if (state[child] === 0) {
              if (top === stack.length) { stack = grow(stack, top + 1); cursor = grow(cursor, top + 1) }
              stack[top] = child
              cursor[top] = Math.max(this.edgeStart[child], 0)
              state[child] = 1
              top++
            }
            continue
          }
          // every child done: this id's depth is one more than its deepest child's
          let d = 0
          let via = -1
          for (let k = first; k >= 0 && k < end; k++) {
            const child = this.edges[k]
            if (state[child] === 2 && depth[child] + 1 > d) { d = depth[child] + 1; via = child }
          }
          depth[node] = d
          next[node] = via
          state[node] = 2
          top--
        }
      }
      if (depth[root] > best.links) best = { links: depth[root], from: root, to: root }
    }
    if (best.from >= 0) {
      let to = best.from
      while (next[to] >= 0) to = next[to]
      best.to = to
    }
    return { links: Math.max(best.links, 0), from: best.from, to: best.to, cycles }
  }
}
