// Commit signatures (atproto.com/specs/repository "Commit Objects", /specs/cryptography): ECDSA over
// SHA-256 of the unsigned commit's DAG-CBOR bytes, 64-byte compact (r, s), low-S required on both
// curves. The curve library does the verifying; nothing here compares signature bytes.
import { curveOf } from './did-key.js'

/**
 * @param {Uint8Array} message the unsigned commit's bytes (hashed with SHA-256 by the curve library)
 * @param {Uint8Array} signature
 * @param {import('./did-key.js').PublicKey} key
 * @returns {string | null} null when valid, else why not
 */
export function signatureProblem (message, signature, key) {
  if (signature.length !== 64) return `the signature is ${signature.length} bytes, not a 64-byte compact (r, s) signature${signature[0] === 0x30 ? ' (it looks DER-encoded, which atproto does not allow)' : ''}`
  const curve = curveOf(key.curve)
  let high
  try {
    high = curve.Signature.fromBytes(signature, 'compact').hasHighS()
  } catch (err) {
    return `the signature is malformed (${/** @type {Error} */ (err).message})`
  }
  if (high) return 'the signature is high-S; atproto requires low-S signatures'
  let valid = false
  try {
    valid = curve.verify(signature, message, key.publicKey, { prehash: true, lowS: true, format: 'compact' })
  } catch {}
  return valid ? null : `the signature does not verify with ${key.text}`
}
