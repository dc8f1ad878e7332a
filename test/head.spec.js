// The CBOR head reader (lib/head.js): the argument of each head form, the refusals in decode's
// words, its package entry 'dag-cbor-fast/head' (which the CAR tool's walkers import it through),
// and the copies decode, validate, the typed reader and the Lexicon reader hold, which must be what
// scripts/generate-head-readers.js makes from it now, and be the only head readers in lib/.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as head from '../lib/head.js'
import { DagCborDecodeError } from '../index.js'
import { generate, block, BEGIN, END, TARGETS } from '../scripts/generate-head-readers.js'

/** @param {number[]} bytes */
const u8 = (bytes) => new Uint8Array(bytes)
/** the argument of the head at bytes[0] @param {number[]} bytes @param {boolean} [relaxed] */
const argument = (bytes, relaxed = false) => head.readArgument(u8(bytes), 1, bytes.length, bytes[0] & 31, 0, relaxed)

describe('the CBOR head reader (lib/head.js)', () => {
  it('reads the argument of every head form, big-endian', () => {
    assert.equal(argument([0x17]), 23)
    assert.equal(argument([0x18, 0xff]), 0xff)
    assert.equal(argument([0x19, 0x12, 0x34]), 0x1234)
    assert.equal(argument([0x1a, 0xff, 0xff, 0xff, 0xff]), 0xffffffff)
    assert.equal(argument([0x1b, 0, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), Number.MAX_SAFE_INTEGER)
  })

  it('gives -1 for an argument above 2^53-1, which bigArgument() then gives exactly', () => {
    assert.equal(argument([0x1b, 0, 0x20, 0, 0, 0, 0, 0, 0]), -1)
    assert.equal(head.bigArgument(), 2n ** 53n)
    assert.equal(argument([0x3b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]), -1)
    assert.equal(head.bigArgument(), 2n ** 64n - 2n)
  })

  it('relaxed, takes an argument not in shortest form', () => {
    assert.equal(argument([0x1a, 0, 0, 0, 5], true), 5)
    assert.equal(argument([0x1b, 0, 0, 0, 0, 0, 0, 0, 5], true), 5)
  })

  it('refuses as decode does: rule, offset and words', () => {
    /** @param {number[]} bytes @param {string} rule @param {string} detail */
    const refuses = (bytes, rule, detail) => {
      assert.throws(() => head.readArgument(u8([0, 0, ...bytes]), 3, bytes.length + 2, bytes[0] & 31, 2, false),
        (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === rule && e.detail === detail && e.offset === 2)
    }
    refuses([0x5f], 'indefinite-length', 'indefinite-length item; DAG-CBOR has only definite lengths')
    refuses([0x1c], 'malformed', 'additional information 28 is reserved')
    refuses([0x19, 0x01], 'truncated', 'unexpected end of input')
    refuses([0x18, 0x17], 'non-shortest', '23 is not in shortest form')
    refuses([0x19, 0x00, 0xff], 'non-shortest', '255 is not in shortest form')
    refuses([0x1a, 0x00, 0x00, 0xff, 0xff], 'non-shortest', '65535 is not in shortest form')
    refuses([0x1b, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff], 'non-shortest', '4294967295 is not in shortest form')
  })

  it('LEAST is the least argument each longer form holds in shortest form', () => {
    assert.deepEqual(head.LEAST, [24, 0x100, 0x10000, 2 ** 32])
    head.LEAST.forEach((least, i) => {
      const info = 24 + i
      const bytes = (/** @type {number} */ n) => [info, ...Array.from({ length: 1 << i }, (_, k) => Math.floor(n / 256 ** ((1 << i) - 1 - k)) % 256)]
      assert.equal(argument(bytes(least)), least)
      assert.throws(() => argument(bytes(least - 1)), /not in shortest form/)
    })
  })

  it("is the package's entry dag-cbor-fast/head, which the CAR tool imports it through", async () => {
    const entry = await import('dag-cbor-fast/head')
    assert.equal(entry.readArgument, head.readArgument)
  })

  it('the copies in decode.js, validate.js, schema/read.js, lexicon/read.js and lexicon/unknown.js are what scripts/generate-head-readers.js makes now', () => {
    assert.deepEqual(TARGETS.map((t) => t.file), ['lib/decode.js', 'lib/validate.js', 'lib/schema/read.js', 'lib/lexicon/read.js', 'lib/lexicon/unknown.js'])
    for (const { file, text, current } of generate()) {
      assert.ok(current.includes(BEGIN) && current.includes(END), `${file} has no generated block`)
      assert.ok(text === current, `${file}'s copy of lib/head.js's reader differs from what it makes now: run node scripts/generate-head-readers.js`)
    }
  })

  it('no module in lib/ reads a head by hand: outside lib/head.js, only the generated copies refuse a reserved or non-shortest argument', () => {
    const lib = fileURLToPath(new URL('../lib/', import.meta.url))
    /** @type {string[]} */
    const found = []
    for (const name of fs.readdirSync(lib, { recursive: true, encoding: 'utf8' })) {
      if (!name.endsWith('.js') || name === 'head.js') continue
      let text = fs.readFileSync(path.join(lib, name), 'utf8')
      const start = text.indexOf(BEGIN)
      if (start >= 0) text = text.slice(0, start) + text.slice(text.indexOf(END))
      if (/fail\('non-shortest'|additional information \$\{/.test(text)) found.push(`lib/${name.split(path.sep).join('/')}`)
    }
    assert.deepEqual(found, [], 'these read CBOR heads with a reader of their own: take a generated copy (scripts/generate-head-readers.js) or call lib/head.js')
  })

  it('a copy is readArgument over the module cursor, strict unless the module reads relaxed input', () => {
    const source = `export function readArgument (src, pos, end, info, at, relaxed) {
  if (!relaxed && value < least) throw fail()
  return value
}
export function bigArgument () {
  return 0n
}
`
    const strict = block(source, { relaxed: false })
    assert.match(strict, /\nfunction readArg \(info, at\) \{\n {2}if \(value < least\) throw fail\(\)\n/)
    assert.match(block(source, { relaxed: true }), /\n {2}if \(!relaxed && value < least\)/)
    assert.match(strict, /\nfunction bigArg \(\) \{\n {2}return 0n\n\}\n/)
    assert.throws(() => block('export function read () {\n}\n', { relaxed: false }), /no function readArgument/)
  })
})
