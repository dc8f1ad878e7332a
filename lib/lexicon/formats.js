// The string formats of Lexicon (`"format"` on a string): one checker per format, each a
// function of the string that answers whether it is well formed. The syntax is the AT Protocol
// specs' (atproto.com/specs: handle, did, nsid, tid, record-key, at-uri-scheme, lexicon), and the
// checkers are tested against the atproto interop test files (test/fixtures/lexicons/syntax/).
// As the Lexicon spec asks, each accepts the most expansive syntax of its identifier: a DID of
// any method, a handle under any TLD. Regular expressions and plain
// scanning only, no code made at run time.

import { checkCid } from '../cid-decode.js'

const HANDLE = /^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/
const DID = /^did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]$/
const NSID = /^[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+\.[a-zA-Z][a-zA-Z0-9]{0,62}$/
const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/
const RECORD_KEY = /^[a-zA-Z0-9_~.:-]{1,512}$/
// at://AUTHORITY[/COLLECTION[/RKEY]][#/FRAGMENT], each part checked by its own format below
const AT_URI = /^at:\/\/([^/#?]+)(?:\/([^/#?]+)(?:\/([^/#?]+))?)?(?:#(\/[a-zA-Z0-9._~:@!$&%')(*+,;=\-[\]/\\]*))?$/
const URI = /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]+$/
// BCP 47 "well-formed" (RFC 5646 section 2.1): langtag, private use, or a grandfathered tag
const LANGTAG = /^(?:([a-zA-Z]{2,3}(?:-[a-zA-Z]{3}){0,3}|[a-zA-Z]{4,8})(?:-[a-zA-Z]{4})?(?:-(?:[a-zA-Z]{2}|[0-9]{3}))?(?:-(?:[a-zA-Z0-9]{5,8}|[0-9][a-zA-Z0-9]{3}))*(?:-[0-9a-wy-zA-WY-Z](?:-[a-zA-Z0-9]{2,8})+)*(?:-[xX](?:-[a-zA-Z0-9]{1,8})+)?|[xX](?:-[a-zA-Z0-9]{1,8})+|[iI]-[a-zA-Z]{3,8}|en-GB-oed|sgn-(?:BE-FR|BE-NL|CH-DE))$/

/** @param {string} s */
export function isHandle (s) {
  return s.length <= 253 && HANDLE.test(s)
}

/** @param {string} s */
export function isDid (s) {
  return s.length <= 2048 && DID.test(s)
}

/** @param {string} s */
export function isNsid (s) {
  return s.length <= 317 && NSID.test(s)
}

/** @param {string} s */
export function isTid (s) {
  return TID.test(s)
}

/** @param {string} s */
export function isRecordKey (s) {
  return s !== '.' && s !== '..' && RECORD_KEY.test(s)
}

/** @param {string} s */
export function isAtIdentifier (s) {
  return s.startsWith('did:') ? isDid(s) : isHandle(s)
}

/** @param {string} s */
export function isAtUri (s) {
  if (s.length > 8192) return false
  const m = AT_URI.exec(s)
  if (m === null || !isAtIdentifier(m[1])) return false
  if (m[2] !== undefined && !isNsid(m[2])) return false
  return m[3] === undefined || isRecordKey(m[3])
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/**
 * The number written by the two ASCII digits of `codes` at `at`, or -1 if one is not a digit.
 * Two reads and no loop: a datetime has eight such fields, read in every record that has one.
 *
 * @param {Uint8Array} codes
 * @param {number} at
 * @returns {number}
 */
function twoDigits (codes, at) {
  const tens = codes[at] - 48
  const ones = codes[at + 1] - 48
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1
}

const DASH = 0x2d
const COLON = 0x3a

/**
 * RFC 3339 ∩ ISO 8601 ∩ WHATWG: YYYY-MM-DDTHH:MM:SS, an optional fraction, then Z or ±hh:mm;
 * upper-case T and Z; a real date and time. Read byte by byte (most records carry one), over
 * ASCII codes: a record's UTF-8 as it is (validate builds no string), or a string's characters
 * copied (isDatetime).
 *
 * @param {Uint8Array} c
 * @param {number} start
 * @param {number} n
 * @returns {boolean}
 */
export function isDatetimeBytes (c, start, n) {
  if (n < 20 || n > 64) return false
  const s = start
  if (c[s + 4] !== DASH || c[s + 7] !== DASH || c[s + 10] !== 0x54 || c[s + 13] !== COLON || c[s + 16] !== COLON) return false
  const century = twoDigits(c, s)
  const yearOfCentury = twoDigits(c, s + 2)
  const year = century * 100 + yearOfCentury
  const month = twoDigits(c, s + 5)
  const day = twoDigits(c, s + 8)
  const hour = twoDigits(c, s + 11)
  const minute = twoDigits(c, s + 14)
  const second = twoDigits(c, s + 17)
  if (century < 0 || yearOfCentury < 0 || month < 1 || month > 12 || day < 1 || day > DAYS[month - 1] || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false
  if (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) return false
  const stop = s + n
  let i = s + 19
  if (c[i] === 0x2e) { // '.'
    i++
    const from = i
    while (i < stop && c[i] >= 48 && c[i] <= 57) i++
    if (i === from) return false
  }
  if (i === stop - 1) return c[i] === 0x5a // 'Z'
  const sign = c[i]
  if (i !== stop - 6 || (sign !== 0x2b && sign !== DASH) || c[i + 3] !== COLON) return false
  const offsetHours = twoDigits(c, i + 1)
  const offsetMinutes = twoDigits(c, i + 4)
  // an offset is at most 23:59; ISO 8601 has no "negative zero" offset
  if (offsetHours < 0 || offsetHours > 23 || offsetMinutes < 0 || offsetMinutes > 59) return false
  if (sign === DASH && offsetHours === 0 && offsetMinutes === 0) return false
  // no time before year 0 once the offset is applied (0000-01-01T00:00:00+01:00)
  if (year === 0 && month === 1 && day === 1 && sign === 0x2b && hour * 60 + minute < offsetHours * 60 + offsetMinutes) return false
  return true
}

/** @param {string} s */
export function isDatetime (s) {
  // a datetime is ASCII, at most 64 characters
  return s.length >= 20 && s.length <= 64 && asciiCodes(s) && isDatetimeBytes(codes, 0, s.length)
}

/** @param {string} s */
export function isUri (s) {
  return s.length <= 8192 && URI.test(s)
}

/** @param {string} s */
export function isLanguage (s) {
  return LANGTAG.test(s)
}

/**
 * Each character's digit in `alphabet`, by char code below 128; -1 for others.
 *
 * @param {string} alphabet
 * @returns {Int8Array}
 */
function digitsOf (alphabet) {
  const table = new Int8Array(128).fill(-1)
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i
  return table
}
const BASE32 = digitsOf('abcdefghijklmnopqrstuvwxyz234567')
const BASE58 = digitsOf('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz')

/**
 * The bytes of a CID written as text (the ASCII codes c[start, start + n)), behind the 0x00
 * prefix of a tag 42 payload so that the codec's own CID check reads them: the first cidLength
 * bytes of what it returns. Null when the text is in neither form a CID is written in: "b" and
 * unpadded lower-case base32 (a CIDv1), or base58btc starting "Qm" (a CIDv0, 46 characters).
 * Only the canonical spelling is taken: no leftover bits, no other base.
 *
 * @param {Uint8Array} c
 * @param {number} start
 * @param {number} n
 * @returns {Uint8Array|null}
 */
function cidBytes (c, start, n) {
  const stop = start + n
  if (n > 1 && c[start] === 0x62) { // 'b'
    const size = 1 + Math.floor((n - 1) * 5 / 8)
    // a scratch buffer for CIDs of the usual size (one check at a time: nothing here yields)
    const out = size <= scratch.length ? scratch : new Uint8Array(size)
    out[0] = 0
    let bits = 0
    let buffer = 0
    let at = 1
    for (let i = start + 1; i < stop; i++) {
      const code = c[i]
      const v = code < 128 ? BASE32[code] : -1
      if (v < 0) return null
      buffer = ((buffer << 5) | v) & 0x1fff
      bits += 5
      if (bits >= 8) {
        bits -= 8
        out[at++] = (buffer >> bits) & 0xff
      }
    }
    if (bits >= 5 || (buffer & ((1 << bits) - 1)) !== 0) return null
    cidLength = at
    return out
  }
  if (n === 46 && c[start] === 0x51 && c[start + 1] === 0x6d) { // 'Qm'
    const out = scratch.fill(0, 0, 35)
    for (let i = start; i < stop; i++) {
      const code = c[i]
      let carry = code < 128 ? BASE58[code] : -1
      if (carry < 0) return null
      for (let j = 34; j > 0; j--) {
        carry += out[j] * 58
        out[j] = carry & 0xff
        carry >>= 8
      }
      if (carry !== 0) return null
    }
    cidLength = 35
    return out
  }
  return null
}

const scratch = new Uint8Array(128)
/** how many bytes of cidBytes' answer are the CID's (with its 0x00 prefix) */
let cidLength = 0
/** a string's character codes, for the checkers that read codes */
let codes = new Uint8Array(256)

/**
 * A CID written as text, c[start, start + n): a base32 CIDv1 ("b...") or a base58btc CIDv0
 * ("Qm..."), each as the CID's own toString() writes it. Reads a record's UTF-8 in place (a pass
 * implies ASCII), or a string's codes (isCidString).
 *
 * @param {Uint8Array} c
 * @param {number} start
 * @param {number} n
 * @returns {boolean}
 */
export function isCidBytes (c, start, n) {
  const bytes = cidBytes(c, start, n)
  if (bytes === null) return false
  try {
    return checkCid(bytes, 0, cidLength) === (c[start] === 0x62 ? 1 : 0)
  } catch {
    return false
  }
}

/**
 * The character codes of `s` in `codes` (grown as needed), or false when one is not ASCII.
 *
 * @param {string} s
 * @returns {boolean}
 */
function asciiCodes (s) {
  if (s.length > codes.length) codes = new Uint8Array(s.length)
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i)
    if (code >= 0x80) return false
    codes[i] = code
  }
  return true
}

/** @param {string} s */
export function isCidString (s) {
  return asciiCodes(s) && isCidBytes(codes, 0, s.length)
}

/** Each format by its name in a Lexicon document. */
export const FORMATS = {
  'at-identifier': isAtIdentifier,
  'at-uri': isAtUri,
  cid: isCidString,
  datetime: isDatetime,
  did: isDid,
  handle: isHandle,
  nsid: isNsid,
  tid: isTid,
  'record-key': isRecordKey,
  uri: isUri,
  language: isLanguage
}

/** @typedef {keyof typeof FORMATS} FormatName */
