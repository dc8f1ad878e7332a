// Stage 6: what the writers check of a root or a block's CID before writing it: multiformats takes
// it as a CID (CID.asCID, as @ipld/car checks), and its bytes are one CID, as this library's reader
// will read them back.
import { CID } from 'multiformats/cid'

/**
 * Why these bytes are not one well-formed CID, or null: a CIDv0 (a bare 34-byte sha2-256
 * multihash) or a CIDv1 (version 1, codec, multihash code, digest length, digest; varints in their
 * shortest form), and nothing after it, with the version and codec the object claims.
 *
 * @param {CID} cid
 * @returns {string | null}
 */
function cidProblem (cid) {
  const bytes = cid.bytes
  if (bytes.length === 34 && bytes[0] === 0x12 && bytes[1] === 0x20) {
    return cid.version === 0 && cid.code === 0x70 ? null : `its bytes are a CIDv0's but it claims version ${cid.version}, codec ${cid.code}`
  }
  let at = 0
  /** @returns {number} the varint at `at`, -1 when malformed, cut short or not in its shortest form */
  const varint = () => {
    let value = 0
    for (let i = 0, scale = 1; i < 9 && at < bytes.length; i++, scale *= 128) {
      const b = bytes[at++]
      value += (b & 0x7f) * scale
      if (b < 0x80) return b === 0 && i > 0 ? -1 : value
    }
    return -1
  }
  const version = varint()
  if (version !== 1) return version < 0 ? 'its version varint is malformed' : `its bytes start with version ${version}; only a CIDv1 has a version byte`
  const code = varint()
  if (code < 0 || varint() < 0) return 'its codec or multihash code varint is malformed'
  const size = varint()
  if (size < 0) return 'its digest length varint is malformed'
  if (at + size !== bytes.length) return `its multihash declares a ${size}-byte digest but ${bytes.length - at} bytes follow`
  if (cid.version !== 1 || cid.code !== code) return `its bytes are a CIDv1 of codec ${code} but it claims version ${cid.version}, codec ${cid.code}`
  return null
}

/**
 * The value as a CID, or why it is not one.
 *
 * @param {unknown} value
 * @returns {CID | string}
 */
export function asCid (value) {
  /** @type {CID | null} */
  let cid = null
  try {
    cid = CID.asCID(value)
  } catch (err) {
    return `a CID-like object multiformats cannot read (${/** @type {Error} */ (err)?.message})`
  }
  if (!cid) return value === null ? 'null' : Array.isArray(value) ? 'an array' : value instanceof Uint8Array ? 'a Uint8Array, not a CID' : typeof value === 'object' ? 'an object that is not a CID' : `${typeof value} ${JSON.stringify(value)}`
  if (!(cid.bytes instanceof Uint8Array)) return 'a CID without bytes'
  const problem = cidProblem(cid)
  return problem === null ? cid : `a CID whose bytes are not one (${problem})`
}

