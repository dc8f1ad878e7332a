// Map key order in encode: DAG-CBOR sorts keys by the length of their UTF-8 bytes, then bytewise.
// Every expected output here is built by hand (head/text from test/fuzz/cbor.js) in the order of a
// reference sort of the keys' UTF-8 bytes (TextEncoder), never by the code under test. Each map's
// value at a key is the key's index in the input, so a key written with another key's value shows.
// The rows sweep the encoder's paths: insertion sort (up to 16 non-ASCII keys), sort() (more),
// the radix sort of more than 100 keys (two passes or three) and its ties, the keys from the first
// one not ASCII put in order after it, the per-shape order cache, and the byte order of escapedBytes keys.
import assert from 'node:assert/strict'
import { encode, decode, DagCborEncodeError } from '../index.js'
import { orderAsIfAscii } from '../lib/key-order.js'
import { head, text, concatAll, toHex } from './fuzz/cbor.js'
import { LARGE_MAP_ROWS, NOT_ASCII_KEY_SETS, expectedMapBytes } from './helpers/large-maps.js'

const utf8 = new TextEncoder()

/** @param {Uint8Array} a @param {Uint8Array} b */
function compareBytes (a, b) {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return a.length - b.length
}

/**
 * DAG-CBOR order of byte strings: shorter first, then bytewise.
 * @param {Uint8Array} a @param {Uint8Array} b
 */
const dagOrder = (a, b) => a.length - b.length || compareBytes(a, b)

/**
 * The bytes of a map holding keys[i] -> i, written in DAG-CBOR order. `keyBytes` gives a key's
 * bytes (UTF-8, or escaped bytes).
 * @param {string[]} keys
 * @param {(key: string) => Uint8Array} [keyBytes]
 */
function expectedMap (keys, keyBytes = (k) => utf8.encode(k)) {
  const entries = keys.map((key, i) => ({ bytes: keyBytes(key), i }))
  entries.sort((x, y) => dagOrder(x.bytes, y.bytes))
  return concatAll([head(5, keys.length), ...entries.flatMap(({ bytes, i }) => [head(3, bytes.length), bytes, head(0, i)])])
}

/** @param {string[]} keys */
const asObject = (keys) => {
  /** @type {Record<string, number>} */
  const object = {}
  keys.forEach((k, i) => { object[k] = i })
  return object
}
/** @param {string[]} keys */
const asMap = (keys) => new Map(keys.map((k, i) => [k, i]))

/**
 * encode() of keys as an object and as a Map, in the given insertion order and reversed, equals
 * the hand-built map; strict decode reads it back.
 * @param {string[]} keys
 * @param {string} label
 */
function assertOrdered (keys, label) {
  for (const order of [keys, [...keys].reverse()]) {
    const expected = toHex(expectedMap(order))
    assert.equal(toHex(encode(asObject(order))), expected, `${label} (object)`)
    assert.equal(toHex(encode(asMap(order))), expected, `${label} (Map)`)
  }
  assert.deepEqual(Object.keys(decode(expectedMap(keys))).sort(), [...keys].sort(), label)
  assertValuesFollow(keys, label)
}

/**
 * orderAsIfAscii given the keys' values (as the encoder gives it an object's Object.values in
 * JavaScriptCore and SpiderMonkey) leaves each value at its key's new index, from either insertion
 * order; keys that are all ASCII it puts in canonical order (by length, then code units).
 * @param {string[]} keys
 * @param {string} label
 */
function assertValuesFollow (keys, label) {
  const reference = [...keys].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
  const ascii = keys.every((key) => /^[\x00-\x7f]*$/.test(key)) // eslint-disable-line no-control-regex -- the range is all of ASCII
  for (const order of [keys, [...keys].reverse()]) {
    const values = order.map((key) => ({ key }))
    const sorted = orderAsIfAscii(order.slice(), values)
    if (ascii) assert.deepEqual(sorted, reference, `${label}: the keys' order`)
    else assert.deepEqual([...sorted].sort(), [...reference].sort(), `${label}: the same keys`)
    assert.equal(values.length, order.length, label)
    sorted.forEach((key, i) => assert.equal(values[i].key, key, `${label}: the value at ${i}`))
  }
}

// Characters at the edges of UTF-8's byte lengths and of the UTF-16 surrogate range, where code unit
// (JS string) order and code point (UTF-8 byte) order part: U+E000..U+FFFF sort below U+10000 and up
// in UTF-8, above them in UTF-16 (whose surrogates are U+D800..U+DFFF).
const EDGES = ['\u007f', '\u0080', '\u00e9', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uff61', '\uffff', '\u{10000}', '\u{1f600}', '\u{10ffff}']

describe('key order: keys that order differently in UTF-16 and in UTF-8', () => {
  // pairs of keys with the same UTF-8 length whose UTF-16 order is the reverse of their byte order
  const rows = [
    { keys: ['\u{10000}', '\ue000a'], first: '\ue000a', why: 'f0908080 vs ee808061' },
    { keys: ['\u{10ffff}', '\uffffa'], first: '\uffffa', why: 'f48fbfbf vs efbfbf61' },
    { keys: ['\u{10000}', '\uff61a'], first: '\uff61a', why: 'f0908080 vs efbda161' },
    { keys: ['a\u{1f600}', 'a\ue000b'], first: 'a\ue000b', why: 'after a shared first character' },
    { keys: ['\u{10000}\u{10000}', '\ue000\ue000aa'], first: '\ue000\ue000aa', why: '8 bytes each' }
  ]
  for (const { keys, first, why } of rows) {
    it(`${JSON.stringify(keys)}: ${JSON.stringify(first)} first (${why})`, () => {
      const bytes = keys.map((k) => utf8.encode(k))
      assert.equal(bytes[0].length, bytes[1].length, 'same UTF-8 length')
      assert.ok((keys[0] < keys[1]) !== (compareBytes(bytes[0], bytes[1]) < 0), 'UTF-16 and UTF-8 order differ')
      assertOrdered(keys, why)
      assert.equal(Object.keys(decode(encode(asObject(keys))))[0], first)
    })
  }

  it('every pair of keys built from the edge characters, in both insertion orders (insertion sort)', () => {
    const pool = [...EDGES, ...EDGES.map((c) => 'a' + c), ...EDGES.map((c) => c + 'a'), 'a', 'zz', 'aaa', 'zzzz', 'aaaaa']
    for (let i = 0; i < pool.length; i++) {
      for (let j = i + 1; j < pool.length; j++) assertOrdered([pool[i], pool[j]], `${JSON.stringify(pool[i])} vs ${JSON.stringify(pool[j])}`)
    }
  })

  it('maps of 3, 16, 17, 32, 33 and 60 mixed keys (insertion sort, sort(), cached and not)', () => {
    const pool = [...EDGES, ...EDGES.map((c) => 'a' + c), ...EDGES.map((c) => c + c), ...EDGES.map((c) => 'zz' + c), ...EDGES.map((c) => c + 'b')]
    for (const size of [3, 16, 17, 32, 33, 60]) {
      // a stride through the pool so that each size mixes lengths and edges
      const keys = Array.from({ length: size }, (_, i) => pool[(i * 7) % pool.length])
      assert.equal(new Set(keys).size, size)
      assertOrdered(keys, `${size} keys`)
    }
  })
})

describe('key order: UTF-8 length decides first', () => {
  // a character of n UTF-8 bytes against ASCII keys one shorter, as long, and one longer: the
  // UTF-8 length, not the UTF-16 length, puts it in place
  const rows = [
    { c: '\u007f', bytes: 1 }, { c: '\u0080', bytes: 2 }, { c: '\u07ff', bytes: 2 }, { c: '\u0800', bytes: 3 },
    { c: '\ud7ff', bytes: 3 }, { c: '\ue000', bytes: 3 }, { c: '\uffff', bytes: 3 }, { c: '\u{10000}', bytes: 4 },
    { c: '\u{10ffff}', bytes: 4 }
  ]
  for (const { c, bytes } of rows) {
    it(`U+${c.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')} (${bytes} bytes) against ASCII keys of ${bytes - 1}, ${bytes} and ${bytes + 1} bytes`, () => {
      assert.equal(utf8.encode(c).length, bytes)
      // '\x01'-led keys sort before any character here at equal length, '~'-led ones after it
      for (const ascii of ['\x01', 'a', '~']) {
        for (const length of [bytes - 1, bytes, bytes + 1]) {
          if (length === 0) continue
          const other = ascii.repeat(length)
          if (other === c) continue
          assertOrdered([c, other], `${JSON.stringify(c)} vs ${JSON.stringify(other)}`)
          assertOrdered(['a' + c, 'a' + other], `after a shared first character: ${JSON.stringify(c)} vs ${JSON.stringify(other)}`)
        }
      }
    })
  }
})

describe('key order: more than 100 ASCII keys (the radix sort) with ties', () => {
  /**
   * `size` distinct ASCII keys: filler keys of 3 characters, plus runs of keys that tie on length
   * and on the three characters the radix sort packs (after the prefix all keys share), inserted
   * in reverse order so that only the comparison of the tied keys can put them right.
   * @param {number} size
   * @param {number} tie - keys per tied run
   * @param {string} prefix - shared by every key
   */
  function keysWithTies (size, tie, prefix) {
    const tied = []
    for (let run = 0; run < 2; run++) {
      for (let k = tie - 1; k >= 0; k--) tied.push(`${prefix}${'pq'[run]}ied${String.fromCharCode(97 + k)}`)
    }
    const keys = [...tied]
    for (let i = 0; keys.length < size; i++) keys.unshift(`${prefix}${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}x`)
    return keys
  }

  for (const size of [63, 64, 65, 66, 99, 100, 101, 102, 200, 3000]) {
    for (const tie of [2, 3, 150]) {
      if (2 * tie > size) continue
      for (const prefix of ['', 'bafy']) {
        it(`${size} keys with runs of ${tie} tied keys${prefix ? `, all starting '${prefix}'` : ''}`, () => {
          const keys = keysWithTies(size, tie, prefix)
          assert.equal(new Set(keys).size, size)
          assertOrdered(keys, `${size} keys, ties of ${tie}`)
          // our own output passes strict decode
          decode(encode(asObject(keys)))
        })
      }
    }
  }

  for (const longest of [511, 512, 513, 2047, 2048, 2049]) {
    it(`120 short keys and two of ${longest} characters, the longest (the packed length has 11 bits)`, () => {
      const keys = Array.from({ length: 120 }, (_, i) => `k${i}`)
      keys.push('x'.repeat(longest - 1) + 'b', 'x'.repeat(longest - 1) + 'a', 'y'.repeat(longest - 2))
      assertOrdered(keys, `longest ${longest}`)
    })
  }

  it('keys of 2,047 characters and longer, of different lengths whose characters sort the other way (all get the highest code)', () => {
    const keys = Array.from({ length: 120 }, (_, i) => `k${i}`)
    keys.push('b'.repeat(3000), 'c'.repeat(2500), 'd'.repeat(2048), '\x7f'.repeat(2047), 'z'.repeat(2047), 'a'.repeat(2049))
    assertOrdered(keys, 'long keys')
  })

  it('keys whose shared prefix with the first key is longer than all keys share', () => {
    // the packed characters start after the prefix every key shares (here none): keys that share a
    // longer prefix with the first one must not move it
    const keys = ['zzzzzz', 'ab1111', 'ba0000', 'ab0000', 'ba1111']
    for (let i = 0; keys.length < 140; i++) keys.push(`m${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}q${i % 10}`)
    keys.push('zzzzzy', 'zzzzzx', 'zzzzyz', 'zzzyzz', 'zzyzzz')
    assertOrdered([...new Set(keys)], 'prefix of the first key')
  })

  it('keys that all differ from the first key in their first character but share the second', () => {
    // no prefix is shared, so the packed characters start at the first one
    const keys = ['aXzz', 'bX11', 'cX00']
    for (let i = 0; keys.length < 140; i++) keys.push(String.fromCharCode(100 + (i % 20)) + 'X' + String.fromCharCode(48 + Math.floor(i / 20)) + String.fromCharCode(57 - (i % 10)))
    assertOrdered([...new Set(keys)], 'second character shared')
  })

  it('more than 65,536 keys (more than the packed index holds)', function () {
    this.timeout(20_000)
    const keys = Array.from({ length: 65_600 }, (_, i) => 'k' + ((i * 7919) % 65_600).toString(36))
    const expected = [...new Set(keys)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
    assert.equal(expected.length, 65_600)
    const bytes = encode(asObject(keys))
    // the written keys, in order: decode strictly (it checks the order) and list them
    assert.deepEqual(Object.keys(decode(bytes)), expected)
  })

  for (const count of [80, 120]) {
    it(`the empty key and keys shorter than the three packed characters (${count + 1} keys)`, () => {
      const keys = ['', ...Array.from({ length: count }, (_, i) => (i % 4 === 0 ? 'q' : 'q' + 'abcd'[i % 4]) + String.fromCharCode(40 + i))]
      assertOrdered([...new Set(keys)], 'short keys')
    })

    it(`keys that differ only after a shared prefix longer than three characters (${count} keys)`, () => {
      const keys = Array.from({ length: count }, (_, i) => `bafyreib${String(i * 7919 % 1000).padStart(3, '0')}${'yx'[i % 2]}`)
      assertOrdered([...new Set(keys)], 'shared prefix')
    })
  }

  it('keys whose packed characters include the highest ASCII code (0x7f) and the lowest (0x00)', () => {
    const keys = Array.from({ length: 130 }, (_, i) => 'p' + String.fromCharCode(i % 2 ? 0x7f : 0, (i * 37) % 128, (i * 11) % 128) + 'z'.repeat(i % 3))
    assertOrdered([...new Set(keys)], 'edge characters')
  })
})

describe('key order: the per-shape order cache', () => {
  it('two shapes that fall in one cache slot (same size, same first and last key lengths and letter) each get their own order', () => {
    // a cache slot is chosen by the key count, two key lengths and the last key's first character
    const shapes = [['b', 'a'], ['c', 'a'], ['b', 'a'], ['ab', 'cd', 'a'], ['xy', 'cd', 'a'], ['ab', 'cd', 'a']]
    for (let round = 0; round < 2; round++) {
      for (const keys of shapes) assertOrdered(keys, JSON.stringify(keys))
    }
  })

  it('a shape, then the same keys less the last, when both fall in one cache slot', () => {
    // the slot of a key list (a copy of canonicalOrder's hash): its size, the first key's length, the
    // last key's length and first character. Search for a last key that puts a list of n + 1 keys in
    // the slot of its first n, so that only the cached list's length tells them apart.
    const slotOf = (/** @type {string[]} */ keys) => {
      const n = keys.length
      const last = keys[n - 1]
      return (Math.imul(n, 0x9e3779b1) ^ (keys[0].length << 10) ^ (last.length << 5) ^ (last.length > 0 ? last.charCodeAt(0) : 0)) & 1023
    }
    let checked = 0
    for (const n of [2, 3, 5, 8]) {
      // keys of 20 characters, so that the added key (shorter) sorts first
      const shorter = Array.from({ length: n }, (_, i) => 'k' + String.fromCharCode(97 + i).repeat(19))
      let longer = null
      for (let length = 1; length < 20 && longer === null; length++) {
        for (let c = 33; c < 127 && longer === null; c++) {
          const candidate = [...shorter, String.fromCharCode(c).repeat(length)]
          if (new Set(candidate).size === n + 1 && slotOf(candidate) === slotOf(shorter)) longer = candidate
        }
      }
      if (longer === null) continue
      checked++
      for (let round = 0; round < 2; round++) {
        assertOrdered(longer, `${n + 1} keys`)
        assertOrdered(shorter, `the first ${n} of them`)
      }
    }
    assert.ok(checked > 0, 'no colliding key lists found')
  })

  it('a shape seen already sorted, then the same keys unsorted', () => {
    for (const keys of [['a', 'b', 'cc'], ['cc', 'b', 'a'], ['é', 'a'], ['a', 'é'], ['é', 'a']]) {
      assert.equal(toHex(encode(asObject(keys))), toHex(expectedMap(keys)), JSON.stringify(keys))
    }
  })

  it('a value of many objects of one shape, in and out of order', () => {
    const objects = []
    for (let i = 0; i < 50; i++) objects.push(i % 2 ? { z: i, é: 1, a: 2 } : { a: i, z: 1, é: 2 })
    const expected = concatAll([head(4, 50), ...objects.map((o, i) => concatAll([head(5, 3), text('a'), head(0, o.a), text('z'), head(0, o.z), text('é'), head(0, o['é'])]))])
    assert.equal(toHex(encode(objects)), toHex(expected))
  })

  it('a plain encode that fails on a lone surrogate, then escapedBytes of the same shape: the escaped order', () => {
    // '\udcff' is the one byte 0xff with escapedBytes, so it sorts before the 2-byte 'ab'; in UTF-8
    // terms (which the plain encode sorted by before failing) it would be 2 units after 'ab'
    for (const keys of [['\udcff', 'ab'], ['ab', '\udcff'], ['\udc80', 'a', 'é'], ['b\udcc3', '\u00e9']]) {
      assert.throws(() => encode(asObject(keys)), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'utf8')
      const expected = toHex(expectedMap(keys, escapedKeyBytes))
      assert.equal(toHex(encode(asObject(keys), { escapedBytes: true })), expected, JSON.stringify(keys))
      // and again, now that the shape may be cached
      assert.equal(toHex(encode(asObject(keys), { escapedBytes: true })), expected, JSON.stringify(keys))
    }
  })
})

/**
 * A key's bytes under escapedBytes: U+DC80..U+DCFF as the byte they stand for, the rest UTF-8.
 * @param {string} key
 */
function escapedKeyBytes (key) {
  const out = []
  for (const ch of key) {
    const c = ch.charCodeAt(0)
    if (ch.length === 1 && c >= 0xdc80 && c <= 0xdcff) out.push(c & 0xff)
    else out.push(...utf8.encode(ch))
  }
  return Uint8Array.from(out)
}

describe('key order: escapedBytes keys sort by the bytes they stand for', () => {
  it('two keys that stand for the same bytes are both written, in insertion order', () => {
    // 'é' is c3 a9, and so are the escaped '\udcc3\udca9': not valid DAG-CBOR (escapedBytes output
    // need not be), but written whole
    for (const keys of [['é', '\udcc3\udca9'], ['\udcc3\udca9', 'é']]) {
      const expected = concatAll([head(5, 2), ...keys.flatMap((k, i) => [[0x62, 0xc3, 0xa9], head(0, i)])])
      assert.equal(toHex(encode(asObject(keys), { escapedBytes: true })), toHex(expected))
    }
  })

  it('mixed escaped and UTF-8 keys, small and large maps, in both insertion orders', () => {
    const pool = ['a', '\udc80', '\udcff', '\udcc3', 'é', 'ab', '\udcc3\udca8', 'a\udcff', '\udcff\udcff', '\u{10000}', 'abc', '\udce0\udc80', 'abcd', '\udc80\udc80\udc80\udc80\udc80']
    for (const size of [2, 5, pool.length]) {
      const keys = pool.slice(0, size)
      for (const order of [keys, [...keys].reverse()]) {
        assert.equal(toHex(encode(asObject(order), { escapedBytes: true })), toHex(expectedMap(order, escapedKeyBytes)), `${size} keys`)
      }
    }
  })

  it('keys whose escaped bytes share a prefix and differ in length or in their last byte', () => {
    for (const keys of [['\udcf0\udc90', '\udcf0'], ['\udcf0\udc91', '\udcf0\udc90'], ['a\udc81', 'a\udc80', 'a']]) {
      assert.equal(toHex(encode(asObject(keys), { escapedBytes: true })), toHex(expectedMap(keys, escapedKeyBytes)), JSON.stringify(keys))
    }
  })
})

describe('key order: objects of more than 100 keys, each value beside its key', () => {
  for (const row of LARGE_MAP_ROWS) {
    it(row.name, () => {
      const expected = toHex(expectedMapBytes(row.entries))
      assert.equal(toHex(encode(row.make())), expected)
      // the way JavaScriptCore and SpiderMonkey take: Object.values, in Object.keys's order,
      // reordered by the keys' sort
      const object = row.make()
      const keys = Object.keys(object)
      const values = Object.values(object)
      assert.deepEqual(values, keys.map((key) => /** @type {any} */ (object)[key]), 'Object.values in the order of Object.keys')
      const sorted = orderAsIfAscii(keys, values)
      sorted.forEach((key, i) => assert.equal(values[i], /** @type {any} */ (object)[key], `the value of ${JSON.stringify(key)}`))
    })
  }

  it('a getter that deletes a key listed after it: the deleted key is reported, not another value written beside it', () => {
    /** @type {Record<string, any>} */
    const object = {}
    // 'a' sorts first and is listed first; 'victim' is listed (and sorts) after it
    Object.defineProperty(object, 'a', { get () { delete object.victim; return 1 }, enumerable: true, configurable: true })
    for (let i = 0; i < 120; i++) object['k' + i] = i
    object.victim = 'gone before it is read'
    assert.throws(() => encode(object), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'undefined' && /victim/.test(e.message))
  })
})

describe('key order: more than 100 keys not all ASCII, sorted as if ASCII and then from the first key that is not', () => {
  for (const { name, keys } of NOT_ASCII_KEY_SETS) {
    it(name, () => {
      assert.equal(new Set(keys).size, keys.length)
      assertOrdered(keys, name)
    })
  }

  it('large maps whose values are large maps, each put in order while the one around it is written', () => {
    /** @param {number} j */
    const innerKeys = (j) => Array.from({ length: 110 + j % 20 }, (_, i) => (j % 3 === 0 && i === 50 ? '\u00e9' : '') + 'i' + ((i * 31 + j) % 997).toString(36))
    // all ASCII but the longest, so the outer map is written through its order up to its last key
    const outerKeys = Array.from({ length: 120 }, (_, j) => j === 60 ? 'o'.repeat(9) + '\u00e9' : 'o' + ((j * 7919) % 4093).toString(32))
    /** @type {Record<string, Record<string, number>>} */
    const object = {}
    outerKeys.forEach((key, j) => { object[key] = asObject(innerKeys(j)) })
    const outer = outerKeys.map((key, j) => ({ bytes: utf8.encode(key), j })).sort((x, y) => dagOrder(x.bytes, y.bytes))
    const expected = concatAll([head(5, outer.length), ...outer.flatMap(({ bytes, j }) => [head(3, bytes.length), bytes, expectedMap(innerKeys(j))])])
    for (let round = 0; round < 2; round++) assert.equal(toHex(encode(object)), toHex(expected), `round ${round}`)
    assert.equal(toHex(encode(new Map(Object.entries(object)))), toHex(expected), 'a Map')
  })

  it('a value not in the data model: its path names its own key, in a map written through its order', () => {
    const keys = NOT_ASCII_KEY_SETS[2].keys.filter((key) => !/[^\0-\x7f]/.test(key))
    for (const bad of [keys[0], keys[70], keys[keys.length - 1]]) {
      /** @type {Record<string, number|undefined>} */
      const object = asObject(keys)
      object[bad] = undefined
      assert.throws(() => encode(object), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'undefined' && e.path === '/' + bad, bad)
    }
  })

  it('a key with a lone surrogate: the utf8 rule, at that key, in any position', () => {
    for (const odd of ['\ud800', 'abc\udfff', 'q'.repeat(40) + '\ud83d']) {
      for (const keys of [[odd, ...NOT_ASCII_KEY_SETS[2].keys], [...NOT_ASCII_KEY_SETS[2].keys, odd]]) {
        assert.throws(() => encode(asObject(keys)), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'utf8' && e.path === '/' + odd, JSON.stringify(odd))
      }
    }
  })
})

describe('key order: more than 100 keys, sorted by a radix sort of codes packing their length and three characters', () => {
  /**
   * `count` distinct ASCII keys of 2 to 15 characters, which do not all share a first character.
   * @param {number} count
   */
  const asciiKeys = (count) => Array.from({ length: count }, (_, i) => 'abcdefghijklmnopqrstuvwxyz'[i % 26] + String(i).padStart(i % 15, '0'))

  // the last ASCII character (radix sorted), non-ASCII ones of each UTF-8 length and surrogate pairs (not)
  const CHARACTERS = ['\u007f', '\u0080', '\u00ff', '\u07ff', '\u0800', '\ue000', '\uffff', '\u{10000}', '\u{1f600}']

  for (const c of CHARACTERS) {
    for (const at of ['first', 'second', 'third', 'fourth', 'last']) {
      it(`one key with U+${c.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')} as its ${at} character among 130 ASCII keys`, () => {
        const base = asciiKeys(130)
        assert.equal(new Set(base).size, 130)
        // 7 units: ASCII keys of its UTF-16 length and of its UTF-8 length are both in the map
        const filler = 'qqqqqqq'.slice(0, 7 - c.length)
        const index = { first: 0, second: 1, third: 2, fourth: 3, last: filler.length }[at] ?? 0
        const odd = filler.slice(0, index) + c + filler.slice(index)
        for (const where of [0, 65, 130]) {
          const keys = [...base]
          keys.splice(where, 0, odd)
          assertOrdered(keys, `${JSON.stringify(odd)} at index ${where}`)
        }
        // listed in the order of an ASCII sort of the code units: the UTF-8 length must still move it
        const unitOrder = [...base, odd].sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
        assertOrdered(unitOrder, `${JSON.stringify(odd)}, keys in code unit order`)
      })
    }
  }

  it('keys with surrogate pairs and keys from U+E000 up, of one UTF-8 length, among 130 ASCII keys', () => {
    // UTF-16 puts the surrogates (U+D800..U+DFFF) below U+E000; UTF-8 puts the 4-byte characters last
    const odd = ['a\u{10000}', 'a\ue000b', 'a\uffffb', 'a\u{10ffff}', '\u{1f600}', '\ue000aa', 'aaaaa']
    assertOrdered([...asciiKeys(130), ...odd], 'surrogates')
    assertOrdered([...odd, ...asciiKeys(130)], 'surrogates first')
  })

  it('keys of one length that differ only in their last character, inside and past the packed three', () => {
    const keys = []
    for (const stem of ['', 'x', 'xy', 'xyz', 'wxyz', 'vwxyzab', 'uvwxyzabcdefgh']) {
      for (const last of '9zA0a~ ') keys.push(stem + last)
    }
    for (let i = 0; keys.length < 140; i++) keys.push('m' + String(i))
    assertOrdered([...new Set(keys)], 'last character')
  })

  for (const longest of [30, 31, 32, 33]) {
    it(`every length from 1 to ${longest} (two radix passes for keys shorter than 32, three from 32)`, () => {
      const keys = []
      for (let length = 1; length <= longest; length++) {
        for (const c of 'zam') keys.push(c.repeat(length))
        keys.push('b'.repeat(length - 1) + 'c')
      }
      assert.ok(keys.length > 100)
      assertOrdered([...new Set(keys)], `longest ${longest}`)
    })
  }

  for (const length of [31, 32]) {
    it(`120 keys, every one of ${length} characters`, () => {
      const keys = Array.from({ length: 120 }, (_, i) => String.fromCharCode(33 + ((i * 37) % 94)) + String(i).padStart(length - 1, 'k'))
      assertOrdered([...new Set(keys)], `all ${length} long`)
    })
  }

  for (const longest of [32_767, 32_768, 65_536]) {
    it(`120 short keys and one of ${longest} characters`, () => {
      const keys = Array.from({ length: 120 }, (_, i) => 'k' + i)
      keys.splice(60, 0, 'a'.repeat(longest))
      assertOrdered(keys, `one of ${longest}`)
    })
  }

  it('130 integer-like keys and others among them (inserted in every order the engine keeps)', () => {
    const keys = []
    for (let i = 0; i < 130; i++) keys.push(String((i * 7919) % 100000), 'n' + i)
    assertOrdered([...new Set(keys)], 'integer-like keys')
  })
})
