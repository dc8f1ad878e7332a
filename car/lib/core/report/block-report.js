// What the commands say about one block and its CIDs: the block's verdict (classify.js: hash, and for DAG-CBOR the
// strict round trip of classify.js) as one problem line, codec names both ways, CIDs from the
// command line.
import * as codec from 'dag-cbor-fast'
import { CID } from 'multiformats/cid'
import { base36 } from 'multiformats/bases/base36'
import { verdict } from '../check/classify.js'
import { codecName } from './summary.js'
import { hashName, unverifiedReason } from '../check/hash.js'
import { UsageError } from '../base/errors.js'

/** Codecs the commands know by name (any other is given as a number: 0x0112 or 274). */
const NAMED_CODECS = [0x71, 0x55, 0x70, 0x0129, 0x0200]

/**
 * @typedef {object} BlockCheck
 * @property {'ok' | 'mismatch' | 'unverified'} hash
 * @property {'canonical' | 'non-canonical' | 'invalid' | undefined} dagCbor for DAG-CBOR blocks
 * @property {{ kind: string, message: string } | null} problem what makes `verify` fail on this block (a hash, DAG-CBOR, or another codec's content)
 * @property {import('../check/classify.js').BlockResult} result
 */

/**
 * @param {CID} cid @param {Uint8Array} bytes
 * @returns {BlockCheck}
 */
export function checkBlock (cid, bytes) {
  const result = verdict(codec, cid, bytes)
  const dagCbor = result.cls === 'nonCanonical' ? 'non-canonical' : result.cls
  /** @type {BlockCheck['problem']} */
  let problem = null
  if (result.hash === 'mismatch') problem = { kind: 'hash-mismatch', message: `bytes do not hash to the CID (${hashName(cid.multihash.code)})` }
  else if (result.hash === 'unverified') problem = { kind: 'unverified', message: unverifiedReason(cid) }
  else if (dagCbor === 'non-canonical' || dagCbor === 'invalid') problem = { kind: dagCbor, message: result.reason ?? dagCbor }
  else if (result.content) problem = { kind: result.content === 'invalid' ? 'invalid' : 'unknown-codec', message: result.reason ?? result.content }
  return { hash: result.hash, dagCbor, problem, result }
}

export { codecName }

/**
 * A codec given on the command line: a name (dag-cbor, raw, ...) or a number (0x71, 113).
 *
 * @param {string} text
 * @param {string} usage
 */
export function codecCode (text, usage) {
  const named = NAMED_CODECS.find((c) => codecName(c) === text)
  if (named !== undefined) return named
  if (/^(0x[0-9a-f]+|\d+)$/i.test(text)) return Number(text)
  throw new UsageError(`unknown codec "${text}": give one of ${NAMED_CODECS.map(codecName).join(', ')}, or a number such as 0x71`, usage)
}

/**
 * A CID given on the command line (base32 bafy..., base58btc Qm... or z..., base36 k...).
 *
 * @param {string} text
 * @param {string} what where it came from, for the message
 * @param {string} [usage]
 */
export function parseCid (text, what, usage) {
  try {
    return text.startsWith('k') ? CID.parse(text, base36) : CID.parse(text)
  } catch {
    throw new UsageError(`${what} is not a CID: "${text.length > 80 ? text.slice(0, 80) + '...' : text}" (${whyNotCid(text)})`, usage)
  }
}

/**
 * Why text that CID.parse refused is not a CID, in the tool's words (multiformats' say "multibase
 * decoder must be provided" for a word that names no base).
 *
 * @param {string} text
 */
export function whyNotCid (text) {
  const base = text.startsWith('Qm') ? 'base58btc CIDv0' : ({ b: 'base32', z: 'base58btc', k: 'base36' })[text[0]]
  if (!base) return 'a CID is written in base32 (b...), base58btc (z..., or Qm... for a CIDv0) or base36 (k...)'
  return `it starts as ${base} text, but does not decode to a whole, valid CID`
}

/**
 * Block sizes kept as 4 bytes each, for the median.
 */
export class SizeList {
  constructor () {
    this.sizes = new Uint32Array(1024)
    this.count = 0
  }

  /** @param {number} n */
  add (n) {
    if (this.count === this.sizes.length) {
      const next = new Uint32Array(this.sizes.length * 2)
      next.set(this.sizes)
      this.sizes = next
    }
    this.sizes[this.count++] = n
  }

  /** @returns {{ min: number, median: number, max: number } | null} null with no blocks */
  summary () {
    if (this.count === 0) return null
    const sorted = this.sizes.subarray(0, this.count).sort()
    const mid = this.count >> 1
    const median = this.count % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2)
    return { min: sorted[0], median, max: sorted[this.count - 1] }
  }
}
