// CIDs to what a reader holds for them (a block's place in a list, a section in a file), keyed by
// the CIDs' bytes in a CidTable: a lookup hashes the CID's digest and compares bytes, instead of
// making its string and searching a list (@ipld/car's CarReader), so `get` of every block of a CAR
// costs as many lookups, not their square. A CID met again keeps its first entry, as @ipld/car's
// `get` finds the first.
import { CidTable } from './cid-table.js'

export class BlockTable {
  constructor () {
    this.table = new CidTable()
    /** @type {number[]} the entry of each CID, by its id in the table */
    this.entries = []
  }

  /** @param {{ bytes: Uint8Array }} cid @param {number} entry */
  add (cid, entry) {
    this.addBytes(cid.bytes, 0, cid.bytes.length, entry)
  }

  /**
   * The CID whose bytes are bytes[start, end), with no CID object made.
   *
   * @param {Uint8Array} bytes @param {number} start @param {number} end @param {number} entry
   * @returns {number} the CID's id in the table
   */
  addBytes (bytes, start, end, entry) {
    const id = this.table.add(bytes, start, end)
    if (id === this.entries.length) this.entries.push(entry)
    return id
  }

  /**
   * @param {unknown} cid a CID (any object with the CID's `bytes`)
   * @returns {number} its entry, or -1
   */
  find (cid) {
    const bytes = /** @type {any} */ (cid)?.bytes
    if (!(bytes instanceof Uint8Array)) return -1
    const id = this.table.find(bytes, 0, bytes.length)
    return id < 0 ? -1 : this.entries[id]
  }

  /** how many different CIDs */
  get size () {
    return this.entries.length
  }
}
