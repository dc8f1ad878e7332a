// A set of CIDs seen so far, for counting duplicate blocks in CARs of millions of blocks: each CID is
// kept as a 64-bit fingerprint of its bytes (two independent 32-bit FNV-1a lanes) in an open-addressed
// table of two Uint32Arrays, 8 bytes a slot, instead of a string per CID in a Set (tens of bytes each
// plus the Set's entry). Two different CIDs with the same 64-bit fingerprint would be counted as a
// duplicate; duplicates are reported, never a reason to fail, so that chance (about n^2 / 2^65) can
// only add a line of information, never hide a problem.

const EMPTY_HIGH = 0

export class SeenCids {
  constructor (capacity = 1 << 16) {
    this.size = 0
    this.mask = capacity - 1
    this.high = new Uint32Array(capacity)
    this.low = new Uint32Array(capacity)
  }

  /**
   * Add a CID's bytes; true when the same fingerprint was added before.
   *
   * @param {Uint8Array} bytes
   */
  add (bytes) {
    let a = 0x811c9dc5
    let b = 0x01000193 ^ bytes.length
    for (let i = 0; i < bytes.length; i++) {
      a = Math.imul(a ^ bytes[i], 0x01000193)
      b = Math.imul(b ^ bytes[i], 0x5bd1e995)
    }
    a >>>= 0
    b = (b ^ (b >>> 15)) >>> 0
    if (b === EMPTY_HIGH) b = 1 // 0 marks an empty slot
    if (this.has(a, b)) return true
    if ((this.size + 1) * 10 > (this.mask + 1) * 7) this.grow() // at most 70% full: a few probes per miss
    this.put(a, b)
    this.size++
    return false
  }

  /** @param {number} a @param {number} b */
  has (a, b) {
    for (let i = a & this.mask; ; i = (i + 1) & this.mask) {
      const h = this.high[i]
      if (h === EMPTY_HIGH) return false
      if (h === b && this.low[i] === a) return true
    }
  }

  /** @param {number} a @param {number} b */
  put (a, b) {
    let i = a & this.mask
    while (this.high[i] !== EMPTY_HIGH) i = (i + 1) & this.mask
    this.high[i] = b
    this.low[i] = a
  }

  grow () {
    const { high, low } = this
    this.mask = high.length * 2 - 1
    this.high = new Uint32Array(high.length * 2)
    this.low = new Uint32Array(high.length * 2)
    for (let i = 0; i < high.length; i++) if (high[i] !== EMPTY_HIGH) this.put(low[i], high[i])
  }
}
