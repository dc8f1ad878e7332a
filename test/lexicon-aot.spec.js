// toJavaScript (dag-cbor-fast/lexicon): the module it writes, with dag-cbor-fast/lexicon/runtime,
// gives what compile(documents) gives: the same values, verdicts, errors (message, rule, path,
// offset) and bytes, on every case of the Lexicon differential (generated records, valid and
// mutated, the real records, the interop lines; helpers/lexicon-differential.js). The module is
// plain code (no eval), holds only what the records named need, imports only the format checkers
// their strings name, and lets a bundler drop the encoder from a program that only decodes. The
// committed bench/generated/lexicon-post.js is what toJavaScript writes today.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import * as esbuild from 'esbuild'
import { compile, toJavaScript } from '../lib/lexicon/index.js'
import { differentialDocuments, runDifferential } from './helpers/lexicon-differential.js'
import { publishedDocuments } from './helpers/lexicons.js'
import { postModule } from '../bench/generate-lexicon-module.js'

const RUNTIME = new URL('../lib/lexicon/runtime.js', import.meta.url).href

/**
 * The module toJavaScript writes, imported (from a data: URL, as it is written).
 *
 * @param {unknown[]} documents
 * @param {string[]} [records]
 * @returns {Promise<any>}
 */
async function load (documents, records) {
  const text = toJavaScript(documents, { records, from: RUNTIME })
  return import(`data:text/javascript,${encodeURIComponent(text)}`)
}

/**
 * @param {() => unknown} run
 * @returns {{ value?: unknown, error?: any }}
 */
function result (run) {
  try {
    return { value: run() }
  } catch (error) {
    return { error }
  }
}

/**
 * Whether two results are the same: equal values, or errors of the same class, message, rule,
 * path and offset.
 *
 * @param {{ value?: unknown, error?: any }} a
 * @param {{ value?: unknown, error?: any }} b
 * @returns {boolean}
 */
function same (a, b) {
  if (a.error === undefined || b.error === undefined) return a.error === b.error && isDeepStrictEqual(a.value, b.value)
  return a.error.constructor === b.error.constructor && a.error.message === b.error.message &&
    a.error.rule === b.error.rule && a.error.path === b.error.path && a.error.offset === b.error.offset
}

describe('dag-cbor-fast/lexicon: toJavaScript, the ahead-of-time module', function () {
  this.timeout(300_000)

  it('gives compile()\'s values, errors and bytes on every case of the Lexicon differential', async () => {
    const documents = differentialDocuments()
    const lexicons = compile(documents)
    const module = await load(documents)
    assert.deepEqual(module.records, lexicons.records)
    /** @type {string[]} */
    const differ = []
    let cases = 0
    await runDifferential({
      withPeers: false,
      onCase: (c, bytes) => {
        cases++
        const compiled = lexicons.record(c.nsid)
        const written = module.record(c.nsid)
        /** @type {Array<[string, () => unknown, () => unknown]>} */
        const runs = [
          ['decode', () => compiled.decode(bytes), () => written.decode(bytes)],
          ['validate', () => compiled.validate(bytes), () => written.validate(bytes)],
          ['encode', () => compiled.encode(c.value), () => written.encode(c.value)],
          ['decode (the module\'s own export)', () => compiled.decode(bytes), () => module.decode(c.nsid, bytes)],
          ['validate, maxDepth 2', () => compiled.validate(bytes, { maxDepth: 2 }), () => module.validate(c.nsid, bytes, { maxDepth: 2 })],
          ['encode (the module\'s own export)', () => compiled.encode(c.value), () => module.encode(c.nsid, c.value)]
        ]
        for (const [how, a, b] of runs) {
          const x = result(a)
          const y = result(b)
          if (!same(x, y)) differ.push(`${c.nsid} ${c.kind} ${c.what} at ${c.path || '(the record)'}: ${how}: ${x.error?.message ?? 'accepted'} / ${y.error?.message ?? 'accepted'}`)
        }
      }
    })
    assert.deepEqual(differ.slice(0, 5), [])
    assert.ok(cases > 5000, `${cases} cases`)
  })

  it('holds only what the records named reach, and imports only the format checkers their strings name', () => {
    const text = toJavaScript(publishedDocuments(), { records: ['app.bsky.feed.post'] })
    const imported = /** @type {RegExpMatchArray} */ (text.match(/^import \{ ([^}]*) \} from "dag-cbor-fast\/lexicon\/runtime"$/m))[1].split(', ')
    assert.deepEqual(imported.filter((name) => name.startsWith('is')).sort(),
      ['isAtUri', 'isAtUriBytes', 'isCidString', 'isCidV1Bytes', 'isDatetime', 'isDatetimeBytes', 'isDid', 'isDidBytes', 'isLanguage', 'isLanguageBytes', 'isUri', 'isUriBytes'])
    // the post's definitions, none of the profile's or the threadgate's (which the documents have)
    assert.match(text, /objectNode\("app\.bsky\.embed\.images#image"\)/)
    assert.doesNotMatch(text, /app\.bsky\.actor\.profile|app\.bsky\.feed\.threadgate/)
    assert.doesNotMatch(text, /\beval\b|new Function/)
  })

  it('writes each definition reached twice or more once (strongRef, in reply and in embeds), and recursive ones', async () => {
    const text = toJavaScript(publishedDocuments(), { records: ['app.bsky.feed.post'] })
    assert.equal(text.match(/objectNode\("com\.atproto\.repo\.strongRef"/g)?.length, 1)
    const recursive = {
      lexicon: 1,
      id: 'example.aot.tree',
      defs: {
        main: { type: 'record', key: 'tid', record: { type: 'object', required: ['node'], properties: { node: { type: 'ref', ref: '#node' } } } },
        node: { type: 'object', properties: { label: { type: 'string', maxLength: 3 }, children: { type: 'array', items: { type: 'ref', ref: '#node' } } } }
      }
    }
    const module = await load([recursive])
    const { encode } = await import('../index.js')
    const ok = { $type: 'example.aot.tree', node: { label: 'a', children: [{ label: 'b', children: [] }] } }
    assert.deepEqual(module.decode('example.aot.tree', encode(ok)), ok)
    assert.throws(() => module.decode('example.aot.tree', encode({ ...ok, node: { children: [{ label: 'long' }] } })),
      { rule: 'lexicon-max-length', path: '/node/children/0/label' })
  })

  it('names no variable as it names an import (the record type is.datetime.bytes, whose strings check datetimes)', async () => {
    const document = {
      lexicon: 1,
      id: 'is.datetime.bytes',
      defs: { main: { type: 'record', key: 'tid', record: { type: 'object', required: ['at'], properties: { at: { type: 'string', format: 'datetime' } } } } }
    }
    const module = await load([document])
    const { encode } = await import('../index.js')
    assert.deepEqual(module.decode('is.datetime.bytes', encode({ $type: 'is.datetime.bytes', at: '2024-01-01T00:00:00Z' })), { $type: 'is.datetime.bytes', at: '2024-01-01T00:00:00Z' })
  })

  it('refuses bad options and unknown record types, naming them', async () => {
    const documents = publishedDocuments()
    assert.throws(() => toJavaScript(documents, { record: ['app.bsky.feed.post'] }), /unknown option "record" \(its options: records, from\)/)
    assert.throws(() => toJavaScript(documents, { records: [] }), /options\.records must be a non-empty array/)
    assert.throws(() => toJavaScript(documents, { records: ['app.bsky.feed.nope'] }), /"app\.bsky\.feed\.nope" is not a record type of the documents given/)
    const module = await load(documents, ['app.bsky.feed.post'])
    assert.throws(() => module.decode('app.bsky.feed.like', new Uint8Array([0xa0])), /"app\.bsky\.feed\.like" is not a record type of this module \(its record types: app\.bsky\.feed\.post;/)
  })

  it('lets a bundler drop the encoder, the compiler, the document checker and generic decode from a program that only decodes', async () => {
    const file = new URL('../bench/generated/lexicon-post.js', import.meta.url)
    const result = await esbuild.build({
      stdin: { contents: `import { decode } from ${JSON.stringify(file.pathname)}\nexport const decodePost = (bytes) => decode('app.bsky.feed.post', bytes)\n`, resolveDir: new URL('..', import.meta.url).pathname, loader: 'js' },
      bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, metafile: true, logLevel: 'silent'
    })
    const inputs = Object.keys(Object.values(result.metafile.outputs)[0].inputs)
    assert.ok(inputs.some((f) => f.endsWith('lib/lexicon/read.js')), inputs.join(', '))
    // generic decode too: what a Lexicon does not type is read by lib/lexicon/unknown.js
    for (const absent of ['lib/lexicon/write.js', 'lib/encode.js', 'lib/writer.js', 'lib/lexicon/compile.js', 'lib/lexicon/documents.js', 'lib/lexicon/aot.js', 'lib/decode.js']) {
      assert.ok(!inputs.some((f) => f.endsWith(absent)), `${absent} is in the decode-only bundle`)
    }
  })

  it('the package exports the runtime as dag-cbor-fast/lexicon/runtime, where the module imports it from by default', async () => {
    const exported = await import('dag-cbor-fast/lexicon/runtime')
    const file = await import('../lib/lexicon/runtime.js')
    assert.equal(exported.decodeRecord, file.decodeRecord)
    assert.match(toJavaScript(publishedDocuments(), { records: ['app.bsky.feed.like'] }), /^import \{ [^}]* \} from "dag-cbor-fast\/lexicon\/runtime"$/m)
  })

  it('bench/generated/lexicon-post.js is what toJavaScript writes (node bench/generate-lexicon-module.js)', () => {
    assert.equal(fs.readFileSync(new URL('../bench/generated/lexicon-post.js', import.meta.url), 'utf8'), postModule())
  })
})
