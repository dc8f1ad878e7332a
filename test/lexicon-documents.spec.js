// dag-cbor-fast/lexicon: Lexicon documents in. The published documents (test/fixtures/lexicons/,
// all of bluesky-social/atproto's lexicons/ folder) load together, as objects or as JSON text; what the spec allows
// and other validators refuse (an inline object property, a property or definition of type
// cid-link, refs of every form) loads; and each broken document is refused with the document's
// id and the JSON-pointer path to what is wrong.
import assert from 'node:assert/strict'
import { compile, LexiconDocumentError } from '../lib/lexicon/index.js'
import { encode } from '../index.js'
import { publishedDocuments } from './helpers/lexicons.js'

/**
 * A document com.example.doc whose defs are `defs`.
 *
 * @param {Record<string, any>} defs
 * @param {Record<string, any>} [top]
 */
const doc = (defs, top = {}) => ({ lexicon: 1, id: 'com.example.doc', defs, ...top })
const record = (/** @type {Record<string, any>} */ properties, /** @type {string[]} */ required = []) => ({ type: 'record', key: 'tid', record: { type: 'object', required, properties } })

describe('dag-cbor-fast/lexicon: documents', () => {
  it('the whole published lexicons/ folder loads together, as objects or as JSON text, every ref resolved, and each record type gives a codec', () => {
    const texts = publishedDocuments()
    assert.equal(texts.length, 402)
    const fromText = compile(texts)
    const fromObjects = compile(texts.map((t) => JSON.parse(t)))
    assert.deepEqual(fromText.records, fromObjects.records)
    // the documents of type record, counted apart from the compiler
    const recordDocuments = texts.map((t) => JSON.parse(t)).filter((d) => d.defs.main?.type === 'record').map((d) => d.id)
    assert.equal(recordDocuments.length, 26)
    assert.deepEqual([...fromText.records].sort(), recordDocuments.sort())
    for (const nsid of fromText.records) assert.equal(fromText.record(nsid).nsid, nsid)
  })

  it('a document missing from the set is named, with the ref and where it is', () => {
    const texts = publishedDocuments().filter((t) => !t.includes('"id": "com.atproto.repo.strongRef"'))
    assert.throws(() => compile(texts), (/** @type {any} */ e) => {
      assert.ok(e instanceof LexiconDocumentError)
      assert.match(e.message, /com\.atproto\.repo\.strongRef is not among them/)
      assert.match(e.path, /^\/defs\//)
      return true
    })
  })

  it('what the spec allows loads: inline objects, cid-link properties and definitions, refs of every form', () => {
    const other = { lexicon: 1, id: 'com.example.other', defs: { main: { type: 'object', properties: { a: { type: 'integer' } } }, link: { type: 'cid-link' } } }
    const lexicons = compile([doc({
      main: record({
        inline: { type: 'object', required: ['deep'], properties: { deep: { type: 'object', properties: { x: { type: 'string' } } } } },
        'cid-link': { type: 'cid-link' },
        local: { type: 'ref', ref: '#local' },
        main: { type: 'ref', ref: 'com.example.other' },
        named: { type: 'ref', ref: 'com.example.other#link' },
        mainSuffix: { type: 'ref', ref: 'com.example.other#main' }
      }),
      local: { type: 'integer', minimum: 1 }
    }), other])
    const codec = lexicons.record('com.example.doc')
    const value = { $type: 'com.example.doc', inline: { deep: { x: 'y' } }, local: 1, main: { a: 1 }, mainSuffix: { a: 2 } }
    assert.deepEqual(codec.decode(encode(value)), value)
    assert.throws(() => codec.decode(encode({ ...value, local: 0 })), { rule: 'lexicon-minimum', path: '/local' })
    assert.throws(() => codec.decode(encode({ ...value, inline: {} })), { rule: 'lexicon-required', path: '/inline/deep' })
    assert.throws(() => codec.decode(encode({ ...value, 'cid-link': 'x' })), { rule: 'lexicon-kind', path: '/cid-link' })
  })

  it('XRPC and permission-set definitions load beside records (and give no codec)', () => {
    const lexicons = compile([doc({ main: { type: 'query', parameters: { type: 'params', properties: { limit: { type: 'integer' } } }, output: { encoding: 'application/json', schema: { type: 'ref', ref: '#view' } } }, view: { type: 'object', properties: {} } })])
    assert.deepEqual(lexicons.records, [])
    assert.throws(() => lexicons.record('com.example.doc'), /is not a record type of the documents given \(they define no record\)/)
  })

  /** @type {Array<[string, any, string, RegExp]>} name, documents, path, message */
  const BROKEN = [
    ['not an object', [['x']], '', /a Lexicon document is a JSON object, not an array/],
    ['not JSON', ['{"lexicon":'], '', /is not JSON/],
    ['lexicon version 2', [doc({ main: record({}) }, { lexicon: 2 })], '/lexicon', /must be 1/],
    ['an id that is no NSID', [doc({ main: record({}) }, { id: 'example' })], '/id', /must be an NSID/],
    ['a field a document does not have', [doc({ main: record({}) }, { defintions: {} })], '/defintions', /is not a field of a Lexicon document/],
    ['no definitions', [doc({})], '/defs', /no definitions is invalid/],
    ['two documents with one id', [doc({ main: record({}) }), doc({ main: record({}) })], '/id', /two documents have the id com\.example\.doc/],
    ['a type Lexicon does not have', [doc({ main: record({ a: { type: 'float' } }) })], '/defs/main/record/properties/a/type', /"float" is not a Lexicon type/],
    ['a misspelt constraint', [doc({ main: record({ a: { type: 'string', maxLenght: 3 } }) })], '/defs/main/record/properties/a/maxLenght', /is not a field of a string definition/],
    ['a negative maxLength', [doc({ main: record({ a: { type: 'string', maxLength: -1 } }) })], '/defs/main/record/properties/a/maxLength', /non-negative integer/],
    ['minLength above maxLength', [doc({ main: record({ a: { type: 'array', items: { type: 'integer' }, minLength: 3, maxLength: 2 } }) })], '/defs/main/record/properties/a/minLength', /above maxLength/],
    ['const and default together', [doc({ main: record({ a: { type: 'integer', const: 1, default: 1 } }) })], '/defs/main/record/properties/a/default', /mutually exclusive/],
    ['an integer enum holding a string', [doc({ main: record({ a: { type: 'integer', enum: [1, '2'] } }) })], '/defs/main/record/properties/a/enum/1', /must be an integer/],
    ['a format Lexicon does not have', [doc({ main: record({ a: { type: 'string', format: 'email' } }) })], '/defs/main/record/properties/a/format', /"email" is not a string format/],
    ['a partial glob in accept', [doc({ main: record({ a: { type: 'blob', accept: ['text/ht*'] } }) })], '/defs/main/record/properties/a/accept/0', /partial globs/],
    ['a lone * in accept', [doc({ main: record({ a: { type: 'blob', accept: ['*'] } }) })], '/defs/main/record/properties/a/accept/0', /partial globs/],
    ['an array without items', [doc({ main: record({ a: { type: 'array' } }) })], '/defs/main/record/properties/a/items', /needs "items"/],
    ['required naming no property', [doc({ main: record({ a: { type: 'integer' } }, ['b']) })], '/defs/main/record/required/0', /"b" is not one of the properties/],
    ['a closed union with no refs', [doc({ main: record({ a: { type: 'union', refs: [], closed: true } }) })], '/defs/main/record/properties/a/refs', /closed union with no refs is invalid/],
    ['a ref that resolves to nothing', [doc({ main: record({ a: { type: 'ref', ref: '#nothing' } }) })], '/defs/main/record/properties/a/ref', /"#nothing" names no definition/],
    ['a ref to a token', [doc({ main: record({ a: { type: 'ref', ref: '#tok' } }), tok: { type: 'token' } })], '/defs/main/record/properties/a/ref', /cannot point at a token/],
    ['a union member that is a string', [doc({ main: record({ a: { type: 'union', refs: ['#s'] } }), s: { type: 'string' } })], '/defs/main/record/properties/a/refs/0', /a union member must be an object or a record/],
    ['a malformed ref', [doc({ main: record({ a: { type: 'ref', ref: 'a#b#c' } }) })], '/defs/main/record/properties/a/ref', /is not a ref/],
    ['a token as a field', [doc({ main: record({ a: { type: 'token' } }) })], '/defs/main/record/properties/a/type', /a token cannot be a field's type/],
    ['a ref as a named definition', [doc({ main: record({}), r: { type: 'ref', ref: '#main' } })], '/defs/r/type', /a ref cannot be a named definition/],
    ['a record not named main', [doc({ main: record({}), other: record({}) })], '/defs/other/type', /must be named "main"/],
    ['a record key type that is none', [doc({ main: { ...record({}), key: 'uuid' } })], '/defs/main/key', /must be a record key type/],
    ['a record whose schema is no object', [doc({ main: { type: 'record', key: 'tid', record: { type: 'string' } } })], '/defs/main/record/type', /a record's schema is an object/]
  ]
  for (const [name, documents, at, message] of BROKEN) {
    it(`refused: ${name} (at ${at || 'the top level'})`, () => {
      assert.throws(() => compile(documents), (/** @type {any} */ e) => {
        assert.ok(e instanceof LexiconDocumentError, String(e))
        assert.equal(e.path, at)
        assert.match(e.message, message)
        assert.match(e.message, /^Lexicon document (com\.example\.doc|document 0|example), at /)
        return true
      })
    })
  }

  it('compile needs an array', () => {
    assert.throws(() => compile(/** @type {any} */ (doc({ main: record({}) }))), TypeError)
  })
})
