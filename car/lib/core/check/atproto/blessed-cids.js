// The "blessed" CID form for links between repo structures (atproto.com/specs/repository,
// "CID Formats"): the commit's `data` and `prev`, and MST links to MST nodes, must be CIDv1,
// dag-cbor, sha2-256 with a 32-byte digest. Links from the MST to records may use other forms.
import { CID } from 'multiformats/cid'

const DAG_CBOR = 0x71
const SHA2_256 = 0x12

/** @param {unknown} value */
export function asCid (value) {
  return CID.asCID(value) ?? null
}

/**
 * Null when the link has the blessed form, else what is wrong with it.
 *
 * @param {CID} cid
 */
export function unblessed (cid) {
  if (cid.version !== 1) return 'is a CIDv0, not CIDv1'
  if (cid.code !== DAG_CBOR) return `has codec 0x${cid.code.toString(16)}, not dag-cbor (0x71)`
  if (cid.multihash.code !== SHA2_256 || cid.multihash.size !== 32) return `has multihash 0x${cid.multihash.code.toString(16)} of ${cid.multihash.size} bytes, not sha2-256 (0x12, 32 bytes)`
  return null
}
