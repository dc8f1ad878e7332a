// Objects of more than 100 keys whose values must be written beside their own keys, with the
// bytes expected for each built by hand (keys in DAG-CBOR order by a reference sort of their
// UTF-8 bytes, each beside the value it was given). Every value is distinct, so a value written
// beside another key shows. In JavaScriptCore and SpiderMonkey the encoder reads such an
// object's values with one Object.values call and orders them with the keys' sort; elsewhere it
// reads them by key: these rows hold in both, and run in every engine (test/key-order.spec.js in
// Node, test/engines/smoke.test.js in the others).
import { head, text, concatAll } from '../fuzz/cbor.js'

const utf8 = new TextEncoder()

/** @param {Uint8Array} a @param {Uint8Array} b */
function dagOrder (a, b) {
  if (a.length !== b.length) return a.length - b.length
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return 0
}

/**
 * The bytes of a map of these entries (value: a safe integer or a string), in DAG-CBOR order.
 * @param {Array<[string, number|string]>} entries
 * @returns {Uint8Array}
 */
export function expectedMapBytes (entries) {
  const rows = entries.map(([key, value]) => ({ key: utf8.encode(key), value }))
  rows.sort((x, y) => dagOrder(x.key, y.key))
  return concatAll([head(5, rows.length), ...rows.flatMap(({ key, value }) => [
    head(3, key.length), key,
    typeof value === 'string' ? text(value) : value >= 0 ? head(0, value) : head(1, -1 - value)
  ])])
}

/** @param {number} i @returns {string} a base-32 name, different for every i */
const name = (i) => 'k' + ((i * 7919) % 4093).toString(32)

/**
 * @typedef {{ name: string, make: () => object, entries: Array<[string, number|string]> }} LargeMapRow
 * `make` builds the object (fresh each call); `entries` are what it must encode to.
 */

/** 150 ASCII keys of 2 to 4 characters and a few of 5 to 40 (two radix passes or three) */
const ASCII_KEYS = [
  ...Array.from({ length: 150 }, (_, i) => name(i)),
  ...[5, 9, 17, 31, 32, 33, 40].flatMap((n) => ['q'.repeat(n), 'a' + 'q'.repeat(n - 1)])
]

/**
 * Large maps whose keys are not all ASCII. The encoder sorts a large map's keys as if they were
 * ASCII (by UTF-16 length, then code units) and finds the first key that is not as it writes the
 * keys, then puts the keys from there on in order: these put that first key at the start, in the
 * middle and at the end of that order, its first character that is not ASCII past the three
 * characters the radix sort packs, surrogate pairs, keys that order differently in UTF-16 and
 * UTF-8, and keys past the radix sort's length limit (2047).
 * @type {Array<{ name: string, keys: string[] }>}
 */
export const NOT_ASCII_KEY_SETS = [
  // 'abc\u00e9' is the first key of 4 units, and of the map (every other key is 'kk' + 2 to 4)
  { name: 'not ASCII after its first three characters, first in the ASCII order', keys: ['abc\u00e9', ...ASCII_KEYS.map((k) => 'kk' + k)] },
  { name: 'one of 1 unit before every ASCII key (ASCII keys of 1 unit after it)', keys: [...ASCII_KEYS, '\u0080', 'a', 'z', '~', '\u{1f600}', '\ue000aa'] },
  { name: 'not ASCII after its first three characters, in the middle of the ASCII order', keys: [...ASCII_KEYS, 'k05\u07ff', 'k05\u0800x'] },
  { name: 'not ASCII at the end of the longest key (41 units, three radix passes)', keys: [...ASCII_KEYS, 'q'.repeat(40) + '\u00e9'] },
  {
    name: 'surrogate pairs, and keys that order differently in UTF-16 and UTF-8',
    keys: [...ASCII_KEYS, 'k0\u{1f600}', 'k\u{10000}', 'abcd\u{10000}', 'abcd\ue000e', 'abcd\uffffe', 'abcd\u{10ffff}']
  },
  { name: 'many not ASCII, of every UTF-8 length', keys: ASCII_KEYS.map((k, i) => i % 9 === 4 ? k.slice(0, 3) + ['\u00e9', '\u0800', '\u{1f600}'][i % 3] + k.slice(3) : k) },
  { name: 'keys of 2100 units or so, one not ASCII at its end', keys: [...ASCII_KEYS, 'a'.repeat(2100), 'a'.repeat(2099) + '\u00e9', 'b'.repeat(2101), 'a'.repeat(2098) + '\u00e9'] }
]

/** @type {LargeMapRow[]} */
export const LARGE_MAP_ROWS = [
  {
    // array-index keys are listed first, ascending, by Object.keys and Object.values alike, before
    // the other keys in insertion order: here inserted last and in descending order
    name: 'integer-like keys inserted after the others, in descending order',
    make () {
      /** @type {Record<string, number>} */
      const o = {}
      for (let i = 0; i < 120; i++) o[name(i)] = i
      for (let i = 149; i >= 0; i--) o[String(i * 3)] = 1000 + i
      return o
    },
    entries: [
      ...Array.from({ length: 120 }, (_, i) => /** @type {[string, number]} */ ([name(i), i])),
      ...Array.from({ length: 150 }, (_, i) => /** @type {[string, number]} */ ([String(i * 3), 1000 + i]))
    ]
  },
  {
    // '4294967295' (2^32 - 1) and '007', '-1', '1.5', '1e3' are not array indices: listed in
    // insertion order with the other string keys, unlike '4294967294' and '0'
    name: 'keys at the edge of array indices, mixed with other keys',
    make () {
      /** @type {Record<string, number>} */
      const o = {}
      const odd = ['4294967295', '007', '-1', '1.5', '1e3', '4294967294', '0', '10', '9', '01']
      for (let i = 0; i < 110; i++) {
        o[name(i)] = i
        if (i % 11 === 0) o[odd[i / 11]] = -1 - i
      }
      return o
    },
    entries: [
      ...Array.from({ length: 110 }, (_, i) => /** @type {[string, number]} */ ([name(i), i])),
      ...['4294967295', '007', '-1', '1.5', '1e3', '4294967294', '0', '10', '9', '01'].map((k, j) => /** @type {[string, number]} */ ([k, -1 - j * 11]))
    ]
  },
  {
    // an enumerable getter's value is what it returns; non-enumerable and symbol-keyed
    // properties are no entries
    name: 'getters, a non-enumerable property and a symbol key among data properties',
    make () {
      /** @type {Record<string, number|string>} */
      const o = {}
      for (let i = 0; i < 130; i++) {
        if (i % 5 === 0) Object.defineProperty(o, name(i), { get: () => `got ${i}`, enumerable: true })
        else o[name(i)] = i
      }
      Object.defineProperty(o, 'hidden', { value: 'not written', enumerable: false })
      Object.defineProperty(o, Symbol('s'), { value: 'not written', enumerable: true })
      return o
    },
    entries: Array.from({ length: 130 }, (_, i) => /** @type {[string, number|string]} */ ([name(i), i % 5 === 0 ? `got ${i}` : i]))
  },
  {
    name: 'a null-prototype object, its keys deleted and re-added (so inserted in another order)',
    make () {
      /** @type {Record<string, number>} */
      const o = Object.create(null)
      for (let i = 0; i < 200; i++) o[name(i)] = i
      for (let i = 0; i < 200; i += 3) {
        delete o[name(i)]
        o[name(i)] = 500 + i
      }
      return o
    },
    entries: Array.from({ length: 200 }, (_, i) => /** @type {[string, number]} */ ([name(i), i % 3 === 0 ? 500 + i : i]))
  },
  {
    // more than 100 keys, not all ASCII (the keys are sorted by another sort than the radix sort)
    name: 'keys not all ASCII',
    make () {
      /** @type {Record<string, number>} */
      const o = {}
      for (let i = 0; i < 140; i++) o[i % 7 === 0 ? name(i) + '\u00e9\u{1f600}' : name(i)] = i
      return o
    },
    entries: Array.from({ length: 140 }, (_, i) => /** @type {[string, number]} */ ([i % 7 === 0 ? name(i) + '\u00e9\u{1f600}' : name(i), i]))
  },
  ...NOT_ASCII_KEY_SETS.map(({ name, keys }) => ({
    name: `keys not all ASCII: ${name}`,
    make () {
      /** @type {Record<string, number|string>} */
      const o = {}
      keys.forEach((key, i) => { o[key] = i % 4 === 0 ? `value ${i}` : i })
      return o
    },
    entries: keys.map((key, i) => /** @type {[string, number|string]} */ ([key, i % 4 === 0 ? `value ${i}` : i]))
  })),
  {
    name: 'an instance of a class: its own enumerable properties',
    make () {
      class Entity {
        constructor () {
          for (let i = 0; i < 105; i++) /** @type {any} */ (this)[name(104 - i)] = 2 * i
        }
      }
      return new Entity()
    },
    entries: Array.from({ length: 105 }, (_, i) => /** @type {[string, number]} */ ([name(104 - i), 2 * i]))
  }
]
