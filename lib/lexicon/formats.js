// The string formats of Lexicon (`"format"` on a string): one checker per format, each a
// function of the string that answers whether it is well formed. The syntax is the AT Protocol
// specs' (atproto.com/specs: handle, did, nsid, tid, record-key, at-uri-scheme, lexicon), and the
// checkers are tested against the atproto interop test files (test/fixtures/lexicons/syntax/).
// As the Lexicon spec asks, each accepts the most expansive syntax of its identifier: a DID of
// any method, a handle under any TLD. Regular expressions only, no code made at run time.

import { CID } from 'multiformats/cid'

const HANDLE = /^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/
const DID = /^did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]$/
const NSID = /^[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+\.[a-zA-Z][a-zA-Z0-9]{0,62}$/
const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/
const RECORD_KEY = /^[a-zA-Z0-9_~.:-]{1,512}$/
// at://AUTHORITY[/COLLECTION[/RKEY]][#/FRAGMENT], each part checked by its own format below
const AT_URI = /^at:\/\/([^/#?]+)(?:\/([^/#?]+)(?:\/([^/#?]+))?)?(?:#(\/[a-zA-Z0-9._~:@!$&%')(*+,;=\-[\]/\\]*))?$/
// RFC 3339 ∩ ISO 8601 ∩ WHATWG: full date, upper-case T, whole seconds, optional fraction, Z or ±hh:mm
const DATETIME = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$/
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

/** @param {string} s */
export function isDatetime (s) {
  const m = DATETIME.exec(s)
  if (m === null || s.length > 64) return false
  const year = +m[1]
  const month = +m[2]
  const day = +m[3]
  if (month < 1 || month > 12 || day < 1 || day > DAYS[month - 1]) return false
  if (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) return false
  if (+m[4] > 23 || +m[5] > 59 || +m[6] > 59) return false
  const zone = m[8]
  if (zone !== 'Z') {
    // ISO 8601 has no "negative zero" offset; an offset is at most 23:59
    if (zone === '-00:00' || +zone.slice(1, 3) > 23 || +zone.slice(4) > 59) return false
    // no time before year 0 once the offset is applied (0000-01-01T00:00:00+01:00)
    if (year === 0 && month === 1 && day === 1 && zone[0] === '+' && +m[4] * 60 + +m[5] < +zone.slice(1, 3) * 60 + +zone.slice(4)) return false
  }
  return true
}

/** @param {string} s */
export function isUri (s) {
  return s.length <= 8192 && URI.test(s)
}

/** @param {string} s */
export function isLanguage (s) {
  return LANGTAG.test(s)
}

/** @param {string} s */
export function isCidString (s) {
  try {
    return CID.parse(s).toString() === s
  } catch {
    return false
  }
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
