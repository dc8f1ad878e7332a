// dag-cbor-fast/lexicon, rule by rule: rows of { field (a Lexicon field definition), value,
// expected } where a record `{ $type: 'com.example.rec', v: value }` is encoded by generic encode
// and read back by the record codec's decode and validate (the same verdict: the value, or the
// rule and the path in the record), and checked by its encode (the same verdict). Then what only
// bytes can say (DAG-CBOR rules, key order, floats, trailing bytes), $type rules of records,
// unions and unknown fields, the message format, and that no code is generated at run time.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { CID } from 'multiformats/cid'
import { compile, LEXICON_RULES } from '../lib/lexicon/index.js'
import { encode, decode, DagCborDecodeError, DagCborEncodeError } from '../index.js'

const hex = (/** @type {string} */ h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16))
const link = CID.parse('bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm')
const rawLink = CID.parse('bafkreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm')
/** A blob; a field given as undefined is left out. */
const blob = (/** @type {Record<string, unknown>} */ over = {}) => Object.fromEntries(Object.entries({ $type: 'blob', ref: rawLink, mimeType: 'image/png', size: 1000, ...over }).filter(([, v]) => v !== undefined))
const show = (/** @type {unknown} */ v) => JSON.stringify(v, (_, x) => typeof x === 'bigint' ? `${x}n` : x)

/**
 * A record type com.example.rec with one property `v` of type `field`, and `defs` beside it.
 *
 * @param {any} field
 * @param {Record<string, any>} [defs]
 * @param {any[]} [more] - other documents
 */
function codecFor (field, defs = {}, more = []) {
  const doc = {
    lexicon: 1,
    id: 'com.example.rec',
    defs: { main: { type: 'record', key: 'tid', record: { type: 'object', properties: { v: field } } }, ...defs }
  }
  return compile([doc, ...more]).record('com.example.rec')
}

/**
 * The verdict of decode, validate and encode on the record holding `value`: all three must agree.
 *
 * @param {any} codec
 * @param {Record<string, unknown>} record
 * @returns {{ ok: true, value: unknown } | { ok: false, rule: string, path: string, message: string }}
 */
function verdict (codec, record) {
  const bytes = encode(record)
  /** @type {any[]} */
  const verdicts = []
  for (const run of [() => codec.decode(bytes), () => { codec.validate(bytes); return 'validated' }, () => codec.encode(record)]) {
    try {
      verdicts.push({ ok: true, value: run() })
    } catch (e) {
      if (!(e instanceof DagCborDecodeError || e instanceof DagCborEncodeError)) throw e
      verdicts.push({ ok: false, rule: e.rule, path: e.path, message: e.message })
    }
  }
  const [d, v, e] = verdicts
  assert.equal(v.ok, d.ok, `validate agrees with decode (${show(d)} / ${show(v)})`)
  assert.equal(e.ok, d.ok, `encode agrees with decode (${show(d)} / ${show(e)})`)
  if (!d.ok) {
    assert.deepEqual([v.rule, v.path], [d.rule, d.path], 'validate names the same rule and path')
    assert.deepEqual([e.rule, e.path], [d.rule, d.path], 'encode names the same rule and path')
    return d
  }
  assert.deepStrictEqual(d.value, decode(bytes), 'decode builds what generic decode builds')
  assert.deepStrictEqual(e.value, bytes, 'encode writes what generic encode writes')
  return d
}

const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}' // one grapheme cluster, 18 UTF-8 bytes

/** @type {Array<[string, any, unknown, string|null, string?]>} [name, field, value, rule (null: valid), path] */
const ROWS = [
  ['null: null', { type: 'null' }, null, null],
  ['null: 0', { type: 'null' }, 0, 'lexicon-kind'],
  ['boolean: false', { type: 'boolean' }, false, null],
  ['boolean: a string', { type: 'boolean' }, 'true', 'lexicon-kind'],
  ['boolean const: equal', { type: 'boolean', const: true }, true, null],
  ['boolean const: other', { type: 'boolean', const: true }, false, 'lexicon-const'],
  ['boolean default: any value', { type: 'boolean', default: true }, false, null],
  ['integer: 0', { type: 'integer' }, 0, null],
  ['integer: negative', { type: 'integer' }, -5, null],
  ['integer: beyond 2^53 (a bigint, as generic decode gives)', { type: 'integer' }, 2n ** 60n, null],
  ['integer: 2^63-1, the largest signed 64-bit integer', { type: 'integer' }, 2n ** 63n - 1n, null],
  ['integer: -2^63, the least', { type: 'integer' }, -(2n ** 63n), null],
  ['integer: 2^63, beyond signed 64 bits', { type: 'integer' }, 2n ** 63n, 'lexicon-kind'],
  ['integer: -2^63-1, beyond signed 64 bits', { type: 'integer' }, -(2n ** 63n) - 1n, 'lexicon-kind'],
  ['object: 2^64-1 in a property it does not name', { type: 'object', properties: {} }, { big: 2n ** 64n - 1n }, 'lexicon-kind', '/v/big'],
  ['integer: a float', { type: 'integer' }, 1.5, 'lexicon-kind'],
  ['integer: a string', { type: 'integer' }, '1', 'lexicon-kind'],
  ['integer minimum: equal', { type: 'integer', minimum: 0 }, 0, null],
  ['integer minimum: below (byteStart -1)', { type: 'integer', minimum: 0 }, -1, 'lexicon-minimum'],
  ['integer maximum: equal', { type: 'integer', maximum: 10 }, 10, null],
  ['integer maximum: above', { type: 'integer', maximum: 10 }, 11, 'lexicon-maximum'],
  ['integer maximum: a bigint above', { type: 'integer', maximum: 10 }, 2n ** 60n, 'lexicon-maximum'],
  ['integer enum: member', { type: 'integer', enum: [1, 2] }, 2, null],
  ['integer enum: not a member', { type: 'integer', enum: [1, 2] }, 3, 'lexicon-enum'],
  ['integer const: equal', { type: 'integer', const: 7 }, 7, null],
  ['integer const: other', { type: 'integer', const: 7 }, 8, 'lexicon-const'],
  ['integer default: any value', { type: 'integer', default: 3 }, 4, null],
  ['string: empty', { type: 'string' }, '', null],
  ['string: bytes', { type: 'string' }, new Uint8Array(1), 'lexicon-kind'],
  ['string maxLength: UTF-8 bytes equal', { type: 'string', maxLength: 4 }, 'éé', null],
  ['string maxLength: UTF-8 bytes above (2 characters, 4 bytes)', { type: 'string', maxLength: 3 }, 'éé', 'lexicon-max-length'],
  ['string minLength: UTF-8 bytes equal', { type: 'string', minLength: 2 }, 'é', null],
  ['string minLength: below', { type: 'string', minLength: 3 }, 'é', 'lexicon-min-length'],
  ['string maxGraphemes: one cluster of 18 bytes', { type: 'string', maxGraphemes: 1 }, FAMILY, null],
  ['string maxGraphemes: above', { type: 'string', maxGraphemes: 1 }, FAMILY + 'a', 'lexicon-max-graphemes'],
  ['string minGraphemes: equal', { type: 'string', minGraphemes: 2 }, FAMILY + 'a', null],
  ['string minGraphemes: below, though 8 UTF-16 units long', { type: 'string', minGraphemes: 2 }, FAMILY, 'lexicon-min-graphemes'],
  ['string minGraphemes: empty', { type: 'string', minGraphemes: 1 }, '', 'lexicon-min-graphemes'],
  ['string enum: member', { type: 'string', enum: ['a', 'b'] }, 'b', null],
  ['string enum: not a member', { type: 'string', enum: ['a', 'b'] }, 'c', 'lexicon-enum'],
  ['string const: equal', { type: 'string', const: 'x' }, 'x', null],
  ['string const: other', { type: 'string', const: 'x' }, 'y', 'lexicon-const'],
  ['string knownValues never restrict', { type: 'string', knownValues: ['a', 'b'] }, 'c', null],
  ['string default: any value', { type: 'string', default: 'a' }, 'b', null],
  ['bytes: empty', { type: 'bytes' }, new Uint8Array(0), null],
  ['bytes: a string', { type: 'bytes' }, 'AAA=', 'lexicon-kind'],
  ['bytes maxLength: equal', { type: 'bytes', maxLength: 2 }, new Uint8Array(2), null],
  ['bytes maxLength: above', { type: 'bytes', maxLength: 2 }, new Uint8Array(3), 'lexicon-max-length'],
  ['bytes minLength: below', { type: 'bytes', minLength: 2 }, new Uint8Array(1), 'lexicon-min-length'],
  ['cid-link: a link', { type: 'cid-link' }, link, null],
  ['cid-link: a CID string', { type: 'cid-link' }, link.toString(), 'lexicon-kind'],
  ['blob: the blob shape', { type: 'blob' }, blob(), null],
  ['blob: a DAG-CBOR ref (the spec says raw; accepted, docs/lexicon.md)', { type: 'blob' }, blob({ ref: link }), null],
  ['blob: legacy { cid, mimeType }', { type: 'blob', accept: ['image/*'], maxSize: 10 }, { cid: rawLink.toString(), mimeType: 'image/jpeg' }, null],
  ['blob: legacy with a cid that is no CID', { type: 'blob' }, { cid: 'nope', mimeType: 'image/jpeg' }, 'lexicon-blob'],
  ['blob: legacy without mimeType', { type: 'blob' }, { cid: rawLink.toString() }, 'lexicon-blob'],
  ['blob: ref and size without $type', { type: 'blob' }, { ref: rawLink, mimeType: 'image/png', size: 3 }, 'lexicon-blob'],
  ['blob: $type other than blob', { type: 'blob' }, blob({ $type: 'image' }), 'lexicon-blob'],
  ['blob: ref as a string', { type: 'blob' }, blob({ ref: rawLink.toString() }), 'lexicon-blob'],
  ['blob: size 0', { type: 'blob' }, blob({ size: 0 }), 'lexicon-blob'],
  ['blob: no size', { type: 'blob' }, blob({ size: undefined }), 'lexicon-blob'],
  ['blob: empty mimeType', { type: 'blob' }, blob({ mimeType: '' }), 'lexicon-blob'],
  ['blob: mimeType an integer', { type: 'blob' }, blob({ mimeType: 7 }), 'lexicon-blob'],
  ['blob: size a string', { type: 'blob' }, blob({ size: '1000' }), 'lexicon-blob'],
  ['blob: size negative', { type: 'blob' }, blob({ size: -1 }), 'lexicon-blob'],
  ['blob: size beyond 2^53', { type: 'blob' }, blob({ size: 2n ** 60n }), 'lexicon-blob'],
  ['blob: $type and the legacy cid together', { type: 'blob' }, blob({ cid: rawLink.toString() }), 'lexicon-blob'],
  ['blob: a key of its own beside the blob fields', { type: 'blob' }, blob({ note: 'kept' }), null],
  ['blob: not a map', { type: 'blob' }, 'blob', 'lexicon-kind'],
  ['blob accept: exact', { type: 'blob', accept: ['image/png'] }, blob(), null],
  ['blob accept: wildcard subtype', { type: 'blob', accept: ['video/*', 'image/*'] }, blob(), null],
  ['blob accept: any', { type: 'blob', accept: ['*/*'] }, blob(), null],
  ['blob accept: none matches', { type: 'blob', accept: ['image/*'] }, blob({ mimeType: 'video/mp4' }), 'lexicon-blob-accept'],
  ['blob accept: a prefix is not a type', { type: 'blob', accept: ['image/*'] }, blob({ mimeType: 'imagex/png' }), 'lexicon-blob-accept'],
  ['blob maxSize: equal', { type: 'blob', maxSize: 1000 }, blob(), null],
  ['blob maxSize: above', { type: 'blob', maxSize: 999 }, blob(), 'lexicon-blob-size'],
  ['array: items checked, path to the item', { type: 'array', items: { type: 'integer', maximum: 5 } }, [1, 9], 'lexicon-maximum', '/v/1'],
  ['array maxLength: equal', { type: 'array', items: { type: 'integer' }, maxLength: 2 }, [1, 2], null],
  ['array maxLength: above', { type: 'array', items: { type: 'integer' }, maxLength: 2 }, [1, 2, 3], 'lexicon-max-length'],
  ['array minLength: below', { type: 'array', items: { type: 'integer' }, minLength: 1 }, [], 'lexicon-min-length'],
  ['array: a map', { type: 'array', items: { type: 'integer' } }, { 0: 1 }, 'lexicon-kind'],
  ['object (inline): required present', { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } }, { a: 1 }, null],
  ['object: required absent', { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } }, { b: 1 }, 'lexicon-required', '/v/a'],
  ['object: not nullable, null', { type: 'object', properties: { a: { type: 'integer' } } }, { a: null }, 'lexicon-nullable', '/v/a'],
  ['object: nullable, null', { type: 'object', nullable: ['a'], properties: { a: { type: 'integer' } } }, { a: null }, null],
  ['object: required and nullable, null', { type: 'object', required: ['a'], nullable: ['a'], properties: { a: { type: 'integer' } } }, { a: null }, null],
  ['object: properties it does not name are kept', { type: 'object', properties: {} }, { extra: [1, 'two', { three: link }] }, null],
  ['object: a float in a property it does not name', { type: 'object', properties: {} }, { extra: [1, 2.5] }, 'lexicon-float', '/v/extra/1'],
  ['object: a malformed blob in a property it does not name', { type: 'object', properties: {} }, { extra: { $type: 'blob', ref: rawLink, mimeType: 'image/png' } }, 'lexicon-blob', '/v/extra'],
  ['object: a property named __proto__ is an own property', { type: 'object', properties: { ['__proto__']: { type: 'integer' } } }, JSON.parse('{"__proto__": 3}'), null],
  ['object: a $type on an inline object', { type: 'object', properties: {} }, { $type: 'com.example.rec#x' }, 'lexicon-type', '/v/$type'],
  ['unknown: an object', { type: 'unknown' }, { anything: [1, { $type: 'com.example.other', x: 'y' }] }, null],
  ['unknown: an object with a valid blob inside', { type: 'unknown' }, { image: blob() }, null],
  ['unknown: a string', { type: 'unknown' }, 'text', 'lexicon-unknown'],
  ['unknown: an array', { type: 'unknown' }, [{}], 'lexicon-unknown'],
  ['unknown: a blob', { type: 'unknown' }, blob(), 'lexicon-unknown'],
  ['unknown: a link', { type: 'unknown' }, link, 'lexicon-unknown'],
  ['unknown: null', { type: 'unknown' }, null, 'lexicon-nullable'],
  ['unknown: a float inside', { type: 'unknown' }, { a: { b: 0.5 } }, 'lexicon-float', '/v/a/b']
]

describe('dag-cbor-fast/lexicon: field types and constraints (decode, validate and encode agree)', () => {
  for (const [name, field, value, rule, path = '/v'] of ROWS) {
    it(`${name}: ${rule ?? 'valid'}`, () => {
      const record = { $type: 'com.example.rec', v: value }
      const result = verdict(codecFor(field), record)
      if (rule === null) {
        assert.ok(result.ok, `accepted (${show(result)})`)
      } else {
        assert.ok(!result.ok, 'refused')
        assert.deepEqual([result.rule, result.path], [rule, path])
        assert.ok(rule in LEXICON_RULES || rule.startsWith('map') || rule === 'truncated', `${rule} is a rule`)
        assert.match(result.message, new RegExp(`, ${path.replace(/\$/g, '\\$')}: .+ \\[rule: ${rule}\\]$`))
      }
    })
  }
})

describe('dag-cbor-fast/lexicon: string formats in records', () => {
  /** @type {Array<[string, string, string]>} format, valid, invalid */
  const FORMAT_ROWS = [
    ['at-identifier', 'alice.bsky.social', 'did:bad'],
    ['at-identifier', 'did:plc:z72i7hdynmk6r22z27h6tvur', 'alice'],
    ['at-uri', 'at://did:plc:z72i7hdynmk6r22z27h6tvur/app.bsky.feed.post/3k2a', 'https://bsky.app'],
    ['cid', link.toString(), 'bafyfoo'],
    ['datetime', '2023-03-30T14:34:05-07:00', '2023-03-30T14:34:05'],
    ['datetime', '1985-04-12T23:20:50.123Z', '1985-04-12T23:20:50.123-00:00'],
    ['did', 'did:web:example.com', 'did:WEB:example.com'],
    ['handle', 'xn--bcher-kva.tld', 'john..test'],
    ['nsid', 'app.bsky.feed.post', 'app.bsky.feed.post#main'],
    ['tid', '3jzfcijpj2z2a', '3jzfcijpj2z2'],
    ['record-key', 'self', '..'],
    ['uri', 'https://example.com/a?b#c', 'not a uri'],
    ['language', 'pt-BR', 'ja-']
  ]
  for (const [format, good, bad] of FORMAT_ROWS) {
    it(`${format}: ${JSON.stringify(good)} passes, ${JSON.stringify(bad)} does not`, () => {
      const codec = codecFor({ type: 'string', format })
      assert.ok(verdict(codec, { $type: 'com.example.rec', v: good }).ok)
      const refused = verdict(codec, { $type: 'com.example.rec', v: bad })
      assert.deepEqual(refused.ok ? null : [refused.rule, refused.path], ['lexicon-format', '/v'])
    })
  }
})

describe('dag-cbor-fast/lexicon: $type, refs and unions', () => {
  const defs = {
    point: { type: 'object', required: ['x'], properties: { x: { type: 'integer' } } },
    label: { type: 'object', properties: { text: { type: 'string', maxLength: 5 } } },
    limited: { type: 'string', maxLength: 2 }
  }
  const other = {
    lexicon: 1,
    id: 'com.example.other',
    defs: { main: { type: 'object', properties: { y: { type: 'integer' } } }, sub: { type: 'object', properties: {} } }
  }
  const union = (/** @type {boolean} */ closed) => codecFor({ type: 'union', closed, refs: ['#point', 'com.example.other', 'com.example.other#sub'] }, defs, [other])

  it('a record without $type, or with another, is refused', () => {
    const codec = codecFor({ type: 'integer' })
    assert.deepEqual(verdict(codec, { v: 1 }), { ok: false, rule: 'lexicon-type', path: '', message: verdict(codec, { v: 1 }).message })
    const wrong = verdict(codec, { $type: 'com.example.other', v: 1 })
    assert.deepEqual(wrong.ok ? null : [wrong.rule, wrong.path], ['lexicon-type', '/$type'])
    const main = verdict(codec, { $type: 'com.example.rec#main', v: 1 })
    assert.deepEqual(main.ok ? null : [main.rule, main.path], ['lexicon-type', '/$type'])
  })

  it('a ref to an object: no $type needed; its own name accepted; another refused', () => {
    const codec = codecFor({ type: 'ref', ref: '#point' }, defs)
    assert.ok(verdict(codec, { $type: 'com.example.rec', v: { x: 1 } }).ok)
    assert.ok(verdict(codec, { $type: 'com.example.rec', v: { $type: 'com.example.rec#point', x: 1 } }).ok)
    const r = verdict(codec, { $type: 'com.example.rec', v: { $type: 'com.example.rec#label', x: 1 } })
    assert.deepEqual(r.ok ? null : [r.rule, r.path], ['lexicon-type', '/v/$type'])
    const missing = verdict(codec, { $type: 'com.example.rec', v: {} })
    assert.deepEqual(missing.ok ? null : [missing.rule, missing.path], ['lexicon-required', '/v/x'])
  })

  it('a ref to a string definition checks its constraints', () => {
    const codec = codecFor({ type: 'ref', ref: '#limited' }, defs)
    assert.ok(verdict(codec, { $type: 'com.example.rec', v: 'ab' }).ok)
    const r = verdict(codec, { $type: 'com.example.rec', v: 'abc' })
    assert.deepEqual(r.ok ? null : [r.rule, r.path], ['lexicon-max-length', '/v'])
  })

  it('union members: local (#point), main (nsid) and nsid#name, each checked as its definition', () => {
    for (const closed of [false, true]) {
      const codec = union(closed)
      assert.ok(verdict(codec, { $type: 'com.example.rec', v: { $type: 'com.example.rec#point', x: 1 } }).ok)
      assert.ok(verdict(codec, { $type: 'com.example.rec', v: { $type: 'com.example.other', y: 2 } }).ok)
      assert.ok(verdict(codec, { $type: 'com.example.rec', v: { $type: 'com.example.other#sub' } }).ok)
      const r = verdict(codec, { $type: 'com.example.rec', v: { $type: 'com.example.rec#point', x: 'one' } })
      assert.deepEqual(r.ok ? null : [r.rule, r.path], ['lexicon-kind', '/v/x'])
    }
  })

  it('a union value without $type is refused; with #main, refused', () => {
    for (const closed of [false, true]) {
      const r = verdict(union(closed), { $type: 'com.example.rec', v: { x: 1 } })
      assert.deepEqual(r.ok ? null : [r.rule, r.path], ['lexicon-type', '/v'])
      const main = verdict(union(closed), { $type: 'com.example.rec', v: { $type: 'com.example.other#main', y: 1 } })
      assert.deepEqual(main.ok ? null : [main.rule, main.path], ['lexicon-type', '/v'])
    }
  })

  it('a $type the union does not list: open accepts it (as data), closed refuses it', () => {
    const value = { $type: 'com.example.future', z: [1, link] }
    assert.ok(verdict(union(false), { $type: 'com.example.rec', v: value }).ok)
    const r = verdict(union(true), { $type: 'com.example.rec', v: value })
    assert.deepEqual(r.ok ? null : [r.rule, r.path], ['lexicon-union', '/v'])
    const float = verdict(union(false), { $type: 'com.example.rec', v: { $type: 'com.example.future', z: 0.5 } })
    assert.deepEqual(float.ok ? null : [float.rule, float.path], ['lexicon-float', '/v/z'])
  })

  it('a union value that is not a map is refused', () => {
    const r = verdict(union(false), { $type: 'com.example.rec', v: [1] })
    assert.deepEqual(r.ok ? null : [r.rule, r.path], ['lexicon-kind', '/v'])
  })

  it('recursive definitions (a reply holding a reply) are read to any depth the limit allows', () => {
    const codec = codecFor({ type: 'ref', ref: '#node' }, { node: { type: 'object', properties: { next: { type: 'ref', ref: '#node' }, n: { type: 'integer', maximum: 3 } } } })
    /** @type {any} */
    let value = { n: 1 }
    for (let i = 0; i < 50; i++) value = { n: 1, next: value }
    assert.ok(verdict(codec, { $type: 'com.example.rec', v: value }).ok)
    /** @type {any} */
    let deep = { n: 9 }
    for (let i = 0; i < 3; i++) deep = { next: deep }
    const r = verdict(codec, { $type: 'com.example.rec', v: deep })
    assert.deepEqual(r.ok ? null : [r.rule, r.path], ['lexicon-maximum', '/v/next/next/next/n'])
    const bytes = encode({ $type: 'com.example.rec', v: value })
    assert.throws(() => codec.decode(bytes, { maxDepth: 20 }), { rule: 'depth' })
  })

  it('a default is not written into the value (the record is what its bytes say)', () => {
    const codec = codecFor({ type: 'integer', default: 3 })
    assert.deepEqual(codec.decode(encode({ $type: 'com.example.rec' })), { $type: 'com.example.rec' })
  })
})

describe('dag-cbor-fast/lexicon: what only the bytes show', () => {
  const codec = codecFor({ type: 'integer' })
  // {"v": 1, "$type": "com.example.rec"}, canonical: "v" (1 byte) before "$type" (5)
  const good = '' + 'a2' + '6176' + '01' + '652474797065' + '6f636f6d2e6578616d706c652e726563'
  it('canonical bytes pass', () => {
    assert.deepEqual(codec.decode(hex(good)), { v: 1, $type: 'com.example.rec' })
  })
  /** @type {Array<[string, string, string, number]>} */
  const BAD = [
    ['keys out of order', 'a2' + '652474797065' + '6f636f6d2e6578616d706c652e726563' + '6176' + '01', 'map-key-order', 23],
    ['a known key twice', 'a3' + '6176' + '01' + '6176' + '02' + '652474797065' + '6f636f6d2e6578616d706c652e726563', 'duplicate-key', 4],
    ['an unknown key twice', 'a4' + '6176' + '01' + '6178' + '01' + '6178' + '02' + '652474797065' + '6f636f6d2e6578616d706c652e726563', 'duplicate-key', 7],
    ['an unknown key before a known one of its length, out of order', 'a3' + '6178' + '01' + '6176' + '01' + '652474797065' + '6f636f6d2e6578616d706c652e726563', 'map-key-order', 4],
    ['a non-shortest integer', 'a2' + '6176' + '1801' + '652474797065' + '6f636f6d2e6578616d706c652e726563', 'non-shortest', 3],
    ['a float where the integer goes', 'a2' + '6176' + 'fb3ff0000000000000' + '652474797065' + '6f636f6d2e6578616d706c652e726563', 'lexicon-kind', 3],
    ['trailing bytes', good + '00', 'trailing-bytes', 26],
    ['truncated', good.slice(0, -2), 'truncated', 10],
    ['an indefinite-length map', 'bf' + '6176' + '01' + '652474797065' + '6f636f6d2e6578616d706c652e726563' + 'ff', 'indefinite-length', 0],
    ['a map key that is not text', 'a2' + '01' + '01' + '652474797065' + '6f636f6d2e6578616d706c652e726563', 'map-key-type', 1],
    ['invalid UTF-8 in $type', 'a2' + '6176' + '01' + '652474797065' + '6f636f6d2e6578616d706c652e7265ff', 'invalid-utf8', 25],
    ['a half float in a property the Lexicon does not name', 'a3' + '6176' + '01' + '6178' + 'f93c00' + '652474797065' + '6f636f6d2e6578616d706c652e726563', 'float-size', 6]
  ]
  for (const [name, bytes, rule, offset] of BAD) {
    it(`${name}: ${rule} at byte ${offset}, from decode and validate`, () => {
      for (const run of [() => codec.decode(hex(bytes)), () => codec.validate(hex(bytes))]) {
        assert.throws(run, (/** @type {any} */ e) => {
          assert.ok(e instanceof DagCborDecodeError)
          assert.deepEqual([e.rule, e.offset], [rule, offset])
          return true
        })
      }
    })
  }
  it('text past the short-text length: invalid UTF-8 refused at its byte, a U+FFFD of its own kept', () => {
    const stringCodec = codecFor({ type: 'string' })
    const text = 'a'.repeat(20) + '日本語' + 'b'.repeat(20) + '\ufffd' + 'c'.repeat(10)
    const bytes = encode({ $type: 'com.example.rec', v: text })
    assert.deepEqual(stringCodec.decode(bytes), { v: text, $type: 'com.example.rec' })
    const at = Buffer.from(bytes).indexOf('bbbb') + 5 // a 'b' made a lone continuation byte
    const broken = bytes.slice()
    broken[at] = 0x80
    for (const run of [() => stringCodec.decode(broken), () => stringCodec.validate(broken)]) {
      assert.throws(run, (/** @type {any} */ e) => {
        assert.deepEqual([e.rule, e.offset, e.path], ['invalid-utf8', at, '/v'])
        return true
      })
    }
  })
  it('a blob in its usual form (ref, size, $type, mimeType; read by usualBlob) and in another: the same errors, naming the key', () => {
    const blobCodec = codecFor({ type: 'blob' })
    const hexOf = (/** @type {unknown} */ v) => Buffer.from(encode({ $type: 'com.example.rec', v })).toString('hex')
    const usual = hexOf(blob())
    const other = hexOf(blob({ note: 'x' })) // a key of its own: five keys, read key by key
    /** @type {Array<[string, string, string, string, string]>} */
    const CHANGES = [
      ['a non-shortest size', '6473697a65' + '1903e8', '6473697a65' + '1a000003e8', 'non-shortest', '/v/size'],
      ['a ref that is no CID (version 2)', '58250001551220', '58250002551220', 'cid', '/v/ref'],
      ['invalid UTF-8 in mimeType', '696d6167652f706e67', '696d6167652f706eff', 'invalid-utf8', '/v/mimeType'],
      ['a mimeType longer than the bytes left', '69696d6167652f706e67', '78ff696d6167652f706e67', 'truncated', '/v/mimeType']
    ]
    for (const [name, from, to, rule, path] of CHANGES) {
      for (const [form, bytes] of [['usual', usual], ['other', other]]) {
        assert.ok(bytes.includes(from), `${name} (${form}): the bytes to change are there`)
        const changed = hex(bytes.replace(from, to))
        for (const run of [() => blobCodec.decode(changed), () => blobCodec.validate(changed)]) {
          assert.throws(run, (/** @type {any} */ e) => {
            assert.deepEqual([e.rule, e.path], [rule, path], `${name} (${form})`)
            return true
          })
        }
      }
    }
    // and what it builds is generic decode's value
    assert.deepEqual(blobCodec.decode(hex(usual)), decode(hex(usual)))
  })
  it('a float64 in a property the Lexicon does not name is refused (the data model has no floats)', () => {
    const bytes = hex('a3' + '6176' + '01' + '6178' + 'fb3ff8000000000000' + '652474797065' + '6f636f6d2e6578616d706c652e726563')
    assert.throws(() => codec.decode(bytes), { rule: 'lexicon-float', path: '/x', offset: 6 })
    assert.throws(() => codec.validate(bytes), { rule: 'lexicon-float', path: '/x', offset: 6 })
  })
})

describe('dag-cbor-fast/lexicon: messages, options, no code at run time', () => {
  const doc = {
    lexicon: 1,
    id: 'com.example.post',
    defs: {
      main: { type: 'record', key: 'tid', record: { type: 'object', properties: { embed: { type: 'union', refs: ['#images'] } } } },
      images: { type: 'object', properties: { images: { type: 'array', items: { type: 'ref', ref: '#image' } } } },
      image: { type: 'object', properties: { alt: { type: 'string', maxLength: 2000 } } }
    }
  }
  const codec = compile([doc]).record('com.example.post')
  const record = { $type: 'com.example.post', embed: { $type: 'com.example.post#images', images: [{ alt: 'a'.repeat(2001) }] } }

  it('an error names the record type, the path and the rule', () => {
    assert.throws(() => codec.decode(encode(record)), (/** @type {any} */ e) => {
      assert.match(e.message, /^Lexicon decode of com\.example\.post at byte \d+, \/embed\/images\/0\/alt: longer than 2,000 bytes \(2,001\) \[rule: lexicon-max-length\]$/)
      return true
    })
    assert.throws(() => codec.encode(record), /^DagCborEncodeError: Lexicon encode of com\.example\.post, \/embed\/images\/0\/alt: longer than 2,000 bytes \(2,001\) \[rule: lexicon-max-length\]$/)
  })

  it('encode refuses what generic encode refuses, in the same words with the record type', () => {
    assert.throws(() => codec.encode({ $type: 'com.example.post', embed: { $type: 'com.example.post#images', x: undefined, images: [() => 1] } }), { name: 'DagCborEncodeError' })
  })

  it('encode takes records as generic decode gives them: a Map is refused, naming what to pass', () => {
    assert.throws(() => codec.encode(/** @type {any} */ (new Map([['$type', 'com.example.post']]))), { rule: 'lexicon-kind', message: /found a Map \(records are written as plain objects\)/ })
  })

  it('a record type the documents do not define is a TypeError naming those they do', () => {
    assert.throws(() => compile([doc]).record('com.example.nope'), /"com\.example\.nope" is not a record type of the documents given \(their record types: com\.example\.post\)/)
  })

  it('options are checked', () => {
    assert.throws(() => codec.decode(encode(record), /** @type {any} */ ({ maxdepth: 3 })), /unknown option "maxdepth"/)
    assert.throws(() => codec.validate(encode(record), { maxDepth: 0 }), RangeError)
  })

  it('no code is generated at run time (no eval, no Function constructor)', () => {
    for (const file of fs.readdirSync(new URL('../lib/lexicon/', import.meta.url))) {
      const source = fs.readFileSync(new URL(`../lib/lexicon/${file}`, import.meta.url), 'utf8')
      assert.doesNotMatch(source, /\beval\s*\(|new\s+Function\b|\bFunction\s*\(/, file)
    }
  })
})
