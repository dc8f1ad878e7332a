// Differential property tests against @ipld/dag-cbor (the oracle) and cborg, over seeded
// ipld-garbage values. Set DIFF_SEED=<int> to explore other seeds; failures print the seed,
// the value index and the bytes in hex.
import assert from 'node:assert/strict'
import * as dagCbor from '@ipld/dag-cbor'
import * as cborg from 'cborg'
import { encodedLength as cborgEncodedLength } from 'cborg/length'
import { garbage } from 'ipld-garbage'
import { CID } from 'multiformats/cid'
import {
  encode, decode, decodeFirst, encodedLength, encodeInto, toByteView,
  encodeOptions, decodeOptions, DagCborDecodeError
} from '../index.js'
import { bytesEqual, dataModelDiff, toHex } from './helpers/ipld-equal.js'
import { mulberry32 as seededRandom, withMathRandom } from './helpers/prng.js'
import { loadFixtures } from './helpers/fixtures.js'

const SEED = process.env.DIFF_SEED ? Number(process.env.DIFF_SEED) : 0x1d1dcb0
const MAX_REPORTED = 5

/**
 * ipld-garbage draws from Math.random; swap in a seeded PRNG while generating.
 *
 * @param {number} seed
 * @param {number} count
 * @param {number} size - approximate bytes per value
 * @param {object} [options] - ipld-garbage options (weights)
 * @returns {unknown[]}
 */
function generate (seed, count, size, options) {
  return withMathRandom(seededRandom(seed), () => Array.from({ length: count }, () => garbage(size, options)))
}

// Profiles: the default mix, container-heavy values, and scalar-heavy small values.
const profiles = [
  { name: 'default weights', count: 2000, size: 300, options: undefined },
  { name: 'containers, strings and CIDs', count: 600, size: 1500, options: { weights: { list: 3, map: 3, string: 2, bytes: 1, boolean: 1, integer: 1, float: 1, null: 1, CID: 2 } } },
  { name: 'small scalars', count: 2000, size: 30, options: { weights: { list: 1, map: 1, string: 2, bytes: 2, boolean: 2, integer: 4, float: 4, null: 1, CID: 2 } } }
]

/** @type {Array<{ where: string, value: unknown }>} */
const corpus = []
profiles.forEach((p, i) => {
  const values = generate(SEED + i, p.count, p.size, p.options)
  values.forEach((value, j) => corpus.push({ where: `seed ${SEED + i} (${p.name}) #${j}`, value }))
})

/**
 * Collect failures instead of stopping at the first, then fail with the first few.
 *
 * @returns {{ fail: (msg: string) => void, check: () => void }}
 */
function failures () {
  /** @type {string[]} */
  const list = []
  return {
    fail (msg) { list.push(msg) },
    check () {
      assert.equal(list.length, 0, `${list.length} failures, first ${Math.min(list.length, MAX_REPORTED)}:\n` + list.slice(0, MAX_REPORTED).join('\n'))
    }
  }
}

/**
 * @param {Uint8Array[]} parts
 * @returns {Uint8Array}
 */
function concat (parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) { out.set(p, at); at += p.length }
  return out
}

describe('test helper: dataModelDiff sees differences', () => {
  it('reports type, value, key-order, bytes and CID differences', () => {
    const cidA = CID.parse('bafyreihdb57fdysx5h35urvxz64ros7zvywshber7id6t6c6fek37jgyfe')
    const cidB = CID.parse('bafyreick3uapgoe63rizj6rptbqwl7pagin26fos32n37fu7uktzcadcdu')
    assert.equal(dataModelDiff({ a: [1, cidA, new Uint8Array([1])] }, { a: [1, CID.parse(cidA.toString()), new Uint8Array([1])] }), null)
    assert.notEqual(dataModelDiff(1, 1n), null)
    assert.equal(dataModelDiff(1, 1n, { intLoose: true }), null)
    assert.notEqual(dataModelDiff(0, -0), null)
    assert.notEqual(dataModelDiff(0, -0, { intLoose: true }), null)
    assert.notEqual(dataModelDiff(1.5, 1.25, { intLoose: true }), null)
    assert.notEqual(dataModelDiff(cidA, cidB), null)
    assert.notEqual(dataModelDiff(cidA, cidA.bytes), null)
    assert.notEqual(dataModelDiff(new Uint8Array([1, 2]), new Uint8Array([1, 3])), null)
    assert.notEqual(dataModelDiff([1], { 0: 1 }), null)
    assert.notEqual(dataModelDiff({ a: 1 }, { b: 1 }), null)
    assert.equal(dataModelDiff({ a: 1, b: 2 }, { b: 2, a: 1 }), null)
    assert.notEqual(dataModelDiff({ a: 1, b: 2 }, { b: 2, a: 1 }, { keyOrder: true }), null)
    assert.equal(dataModelDiff({ x: [[{ y: 'z' }]] }, { x: [[{ y: 'w' }]] }), '/x/0/0/y: "z" != "w"')
  })
})

describe('differential: ipld-garbage vs @ipld/dag-cbor', function () {
  this.timeout(20000)

  it(`generated ${profiles.reduce((n, p) => n + p.count, 0)} values, including foreign (multiformats 9) CIDs`, () => {
    assert.equal(corpus.length, profiles.reduce((n, p) => n + p.count, 0))
    const cids = corpus.filter(({ value }) => value !== null && typeof value === 'object' && CID.asCID(value) !== null)
    assert.ok(cids.length > 0, 'expected some top-level CIDs from ipld-garbage')
    for (const { value } of cids) assert.ok(!(value instanceof CID), 'ipld-garbage CIDs should be a foreign copy, not our multiformats CID')
  })

  it('encode gives the same bytes as @ipld/dag-cbor, and decode gives the value back', () => {
    const f = failures()
    for (const { where, value } of corpus) {
      let ours
      try {
        ours = encode(value)
      } catch (err) {
        f.fail(`${where}: encode threw ${err}`)
        continue
      }
      const ref = dagCbor.encode(value)
      if (!bytesEqual(ours, ref)) {
        f.fail(`${where}: bytes differ\n  oracle ${toHex(ref, 80)}\n  ours   ${toHex(ours, 80)}`)
        continue
      }
      let back
      try {
        back = decode(ours)
      } catch (err) {
        f.fail(`${where}: decode of ${toHex(ours, 80)} threw ${err}`)
        continue
      }
      const diff = dataModelDiff(back, value)
      if (diff) f.fail(`${where}: round trip ${diff}`)
    }
    f.check()
  })

  it("decode of @ipld/dag-cbor's bytes equals @ipld/dag-cbor's decode (types and key order)", () => {
    const f = failures()
    for (const { where, value } of corpus) {
      const bytes = dagCbor.encode(value)
      let ours
      try {
        ours = decode(bytes)
      } catch (err) {
        f.fail(`${where}: decode of ${toHex(bytes, 80)} threw ${err}`)
        continue
      }
      const diff = dataModelDiff(ours, dagCbor.decode(bytes), { keyOrder: true })
      if (diff) f.fail(`${where}: ${diff} for ${toHex(bytes, 80)}`)
    }
    f.check()
  })

  it('decode with { viewBytes: true } gives the same data model as the default copy', () => {
    const f = failures()
    for (const { where, value } of corpus) {
      const bytes = dagCbor.encode(value)
      const diff = dataModelDiff(decode(bytes, { viewBytes: true }), decode(bytes), { keyOrder: true })
      if (diff) f.fail(`${where}: ${diff}`)
    }
    f.check()
  })

  it('encodedLength(v) === encode(v).length', () => {
    const f = failures()
    for (const { where, value } of corpus) {
      const n = encodedLength(value)
      const len = encode(value).length
      if (n !== len) f.fail(`${where}: encodedLength ${n}, encode().length ${len}`)
    }
    f.check()
  })

  it('encodeInto writes the same bytes, returns { written } and leaves the rest of the target alone', () => {
    const f = failures()
    const target = new Uint8Array(64 * 1024)
    for (const { where, value } of corpus) {
      const expected = encode(value)
      if (expected.length + 8 > target.length) continue
      target.fill(0xa5)
      const result = encodeInto(value, target)
      assert.deepEqual(Object.keys(result), ['written'])
      if (result.written !== expected.length) {
        f.fail(`${where}: written ${result.written}, expected ${expected.length}`)
      } else if (!bytesEqual(target.subarray(0, result.written), expected)) {
        f.fail(`${where}: encodeInto bytes differ\n  encode     ${toHex(expected, 80)}\n  encodeInto ${toHex(target.subarray(0, result.written), 80)}`)
      } else if (target.subarray(result.written, result.written + 8).some((b) => b !== 0xa5)) {
        f.fail(`${where}: encodeInto wrote past { written }`)
      }
    }
    f.check()
  })

  it('encodeInto into an exactly-sized target works; a target one byte short throws a clean Error', () => {
    const f = failures()
    for (const { where, value } of corpus.slice(0, 300)) {
      const expected = encode(value)
      const exact = new Uint8Array(expected.length)
      try {
        const { written } = encodeInto(value, exact)
        if (written !== expected.length || !bytesEqual(exact, expected)) f.fail(`${where}: exact-size encodeInto wrote ${written} bytes ${toHex(exact, 40)}, expected ${toHex(expected, 40)}`)
      } catch (err) {
        f.fail(`${where}: encodeInto into exactly encodedLength (${expected.length}) bytes threw: ${/** @type {Error} */ (err).message}; value encodes to ${toHex(expected, 40)}`)
      }
      const short = new Uint8Array(expected.length - 1)
      try {
        encodeInto(value, short)
        f.fail(`${where}: encodeInto into ${short.length} bytes (one short) did not throw`)
      } catch (err) {
        if (!(err instanceof Error)) f.fail(`${where}: threw a non-Error ${err}`)
        else if (err instanceof RangeError || err instanceof TypeError) f.fail(`${where}: a raw ${err.name} leaked from the writer: ${err.message}`)
      }
    }
    f.check()
  })

  it('decode accepts an ArrayBuffer and a view with non-zero byteOffset (reading only its own bytes)', () => {
    const f = failures()
    for (const { where, value } of corpus.slice(0, 1000)) {
      const bytes = encode(value)
      const expected = decode(bytes)
      const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)
      const fromAb = decode(ab)
      const d1 = dataModelDiff(fromAb, expected, { keyOrder: true })
      if (d1) f.fail(`${where}: ArrayBuffer decode ${d1}`)
      // junk before and after the view: 0xff (break) and 0x00 would be misread if decode
      // looked outside [byteOffset, byteOffset + length)
      const big = new Uint8Array(bytes.length + 13).fill(0xff)
      big.fill(0x00, 7 + bytes.length)
      big.set(bytes, 7)
      const view = big.subarray(7, 7 + bytes.length)
      const d2 = dataModelDiff(decode(view), expected, { keyOrder: true })
      if (d2) f.fail(`${where}: offset-view decode ${d2}`)
      const d3 = dataModelDiff(decode(view, { viewBytes: true }), expected, { keyOrder: true })
      if (d3) f.fail(`${where}: offset-view viewBytes decode ${d3}`)
    }
    f.check()
    const u8 = new Uint8Array([0xa1, 0x61, 0x61, 0x01])
    assert.equal(toByteView(u8), u8)
    assert.ok(bytesEqual(toByteView(u8.buffer), u8))
  })

  it('decodeFirst reads back-to-back blocks one at a time', () => {
    const values = corpus.slice(0, 500).map((c) => c.value)
    const stream = concat(values.map((v) => encode(v)))
    let rest = stream
    let i = 0
    while (rest.length > 0) {
      const [value, next] = decodeFirst(rest)
      assert.ok(next instanceof Uint8Array)
      assert.ok(next.length < rest.length, 'decodeFirst must consume bytes')
      const diff = dataModelDiff(value, values[i])
      assert.equal(diff, null, `block ${i}: ${diff}`)
      rest = next
      i++
    }
    assert.equal(i, values.length)
  })

  it('documented difference: -0 encodes as float64 -0.0 (the oracle writes 0)', () => {
    const ours = encode([-0, 0])
    assert.equal(toHex(ours), '82fb800000000000000000')
    assert.equal(toHex(dagCbor.encode([-0, 0])), '820000')
    const back = /** @type {number[]} */ (decode(ours))
    assert.ok(Object.is(back[0], -0) && Object.is(back[1], 0))
  })

  it('edge numbers and strings encode like @ipld/dag-cbor and round-trip', () => {
    const edges = [
      0, 1, -1, 23, 24, -24, -25, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, -(2 ** 32), -(2 ** 32) - 1,
      Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 53, -(2 ** 53), 1e17, -1e300, Number.MAX_VALUE,
      Number.MIN_VALUE, -Number.MIN_VALUE, 0.1, -0.5, 1.5, 2 ** -1074,
      2n ** 64n - 1n, -(2n ** 64n), 2n ** 63n, -(2n ** 63n) - 1n, 9007199254740993n, -9007199254740993n,
      '', 'a', '\u0000', '\u263a', '\ud83d\ude00', 'é'.repeat(100), 'x'.repeat(24), 'y'.repeat(256),
      { '': 1, a: 2, b: 3, aa: 4, '\u263a': 5, é: 6, z: 7, '\u0000': 8 },
      new Uint8Array(0), new Uint8Array(24), new Uint8Array(300),
      [[[[[]]]]], [null, true, false]
    ]
    for (const value of edges) {
      const ref = dagCbor.encode(value)
      const ours = encode(value)
      assert.equal(toHex(ours), toHex(ref), `encode ${typeof value === 'bigint' ? value + 'n' : JSON.stringify(value)}`)
      const diff = dataModelDiff(decode(ours), dagCbor.decode(ref), { keyOrder: true })
      assert.equal(diff, null, `decode ${toHex(ours, 40)}: ${diff}`)
    }
  })
})

describe('differential: encodeOptions/decodeOptions with cborg vs our codec', function () {
  this.timeout(20000)
  const sample = corpus.filter((_, i) => i % 2 === 0)

  it('cborg.encode(v, encodeOptions) and encodedLength(v, encodeOptions) match encode(v)', () => {
    const f = failures()
    for (const { where, value } of sample) {
      const ours = encode(value)
      const theirs = cborg.encode(value, encodeOptions)
      if (!bytesEqual(ours, theirs)) f.fail(`${where}: bytes differ\n  cborg ${toHex(theirs, 80)}\n  ours  ${toHex(ours, 80)}`)
      const n = cborgEncodedLength(value, encodeOptions)
      if (n !== ours.length) f.fail(`${where}: cborg encodedLength ${n} != ${ours.length}`)
    }
    f.check()
  })

  it('cborg.encodeInto(v, target, encodeOptions) matches encodeInto(v, target)', () => {
    const f = failures()
    const a = new Uint8Array(64 * 1024)
    const b = new Uint8Array(64 * 1024)
    for (const { where, value } of sample) {
      if (encodedLength(value) > a.length) continue
      const { written } = encodeInto(value, a)
      const theirs = cborg.encodeInto(value, b, encodeOptions)
      if (theirs.written !== written || !bytesEqual(a.subarray(0, written), b.subarray(0, written))) {
        f.fail(`${where}: cborg.encodeInto ${theirs.written} bytes ${toHex(b.subarray(0, theirs.written), 60)}, ours ${written} bytes ${toHex(a.subarray(0, written), 60)}`)
      }
    }
    f.check()
  })

  it('cborg.decode(bytes, decodeOptions) matches decode(bytes)', () => {
    const f = failures()
    for (const { where, value } of sample) {
      const bytes = encode(value)
      const diff = dataModelDiff(cborg.decode(bytes, decodeOptions), decode(bytes), { keyOrder: true })
      if (diff) f.fail(`${where}: ${diff} for ${toHex(bytes, 80)}`)
    }
    f.check()
  })

  it('cborg.decode(Buffer, decodeOptions) gives CIDs that own their bytes, as decode does', () => {
    const cid = CID.parse('bafyreidykglsfhoixmivffc5uwhcgshx4j465xwqntbmu43nb2dzqwfvae')
    // cborg hands a tag's content to the decoder as a Buffer when the input is one
    const input = Buffer.from(encode({ link: cid }))
    for (const decoded of [cborg.decode(input, decodeOptions), decode(input)]) {
      const bytes = decoded.link.bytes
      assert.equal(bytes.constructor, Uint8Array)
      assert.equal(bytes.buffer.byteLength, bytes.length, 'a view would share the input buffer')
      assert.ok(decoded.link.equals(cid))
    }
    input.fill(0) // the decoded CIDs must not change with the input
    assert.ok(cborg.decode(Buffer.from(encode({ link: cid })), decodeOptions).link.equals(cid))
  })

  it('cborg.decodeFirst(bytes, decodeOptions) matches decodeFirst(bytes) on back-to-back blocks', () => {
    const values = sample.slice(0, 300).map((c) => c.value)
    let ours = concat(values.map((v) => encode(v)))
    let theirs = ours
    for (let i = 0; i < values.length; i++) {
      const [a, restA] = decodeFirst(ours)
      const [b, restB] = cborg.decodeFirst(theirs, decodeOptions)
      const diff = dataModelDiff(a, b, { keyOrder: true })
      assert.equal(diff, null, `block ${i}: ${diff}`)
      assert.equal(restA.length, restB.length, `block ${i}: rest length`)
      ours = restA
      theirs = restB
    }
    assert.equal(ours.length, 0)
  })
})

describe('differential: single-byte mutations of valid blocks', function () {
  this.timeout(20000)
  const random = seededRandom(SEED ^ 0x5a5a5a5a)
  const int = (/** @type {number} */ n) => Math.floor(random() * n)

  /** @type {Array<{ where: string, bytes: Uint8Array }>} */
  const blocks = []
  for (const fixture of loadFixtures()) blocks.push({ where: `fixture ${fixture.name}`, bytes: fixture.cbor })
  // copy into plain Uint8Arrays: @ipld/dag-cbor can hand back a Node Buffer, whose slice() is a view
  for (const { where, value } of corpus.filter((_, i) => i % 10 === 0)) blocks.push({ where, bytes: new Uint8Array(dagCbor.encode(value)) })

  /**
   * @param {Uint8Array} bytes
   * @returns {{ ok: true, value: unknown } | { ok: false, err: unknown }}
   */
  function tryDecode (bytes) {
    try {
      return { ok: true, value: decode(bytes) }
    } catch (err) {
      return { ok: false, err }
    }
  }

  it('a flipped byte either decodes to a value that re-encodes identically, or throws a DagCborDecodeError', () => {
    const f = failures()
    let accepted = 0
    let rejected = 0
    for (const { where, bytes } of blocks) {
      for (let k = 0; k < 4; k++) {
        const mutant = new Uint8Array(bytes) // a copy
        const pos = int(mutant.length)
        mutant[pos] ^= 1 + int(255)
        const label = `${where}, byte ${pos} -> 0x${mutant[pos].toString(16)}: ${toHex(mutant, 80)}`
        const ours = tryDecode(mutant)
        /** @type {unknown} */
        let oracle
        let oracleCanonical = false
        try {
          oracle = dagCbor.decode(mutant)
          oracleCanonical = bytesEqual(dagCbor.encode(oracle), mutant)
        } catch {}
        if (ours.ok) {
          accepted++
          let re
          try {
            re = encode(ours.value)
          } catch (err) {
            f.fail(`${label}: accepted, but re-encode threw ${err}`)
            continue
          }
          if (!bytesEqual(re, mutant)) f.fail(`${label}: accepted, but re-encodes to ${toHex(re, 80)}`)
          else if (!oracleCanonical) f.fail(`${label}: accepted, but @ipld/dag-cbor does not round-trip it`)
          else {
            const diff = dataModelDiff(ours.value, oracle, { keyOrder: true })
            if (diff) f.fail(`${label}: differs from @ipld/dag-cbor: ${diff}`)
          }
        } else {
          rejected++
          const err = /** @type {any} */ (ours.err)
          if (!(err instanceof DagCborDecodeError)) f.fail(`${label}: threw a non-DagCborDecodeError ${err?.name}: ${err?.message}`)
          else if (!(err.offset >= 0 && err.offset <= mutant.length)) f.fail(`${label}: error offset ${err.offset} outside the input`)
          if (oracleCanonical) f.fail(`${label}: rejected (${err?.rule}), but @ipld/dag-cbor decodes and round-trips it`)
        }
      }
    }
    f.check()
    assert.equal(accepted + rejected, blocks.length * 4)
    assert.ok(rejected > 0 && accepted > 0, `accepted ${accepted}, rejected ${rejected}: both paths must be exercised`)
  })

  it("a truncated block throws rule 'truncated'; a block with a byte appended throws rule 'trailing-bytes'", () => {
    const f = failures()
    for (const { where, bytes } of blocks) {
      const cut = int(bytes.length)
      const truncated = bytes.subarray(0, cut)
      const t = tryDecode(truncated)
      const terr = /** @type {any} */ (t.ok ? null : t.err)
      if (t.ok) f.fail(`${where}: prefix of ${cut}/${bytes.length} bytes decoded`)
      else if (!(terr instanceof DagCborDecodeError) || terr.rule !== 'truncated') {
        f.fail(`${where}: prefix of ${cut}/${bytes.length} bytes: expected rule 'truncated', got ${terr?.name} ${terr?.rule}: ${terr?.message}`)
      }
      const extra = concat([bytes, new Uint8Array([int(256)])])
      const a = tryDecode(extra)
      const aerr = /** @type {any} */ (a.ok ? null : a.err)
      if (a.ok) f.fail(`${where}: decoded with a trailing byte`)
      else if (!(aerr instanceof DagCborDecodeError) || aerr.rule !== 'trailing-bytes') {
        f.fail(`${where}: trailing byte: expected rule 'trailing-bytes', got ${aerr?.name} ${aerr?.rule}: ${aerr?.message}`)
      }
    }
    f.check()
  })
})
