// CIDs in DAG-CBOR are tag 42 over a byte string: 0x00 (a historical multibase "identity"
// prefix), then the binary CID. What the encoder needs of them lives here, apart from the
// decoder's CID construction (cid-decode.js), so that a bundle that only encodes carries no
// multiformats code.

export const CID_TAG = 42

/**
 * The bytes of the CID this value is, or null when it is not one. A multiformats CID of any
 * copy or version signals itself with `cid['/'] === cid.bytes` (or, before multiformats 10,
 * `cid.asCID === cid`), the same test @ipld/dag-cbor's encoder makes; testing the signal
 * instead of `instanceof CID` keeps multiformats out of bundles that only encode.
 *
 * @param {any} value
 * @returns {Uint8Array|null}
 */
export function cidBytes (value) {
  const bytes = value.bytes
  if (!(bytes instanceof Uint8Array)) return null
  return value['/'] === bytes || value.asCID === value ? bytes : null
}
