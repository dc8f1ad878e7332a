// Every Uint8Array the codec returns owns exactly its memory (test/helpers/ownership.js says what
// that means): encode results and decoded byte strings, over the codec-fixtures, every DAG-CBOR
// block of the real CARs (the fuzz corpus) and every size around V8's on-heap limit, so that handing
// one's .buffer to an API, or transferring it, reads or changes no other value.
import assert from 'node:assert/strict'
import { encode, decode, decodeFirst, encodeInto } from '../index.js'
import { loadCorpus } from './fuzz/fuzzer.js'
import { ownsExactly, ownershipProblem } from './helpers/ownership.js'

describe('ownership: what the codec returns owns exactly its memory', function () {
  this.timeout(60_000)

  it('every block of the fuzz corpus (codec-fixtures and both real CARs): decoded values and re-encodings', async () => {
    const corpus = await loadCorpus()
    assert.ok(corpus.length > 2000, `corpus of ${corpus.length}`)
    let arrays = 0
    for (const { name, bytes } of corpus) {
      let value
      let relaxed = false
      try { value = decode(bytes) } catch { value = decode(bytes, { relaxed: true }); relaxed = true }
      const problem = ownershipProblem(value)
      assert.equal(problem, null, `${name}: ${problem}`)
      // relaxed decode hands invalid UTF-8 back as lone surrogates, which only escapedBytes writes
      const again = encode(value, relaxed ? { escapedBytes: true } : undefined)
      assert.ok(ownsExactly(again), `${name}: re-encoded ${again.length} bytes in a ${again.buffer.byteLength}-byte buffer at ${again.byteOffset}`)
      arrays++
    }
    assert.equal(arrays, corpus.length)
  })

  it('encode results and decoded byte strings of every size from 0 to 300 bytes, and around 4 KiB and 64 KiB', () => {
    const sizes = [...Array.from({ length: 301 }, (_, i) => i), 4093, 4094, 4095, 4096, 8192, 65533, 65535, 65536, 65540]
    for (const size of sizes) {
      const value = new Uint8Array(size).map((_, i) => (i * 7 + size) & 0xff)
      const encoded = encode(value)
      assert.equal(encoded.length, size + (size < 24 ? 1 : size < 256 ? 2 : size < 65536 ? 3 : 5))
      assert.ok(ownsExactly(encoded), `the ${encoded.length}-byte encoding of ${size} bytes is ${encoded.byteOffset}+${encoded.length} of ${encoded.buffer.byteLength}`)
      const decoded = /** @type {Uint8Array} */ (decode(encode({ a: value, b: value })).a)
      assert.ok(ownsExactly(decoded), `a decoded ${decoded.length}-byte string is ${decoded.byteOffset}+${decoded.length} of ${decoded.buffer.byteLength}`)
    }
  })

  it('no two decoded byte strings, nor two encode results, share a buffer', () => {
    const value = { a: new Uint8Array(100).fill(1), b: new Uint8Array(300).fill(2), c: [new Uint8Array(65).fill(3), new Uint8Array(5000).fill(4)] }
    const results = Array.from({ length: 50 }, () => encode(value))
    assert.equal(new Set(results.map((r) => r.buffer)).size, results.length)
    const decoded = results.map((r) => decode(r))
    for (const d of decoded) assert.equal(ownershipProblem(d), null)
    assert.equal(new Set(decoded.map((d) => /** @type {any} */ (d).b.buffer)).size, decoded.length)
  })

  it('transferring one decoded value\'s buffer (postMessage, structuredClone) changes no other value', () => {
    const block = encode({ thumb: new Uint8Array(300).fill(7), caption: 'x' })
    const first = /** @type {{ thumb: Uint8Array }} */ (decode(block))
    const second = /** @type {{ thumb: Uint8Array }} */ (decode(block))
    const sent = structuredClone(first.thumb.buffer, { transfer: [first.thumb.buffer] })
    assert.equal(first.thumb.length, 0, 'test setup: the transfer detached the first thumb')
    assert.equal(sent.byteLength, 300, 'what was sent is exactly the thumb')
    assert.equal(second.thumb.length, 300)
    assert.ok(second.thumb.every((b) => b === 7))
    const encoded = encode({ thumb: second.thumb })
    structuredClone(encoded.buffer, { transfer: [encoded.buffer] })
    assert.equal(encoded.length, 0, 'test setup: the transfer detached the encode result')
    assert.equal(second.thumb.length, 300, 'and the next encode still works:')
    assert.deepEqual(decode(encode({ thumb: second.thumb })), { thumb: second.thumb })
  })

  it('the opt-in views stay views: { viewBytes } byte strings, decodeFirst\'s remainder, encodeInto\'s target', () => {
    const bytes = encode({ b: new Uint8Array(100).fill(9) })
    const input = new Uint8Array(bytes.length + 10)
    input.set(bytes)
    const viewed = /** @type {{ b: Uint8Array }} */ (decode(bytes, { viewBytes: true }))
    assert.equal(viewed.b.buffer, bytes.buffer)
    const [, rest] = decodeFirst(input)
    assert.equal(rest.buffer, input.buffer)
    assert.equal(rest.length, 10)
    const target = new Uint8Array(200)
    const { written } = encodeInto({ b: viewed.b }, target)
    assert.deepEqual(target.subarray(0, written), bytes, 'encodeInto writes into the caller\'s own buffer')
  })
})
