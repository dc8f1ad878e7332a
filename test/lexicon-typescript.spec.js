// dag-cbor-fast/lexicon's toTypeScript: the types it writes for the published app.bsky documents
// compile under `tsc --strict` with records decoded by the codecs assigned to them (every record
// of the real repo CARs, and app.bsky records built here), and tsc refuses each deliberately wrong
// assignment; each field type and constraint gives the type the spec's value has.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { CarReader } from '@ipld/car'
import { CID } from 'multiformats/cid'
import { compile, toTypeScript } from '../lib/lexicon/index.js'
import { decode, encode } from '../index.js'
import { publishedDocuments } from './helpers/lexicons.js'

// the files tsc reads are held in memory, at a path inside the repository so that
// 'multiformats/cid' resolves from its node_modules as it would beside a user's code
const HERE = fileURLToPath(new URL('./lexicon-typescript-virtual/', import.meta.url))

/**
 * Type-check .ts files held in memory (with the .d.ts toTypeScript wrote) under --strict.
 *
 * @param {Record<string, string>} files - name (in HERE) to text
 * @returns {Array<{ file: string, line: number, message: string }>}
 */
function typeCheck (files) {
  const virtual = new Map(Object.entries(files).map(([name, text]) => [path.join(HERE, name), text]))
  const options = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, types: [] }
  const host = ts.createCompilerHost(options)
  const { fileExists, readFile, getSourceFile, directoryExists } = host
  host.directoryExists = (d) => path.resolve(d) === path.resolve(HERE) || (directoryExists?.call(host, d) ?? true)
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f)
  host.readFile = (f) => virtual.get(f) ?? readFile.call(host, f)
  host.getSourceFile = (f, language, onError, create) => {
    const text = virtual.get(f)
    return text !== undefined ? ts.createSourceFile(f, text, language) : getSourceFile.call(host, f, language, onError, create)
  }
  const program = ts.createProgram([...virtual.keys()].filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), options, host)
  return ts.getPreEmitDiagnostics(program).map((d) => ({
    file: d.file ? path.basename(d.file.fileName) : '',
    line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n')
  }))
}

/**
 * A decoded value as a TypeScript expression.
 *
 * @param {unknown} v
 * @param {string} indent
 * @returns {string}
 */
function literal (v, indent = '') {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v)
  if (v instanceof Uint8Array) return `new Uint8Array([${[...v].join(', ')}])`
  const cid = CID.asCID(v)
  if (cid) return `CID.parse(${JSON.stringify(cid.toString())})`
  const inner = indent + '  '
  if (Array.isArray(v)) return `[\n${v.map((x) => inner + literal(x, inner)).join(',\n')}\n${indent}]`
  if (typeof v === 'object') return `{\n${Object.entries(v).map(([k, x]) => `${inner}${JSON.stringify(k)}: ${literal(x, inner)}`).join(',\n')}\n${indent}}`
  throw new TypeError(`no literal for ${typeof v}`)
}

const DID = 'did:plc:z72i7hdynmk6r22z27h6tvur'
const NOW = '2024-11-30T12:34:56.789Z'
const strongRef = { uri: `at://${DID}/app.bsky.feed.post/3l6oveex3ii2l`, cid: 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm' }
const blob = { $type: 'blob', ref: CID.parse('bafkreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm'), mimeType: 'image/jpeg', size: 1000 }
/** app.bsky records reaching most definitions: unions, blobs, facets, knownValues, self-labels */
const BUILT = [
  { $type: 'app.bsky.feed.post', text: 'hello @alice #tag', createdAt: NOW, langs: ['en'], tags: ['t'], reply: { root: strongRef, parent: strongRef },
    facets: [{ index: { byteStart: 6, byteEnd: 12 }, features: [{ $type: 'app.bsky.richtext.facet#mention', did: DID }] }, { index: { byteStart: 13, byteEnd: 17 }, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'tag' }] }],
    embed: { $type: 'app.bsky.embed.recordWithMedia', record: { record: strongRef }, media: { $type: 'app.bsky.embed.images', images: [{ alt: 'a', image: blob, aspectRatio: { width: 4, height: 3 } }] } },
    labels: { $type: 'com.atproto.label.defs#selfLabels', values: [{ val: 'nudity' }] } },
  { $type: 'app.bsky.feed.post', text: 'a video', createdAt: NOW, embed: { $type: 'app.bsky.embed.video', video: { ...blob, mimeType: 'video/mp4' }, presentation: 'gif' } },
  { $type: 'app.bsky.feed.like', subject: strongRef, createdAt: NOW },
  { $type: 'app.bsky.actor.profile', displayName: 'x', avatar: blob, pinnedPost: strongRef },
  { $type: 'app.bsky.feed.threadgate', post: strongRef.uri, createdAt: NOW, allow: [{ $type: 'app.bsky.feed.threadgate#mentionRule' }, { $type: 'app.bsky.feed.threadgate#listRule', list: `at://${DID}/app.bsky.graph.list/3l6oveex3ii2l` }] }
]

/** @returns {Promise<unknown[]>} the records of the real repo CARs, decoded by their codecs */
async function realRecords () {
  const lexicons = compile(publishedDocuments())
  const found = []
  for (const car of ['repo-small-v2.car', 'repo-slice-v2.car']) {
    const reader = await CarReader.fromBytes(fs.readFileSync(new URL(`../car/test/fixtures/atproto/${car}`, import.meta.url)))
    for await (const block of reader.blocks()) {
      const type = block.cid.code === 0x71 ? /** @type {any} */ (decode(block.bytes))?.$type : undefined
      if (type && lexicons.records.includes(type)) found.push(lexicons.record(type).decode(block.bytes))
    }
  }
  return found
}

describe('dag-cbor-fast/lexicon: toTypeScript', function () {
  this.timeout(120_000) // the type-checker's start, on a shared machine
  const declarations = toTypeScript(publishedDocuments())

  it('decoded records, real and built, assigned to their types compile under --strict', async () => {
    const lexicons = compile(publishedDocuments())
    const real = await realRecords()
    assert.equal(real.length, 7, 'the real CARs hold 7 records')
    const decoded = [...real, ...BUILT.map((r) => lexicons.record(r.$type).decode(encode(r)))]
    // each union member too, as its own type: in an open union a wrong member could pass as one
    // of a $type the union does not list
    /** @type {Array<[string, unknown]>} */
    const members = []
    /** @param {unknown} v @param {boolean} top */
    const walk = (v, top) => {
      if (v === null || typeof v !== 'object' || v instanceof Uint8Array || CID.asCID(v)) return
      const type = /** @type {any} */ (v).$type
      const name = typeof type === 'string' ? type.split(/[^A-Za-z0-9]+/).map((w) => w[0].toUpperCase() + w.slice(1)).join('') : ''
      if (!top && declarations.includes(`export interface ${name} `)) members.push([name, v])
      for (const x of Object.values(v)) walk(x, false)
    }
    for (const r of decoded) walk(r, true)
    assert.ok(members.length >= 9, `union members found: ${members.length}`)
    const good = "import { CID } from 'multiformats/cid'\nimport type * as T from './records.js'\n" +
      decoded.map((r, i) => `export const r${i}: T.Records[${JSON.stringify(/** @type {any} */ (r).$type)}] = ${literal(r)}\n`).join('') +
      members.map(([name, v], i) => `export const m${i}: T.${name} = ${literal(v)}\n`).join('')
    assert.match(good, /"cid": "bafk/, 'the legacy blob is among them')
    assert.deepEqual(typeCheck({ 'records.d.ts': declarations, 'good.ts': good }), [])
  })

  it('tsc refuses each wrong field: a wrong kind, a missing required field, a wrong $type or enum, a blob without its ref, null where not nullable', () => {
    const cases = [
      '{ $type: "app.bsky.feed.post", text: 5, createdAt: "" }',
      '{ $type: "app.bsky.feed.post", text: "" }',
      '{ $type: "app.bsky.feed.like", text: "", createdAt: "" }',
      '{ $type: "app.bsky.feed.post", text: "", createdAt: "", reply: { root: { uri: "", cid: 1 }, parent: { uri: "", cid: "" } } }',
      '{ $type: "app.bsky.feed.post", text: "", createdAt: "", langs: "en" }',
      '{ $type: "app.bsky.feed.post", text: "", createdAt: "", facets: [{ index: { byteStart: 0, byteEnd: "1" }, features: [] }] }',
      '{ $type: "app.bsky.feed.post", text: null, createdAt: "" }',
      // (inside an open union a wrong member can pass as a $type the union does not list, which an
      // open union accepts: the blob is checked where the type is closed)
      ['AppBskyActorProfile', '{ $type: "app.bsky.actor.profile", avatar: { $type: "blob", mimeType: "image/png", size: 1 } }'],
      ['AppBskyEmbedImagesImage', '{ alt: "", image: { $type: "blob", ref: null, mimeType: "image/png", size: 1 } }']
    ]
    const bad = "import type { AppBskyFeedPost, AppBskyActorProfile, AppBskyEmbedImagesImage } from './records.js'\n" +
      cases.map((c, i) => `export const w${i}: ${Array.isArray(c) ? c[0] : 'AppBskyFeedPost'} = ${Array.isArray(c) ? c[1] : c}\n`).join('')
    const errors = typeCheck({ 'records.d.ts': declarations, 'bad.ts': bad })
    assert.deepEqual([...new Set(errors.map((e) => `${e.file}:${e.line}`))], cases.map((_, i) => `bad.ts:${i + 2}`), JSON.stringify(errors, null, 1))
    // and the same lines, right, pass: the errors are the wrong fields'
    const right = "import { CID } from 'multiformats/cid'\nimport type { AppBskyFeedPost } from './records.js'\n" +
      `export const ok: AppBskyFeedPost = { $type: "app.bsky.feed.post", text: "", createdAt: "", langs: ["en"], embed: { $type: "app.bsky.embed.images", images: [{ alt: "", image: { $type: "blob", ref: CID.parse(${JSON.stringify(blob.ref.toString())}), mimeType: "image/png", size: 1 } }] } }\n`
    assert.deepEqual(typeCheck({ 'records.d.ts': declarations, 'right.ts': right }), [])
  })

  it('each field type and constraint: its TypeScript type, optional, nullable; refs and unions by name', () => {
    const doc = {
      lexicon: 1,
      id: 'com.example.thing',
      defs: {
        main: {
          type: 'record',
          key: 'any',
          record: {
            type: 'object',
            required: ['n', 'maybe', 'kind'],
            nullable: ['maybe', 'opt'],
            properties: {
              n: { type: 'integer' },
              maybe: { type: 'string' },
              opt: { type: 'boolean' },
              kind: { type: 'string', enum: ['a', 'b'] },
              level: { type: 'integer', enum: [1, 2] },
              known: { type: 'string', knownValues: ['x', 'com.example.thing#tok'] },
              fixed: { type: 'string', const: 'c' },
              flag: { type: 'boolean', const: true },
              nothing: { type: 'null' },
              raw: { type: 'bytes' },
              link: { type: 'cid-link' },
              file: { type: 'blob', accept: ['image/*'] },
              any: { type: 'unknown' },
              inline: { type: 'object', required: ['x'], properties: { x: { type: 'integer' } } },
              closed: { type: 'union', closed: true, refs: ['#part'] },
              open: { type: 'union', refs: ['#part', 'com.example.other'] },
              name: { type: 'ref', ref: '#name' },
              parts: { type: 'array', items: { type: 'ref', ref: '#part' } }
            }
          }
        },
        part: { type: 'object', description: 'A part. */ not the comment\'s end', properties: { self: { type: 'ref', ref: '#part' } } },
        name: { type: 'string', maxLength: 10 },
        tok: { type: 'token' }
      }
    }
    const other = { lexicon: 1, id: 'com.example.other', defs: { main: { type: 'object', properties: {} } } }
    const text = toTypeScript([doc, JSON.stringify(other)])
    for (const line of [
      'export interface ComExampleThing {\n  $type: "com.example.thing"\n  n: number\n  maybe: string | null\n  opt?: boolean | null\n  kind: "a" | "b"\n  level?: 1 | 2\n',
      '  known?: "x" | "com.example.thing#tok" | (string & {})\n  fixed?: "c"\n  flag?: true\n  nothing?: null\n  raw?: Uint8Array\n  link?: CID\n  file?: BlobRef | LegacyBlobRef\n  any?: { [k: string]: unknown }\n',
      '  inline?: {\n    x: number\n  }\n',
      '  closed?: (ComExampleThingPart & { $type: "com.example.thing#part" })\n',
      '  open?: (ComExampleThingPart & { $type: "com.example.thing#part" }) | (ComExampleOther & { $type: "com.example.other" }) | { $type: string; [k: string]: unknown }\n',
      '  name?: ComExampleThingName\n  parts?: Array<ComExampleThingPart>\n}',
      '/** A part. *\\/ not the comment\'s end */\nexport interface ComExampleThingPart {\n  $type?: "com.example.thing#part"\n  self?: ComExampleThingPart\n}',
      'export type ComExampleThingName = string\n',
      'export interface ComExampleOther {\n  $type?: "com.example.other"\n}',
      'export interface Records {\n  "com.example.thing": ComExampleThing\n}'
    ]) assert.ok(text.includes(line), `${line}\n--- not in ---\n${text}`)
    assert.doesNotMatch(text, /Tok\b/, 'a token is a string value, not a type')
    assert.deepEqual(typeCheck({ 'records.d.ts': text, 'use.ts': "import type { Records } from './records.js'\nexport const t: Records['com.example.thing'] = { $type: 'com.example.thing', n: 1, maybe: null, kind: 'b', known: 'anything' }\n" }), [])
    assert.throws(() => toTypeScript([{ ...doc, defs: { main: { type: 'record', key: 'any', record: { type: 'object', properties: { a: { type: 'string', maxLength: -1 } } } } } }]), { name: 'LexiconDocumentError' })
  })
})
