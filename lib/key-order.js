// Canonical map key order (the spec's Strictness section): keys sorted by the length of their
// UTF-8 bytes, then bytewise, found without encoding the keys. Strings compare in UTF-16 code
// units, which differs from UTF-8 byte order above U+FFFF (surrogates sort below U+E000 in
// UTF-16, above it in UTF-8); codePointRank corrects that. A per-shape cache makes a repeated
// object shape cost n reference comparisons.

import { writeUtf8 } from './utf8.js'

/**
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
function compareAsciiKeys (a, b) {
  return a.length - b.length || (a < b ? -1 : 1)
}

/**
 * UTF-8 length of a key, for sorting (lone surrogates are caught when the key is written).
 *
 * @param {string} s
 * @returns {number}
 */
function sortLength (s) {
  let length = s.length
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    // 2 bytes up to U+07FF; 3 up to U+FFFF; a surrogate pair's 4 bytes count 2 per half
    if (c >= 0x80) length += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2
  }
  return length
}

/**
 * A UTF-16 unit mapped so that units compare in code point order: surrogates (which stand
 * for code points above U+FFFF) move above U+E000..U+FFFF.
 *
 * @param {number} c
 * @returns {number}
 */
function codePointRank (c) {
  return c < 0xd800 ? c : c < 0xe000 ? c + 0x2000 : c - 0x800
}

/**
 * Order of two keys of equal UTF-8 length: UTF-8 keeps code point order.
 *
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
function compareSameLength (a, b) {
  let i = 0
  while (a.charCodeAt(i) === b.charCodeAt(i)) i++
  return codePointRank(a.charCodeAt(i)) - codePointRank(b.charCodeAt(i))
}

/** Maps with at most this many keys are sorted in place by insertion. */
const SMALL_MAP = 16
const keyLengths = new Int32Array(SMALL_MAP)

/**
 * Sort keys that are not all ASCII in DAG-CBOR order (UTF-8 length, then bytes) without
 * encoding them.
 *
 * @param {string[]} keys
 * @returns {string[]}
 */
function sortUtf8Keys (keys) {
  const n = keys.length
  if (n > SMALL_MAP) {
    const entries = keys.map((key) => ({ key, length: sortLength(key) }))
    entries.sort((x, y) => x.length - y.length || compareSameLength(x.key, y.key))
    return entries.map((entry) => entry.key)
  }
  // small maps: insertion sort in place, with each key's UTF-8 length computed once
  // (already-ordered keys, as in any value decoded from DAG-CBOR, cost n - 1 comparisons)
  for (let i = 0; i < n; i++) keyLengths[i] = sortLength(keys[i])
  for (let i = 1; i < n; i++) {
    const key = keys[i]
    const length = keyLengths[i]
    let j = i - 1
    while (j >= 0 && (keyLengths[j] - length || compareSameLength(keys[j], key)) > 0) {
      keys[j + 1] = keys[j]
      keyLengths[j + 1] = keyLengths[j]
      j--
    }
    keys[j + 1] = key
    keyLengths[j + 1] = length
  }
  return keys
}

/** Maps with more keys than this take orderAsIfAscii (a radix sort) */
export const MANY_KEYS = 100
/** a sort code holds a key's length in 11 bits: keys this long or longer all get the highest code */
const LENGTH_LIMIT = 1 << 11
/** radix digits of 11 bits: three passes cover a 32-bit sort code; of 13 bits, two cover the 26
 * bits of the codes of keys shorter than 32 (5 bits of length) */
const DIGIT_BITS = 11
const SHORT_KEYS_DIGIT_BITS = 13
const SHORT_KEY = 32
const digitCounts = new Int32Array(2 << SHORT_KEYS_DIGIT_BITS)
/** the radix sort's arrays, kept between calls up to this many keys */
const KEEP_SCRATCH = 16384
let codesA = new Uint32Array(0)
let codesB = codesA
let orderA = codesA
let orderB = codesA

/**
 * Fill codesA[0, n) with each key's 32-bit sort code (from the high bits down: its length and the
 * three characters after `prefix`, 0s past its end) and orderA[0, n) with 0..n-1; return the OR
 * of the key lengths, capped at LENGTH_LIMIT. A character is packed in 7 bits: those of an ASCII
 * key are exact, and masking a non-ASCII key's keeps its length bits exact (all that
 * orderAsIfAscii promises for such a key). The keys' other characters are not read here.
 *
 * @param {string[]} keys
 * @param {number} prefix - characters every key shares
 * @returns {number}
 */
function fillCodes (keys, prefix) {
  const n = keys.length
  const codes = codesA
  const order = orderA
  let lengths = 0
  for (let i = 0; i < n; i++) {
    const key = keys[i]
    const length = key.length
    lengths |= length
    // past its end a key reads 0s: only keys of the same length are compared by these
    const a = prefix < length ? key.charCodeAt(prefix) & 0x7f : 0
    const b = prefix + 1 < length ? key.charCodeAt(prefix + 1) & 0x7f : 0
    const c = prefix + 2 < length ? key.charCodeAt(prefix + 2) & 0x7f : 0
    // a key too long for the length bits gets the highest code: it ties with every such key (and
    // sorts after every shorter one), and the tie is put in order by comparing the keys
    codes[i] = length < LENGTH_LIMIT ? ((length << 21) | (a << 14) | (b << 7) | c) >>> 0 : 0xffffffff
    order[i] = i
  }
  return Math.min(lengths, LENGTH_LIMIT)
}

/**
 * How many characters every key shares at its start.
 *
 * @param {string[]} keys
 * @returns {number}
 */
function sharedPrefix (keys) {
  const first = keys[0]
  let prefix = first.length
  for (let i = 1; i < keys.length && prefix > 0; i++) {
    const key = keys[i]
    let j = 0
    while (j < prefix && key.charCodeAt(j) === first.charCodeAt(j)) j++
    prefix = j
  }
  return prefix
}

/**
 * @param {string[]} keys
 * @returns {boolean} whether they are in the order of compareAsciiKeys
 */
function inAsciiOrder (keys) {
  let i = 1
  while (i < keys.length && compareAsciiKeys(keys[i - 1], keys[i]) < 0) i++
  return i === keys.length
}

/**
 * Put more than MANY_KEYS keys in order as if every key were ASCII: by length in UTF-16 units,
 * then by code units. When they are all ASCII (whose UTF-8 length is their length, and byte order
 * code unit order) that is the canonical order. When some are not, every key before the first
 * key that is not ASCII is in its canonical place: those keys are ASCII, in canonical order among
 * themselves, and none is longer than that first one, while every key not ASCII from there on is
 * at least as long in UTF-16 units and so longer in UTF-8 bytes than any of them. orderRest then
 * puts the rest in order. So nothing here reads every character of every key: the encoder finds
 * the first key that is not ASCII as it writes the keys, which it reads anyway.
 *
 * The keys' codes (fillCodes) are sorted by a stable LSD radix sort carrying each key's index:
 * two passes of 13 bits when every key is shorter than 32, else three of 11, the counts of every
 * pass taken in one read of the codes. Only keys that tie on the code are compared as strings.
 * A radix sort in JS beats both sort() with a comparator and a typed array's native sort in
 * every engine (bench/README.md has the measurements).
 *
 * @param {string[]} keys - sorted in place
 * @param {unknown[]|null} values - null, or each key's value at the key's index (an object's
 *   Object.values): reordered in place to stay beside its key
 * @returns {string[]} keys
 */
export function orderAsIfAscii (keys, values) {
  const n = keys.length
  if (codesA.length < n) {
    codesA = new Uint32Array(n)
    codesB = new Uint32Array(n)
    orderA = new Uint32Array(n)
    orderB = new Uint32Array(n)
  }
  // already in order (as in any value decoded from DAG-CBOR): no copy
  if (inAsciiOrder(keys)) return keys
  const lengths = fillCodes(keys, 0)
  // keys that all start alike: their codes pack the characters after what they share
  const prefix = sharedPrefix(keys)
  if (prefix > 0) fillCodes(keys, prefix)
  const passes = lengths < SHORT_KEY ? 2 : 3
  const bits = passes === 2 ? SHORT_KEYS_DIGIT_BITS : DIGIT_BITS
  const digits = 1 << bits
  const mask = digits - 1
  let codes = codesA
  let order = orderA
  let codesTo = codesB
  let orderTo = orderB
  const counts = digitCounts
  counts.fill(0, 0, passes * digits)
  if (passes === 2) {
    for (let i = 0; i < n; i++) {
      const code = codes[i]
      counts[code & mask]++
      counts[digits + (code >>> bits)]++
    }
  } else {
    for (let i = 0; i < n; i++) {
      const code = codes[i]
      counts[code & mask]++
      counts[digits + ((code >>> bits) & mask)]++
      counts[2 * digits + (code >>> (2 * bits))]++
    }
  }
  for (let pass = 0; pass < passes; pass++) {
    const from = pass * digits
    const shift = pass * bits
    // every key has the same digit here: this pass would keep the order
    if (counts[from + ((codes[0] >>> shift) & mask)] === n) continue
    let sum = 0
    for (let d = from; d < from + digits; d++) {
      const count = counts[d]
      counts[d] = sum
      sum += count
    }
    for (let i = 0; i < n; i++) {
      const code = codes[i]
      const to = counts[from + ((code >>> shift) & mask)]++
      codesTo[to] = code
      orderTo[to] = order[i]
    }
    const codesFrom = codes
    const orderFrom = order
    codes = codesTo
    order = orderTo
    codesTo = codesFrom
    orderTo = orderFrom
  }
  // keys that tie on the code: their indices put in order by comparing the keys themselves
  let run = 0
  for (let i = 1; i <= n; i++) {
    if (i === n || codes[i] !== codes[run]) {
      if (i - run > 1) sortTiedRun(keys, order, run, i)
      run = i
    }
  }
  const unsortedKeys = keys.slice()
  for (let i = 0; i < n; i++) keys[i] = unsortedKeys[order[i]]
  if (values !== null) {
    const unsortedValues = values.slice()
    for (let i = 0; i < n; i++) values[i] = unsortedValues[order[i]]
  }
  if (n > KEEP_SCRATCH) codesA = codesB = orderA = orderB = new Uint32Array(0)
  return keys
}

/**
 * Put keys[from, n) in canonical order, for keys in the order of orderAsIfAscii whose first key
 * that is not ASCII is keys[from].
 *
 * @param {string[]} keys
 * @param {number} from
 */
export function orderRest (keys, from) {
  const sorted = sortUtf8Keys(keys.slice(from))
  for (let i = 0; i < sorted.length; i++) keys[from + i] = sorted[i]
}

/** Tied runs up to this long are put in order by insertion; longer ones by sort(). */
const SHORT_RUN = 8

/**
 * Put order[from, to) (indices of keys that tie on the radix sort's code) in the order of their keys.
 *
 * @param {string[]} keys
 * @param {Uint32Array} order
 * @param {number} from
 * @param {number} to
 */
function sortTiedRun (keys, order, from, to) {
  if (to - from > SHORT_RUN) {
    const run = Array.from(order.subarray(from, to)).sort((x, y) => compareAsciiKeys(keys[x], keys[y]))
    order.set(run, from)
    return
  }
  for (let i = from + 1; i < to; i++) {
    const index = order[i]
    const key = keys[index]
    let j = i - 1
    while (j >= from && compareAsciiKeys(keys[order[j]], key) > 0) {
      order[j + 1] = order[j]
      j--
    }
    order[j + 1] = index
  }
}

/**
 * @param {string[]} keys
 * @returns {string[]} keys, in the order of compareAsciiKeys (canonical when all are ASCII)
 */
function sortByComparison (keys) {
  return keys.sort(compareAsciiKeys)
}

/**
 * With `escapedBytes`, a lone U+DCxx stands for one raw byte, so only the bytes can say
 * the order: encode each key (relaxed round trips of invalid text only).
 *
 * @param {string[]} keys
 * @returns {string[]}
 */
function sortByEncodedBytes (keys) {
  const entries = keys.map((key) => {
    const bytes = new Uint8Array(key.length * 3)
    return { key, bytes: bytes.subarray(0, Math.max(0, writeUtf8(key, bytes, 0, true))) }
  })
  entries.sort((x, y) => {
    const a = x.bytes
    const b = y.bytes
    let i = 0
    while (i < a.length && a[i] === b[i]) i++
    return a.length - b.length || a[i] - b[i]
  })
  return entries.map((entry) => entry.key)
}

/** Objects of one shape give Object.keys arrays holding the same (interned) strings in the
 * same order: a small cache maps such an array to its canonical order, so a repeated shape
 * costs n reference comparisons instead of a scan of every key and a sort check. The slot
 * hashes the key count, two key lengths and a first character: shapes that differ only in
 * key names (`{ $type, uri }`, `{ $type, did }`) would otherwise evict each other. */
const ORDER_SLOTS = 1024
/** @type {Array<string[]|null>} */
const orderSeen = new Array(ORDER_SLOTS).fill(null)
/** @type {Array<string[]|null>} */
const orderSorted = new Array(ORDER_SLOTS).fill(null)

/**
 * The keys in DAG-CBOR order: by UTF-8 length, then bytewise. The encoder calls it for maps of up
 * to MANY_KEYS keys, and for every map with escapedBytes; larger maps take orderAsIfAscii. (Also
 * imported by bench/encode-floor.js, which must find key order the way we do; not part of the
 * package's API.)
 *
 * @param {string[]} keys - at least 2; may be sorted in place
 * @param {boolean} escapedBytes - lone U+DC80..U+DCFF stand for raw bytes (see EncodeOptions)
 * @returns {string[]}
 */
export function canonicalOrder (keys, escapedBytes) {
  const n = keys.length
  const last = keys[n - 1]
  const slot = (Math.imul(n, 0x9e3779b1) ^ (keys[0].length << 10) ^ (last.length << 5) ^
    (last.length > 0 ? last.charCodeAt(0) : 0)) & (ORDER_SLOTS - 1)
  const seen = orderSeen[slot]
  if (seen !== null && seen.length === n && !escapedBytes) {
    let i = 0
    while (i < n && seen[i] === keys[i]) i++
    if (i === n) return /** @type {string[]} */ (orderSorted[slot])
  }
  let ascii = true
  for (let i = 0; i < n && ascii; i++) {
    const key = keys[i]
    for (let j = 0; j < key.length; j++) {
      if (key.charCodeAt(j) >= 0x80) {
        ascii = false
        break
      }
    }
  }
  const cacheable = n <= 32
  if (ascii) {
    // the UTF-8 length is the string length and byte order is code unit order
    let i = 1
    while (i < n && compareAsciiKeys(keys[i - 1], keys[i]) < 0) i++
    if (i === n) {
      // already in order (as in any value decoded from DAG-CBOR): cached without a copy
      if (cacheable) orderSeen[slot] = orderSorted[slot] = keys
      return keys
    }
  } else if (escapedBytes) {
    return sortByEncodedBytes(keys)
  }
  if (cacheable) orderSeen[slot] = keys.slice()
  const sorted = !ascii ? sortUtf8Keys(keys) : n > MANY_KEYS ? orderAsIfAscii(keys, null) : sortByComparison(keys)
  if (cacheable) orderSorted[slot] = sorted
  return sorted
}
