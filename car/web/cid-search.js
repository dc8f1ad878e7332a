// Which CIDs contain a piece of text, over a million CIDs without a string each: a CIDv1 is
// written as 'b' + base32 (RFC 4648, lower case, no padding), encoded here into one reused buffer
// and searched byte by byte. A CIDv0 (base58btc, 'Qm...') takes multiformats' toString.
import { CID } from 'multiformats/cid'

const ALPHABET = new TextEncoder().encode('abcdefghijklmnopqrstuvwxyz234567')

export class CidSearch {
  /** @param {string} text */
  constructor (text) {
    /** for a CIDv0: base58btc is case-sensitive */
    this.text58 = text
    // base32 is not: a CIDv1's text is lower case
    this.needle = new TextEncoder().encode(/^[a-z2-7]*$/i.test(text) ? text.toLowerCase() : text)
    this.text = new Uint8Array(256)
  }

  /**
   * Does the CID (its bytes) contain the text?
   *
   * @param {Uint8Array} cid
   */
  matches (cid) {
    if (cid.length === 34 && cid[0] === 0x12 && cid[1] === 0x20) return CID.decode(cid.slice()).toString().includes(this.text58)
    const length = this.encode(cid)
    return indexOf(this.text, length, this.needle) >= 0
  }

  /**
   * 'b' + base32 of `cid` into this.text; the text's length.
   *
   * @param {Uint8Array} cid
   */
  encode (cid) {
    const need = 2 + Math.ceil(cid.length * 8 / 5)
    if (need > this.text.length) this.text = new Uint8Array(need * 2)
    const out = this.text
    out[0] = 0x62 // 'b'
    let n = 1
    let bits = 0
    let value = 0
    for (let i = 0; i < cid.length; i++) {
      value = (value << 8) | cid[i]
      bits += 8
      while (bits >= 5) {
        out[n++] = ALPHABET[(value >>> (bits - 5)) & 31]
        bits -= 5
      }
      value &= 0xff // at most 4 bits are left over: the older bits are written
    }
    if (bits > 0) out[n++] = ALPHABET[(value << (5 - bits)) & 31]
    return n
  }
}

/**
 * @param {Uint8Array} hay @param {number} length @param {Uint8Array} needle
 * @returns {number} where needle starts in hay[0, length), or -1
 */
function indexOf (hay, length, needle) {
  const n = needle.length
  if (n === 0) return 0
  const first = needle[0]
  outer: for (let i = 0; i + n <= length; i++) {
    if (hay[i] !== first) continue
    for (let k = 1; k < n; k++) if (hay[i + k] !== needle[k]) continue outer
    return i
  }
  return -1
}
