// The decoder's cache of map keys (lib/decode.js, readKey): keys of up to 32 bytes are kept in slots
// chosen by a hash of their length and their first, middle and last bytes, and a hit is confirmed
// byte by byte. A cache can only go wrong when two different keys meet in one slot, so these tests
// make them meet: `slotOf` copies readKey's hash to search for keys that share a slot (or sit in
// neighbouring slots). Should the hash change, the tests still pass but no longer force collisions:
// update `slotOf` with it (the last test checks that its searches still find what they look for).
import assert from 'node:assert/strict'
import { decode } from '../index.js'
import { head, concat } from './fuzz/cbor.js'

const SLOTS = 4096

/** readKey's slot for the key bytes `b` (a copy of its hash) @param {Uint8Array} b */
function slotOf (b) {
  const n = b.length
  let hash = n
  if (n !== 0) {
    hash = Math.imul(hash ^ b[0], 0x01000193)
    hash = Math.imul(hash ^ b[n >> 1], 0x01000193)
    hash = Math.imul(hash ^ b[n - 1], 0x01000193)
  }
  return (hash >>> 20) & (SLOTS - 1)
}

const latin1 = (/** @type {Uint8Array} */ b) => String.fromCharCode(...b)
const bytesOf = (/** @type {string} */ s) => Uint8Array.from(s, (c) => c.charCodeAt(0))
/** a block holding the map { key: 0 } @param {Uint8Array} key */
const mapOf = (key) => concat([0xa1], head(3, key.length), key, [0x00])
/** decode { key: 0 } and return its one key @param {Uint8Array} key */
const readKey = (key) => Object.keys(decode(mapOf(key)))[0]

/** printable ASCII, no digits (a key of digits only may be an array index) */
const ALPHABET = Array.from({ length: 95 }, (_, i) => 32 + i).filter((c) => c < 0x30 || c > 0x39)

/**
 * A key of `length` ASCII bytes in slot `slot`, or null if there is none: the given bytes, and
 * the bytes the hash reads (first, middle, last) searched where not given; 'a' elsewhere.
 * @param {number} slot
 * @param {number} length
 * @param {number[]} fixed - byte at each index where it is given (undefined elsewhere)
 * @returns {Uint8Array|null}
 */
function keyInSlot (slot, length, fixed) {
  const b = new Uint8Array(length).fill(0x61)
  fixed.forEach((x, i) => { if (x !== undefined) b[i] = x })
  const free = [...new Set([0, length >> 1, length - 1])].filter((i) => fixed[i] === undefined)
  const combinations = ALPHABET.length ** free.length
  for (let n = 0; n < combinations; n++) {
    let x = n
    for (const i of free) { b[i] = ALPHABET[x % ALPHABET.length]; x = Math.floor(x / ALPHABET.length) }
    if (slotOf(b) === slot) return b
  }
  return null
}

/**
 * Pairs of different keys in one slot, from `candidates` (distinct keys), passing `accept`.
 * @param {Iterable<Uint8Array>} candidates
 * @param {(a: Uint8Array, b: Uint8Array) => boolean} [accept]
 * @returns {Generator<{ a: Uint8Array, b: Uint8Array, slot: number }>}
 */
function * pairsInSlot (candidates, accept = () => true) {
  /** @type {Map<number, Uint8Array[]>} */
  const bySlot = new Map()
  for (const key of candidates) {
    const slot = slotOf(key)
    const others = bySlot.get(slot) ?? []
    for (const other of others) if (accept(other, key)) yield { a: other, b: key, slot }
    others.push(key)
    bySlot.set(slot, others)
  }
}

/**
 * The first pair of `pairsInSlot`.
 * @param {Iterable<Uint8Array>} candidates
 * @param {(a: Uint8Array, b: Uint8Array) => boolean} [accept]
 */
function pairInSlot (candidates, accept) {
  for (const pair of pairsInSlot(candidates, accept)) return pair
  throw new Error('no pair found')
}

/**
 * The first pair of `pairsInSlot` for which `more(pair)` finds a key, with that key (`more` is
 * asked once per slot).
 * @param {Iterable<Uint8Array>} candidates
 * @param {(a: Uint8Array, b: Uint8Array) => boolean} accept
 * @param {(pair: { a: Uint8Array, b: Uint8Array, slot: number }) => Uint8Array|null} more
 */
function pairAndKey (candidates, accept, more) {
  // many pairs share a slot; one try per slot keeps the search short
  const tried = new Set()
  for (const pair of pairsInSlot(candidates, accept)) {
    if (tried.has(pair.slot)) continue
    tried.add(pair.slot)
    const key = more(pair)
    if (key !== null) return { ...pair, key }
  }
  throw new Error('no pair with such a key found')
}

/**
 * Distinct keys of `length` bytes: `fill` everywhere but the first three bytes, which run through
 * the ASCII range (the first one slowest).
 * @param {number} length
 * @param {number} [fill]
 */
function * keysOf (length, fill = 0x61) {
  for (let x = 0; x < 128; x++) {
    for (let y = 0; y < (length > 1 ? 128 : 1); y++) {
      for (let z = 0; z < (length > 2 ? 128 : 1); z++) {
        const k = new Uint8Array(length).fill(fill)
        k[0] = x
        if (length > 1) k[1] = y
        if (length > 2) k[2] = z
        yield k
      }
    }
  }
}

describe('key cache: different keys in one slot', () => {
  it('keys of 1 to 32 bytes that share a slot, read in turn, each come back as themselves', () => {
    for (const length of [1, 2, 3, 8, 31, 32]) {
      const { a, b } = length === 1 ? { a: Uint8Array.of(0x61), b: Uint8Array.of(0x62) } : pairInSlot(keysOf(length))
      for (let round = 0; round < 3; round++) {
        assert.equal(readKey(a), latin1(a), `length ${length}`)
        assert.equal(readKey(b), latin1(b), `length ${length}`)
      }
    }
  })

  it('a key whose bytes match the cached one only against the bytes before it in the input', () => {
    // keys A = x 'c' z and B = x y w in one slot; B is read after a value whose last byte is z. B's
    // text head is 0x63 ('c'), so a cache that compared A's bytes with the bytes before B in the input
    // would take B for A
    const { a, b } = pairInSlot(keysOf(3), (p, q) => p[0] === q[0] && (p[1] === 0x63) !== (q[1] === 0x63))
    const [keyA, keyB] = a[1] === 0x63 ? [a, b] : [b, a]
    assert.equal(readKey(keyA), latin1(keyA))
    // { '': the one character keyA[2], B: 0 }
    const input = concat([0xa2, 0x60, 0x61, keyA[2]], head(3, 3), keyB, [0x00])
    assert.deepEqual(Object.keys(decode(input)), ['', latin1(keyB)])
  })

  it("a key whose bytes match the cached one only against the previous slot's bytes", () => {
    // keys A = x y z and B = x v w in slot s, and a 32-byte key C in slot s - 1 ending in w v: a
    // cache that read the slot's bytes backwards would find B there and take B for A
    const { a, b, key: c } = pairAndKey(keysOf(3), (p, q) => p[0] === q[0],
      ({ b, slot }) => keyInSlot((slot + SLOTS - 1) % SLOTS, 32, Object.assign([], { 30: b[2], 31: b[1] })))
    assert.equal(readKey(c), latin1(c))
    assert.equal(readKey(a), latin1(a))
    assert.equal(readKey(b), latin1(b))
    assert.equal(readKey(a), latin1(a))
  })
})

describe('key cache: keys of different lengths in one slot', () => {
  it('a key, then its own prefix in the same slot, then the key again', () => {
    // K = x y z and its prefix P = x y in one slot: caching P leaves K's bytes in the slot, so
    // only the length tells them apart
    let found = null
    for (const k of keysOf(3)) {
      if (slotOf(k) === slotOf(k.subarray(0, 2))) { found = k; break }
    }
    assert.ok(found, 'no key found in the slot of its prefix')
    const prefix = found.slice(0, 2)
    for (let round = 0; round < 2; round++) {
      assert.equal(readKey(found), latin1(found))
      assert.equal(readKey(prefix), latin1(prefix))
      assert.equal(readKey(found), latin1(found))
    }
  })
})

describe('key cache: what a key leaves in the cache is exactly its bytes', () => {
  /** decode { key: value } where `value` is the bytes of one item, and return its key
   * @param {Uint8Array} key @param {ArrayLike<number>} value */
  const readKeyBefore = (key, value) => Object.keys(decode(concat([0xa1], head(3, key.length), key, value)))[0]

  it('a 32-byte key does not write the byte after it into the next slot', () => {
    // E = e y and F = f y share slot s, f a letter; a 32-byte key X in slot s - 1 read before a
    // text of f - 0x60 characters (so the byte after X is f) would, written one byte too far,
    // turn E's bytes into F's
    const { a, b, slot } = pairInSlot(keysOf(2), (p, q) => p[1] === q[1] && ((p[0] > 0x60 && p[0] < 0x78) || (q[0] > 0x60 && q[0] < 0x78)))
    const [e, f] = b[0] > 0x60 && b[0] < 0x78 ? [a, b] : [b, a]
    const x = keyInSlot((slot + SLOTS - 1) % SLOTS, 32, [])
    assert.ok(x)
    assert.equal(readKey(e), latin1(e))
    assert.equal(readKeyBefore(x, concat(head(3, f[0] - 0x60), new Uint8Array(f[0] - 0x60).fill(0x78))), latin1(x))
    assert.equal(readKey(f), latin1(f))
  })

  it('a key is kept in its own slot, in order, from its own bytes', () => {
    // K and K2 (3 bytes, same first byte) share slot s; a 32-byte key G in slot s + 1 ends in K2's
    // last two bytes reversed, and K is read after a text whose last byte is K2's third byte: a key
    // kept backwards or from the bytes before it would leave K2's bytes in slot s
    const { a, b, key: g } = pairAndKey(keysOf(3), (p, q) => p[0] === q[0] && p[1] !== 0x63 && q[1] === 0x63,
      ({ b, slot }) => keyInSlot((slot + 1) % SLOTS, 32, Object.assign([], { 30: b[2], 31: b[1] })))
    const [k, k2] = b[1] === 0x63 ? [a, b] : [b, a]
    assert.equal(readKey(g), latin1(g))
    // { '': the character k2[2], K: 0 }: the two bytes before K are k2[2] and K's head 0x63 ('c')
    assert.deepEqual(Object.keys(decode(concat([0xa2, 0x60, 0x61, k2[2]], head(3, 3), k, [0x00]))), ['', latin1(k)])
    assert.equal(readKey(k2), latin1(k2))
  })

  it("a key's bytes are kept, not only its length: a key of zero bytes after another in its slot", () => {
    // K and Z = 00 00 share a slot: a cache that kept K's length but not its bytes (a slab still
    // all zeros) would take Z for K
    const zero = Uint8Array.of(0, 0)
    let k = null
    for (const key of keysOf(2)) {
      if ((key[0] !== 0 || key[1] !== 0) && slotOf(key) === slotOf(zero)) { k = key; break }
    }
    assert.ok(k, 'no key found in the slot of 00 00')
    assert.equal(readKey(k), latin1(k))
    assert.equal(readKey(zero), '\u0000\u0000')
    assert.equal(readKey(k), latin1(k))
  })

  it('slots 32 apart do not share bytes', () => {
    // K and K3 (3 bytes, same first byte) in a slot s that is a multiple of 32, and K2 in slot
    // s + 32 starting with K3's last two bytes: slots placed 1 byte apart instead of 32 would let
    // K2 overwrite K's last two bytes with K3's
    /** @type {Map<number, Uint8Array[]>} */
    const bySlot = new Map()
    let found = null
    for (const key of keysOf(3)) {
      const slot = slotOf(key)
      if (slot % 32 !== 0 || slot + 32 >= SLOTS) continue
      const others = bySlot.get(slot) ?? []
      for (const other of others) {
        if (other[0] !== key[0] || found !== null) continue
        for (let z = 0; z < 128 && found === null; z++) {
          const k2 = Uint8Array.of(key[1], key[2], z)
          if (slotOf(k2) === slot + 32) found = { k: other, k3: key, k2 }
        }
      }
      if (found !== null) break
      others.push(key)
      bySlot.set(slot, others)
    }
    assert.ok(found, 'no keys found')
    const { k, k2, k3 } = found
    assert.equal(readKey(k), latin1(k))
    assert.equal(readKey(k2), latin1(k2))
    assert.equal(readKey(k3), latin1(k3))
  })
})

describe('key cache: keys longer than 32 bytes are not cached', () => {
  it("a 40-byte key does not spill into the next slot's bytes", () => {
    // E and F (2 bytes) share slot t; a 40-byte key D in slot t - 1 whose bytes 32-33 are F's would,
    // if cached, overwrite E's bytes with F's, and F would then be taken for E
    const { a: e, b: f, key: d } = pairAndKey(keysOf(2), () => true,
      ({ b: f, slot }) => keyInSlot((slot + SLOTS - 1) % SLOTS, 40, Object.assign([], { 32: f[0], 33: f[1] })))
    assert.equal(readKey(e), latin1(e))
    assert.equal(readKey(d), latin1(d))
    assert.equal(readKey(f), latin1(f))
  })

  it("a 64-byte key does not spill over a 32-byte key's bytes", () => {
    // G and H (33 bytes) share slot t; D (65 bytes) in slot t - 1 ending in H's bytes. G differs
    // from H only in a byte the hash does not read, so they share a slot whatever H's first byte
    let found = null
    for (const first of ALPHABET) {
      const h = new Uint8Array(33).fill(0x6d)
      h[0] = first
      /** @type {number[]} */
      const fixed = []
      h.forEach((x, i) => { fixed[32 + i] = x })
      const d = keyInSlot((slotOf(h) + SLOTS - 1) % SLOTS, 65, fixed)
      if (d !== null) {
        const g = h.slice()
        g[1] = 0x6e
        found = { g, h, d }
        break
      }
    }
    assert.ok(found, 'no keys found')
    const { g, h, d } = found
    assert.equal(slotOf(g), slotOf(h))
    for (let round = 0; round < 2; round++) {
      assert.equal(readKey(g), latin1(g))
      assert.equal(readKey(d), latin1(d))
      assert.equal(readKey(h), latin1(h))
    }
  })
})

describe('key cache: the slot search itself', () => {
  it('finds keys in the slot asked for', () => {
    const k = keyInSlot(123, 3, [0x61])
    assert.ok(k)
    assert.equal(slotOf(k), 123)
    assert.equal(k[0], 0x61)
    assert.equal(readKey(bytesOf('abc')), 'abc')
  })
})
