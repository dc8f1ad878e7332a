// One group per decoding rule, with the exact bytes: strict by default (each rejection
// names its rule and byte offset), and what the relaxed mode accepts instead.
import assert from 'node:assert/strict'
import { CID } from 'multiformats/cid'
import { decode, decodeFirst, encode, DagCborDecodeError } from '../index.js'

const bytes = (/** @type {string} */ h) => new Uint8Array(Buffer.from(h, 'hex'))
const hex = (/** @type {Uint8Array} */ b) => Buffer.from(b).toString('hex')

/**
 * Strict decode rejects `input` for `rule` at `offset`; relaxed accepts it iff `relaxable`.
 *
 * @param {string} input - hex
 * @param {string} rule
 * @param {number} offset
 * @param {{ relaxable?: boolean, path?: string }} [expect]
 */
function rejects (input, rule, offset, { relaxable = false, path } = {}) {
  assert.throws(() => decode(bytes(input)), (/** @type {any} */ e) => {
    assert.ok(e instanceof DagCborDecodeError, `expected DagCborDecodeError, got ${e}`)
    assert.equal(e.rule, rule, e.message)
    assert.equal(e.offset, offset, e.message)
    assert.ok(e.message.includes(`at byte ${offset}`), e.message)
    assert.equal(e.relaxable, relaxable)
    assert.equal(e.message.includes('relaxed: true'), relaxable, e.message)
    if (path !== undefined) assert.equal(e.path, path)
    return true
  })
  if (relaxable) {
    decode(bytes(input), { relaxed: true })
  } else {
    assert.throws(() => decode(bytes(input), { relaxed: true }), DagCborDecodeError)
  }
}

describe('decode', () => {
  it("is also the package's entry dag-cbor-fast/decode, which names decode and decodeFirst only (lib/decode.js's other exports are internals)", async () => {
    const entry = await import('dag-cbor-fast/decode')
    assert.deepEqual(Object.keys(entry).sort(), ['decode', 'decodeFirst'])
    assert.equal(entry.decode, decode)
    assert.equal(entry.decodeFirst, decodeFirst)
  })

  describe('input forms', () => {
    it('a Uint8Array, a view with a non-zero byteOffset, an ArrayBuffer', () => {
      const backing = bytes('ff8201026100ff')
      assert.deepEqual(decode(backing.subarray(1, 4)), [1, 2])
      assert.deepEqual(decode(bytes('820102').buffer), [1, 2])
      assert.deepEqual(decode(new DataView(backing.buffer, 1, 3)), [1, 2])
    })
    it('bytes after the first item are an error; decodeFirst returns them', () => {
      rejects('0000', 'trailing-bytes', 1)
      const [value, rest] = decodeFirst(bytes('8101a0ff'))
      assert.deepEqual(value, [1])
      assert.equal(hex(rest), 'a0ff')
      assert.deepEqual(decodeFirst(rest.subarray(0, 1)), [{}, new Uint8Array(0)])
    })
    it('empty and truncated input', () => {
      rejects('', 'truncated', 0)
      rejects('82', 'truncated', 0)
      rejects('8201', 'truncated', 0)
      rejects('820118', 'truncated', 2)
      rejects('19', 'truncated', 0)
      rejects('62', 'truncated', 0)
      rejects('6261', 'truncated', 0)
      rejects('a161', 'truncated', 0)
      rejects('a16161', 'truncated', 3)
    })
    it('a declared length longer than the input fails before allocating', () => {
      rejects('5affffffff', 'truncated', 0)
      rejects('9bffffffffffffffff', 'truncated', 0)
      rejects('ba00010000', 'truncated', 0)
    })
  })

  describe('integers', () => {
    it('every width, in shortest form', () => {
      assert.equal(decode(bytes('17')), 23)
      assert.equal(decode(bytes('1818')), 24)
      assert.equal(decode(bytes('190100')), 256)
      assert.equal(decode(bytes('1a00010000')), 65536)
      assert.equal(decode(bytes('1b0000000100000000')), 2 ** 32)
      assert.equal(decode(bytes('37')), -24)
      assert.equal(decode(bytes('3b0000000100000000')), -(2 ** 32) - 1)
    })
    it('the full range -2^64..2^64-1, BigInt outside the safe range', () => {
      assert.equal(decode(bytes('1b001fffffffffffff')), Number.MAX_SAFE_INTEGER)
      assert.equal(decode(bytes('1b0020000000000000')), 2n ** 53n)
      assert.equal(decode(bytes('1bffffffffffffffff')), 2n ** 64n - 1n)
      assert.equal(decode(bytes('3b001ffffffffffffe')), Number.MIN_SAFE_INTEGER)
      assert.equal(decode(bytes('3b001fffffffffffff')), -(2n ** 53n))
      assert.equal(decode(bytes('3bffffffffffffffff')), -(2n ** 64n))
    })
    it('non-shortest integers, lengths and tag numbers are rejected (relaxable)', () => {
      rejects('1817', 'non-shortest', 0, { relaxable: true })
      rejects('1900ff', 'non-shortest', 0, { relaxable: true })
      rejects('1a0000ffff', 'non-shortest', 0, { relaxable: true })
      rejects('1b00000000ffffffff', 'non-shortest', 0, { relaxable: true })
      rejects('3817', 'non-shortest', 0, { relaxable: true })
      rejects('580100', 'non-shortest', 0, { relaxable: true })
      rejects('81780161', 'non-shortest', 1, { relaxable: true, path: '/0' })
      rejects('980100', 'non-shortest', 0, { relaxable: true })
      rejects('b801616100', 'non-shortest', 0, { relaxable: true })
      rejects('d82a', 'truncated', 2)
      assert.equal(decode(bytes('1817'), { relaxed: true }), 23)
    })
    it('a non-shortest tag 42 is rejected', () => {
      const cid = CID.parse('bafyreidykglsfhoixmivffc5uwhcgshx4j465xwqntbmu2ztmxqzwzm7qu')
      const canonical = hex(encode(cid))
      assert.equal(canonical.slice(0, 4), 'd82a')
      rejects('d9002a' + canonical.slice(4), 'non-shortest', 0, { relaxable: true })
    })
  })

  describe('indefinite lengths and break', () => {
    for (const input of ['5f40ff', '7f60ff', '9fff', 'bfff']) {
      it(`${input} is rejected`, () => rejects(input, 'indefinite-length', 0))
    }
    it('a stray break', () => rejects('ff', 'indefinite-length', 0))
    it('reserved additional information', () => {
      rejects('1c', 'malformed', 0)
      rejects('fc', 'malformed', 0)
      rejects('1f', 'malformed', 0)
    })
  })

  describe('tags', () => {
    it('any tag but 42 is rejected', () => {
      rejects('c074323031332d30332d32315432303a30343a30305a', 'tag', 0)
      rejects('c11a514b67b0', 'tag', 0)
      rejects('d82b40', 'tag', 0)
      rejects('dbffffffffffffffff00', 'tag', 0)
    })
  })

  describe('CIDs (tag 42)', () => {
    const v1 = CID.parse('bafyreidykglsfhoixmivffc5uwhcgshx4j465xwqntbmu2ztmxqzwzm7qu')
    const v0 = CID.parse('QmQg1v4o9xdT3Q14wh4S7dxZkDjyZ9ssFzFzyep1YrVJBY')
    it('decodes CIDv1 and CIDv0 to multiformats CIDs deep-equal to CID.parse', () => {
      assert.deepEqual(decode(bytes('d82a5825' + '00' + hex(v1.bytes))), v1)
      assert.deepEqual(decode(bytes('d82a5823' + '00' + hex(v0.bytes))), v0)
      assert.ok(decode(bytes('d82a5825' + '00' + hex(v1.bytes))) instanceof CID)
    })
    it('a decoded CID behaves as a multiformats CID: multihash (built on first read), equals, toString, frozen', () => {
      const cid = decode(bytes('d82a5825' + '00' + hex(v1.bytes)))
      assert.equal(cid.multihash.code, 0x12)
      assert.equal(cid.multihash.size, 32)
      assert.deepEqual(cid.multihash.digest, v1.multihash.digest)
      assert.deepEqual(cid.multihash.bytes, v1.multihash.bytes)
      assert.equal(cid.multihash, cid.multihash)
      assert.ok(cid.equals(v1) && v1.equals(cid))
      assert.equal(cid.toString(), v1.toString())
      assert.equal(CID.asCID(cid), cid)
      assert.deepEqual(Object.keys(cid), Object.keys(v1))
      const v0cid = Object.freeze(decode(bytes('d82a5823' + '00' + hex(v0.bytes))))
      assert.deepEqual(v0cid.multihash, v0.multihash)
      assert.equal(v0cid.toString(), v0.toString())
      assert.deepEqual(v0cid, v0)
    })
    it('content that is not a byte string', () => rejects('d82a6100', 'cid', 2))
    it('missing 0x00 prefix', () => rejects('d82a5825' + '01' + hex(v1.bytes), 'cid', 4))
    it('empty content', () => rejects('d82a40', 'cid', 3))
    it('an explicit version 0', () => rejects('d82a5825' + '00' + '0070' + hex(v0.bytes), 'cid', 5))
    it('bytes after the CID', () => rejects('d82a5826' + '00' + hex(v1.bytes) + '00', 'cid', 5))
    it('a digest shorter than its length says', () => rejects('d82a5824' + '00' + hex(v1.bytes.subarray(0, 35)), 'cid', 5))
    it('a non-shortest varint inside the CID', () => rejects('d82a5826' + '00' + '01f100' + hex(v1.bytes.subarray(2)), 'cid', 5))
    it('an unknown CID version', () => rejects('d82a5825' + '00' + '02' + hex(v1.bytes.subarray(1)), 'cid', 5))
    it('a decoded CID owns its bytes: it does not pin the input', () => {
      const input = bytes('a1616cd82a5825' + '00' + hex(v1.bytes))
      const { l } = decode(input)
      assert.notEqual(l.bytes.buffer, input.buffer)
      assert.equal(l.bytes.buffer.byteLength, v1.bytes.length)
    })
  })

  describe('byte strings', () => {
    it('from a Node Buffer input are plain Uint8Array copies (Buffer#slice is a view)', () => {
      const cid = CID.parse('bafyreidykglsfhoixmivffc5uwhcgshx4j465xwqntbmu2ztmxqzwzm7qu')
      const input = Buffer.from(encode({ b: new Uint8Array([1, 2, 3]), c: cid }))
      const value = decode(input)
      input.fill(0)
      assert.equal(Object.getPrototypeOf(value.b), Uint8Array.prototype)
      assert.deepEqual(value.b, new Uint8Array([1, 2, 3]))
      assert.equal(Object.getPrototypeOf(value.c.bytes), Uint8Array.prototype)
      assert.ok(value.c.equals(cid))
    })

    it('are copies by default, views with viewBytes', () => {
      const input = bytes('a1616243010203')
      const copied = decode(input).b
      assert.deepEqual(copied, new Uint8Array([1, 2, 3]))
      assert.equal(copied.buffer.byteLength, 3)
      const viewed = decode(input, { viewBytes: true }).b
      assert.deepEqual(viewed, new Uint8Array([1, 2, 3]))
      assert.equal(viewed.buffer, input.buffer)
    })
  })

  describe('simple values', () => {
    it('true, false, null', () => assert.deepEqual(decode(bytes('83f5f4f6')), [true, false, null]))
    it('undefined (0xf7) is rejected; relaxed reads it as null', () => {
      rejects('f7', 'undefined', 0, { relaxable: true })
      assert.deepEqual(decode(bytes('82f7f6'), { relaxed: true }), [null, null])
    })
    it('other simple values are rejected', () => {
      rejects('f0', 'simple-value', 0)
      rejects('f820', 'simple-value', 0)
      rejects('e0', 'simple-value', 0)
    })
  })

  describe('floats', () => {
    it('float64, including -0.0 as -0', () => {
      assert.equal(decode(bytes('fb3ff8000000000000')), 1.5)
      assert.ok(Object.is(decode(bytes('fb8000000000000000')), -0))
      assert.equal(decode(bytes('fb4340000000000000')), 2 ** 53)
      // every byte of the float counts, in big-endian order
      assert.equal(decode(bytes('fb400921fb54442d18')), Math.PI)
      assert.deepEqual(decode(bytes('83fb3ff8000000000000fb400921fb54442d18fbc00921fb54442d18')), [1.5, Math.PI, -Math.PI])
    })
    it('16- and 32-bit floats are rejected; relaxed reads them', () => {
      rejects('f93e00', 'float-size', 0, { relaxable: true })
      rejects('fa3fc00000', 'float-size', 0, { relaxable: true })
      assert.equal(decode(bytes('f93e00'), { relaxed: true }), 1.5)
      assert.equal(decode(bytes('f90001'), { relaxed: true }), 2 ** -24)
      assert.equal(decode(bytes('fa3fc00000'), { relaxed: true }), 1.5)
      assert.equal(decode(bytes('fa40490fdb'), { relaxed: true }), Math.fround(Math.PI))
    })
    it('NaN and ±Infinity are rejected in every width and mode', () => {
      for (const input of ['fb7ff8000000000000', 'fb7ff0000000000000', 'fbfff0000000000000']) rejects(input, 'non-finite-float', 0)
      for (const input of ['f97e00', 'f97c00', 'fa7f800000']) {
        assert.throws(() => decode(bytes(input), { relaxed: true }), (/** @type {any} */ e) => e.rule === 'non-finite-float')
      }
    })
    // valid DAG-CBOR (Go and Rust write whole floats this way); JavaScript has one number type, so
    // these come back as Numbers that our encoder writes as integers (the spec's "JavaScript Numbers")
    const integralFloats = [
      { data: 'fb3ff0000000000000', expected: 1, reencoded: '01' },
      { data: 'fb0000000000000000', expected: 0, reencoded: '00' },
      { data: 'fbc059000000000000', expected: -100, reencoded: '3863' },
      { data: 'fb433fffffffffffff', expected: 2 ** 53 - 1, reencoded: '1b001fffffffffffff' },
      { data: 'a16161fb4024000000000000', expected: { a: 10 }, reencoded: 'a161610a' }
    ]
    for (const { data, expected, reencoded } of integralFloats) {
      it(`a float64 holding an integer is accepted strictly: ${data}`, () => {
        const value = decode(bytes(data))
        assert.deepEqual(value, expected)
        assert.deepEqual(decode(bytes(data), { relaxed: true }), expected)
        assert.equal(hex(encode(value)), reencoded)
      })
    }
  })

  describe('text', () => {
    it('valid UTF-8, short and long', () => {
      assert.equal(decode(bytes('63e6b0b4')), '水')
      assert.equal(decode(bytes('64f0908591')), '𐅑')
      const long = 'é'.repeat(100)
      assert.equal(decode(encode(long)), long)
    })
    it('a leading U+FEFF is kept as data', () => {
      assert.equal(decode(bytes('64efbbbf61')), '\ufeffa')
      assert.equal(decode(encode('\ufeff' + 'x'.repeat(100))), '\ufeff' + 'x'.repeat(100))
    })
    const invalid = [
      ['61ff', 1, 'a byte that never appears in UTF-8'],
      ['6280' + '61', 1, 'a lone continuation byte'],
      ['62c0af', 1, 'an overlong 2-byte form'],
      ['63e08080', 1, 'an overlong 3-byte form'],
      ['63eda080', 1, 'a UTF-16 surrogate encoded as UTF-8'],
      ['64f4908080', 1, 'a code point above U+10FFFF'],
      ['62e282', 1, 'a truncated sequence'],
      ['6461c3a9ff', 4, 'an invalid byte after valid ones']
    ]
    for (const [input, offset, label] of invalid) {
      it(`${label} is rejected, at its offset`, () => rejects(/** @type {string} */ (input), 'invalid-utf8', /** @type {number} */ (offset), { relaxable: true }))
    }
    it('long invalid text is rejected too', () => {
      rejects('7850' + '61'.repeat(79) + 'ff', 'invalid-utf8', 81, { relaxable: true })
    })
    it('relaxed reads invalid bytes losslessly as U+DC80..U+DCFF; escapedBytes writes them back', () => {
      for (const [input] of invalid) {
        const value = decode(bytes(/** @type {string} */ (input)), { relaxed: true })
        assert.equal(hex(encode(value, { escapedBytes: true })), input)
        assert.throws(() => encode(value), (/** @type {any} */ e) => e.rule === 'utf8')
      }
      assert.equal(decode(bytes('62c0af'), { relaxed: true }), '\udcc0\udcaf')
    })
  })

  describe('maps', () => {
    it('keys in canonical order', () => {
      assert.deepEqual(decode(bytes('a3616103616201626161' + '02')), { a: 3, b: 1, aa: 2 })
    })
    it('keys out of order are rejected, naming the key; relaxed reads them', () => {
      rejects('a2616201616101', 'map-key-order', 4, { relaxable: true, path: '/a' })
      rejects('a2626161016162' + '02', 'map-key-order', 5, { relaxable: true, path: '/b' })
      assert.deepEqual(decode(bytes('a2616201616101'), { relaxed: true }), { b: 1, a: 1 })
    })
    it('order is by UTF-8 bytes', () => {
      assert.deepEqual(decode(bytes('a263efbda10264f090808001')), { '\uff61': 2, '\u{10000}': 1 })
      rejects('a264f09080800163efbda102', 'map-key-order', 7, { relaxable: true })
    })
    it('duplicate keys are rejected in both modes, even apart', () => {
      rejects('a2616101616102', 'duplicate-key', 4)
      assert.throws(() => decode(bytes('a36161016162026161' + '03')), (/** @type {any} */ e) => e.rule === 'map-key-order' && e.offset === 7)
      assert.throws(() => decode(bytes('a36161016162026161' + '03'), { relaxed: true }), (/** @type {any} */ e) => e.rule === 'duplicate-key' && e.offset === 7)
    })
    it('non-string keys are rejected', () => {
      rejects('a10102', 'map-key-type', 1)
      rejects('a1410102', 'map-key-type', 1)
      rejects('a1f602', 'map-key-type', 1)
    })
    it('__proto__ is a plain own key that never touches the prototype', () => {
      const value = decode(encode(JSON.parse('{"__proto__": {"polluted": 1}, "a": 2}')))
      assert.equal(Object.getPrototypeOf(value), Object.prototype)
      assert.ok(Object.prototype.hasOwnProperty.call(value, '__proto__'))
      assert.deepEqual(Object.keys(value), ['a', '__proto__'])
      assert.equal(/** @type {any} */ ({}).polluted, undefined)
    })
  })

  describe('depth', () => {
    it('1,000,000 nested arrays: a clean error, not a stack overflow', () => {
      const input = new Uint8Array(1000001).fill(0x81)
      input[1000000] = 0
      assert.throws(() => decode(input), (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === 'depth' && e.offset === 1000)
    })
    it('maxDepth can be raised', () => {
      const input = new Uint8Array(1201).fill(0x81)
      input[1200] = 0
      assert.throws(() => decode(input), DagCborDecodeError)
      assert.equal(encode(decode(input, { maxDepth: 1200 }), { maxDepth: 1200 }).length, 1201)
    })
  })

  describe('options are read before the decode starts', () => {
    // a getter on an options object runs caller code; a decode inside it must not disturb this one
    const reentrant = (/** @type {string} */ property) => ({
      get [property] () {
        assert.deepEqual(decode(bytes('a1616201')), { b: 1 })
        return undefined
      }
    })
    for (const property of ['relaxed', 'viewBytes', 'maxDepth']) {
      it(`a ${property} getter that decodes leaves the outer decode intact`, () => {
        assert.deepEqual(decode(bytes('82a16161f5187b'), reentrant(property)), [{ a: true }, 123])
        const [value, rest] = decodeFirst(bytes('8201020304'), reentrant(property))
        assert.deepEqual(value, [1, 2])
        assert.equal(hex(rest), '0304')
      })
    }
  })

  describe('errors name the value path', () => {
    it('through maps and arrays', () => {
      assert.throws(() => decode(bytes('a1656c696e6b7382f6a1646e616d6561ff')), (/** @type {any} */ e) => e.path === '/links/1/name' && e.message.includes('/links/1/name'))
    })
  })
})
