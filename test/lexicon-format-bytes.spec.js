// The quick format checks on a record's bytes (lib/lexicon/format-bytes.js) settle only what the
// full checkers (FORMATS) accept: on the atproto interop test files, on the common spellings, and
// on many strings made by changing one character of those, no quick check passes a string its
// format's checker refuses. And they do settle the common spellings (else the reader gains
// nothing from them).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { FORMATS } from '../lib/lexicon/index.js'
import { isAtUriBytes, isCidV1Bytes, isDidBytes, isLanguageBytes, isUriBytes } from '../lib/lexicon/format-bytes.js'
import { mulberry32 } from './helpers/prng.js'
import { base32 } from 'multiformats/bases/base32'

const syntaxDir = new URL('./fixtures/lexicons/syntax/', import.meta.url)
const utf8 = new TextEncoder()

/** @param {string} file */
function lines (file) {
  return fs.readFileSync(new URL(file, syntaxDir), 'utf8').split('\n').filter((line) => line !== '' && !line.startsWith('#'))
}

/** @type {Array<[keyof typeof FORMATS, (c: Uint8Array, start: number, n: number) => boolean, string[], string[]]>} format, quick check, interop files, common spellings */
const CHECKS = [
  ['did', isDidBytes, ['did'], ['did:plc:z72i7hdynmk6r22z27h6tvur', 'did:web:example.com', 'did:web:sub.example-site.org']],
  ['at-uri', isAtUriBytes, ['aturi', 'did'], [
    'at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.post/3l6oveex3ii2l',
    'at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.actor.profile/self',
    'at://did:web:example.com/com.example.fooBar/a_b-c~d:e.f',
    'at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.post',
    'at://did:plc:z72i7hdynmk6r22z27h6tvur'
  ]],
  ['language', isLanguageBytes, ['language'], ['en', 'ja', 'pt-BR', 'haw', 'zh-TW']],
  ['cid', isCidV1Bytes, [], [
    'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm', 'bafkreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm',
    'bafyreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'
  ]],
  ['uri', isUriBytes, [], ['https://example.com/a?b=c#d', 'http://x.y', 'mailto:a@b.c', 'at://did:plc:abc/app.bsky.feed.post/x', 'web+app:x']]
]

/** strings at the grammars' limits */
const EDGES = ['x'.repeat(9000), `https://${'x'.repeat(8200)}`, `at://did:plc:${'a'.repeat(2050)}`, `did:plc:${'a'.repeat(2050)}`,
  'at://did:plc:abc/app.bsky.feed.post/.', 'at://did:plc:abc/app.bsky.feed.post/..', `at://did:plc:abc/app.bsky.feed.post/${'a'.repeat(513)}`,
  `at://did:plc:abc/a.b.${'c'.repeat(64)}`, 'at://did:plc:abc/a.b.1c', 'at://did:plc:abc/1a.b.c', 'enga', 'abcdefghi', 'en-B', 'en-BRA', 'https:', 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpmq', 'bafybeie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm',
  'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hp', 'bafkqaaa', 'bafyqaaa', 'bafkqaaaa', 'bafkqaaaaaaaaaa',
  'bagaaierasords4njcts6vs7qvdjfcvgnume4hqohf65zsfguprqphs3icwea', 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG', 'baeaaaaa', 'bagaaaaa', 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpmaa', 'b', 'bafyreie',
  'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpma', 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpn']

// CIDv1-shaped base32 with one header byte wrong: the version, the codec, the digest length
const digest = new Uint8Array(32).fill(7)
for (const header of [[0, 0x71, 0x12, 0x20], [2, 0x71, 0x12, 0x20], [1, 0x81, 0x12, 0x20], [1, 0x71, 0x12, 0x21], [1, 0x71, 0x12, 0x1f], [0x12, 0x20]]) {
  EDGES.push(base32.encode(new Uint8Array([...header, ...digest])))
}

/** characters the one-character changes draw from: the grammars' own, their edges, and others */
const ALPHABET = 'aAzZ09:/.-_~%#?@!+ \t\u00a0é日\u2028'

/**
 * Strings made from `s` by replacing, inserting or deleting one character.
 *
 * @param {string} s
 * @param {() => number} rnd
 * @param {number} n
 * @returns {string[]}
 */
function changed (s, rnd, n) {
  const out = []
  for (let k = 0; k < n; k++) {
    const at = (rnd() * (s.length + 1)) | 0
    const ch = ALPHABET[(rnd() * ALPHABET.length) | 0]
    const how = (rnd() * 3) | 0
    out.push(how === 0 ? s.slice(0, at) + ch + s.slice(at + 1) : how === 1 ? s.slice(0, at) + ch + s.slice(at) : s.slice(0, at) + s.slice(at + 1))
  }
  return out
}

describe('dag-cbor-fast/lexicon: quick format checks on the bytes', () => {
  for (const [format, quick, files, common] of CHECKS) {
    it(`${format}: passes only what the full checker passes, and the common spellings`, () => {
      const full = FORMATS[format]
      const rnd = mulberry32(6404)
      const seeds = [...common, ...files.flatMap((f) => [...lines(`${f}_syntax_valid.txt`), ...lines(`${f}_syntax_invalid.txt`)])]
      const strings = [...seeds, ...seeds.flatMap((s) => changed(s, rnd, 40)), ...EDGES]
      let settled = 0
      for (const s of strings) {
        // the string inside a larger buffer, as a record's bytes hold it
        const bytes = utf8.encode(`"${s}"`)
        if (quick(bytes, 1, bytes.length - 2)) {
          settled++
          assert.ok(full(s), `${format}: the quick check passes ${JSON.stringify(s)}, which ${format} refuses`)
        }
      }
      for (const s of common) {
        const bytes = utf8.encode(s)
        assert.ok(quick(bytes, 0, bytes.length), `${format}: the quick check settles ${JSON.stringify(s)}`)
      }
      assert.ok(settled > common.length)
    })
  }
})
