// A set of CIDs that numbers them 0, 1, 2, ... in the order they are added, keyed by their bytes.
// Open addressing over typed arrays: the CID bytes sit in one growing arena, so an entry costs its
// bytes plus a few words (no string or object per CID, which would cost about twice as much and
// give the garbage collector millions of objects to trace on a big CAR). Lookups take a byte range
// (a section's CID, or a link's CID inside a block) and copy nothing.

const EMPTY = 0

export class CidTable {
  constructor () {
    this.size = 0
    /** @type {Uint8Array} every CID's bytes, back to back */
    this.arena = new Uint8Array(64 * 1024)
    this.arenaUsed = 0
    /** @type {Uint32Array} where CID i starts in the arena; it ends where CID i + 1 starts */
    this.starts = new Uint32Array(1024 + 1)
    /** @type {Int32Array} id + 1 per slot, EMPTY for a free slot; the length is a power of two */
    this.slots = new Int32Array(2048)
  }

  /**
   * The id of the CID in bytes[start, end), or -1 when it is not in the table.
   *
   * @param {Uint8Array} bytes @param {number} start @param {number} end
   */
  find (bytes, start, end) {
    const mask = this.slots.length - 1
    for (let slot = hash(bytes, start, end) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]
      if (entry === EMPTY) return -1
      if (this.equals(entry - 1, bytes, start, end)) return entry - 1
    }
  }

  /**
   * The id of the CID in bytes[start, end), adding it when new (then the id is `size - 1`).
   *
   * @param {Uint8Array} bytes @param {number} start @param {number} end
   */
  add (bytes, start, end) {
    if (2 * (this.size + 1) > this.slots.length) this.rehash(this.slots.length * 2)
    const mask = this.slots.length - 1
    let slot = hash(bytes, start, end) & mask
    for (; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]
      if (entry === EMPTY) break
      if (this.equals(entry - 1, bytes, start, end)) return entry - 1
    }
    const id = this.size++
    const length = end - start
    if (this.arenaUsed + length > this.arena.length) this.arena = grow(this.arena, this.arenaUsed + length)
    this.arena.set(bytes.subarray(start, end), this.arenaUsed)
    this.arenaUsed += length
    if (id + 2 > this.starts.length) this.starts = grow(this.starts, id + 2)
    this.starts[id + 1] = this.arenaUsed
    this.slots[slot] = id + 1
    return id
  }

  /** @param {number} id @returns {Uint8Array} the CID's bytes (a view into the table: copy to keep) */
  bytesOf (id) {
    return this.arena.subarray(this.starts[id], this.starts[id + 1])
  }

  /** @param {number} id @param {Uint8Array} bytes @param {number} start @param {number} end */
  equals (id, bytes, start, end) {
    const from = this.starts[id]
    const length = this.starts[id + 1] - from
    if (length !== end - start) return false
    const arena = this.arena
    for (let i = length - 1; i >= 0; i--) if (arena[from + i] !== bytes[start + i]) return false
    return true
  }

  /** @param {number} capacity */
  rehash (capacity) {
    const slots = new Int32Array(capacity)
    const mask = capacity - 1
    for (let id = 0; id < this.size; id++) {
      let slot = hash(this.arena, this.starts[id], this.starts[id + 1]) & mask
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask
      slots[slot] = id + 1
    }
    this.slots = slots
  }
}

/**
 * FNV-1a over the CID's last 16 bytes (its digest: uniformly spread for a real hash, and the part
 * that differs between identity CIDs too) and its length.
 *
 * @param {Uint8Array} bytes @param {number} start @param {number} end
 */
function hash (bytes, start, end) {
  let h = 0x811c9dc5 ^ (end - start)
  for (let i = Math.max(start, end - 16); i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193)
  return (h ^ (h >>> 15)) >>> 0
}

/**
 * A typed array at least `need` long (doubling), holding the old contents.
 *
 * @template {Uint8Array | Uint32Array | Int32Array | Float64Array} T
 * @param {T} array
 * @param {number} need
 * @returns {T}
 */
export function grow (array, need) {
  let length = array.length * 2
  while (length < need) length *= 2
  const next = /** @type {T} */ (new /** @type {any} */ (array.constructor)(length))
  next.set(/** @type {any} */ (array))
  return next
}
