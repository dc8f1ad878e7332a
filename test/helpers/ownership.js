// What "owns exactly its memory" means for what the codec returns: a Uint8Array starts at offset 0
// of a buffer of exactly its length; a CID's bytes do too, and its multihash and digest are views of
// those bytes and of nothing else; and no two returned arrays (CIDs aside) share a buffer.
import { CID } from 'multiformats/cid'

/**
 * @param {Uint8Array} bytes
 * @returns {boolean}
 */
export function ownsExactly (bytes) {
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength
}

/**
 * The first place in a decoded value where returned memory is not exactly owned, or null.
 *
 * @param {unknown} value
 * @returns {string|null}
 */
export function ownershipProblem (value) {
  /** @type {Map<ArrayBufferLike, string>} */
  const owners = new Map()
  /**
   * @param {Uint8Array} bytes
   * @param {string} path
   * @returns {string|null}
   */
  const own = (bytes, path) => {
    if (!ownsExactly(bytes)) return `${path || '(root)'}: ${bytes.byteLength} bytes at offset ${bytes.byteOffset} of a ${bytes.buffer.byteLength}-byte buffer`
    const other = owners.get(bytes.buffer)
    if (other !== undefined) return `${path || '(root)'} shares its buffer with ${other || '(root)'}`
    owners.set(bytes.buffer, path)
    return null
  }
  /**
   * @param {unknown} v
   * @param {string} path
   * @returns {string|null}
   */
  const walk = (v, path) => {
    if (v instanceof Uint8Array) return own(v, path)
    const cid = CID.asCID(v)
    if (cid) {
      const problem = own(cid.bytes, path)
      if (problem) return `CID ${problem}`
      const { bytes, digest } = cid.multihash
      if (bytes.buffer !== cid.bytes.buffer || digest.buffer !== cid.bytes.buffer) return `${path}: the CID's multihash is not a view of its own bytes`
      return null
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const problem = walk(v[i], `${path}/${i}`)
        if (problem) return problem
      }
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const problem = walk(x, `${path}/${k}`)
        if (problem) return problem
      }
    }
    return null
  }
  return walk(value, '')
}
