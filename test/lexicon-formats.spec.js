// dag-cbor-fast/lexicon's string formats against the atproto interop test files
// (test/fixtures/lexicons/syntax/, from bluesky-social/atproto's interop-test-files): every
// `*_syntax_valid` line passes, every `*_syntax_invalid` line fails, and `*_parse_invalid` lines
// fail for datetime (well formed, not a real time) and pass for language (well formed, not a
// registered tag: the Lexicon spec asks only for a well-formed tag).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { FORMATS } from '../lib/lexicon/index.js'
import { isDatetimeBytes, isCidBytes } from '../lib/lexicon/formats.js'
import { CID } from 'multiformats/cid'
import { mulberry32 } from './helpers/prng.js'

const syntaxDir = new URL('./fixtures/lexicons/syntax/', import.meta.url)

/**
 * The lines of a syntax file that are cases: not empty, not `#` comments.
 *
 * @param {string} file
 * @returns {string[]}
 */
function cases (file) {
  return fs.readFileSync(new URL(file, syntaxDir), 'utf8').split('\n').filter((line) => line !== '' && !line.startsWith('#'))
}

/** @type {Record<string, keyof typeof FORMATS>} file prefix: format */
const FILES = {
  atidentifier: 'at-identifier',
  aturi: 'at-uri',
  datetime: 'datetime',
  did: 'did',
  handle: 'handle',
  language: 'language',
  nsid: 'nsid',
  recordkey: 'record-key',
  tid: 'tid'
}

describe('dag-cbor-fast/lexicon: string formats, against the atproto interop test files', () => {
  for (const [prefix, format] of Object.entries(FILES)) {
    for (const [kind, expected] of /** @type {Array<[string, boolean]>} */ ([['syntax_valid', true], ['syntax_invalid', false], ['parse_invalid', format === 'language']])) {
      const file = `${prefix}_${kind}.txt`
      if (!fs.existsSync(new URL(file, syntaxDir))) continue
      it(`${format}: ${file} ${expected ? 'passes' : 'fails'}`, () => {
        const lines = cases(file)
        assert.ok(lines.length > 0)
        const wrong = lines.filter((line) => FORMATS[format](line) !== expected)
        assert.deepEqual(wrong, [])
        if (format === 'datetime') {
          // validate checks a datetime on the record's UTF-8, with no string made
          const utf8 = new TextEncoder()
          assert.deepEqual(lines.filter((line) => { const b = utf8.encode(line); return isDatetimeBytes(b, 0, b.length) !== expected }), [])
        }
      })
    }
  }

  it('every format has a file, except cid and uri, checked here', () => {
    assert.deepEqual(Object.keys(FORMATS).filter((f) => !Object.values(FILES).includes(/** @type {any} */ (f))).sort(), ['cid', 'uri'])
    for (const good of ['bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm', 'bafkreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm', 'QmQg1v4o9xdT3Q14wh4S7dxZkDjyZ9ssFzFzyep1YrVJBY']) assert.ok(FORMATS.cid(good), good)
    const notCanonical = [
      'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpM', // base32 is written lower-case
      'bafkreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpn', // bits left over past the last byte
      'zdj7Wd8AMwqnhJGQCbFxBVodGSBG84TM7Hs1rcJuQMwTyfEDS' // a CIDv1 in base58btc
    ]
    for (const bad of ['', 'b', 'bafyfoo', 'Qm', ' bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm', 'QmQg1v4o9xdT3Q14wh4S7dxZkDjyZ9ssFzFzyep1YrVJB0', ...notCanonical]) assert.ok(!FORMATS.cid(bad), bad)
    for (const bad of ['bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpé', 'QmQg1v4o9xdT3Q14wh4S7dxZkDjyZ9ssFzFzyep1YrVJBé']) assert.ok(!FORMATS.cid(bad), bad)
    for (const good of ['https://example.com', 'at://did:plc:x/app.bsky.feed.post/1', 'did:plc:x', 'dns:example.com', 'ipld://bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm']) assert.ok(FORMATS.uri(good), good)
    for (const bad of ['', 'example.com', 'https://a b', '1http://x', 'https:', 'https://' + 'a'.repeat(8200)]) assert.ok(!FORMATS.uri(bad), bad)
  })

  it('cid agrees with multiformats on which strings are a CID in its canonical spelling (seeded changes of real CIDs), as strings and as UTF-8', () => {
    /** multiformats' answer: the string parses, and the CID it names is written back the same */
    const canonical = (/** @type {string} */ s) => {
      try {
        const cid = CID.parse(s)
        return (cid.version === 0 ? cid.toV0().toString() : CID.decode(cid.bytes).toString()) === s
      } catch {
        return false
      }
    }
    const seeds = fs.readdirSync(new URL('./fixtures/codec-fixtures/', import.meta.url)).filter((d) => d.startsWith('cid-')).map((d) => d.slice(4))
    assert.ok(seeds.length > 10)
    const random = mulberry32(65)
    const cases = [...seeds]
    for (let i = 0; i < 3000; i++) {
      const s = seeds[Math.floor(random() * seeds.length)]
      const at = Math.floor(random() * s.length)
      const c = 'abcdefghijklmnopqrstuvwxyz234567QmZ19é'[Math.floor(random() * 38)]
      cases.push(random() < 0.5 ? s.slice(0, at) + c + s.slice(at + 1) : s.slice(0, at) + s.slice(at + 1))
    }
    const utf8 = new TextEncoder()
    let accepted = 0
    for (const s of cases) {
      const expected = canonical(s)
      assert.equal(FORMATS.cid(s), expected, s)
      const b = utf8.encode(s)
      assert.equal(isCidBytes(b, 0, b.length), expected, s)
      if (expected) accepted++
    }
    assert.ok(accepted > 20, `${accepted} accepted`)
  })
})
