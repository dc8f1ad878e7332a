// A set of CIDs seen so far, for counting duplicate blocks in CARs of millions of blocks: each CID is
// kept as a 64-bit fingerprint of its bytes (two independent 32-bit FNV-1a lanes) in an open-addressed
// table in one Uint32Array, 8 bytes a slot, instead of a string per CID in a Set (tens of bytes each
// plus the Set's entry). Two different CIDs with the same 64-bit fingerprint would be counted as a
// duplicate; duplicates are reported, never a reason to fail, so that chance (about n^2 / 2^65) can
// only add a line of information, never hide a problem.

const EMPTY_HIGH = 0

export class SeenCids {
  // 1024 slots (8 KB) to start, doubled as it fills: a small CAR's check zeroes and touches a few
  // pages rather than half a megabyte, and a CAR of millions of blocks rehashes about twice its
  // final count in all
  constructor (capacity = 1 << 10) {
    this.size = 0
    this.mask = capacity - 1
    /** slot i is words 2i (the fingerprint's b; EMPTY_HIGH: a free slot) and 2i + 1 (its a), side by side: a probe reads one cache line */
    this.slots = new Uint32Array(2 * capacity)
  }

  /**
   * Add a CID's bytes; true when the same fingerprint was added before.
   *
   * @param {Uint8Array} bytes
   */
  add (bytes) {
    fingerprintInto(bytes, 0, bytes.length, scratch, 0)
    return this.addFingerprint(scratch[0], scratch[1])
  }

  /**
   * Add a fingerprint fingerprintInto() made (on another thread, say); true when it was added before.
   *
   * @param {number} a @param {number} b
   */
  addFingerprint (a, b) {
    if ((this.size + 1) * 10 > (this.mask + 1) * 7) this.grow() // at most 70% full: a few probes per miss
    const slots = this.slots
    const mask = this.mask
    for (let i = a & mask; ; i = (i + 1) & mask) {
      const high = slots[2 * i]
      if (high === EMPTY_HIGH) {
        slots[2 * i] = b
        slots[2 * i + 1] = a
        this.size++
        return false
      }
      if (high === b && slots[2 * i + 1] === a) return true
    }
  }

  grow () {
    const old = this.slots
    const slots = new Uint32Array(old.length * 2)
    const mask = old.length - 1 // twice the slots: old.length / 2 of them before
    for (let j = 0; j < old.length; j += 2) {
      if (old[j] === EMPTY_HIGH) continue
      let i = old[j + 1] & mask
      while (slots[2 * i] !== EMPTY_HIGH) i = (i + 1) & mask
      slots[2 * i] = old[j]
      slots[2 * i + 1] = old[j + 1]
    }
    this.slots = slots
    this.mask = mask
  }
}

const scratch = new Uint32Array(2)

/**
 * The 64-bit fingerprint of the CID in bytes[start, end), written to out[2i] and out[2i + 1]: the
 * two 32-bit words SeenCids keeps. Workers compute it where they read the CID, so the main thread,
 * which sees every CID in turn, only looks it up.
 *
 * @param {Uint8Array} bytes @param {number} start @param {number} end
 * @param {Uint32Array} out @param {number} i
 */
export function fingerprintInto (bytes, start, end, out, i) {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ (end - start)
  for (let k = start; k < end; k++) {
    a = Math.imul(a ^ bytes[k], 0x01000193)
    b = Math.imul(b ^ bytes[k], 0x5bd1e995)
  }
  b = (b ^ (b >>> 15)) >>> 0
  out[2 * i] = a >>> 0
  out[2 * i + 1] = b === EMPTY_HIGH ? 1 : b // 0 marks an empty slot
}
