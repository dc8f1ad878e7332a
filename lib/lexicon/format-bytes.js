// Quick checks of string formats on a record's UTF-8 as it lies in the bytes, before any string
// is made: each answers true only for text its format's checker (formats.js) surely accepts,
// the common spellings (`did:plc:...`, `at://did/nsid/rkey`, `en`, an ASCII URL). False means
// "not settled here": the reader then makes the string and runs the full checker, which gives
// the verdict and the message. So each accepts a subset of its format, never more.

/**
 * Each byte's class, by ASCII code: ALNUM for [a-zA-Z0-9], plus LOWER for [a-z], UPPER for
 * [A-Z], DIGIT for [0-9], and ID_EXTRA for the DID/record-key punctuation [._-].
 */
const LOWER = 1
const UPPER = 2
const DIGIT = 4
const ID_EXTRA = 8
const ALNUM = LOWER | UPPER | DIGIT
const CLASS = new Uint8Array(256)
for (let c = 0x61; c <= 0x7a; c++) CLASS[c] = LOWER
for (let c = 0x41; c <= 0x5a; c++) CLASS[c] = UPPER
for (let c = 0x30; c <= 0x39; c++) CLASS[c] = DIGIT
CLASS[0x2e] = CLASS[0x5f] = CLASS[0x2d] = ID_EXTRA // . _ -

const COLON = 0x3a
const SLASH = 0x2f

/**
 * End of a DID starting at `start` (before `stop`), `did:` [a-z]+ `:` [a-zA-Z0-9._-]+, stopping
 * at the first other byte; -1 when there is no such DID there.
 *
 * @param {Uint8Array} c
 * @param {number} start
 * @param {number} stop
 * @returns {number}
 */
function didEnd (c, start, stop) {
  if (stop - start < 7 || c[start] !== 0x64 || c[start + 1] !== 0x69 || c[start + 2] !== 0x64 || c[start + 3] !== COLON) return -1
  let i = start + 4
  while (i < stop && CLASS[c[i]] === LOWER) i++
  if (i === start + 4 || i >= stop || c[i] !== COLON) return -1
  const id = ++i
  while (i < stop && (CLASS[c[i]] & (ALNUM | ID_EXTRA)) !== 0) i++
  return i === id ? -1 : i
}

/**
 * `did:method:id` with no `%` or `:` in the id (isDid accepts those too).
 *
 * @param {Uint8Array} c
 * @param {number} start
 * @param {number} n
 * @returns {boolean}
 */
export function isDidBytes (c, start, n) {
  return n <= 2048 && didEnd(c, start, start + n) === start + n
}

/**
 * End of an NSID of letters and digits only (no hyphens) at `start`: at least three segments of
 * 1 to 63 characters, the first and the last starting with a letter; -1 when there is none.
 *
 * @param {Uint8Array} c
 * @param {number} start
 * @param {number} stop
 * @returns {number}
 */
function nsidEnd (c, start, stop) {
  let i = start
  let segments = 0
  let segmentStart = i
  for (;;) {
    segmentStart = i
    if (i >= stop || (segments === 0 && (CLASS[c[i]] & (LOWER | UPPER)) === 0)) return -1
    while (i < stop && (CLASS[c[i]] & ALNUM) !== 0) i++
    if (i === segmentStart || i - segmentStart > 63) return -1
    segments++
    if (i < stop && c[i] === 0x2e) i++
    else break
  }
  if (segments < 3 || i - start > 317 || (CLASS[c[segmentStart]] & (LOWER | UPPER)) === 0) return -1
  return i
}

/**
 * `at://` a DID (as isDidBytes), then optionally `/` an NSID (as nsidEnd) and `/` a record key
 * ([a-zA-Z0-9._~:-], not `.` or `..`); no fragment.
 *
 * @param {Uint8Array} c
 * @param {number} start
 * @param {number} n
 * @returns {boolean}
 */
export function isAtUriBytes (c, start, n) {
  const stop = start + n
  if (n > 8192 || n < 12 || c[start] !== 0x61 || c[start + 1] !== 0x74 || c[start + 2] !== COLON || c[start + 3] !== SLASH || c[start + 4] !== SLASH) return false
  let i = didEnd(c, start + 5, stop)
  if (i < 0 || i - start - 5 > 2048) return false
  if (i === stop) return true
  if (c[i] !== SLASH) return false
  i = nsidEnd(c, i + 1, stop)
  if (i < 0) return false
  if (i === stop) return true
  if (c[i] !== SLASH) return false
  const key = ++i
  while (i < stop && ((CLASS[c[i]] & (ALNUM | ID_EXTRA)) !== 0 || c[i] === 0x7e || c[i] === COLON)) i++
  const length = i - key
  if (i !== stop || length === 0 || length > 512) return false
  return !(c[key] === 0x2e && (length === 1 || (length === 2 && c[key + 1] === 0x2e)))
}

/**
 * A language tag of two or three lower-case letters, with or without a region of two
 * upper-case letters (`en`, `pt-BR`).
 *
 * @param {Uint8Array} c
 * @param {number} start
 * @param {number} n
 * @returns {boolean}
 */
export function isLanguageBytes (c, start, n) {
  let i = start
  const stop = start + n
  while (i < stop && CLASS[c[i]] === LOWER) i++
  const language = i - start
  if (language < 2 || language > 3) return false
  if (i === stop) return true
  return stop - i === 3 && c[i] === 0x2d && CLASS[c[i + 1]] === UPPER && CLASS[c[i + 2]] === UPPER
}

/**
 * A URI of printable ASCII: a scheme ([a-zA-Z][a-zA-Z0-9+.-]*), `:`, then at least one byte
 * from 0x21 to 0x7e (no space of any kind).
 *
 * @param {Uint8Array} c
 * @param {number} start
 * @param {number} n
 * @returns {boolean}
 */
export function isUriBytes (c, start, n) {
  const stop = start + n
  if (n > 8192 || n < 3 || (CLASS[c[start]] & (LOWER | UPPER)) === 0) return false
  let i = start + 1
  while (i < stop && ((CLASS[c[i]] & ALNUM) !== 0 || c[i] === 0x2b || c[i] === 0x2e || c[i] === 0x2d)) i++
  if (i >= stop - 1 || c[i] !== COLON) return false
  for (i++; i < stop; i++) if (c[i] < 0x21 || c[i] > 0x7e) return false
  return true
}

/** each base32 (RFC 4648, lower case) character's value, by ASCII code; -1 for others */
const BASE32 = new Int8Array(256).fill(-1)
for (let i = 0; i < 32; i++) BASE32['abcdefghijklmnopqrstuvwxyz234567'.charCodeAt(i)] = i

/**
 * A CIDv1 in base32 (`b...`) whose version, codec, hash code and digest length are one byte each
 * (every CID the network writes): the characters are checked, only the first eight decoded.
 * As formats.js's isCidBytes reads it: no leftover bits, the digest filling the rest.
 *
 * @param {Uint8Array} c
 * @param {number} start
 * @param {number} n
 * @returns {boolean}
 */
export function isCidV1Bytes (c, start, n) {
  if (n < 9 || c[start] !== 0x62) return false
  let all = 0
  let i = start + 1
  const stop = start + n
  for (; i + 4 <= stop; i += 4) all |= BASE32[c[i]] | BASE32[c[i + 1]] | BASE32[c[i + 2]] | BASE32[c[i + 3]]
  for (; i < stop; i++) all |= BASE32[c[i]]
  if (all < 0) return false
  const bits = (n - 1) * 5
  const size = bits >> 3 // the CID's bytes
  const leftover = bits - size * 8
  if (leftover >= 5 || (BASE32[c[start + n - 1]] & ((1 << leftover) - 1)) !== 0) return false
  const v0 = BASE32[c[start + 1]]
  const v1 = BASE32[c[start + 2]]
  const v2 = BASE32[c[start + 3]]
  const v3 = BASE32[c[start + 4]]
  const v4 = BASE32[c[start + 5]]
  const v5 = BASE32[c[start + 6]]
  const v6 = BASE32[c[start + 7]]
  const version = (v0 << 3) | (v1 >> 2)
  const codec = ((v1 & 3) << 6) | (v2 << 1) | (v3 >> 4)
  const hash = ((v3 & 15) << 4) | (v4 >> 1)
  const length = ((v4 & 1) << 7) | (v5 << 2) | (v6 >> 3)
  return version === 1 && codec < 0x80 && hash < 0x80 && length < 0x80 && 4 + length === size
}
