// Maps of thousands of short keys (1 to 24 bytes) for the decoder's large-map path, built by hand
// with where each key lies, and copies of them with one key spoiled (an invalid byte, a duplicate,
// a key out of order). In Bun such keys are made 256 at a time and cut from one text
// (lib/map-batches.js readLargeMapInBatches), and a key with a two-byte character stores the batch
// before it early, so batches end at every place. Uses only what every engine has
// (test/engines/smoke.test.js runs it in Bun, Deno and the browsers, test/decode-rules.spec.js in Node).
import { mulberry32 } from './prng.js'

const utf8 = new TextEncoder()
const CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789-_'

/**
 * @typedef {object} ShortKeyMap
 * @property {Uint8Array} bytes - the map, canonical DAG-CBOR
 * @property {string[]} keys - in canonical order
 * @property {Uint8Array[]} keyBytes - each key's UTF-8
 * @property {number[]} keyAt - the offset of each key's head
 * @property {number[]} textAt - the offset of each key's first byte
 * @property {(number|Uint8Array)[]} values - key i's value: i, or every `longEvery`th a byte string
 */

/**
 * @param {number} count - keys, more than the decoder's LARGE_MAP and less than 65,536
 * @param {number} seed
 * @param {number} longEvery - every this many keys, a value of `longLength` bytes (0: none)
 * @param {number} longLength - less than 65,536
 * @returns {ShortKeyMap}
 */
export function shortKeyMap (count, seed, longEvery, longLength) {
  const random = mulberry32(seed)
  const set = new Set()
  while (set.size < count) {
    const length = 1 + Math.floor(random() * 24)
    let key = ''
    // the first character a letter: no key is an array index, which objects list first
    for (let i = 0; i < length; i++) key += CHARS[Math.floor(random() * (i === 0 ? 26 : CHARS.length))]
    // one key in 16 has a two-byte character (still at most 24 bytes)
    if (random() < 1 / 16) key = key.slice(0, Math.max(0, length - 2)) + '\u00e9'
    set.add(key)
  }
  const entries = [...set].map((key) => ({ key, bytes: utf8.encode(key) }))
  entries.sort((a, b) => compareBytes(a.bytes, b.bytes))
  /** @type {number[]} */
  const out = count < 256 ? [0xb8, count] : [0xb9, count >> 8, count & 0xff]
  const keyAt = []
  const textAt = []
  const values = []
  for (let i = 0; i < count; i++) {
    const { bytes } = entries[i]
    keyAt.push(out.length)
    out.push(...(bytes.length < 24 ? [0x60 + bytes.length] : [0x78, bytes.length]))
    textAt.push(out.length)
    out.push(...bytes)
    if (longEvery > 0 && i % longEvery === longEvery - 1) {
      const value = new Uint8Array(longLength).map((_, j) => (i + j) & 0xff)
      values.push(value)
      out.push(...(longLength < 24 ? [0x40 + longLength] : longLength < 256 ? [0x58, longLength] : [0x59, longLength >> 8, longLength & 0xff]), ...value)
    } else {
      values.push(i)
      out.push(...(i < 24 ? [i] : i < 256 ? [0x18, i] : [0x19, i >> 8, i & 0xff]))
    }
  }
  return { bytes: Uint8Array.from(out), keys: entries.map((e) => e.key), keyBytes: entries.map((e) => e.bytes), keyAt, textAt, values }
}

/**
 * DAG-CBOR's key order: shorter first, then bytewise.
 *
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 * @returns {number}
 */
function compareBytes (a, b) {
  if (a.length !== b.length) return a.length - b.length
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return 0
}

/**
 * Copies of the map with one key spoiled, every `every`th key: each with the rule and offset its
 * error must give. An invalid byte (0xff) at the key's last byte; the key made the previous key
 * (same length only): a duplicate; the previous key with its last byte one lower: out of order.
 *
 * @param {ShortKeyMap} map
 * @param {number} every
 * @returns {Array<{ label: string, bytes: Uint8Array, rule: string, offset: number }>}
 */
export function spoiledCopies (map, every) {
  const rows = []
  for (let i = 1; i < map.keys.length; i += every) {
    const key = map.keyBytes[i]
    const previous = map.keyBytes[i - 1]
    if (key.length > 0) {
      const bytes = map.bytes.slice()
      bytes[map.textAt[i] + key.length - 1] = 0xff
      // a two-byte character's lead byte followed by 0xff is invalid at the lead byte
      const lead = key.length >= 2 && key[key.length - 2] >= 0xc0 ? 1 : 0
      rows.push({ label: `key ${i} ends in 0xff`, bytes, rule: 'invalid-utf8', offset: map.textAt[i] + key.length - 1 - lead })
    }
    if (key.length === previous.length && key.length > 0 && previous.every((b) => b < 0x80) && previous[previous.length - 1] > 0) {
      const duplicate = map.bytes.slice()
      duplicate.set(previous, map.textAt[i])
      rows.push({ label: `key ${i} repeats key ${i - 1}`, bytes: duplicate, rule: 'duplicate-key', offset: map.keyAt[i] })
      const lower = duplicate.slice()
      lower[map.textAt[i] + key.length - 1]--
      rows.push({ label: `key ${i} sorts before key ${i - 1}`, bytes: lower, rule: 'map-key-order', offset: map.keyAt[i] })
    }
  }
  return rows
}
