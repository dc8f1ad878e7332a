// Public keys for commit signatures (atproto.com/specs/cryptography, /specs/did): a did:key, a
// Multikey publicKeyMultibase, or a DID document's #atproto verification method (current or legacy form).
import { base58btc } from 'multiformats/bases/base58'
import { varint } from 'multiformats'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { p256 } from '@noble/curves/nist.js'
import { isDid } from './syntax.js'

/** multicodec codes of compressed public keys */
const SECP256K1_PUB = 0xe7
const P256_PUB = 0x1200

/**
 * @typedef {'k256' | 'p256'} CurveName
 * @typedef {{ curve: CurveName, publicKey: Uint8Array, text: string }} PublicKey text: how the user named it
 */

/** A key that cannot be used: bad usage, exit status 2. */
export class KeyError extends Error {}

/** @param {CurveName} curve */
export function curveOf (curve) {
  return curve === 'k256' ? secp256k1 : p256
}

/**
 * @param {CurveName} curve
 * @param {Uint8Array} bytes
 * @param {string} text
 * @returns {PublicKey}
 */
function checkedKey (curve, bytes, text) {
  try {
    curveOf(curve).Point.fromBytes(bytes).assertValidity()
  } catch (err) {
    throw new KeyError(`${text} is not a valid ${curve === 'k256' ? 'K-256' : 'P-256'} public key (${/** @type {Error} */ (err).message})`)
  }
  return { curve, publicKey: bytes, text }
}

/** @param {string} multibase @param {string} text */
function base58Bytes (multibase, text) {
  if (!multibase.startsWith('z')) throw new KeyError(`${text}: expected base58btc multibase (a leading "z")`)
  try {
    return base58btc.decode(multibase)
  } catch {
    throw new KeyError(`${text}: not valid base58btc`)
  }
}

/**
 * A Multikey: base58btc of a multicodec-prefixed compressed key (the did:key body).
 *
 * @param {string} multibase
 * @param {string} [text]
 * @returns {PublicKey}
 */
export function parseMultikey (multibase, text = multibase) {
  const bytes = base58Bytes(multibase, text)
  let code, size
  try {
    [code, size] = varint.decode(bytes)
  } catch {
    throw new KeyError(`${text}: no multicodec key type`)
  }
  const key = bytes.subarray(size)
  if (code === SECP256K1_PUB) return checkedKey('k256', key, text)
  if (code === P256_PUB) return checkedKey('p256', key, text)
  throw new KeyError(`${text}: key type 0x${code.toString(16)} is neither secp256k1-pub (0xe7) nor p256-pub (0x1200)`)
}

/**
 * @param {string} did `did:key:z...`
 * @returns {PublicKey}
 */
export function parseDidKey (did) {
  if (!did.startsWith('did:key:')) throw new KeyError(`${did} is not a did:key`)
  return parseMultikey(did.slice('did:key:'.length), did)
}

const LEGACY_TYPES = /** @type {Record<string, CurveName>} */ ({
  EcdsaSecp256k1VerificationKey2019: 'k256',
  EcdsaSecp256r1VerificationKey2019: 'p256'
})

/**
 * The atproto signing key of a DID document: the first verification method whose id ends in
 * #atproto, as a Multikey or in the legacy form (curve named by its type, uncompressed key
 * bytes without a multicodec prefix).
 *
 * @param {any} doc a parsed DID document
 * @param {string} text where it came from, for messages
 * @returns {{ did: string, key: PublicKey }}
 */
export function keyFromDidDocument (doc, text) {
  if (!doc || typeof doc !== 'object' || typeof doc.id !== 'string' || !isDid(doc.id)) throw new KeyError(`${text} is not a DID document (no valid "id")`)
  const methods = Array.isArray(doc.verificationMethod) ? doc.verificationMethod : []
  for (const m of methods) {
    if (!m || typeof m.id !== 'string' || !(m.id === '#atproto' || m.id === `${doc.id}#atproto`)) continue
    if (typeof m.publicKeyMultibase !== 'string') continue
    if (m.controller !== undefined && m.controller !== doc.id) continue
    const where = `${text} (${m.id})`
    if (m.type === 'Multikey') return { did: doc.id, key: parseMultikey(m.publicKeyMultibase, where) }
    const curve = LEGACY_TYPES[m.type]
    if (curve) return { did: doc.id, key: checkedKey(curve, base58Bytes(m.publicKeyMultibase, where), where) }
  }
  throw new KeyError(`${text} has no atproto signing key (a verificationMethod with id ending "#atproto")`)
}
