// Identifier syntax from the AT Protocol specs (atproto.com/specs/nsid, /record-key, /tid, /did) and
// repo paths (/specs/repository: `<collection NSID>/<record key>`). A repo CAR is untrusted input:
// every MST key goes through parseRepoPath before anything uses it as a name, a path or a label.

// The NSID reference regex, with the name segment as the interop vectors have it (letters, then
// letters or digits: `com.example.fooBarV2`), and the 317-character limit the regex does not carry.
// The spec's 253-character limit on the domain authority is not applied: the interop vectors hold
// a valid NSID whose authority is 276 characters long.
const NSID = /^[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+(\.[a-zA-Z][a-zA-Z0-9]{0,62})$/
const NSID_MAX = 317
const RECORD_KEY = /^[a-zA-Z0-9_~.:-]{1,512}$/
// 13 characters of base32-sortable; the first one keeps the top bit of the 64-bit value clear
const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/
const DID = /^did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]$/
const DID_MAX = 2048

/** @param {string} s */
export function isNsid (s) {
  return s.length <= NSID_MAX && NSID.test(s)
}

/** @param {string} s */
export function isRecordKey (s) {
  return RECORD_KEY.test(s) && s !== '.' && s !== '..'
}

/** @param {string} s */
export function isTid (s) {
  return TID.test(s)
}

/** @param {string} s */
export function isDid (s) {
  return s.length <= DID_MAX && DID.test(s)
}

/**
 * Split a repo path into collection and record key, or say why it is not one.
 *
 * @param {string} path
 * @returns {{ collection: string, rkey: string } | { reason: string }}
 */
export function parseRepoPath (path) {
  const parts = path.split('/')
  if (parts.length !== 2) return { reason: `has ${parts.length - 1} slashes; a repo path is <collection>/<record key>` }
  const [collection, rkey] = parts
  if (!isNsid(collection)) return { reason: `collection "${printable(collection)}" is not a valid NSID` }
  if (!isRecordKey(rkey)) return { reason: `record key "${printable(rkey)}" is not a valid record key` }
  return { collection, rkey }
}

/**
 * A key as it can be shown on one line of a report: control characters, quotes and anything
 * outside printable ASCII as \u escapes (a crafted key must not forge report lines).
 *
 * @param {string} s
 */
export function printable (s) {
  const short = s.length > 600 ? s.slice(0, 600) + '...' : s
  return short.replace(/[^\x20-\x7e]|["\\]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
}
