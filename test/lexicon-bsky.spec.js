// dag-cbor-fast/lexicon on the published app.bsky Lexicons (test/fixtures/lexicons/): records
// written by hand to use every part of each record type (a post with facets, a reply, labels,
// tags and each kind of embed; a like, a repost, a follow, a block, a profile) are accepted, equal
// to generic decode and re-encoded to their bytes; then each is changed to break one rule, and
// decode, validate and encode all refuse it, naming the same rule and path.
import assert from 'node:assert/strict'
import { CID } from 'multiformats/cid'
import { compile } from '../lib/lexicon/index.js'
import { encode, decode, DagCborDecodeError, DagCborEncodeError } from '../index.js'
import { publishedDocuments } from './helpers/lexicons.js'

const lexicons = compile(publishedDocuments())
const DID = 'did:plc:z72i7hdynmk6r22z27h6tvur'
const NOW = '2024-11-30T12:34:56.789Z'
const postCid = 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm'
const strongRef = { uri: `at://${DID}/app.bsky.feed.post/3l6oveex3ii2l`, cid: postCid }
const image = CID.parse('bafkreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm')
const blob = (/** @type {string} */ mimeType, /** @type {number} */ size) => ({ $type: 'blob', ref: image, mimeType, size })

/** @type {Record<string, [string, any]>} name: [record type, record] */
const RECORDS = {
  'a plain post': ['app.bsky.feed.post', { $type: 'app.bsky.feed.post', text: 'hello', createdAt: NOW }],
  'a post with facets, a reply, langs, tags and self-labels': ['app.bsky.feed.post', {
    $type: 'app.bsky.feed.post',
    text: '@alice.test see https://example.com #atproto',
    facets: [
      { index: { byteStart: 0, byteEnd: 11 }, features: [{ $type: 'app.bsky.richtext.facet#mention', did: DID }] },
      { index: { byteStart: 16, byteEnd: 35 }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com' }] },
      { index: { byteStart: 36, byteEnd: 44 }, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'atproto' }] }
    ],
    reply: { root: strongRef, parent: strongRef },
    langs: ['en', 'pt-BR'],
    tags: ['one', 'two'],
    labels: { $type: 'com.atproto.label.defs#selfLabels', values: [{ val: 'nudity' }] },
    createdAt: NOW
  }],
  'a post with images': ['app.bsky.feed.post', {
    $type: 'app.bsky.feed.post',
    text: '',
    embed: { $type: 'app.bsky.embed.images', images: [{ alt: 'a cat', image: blob('image/jpeg', 123456), aspectRatio: { width: 4, height: 3 } }] },
    createdAt: NOW
  }],
  'a post with a link card': ['app.bsky.feed.post', {
    $type: 'app.bsky.feed.post',
    text: 'read this',
    embed: { $type: 'app.bsky.embed.external', external: { uri: 'https://example.com/a', title: 'A', description: 'about a', thumb: blob('image/png', 5000) } },
    createdAt: NOW
  }],
  'a quote post with a video': ['app.bsky.feed.post', {
    $type: 'app.bsky.feed.post',
    text: 'look',
    embed: {
      $type: 'app.bsky.embed.recordWithMedia',
      record: { $type: 'app.bsky.embed.record', record: strongRef },
      media: { $type: 'app.bsky.embed.video', video: blob('video/mp4', 10_000_000), captions: [{ lang: 'en', file: blob('text/vtt', 300) }], alt: 'a clip' }
    },
    createdAt: NOW
  }],
  'a like': ['app.bsky.feed.like', { $type: 'app.bsky.feed.like', subject: strongRef, createdAt: NOW }],
  'a repost': ['app.bsky.feed.repost', { $type: 'app.bsky.feed.repost', subject: strongRef, createdAt: NOW }],
  'a follow': ['app.bsky.graph.follow', { $type: 'app.bsky.graph.follow', subject: DID, createdAt: NOW }],
  'a block': ['app.bsky.graph.block', { $type: 'app.bsky.graph.block', subject: DID, createdAt: NOW }],
  'a profile': ['app.bsky.actor.profile', {
    $type: 'app.bsky.actor.profile',
    displayName: 'Alice',
    description: 'hi',
    avatar: blob('image/png', 1000),
    pinnedPost: strongRef,
    createdAt: NOW
  }]
}

/**
 * @param {string} type
 * @param {any} value
 */
function verdicts (type, value) {
  const codec = lexicons.record(type)
  const bytes = encode(value)
  return [() => codec.decode(bytes), () => codec.validate(bytes), () => codec.encode(value)].map((run) => {
    try {
      run()
      return 'accepted'
    } catch (e) {
      if (!(e instanceof DagCborDecodeError || e instanceof DagCborEncodeError)) throw e
      return `${e.rule} at ${e.path}`
    }
  })
}

describe('dag-cbor-fast/lexicon: app.bsky records', () => {
  for (const [name, [type, value]] of Object.entries(RECORDS)) {
    it(`${name} (${type}) is accepted, equal to generic decode, and re-encoded to its bytes`, () => {
      const codec = lexicons.record(type)
      const bytes = encode(value)
      const typed = codec.decode(bytes)
      assert.deepStrictEqual(typed, decode(bytes))
      codec.validate(bytes)
      assert.deepStrictEqual(codec.encode(typed), bytes)
    })
  }

  /** @type {Array<[string, string, (r: any) => void, string, string]>} record, change, how, rule, path */
  const BROKEN = [
    ['a plain post', 'text of 301 graphemes', (r) => { r.text = 'a'.repeat(301) }, 'lexicon-max-graphemes', '/text'],
    ['a plain post', 'text of 3,001 bytes in 3 graphemes', (r) => { r.text = 'a' + 'é'.repeat(1500) }, 'lexicon-max-length', '/text'],
    ['a plain post', 'createdAt without a timezone', (r) => { r.createdAt = '2024-11-30T12:34:56.789' }, 'lexicon-format', '/createdAt'],
    ['a plain post', 'createdAt absent', (r) => { delete r.createdAt }, 'lexicon-required', '/createdAt'],
    ['a plain post', 'no $type', (r) => { delete r.$type }, 'lexicon-type', ''],
    ['a plain post', 'text null', (r) => { r.text = null }, 'lexicon-nullable', '/text'],
    ['a post with facets, a reply, langs, tags and self-labels', 'a facet starting at -1', (r) => { r.facets[0].index.byteStart = -1 }, 'lexicon-minimum', '/facets/0/index/byteStart'],
    ['a post with facets, a reply, langs, tags and self-labels', 'a mention of no DID', (r) => { r.facets[0].features[0].did = 'alice.test' }, 'lexicon-format', '/facets/0/features/0/did'],
    ['a post with facets, a reply, langs, tags and self-labels', 'a facet feature without $type', (r) => { delete r.facets[1].features[0].$type }, 'lexicon-type', '/facets/1/features/0'],
    ['a post with facets, a reply, langs, tags and self-labels', 'a reply without parent', (r) => { delete r.reply.parent }, 'lexicon-required', '/reply/parent'],
    ['a post with facets, a reply, langs, tags and self-labels', 'a reply root with a bad at-uri', (r) => { r.reply.root = { ...strongRef, uri: 'https://example.com' } }, 'lexicon-format', '/reply/root/uri'],
    ['a post with facets, a reply, langs, tags and self-labels', 'four langs', (r) => { r.langs = ['en', 'de', 'fr', 'ja'] }, 'lexicon-max-length', '/langs'],
    ['a post with facets, a reply, langs, tags and self-labels', 'a lang that is no tag', (r) => { r.langs[1] = 'english!' }, 'lexicon-format', '/langs/1'],
    ['a post with facets, a reply, langs, tags and self-labels', 'a tag of 65 graphemes', (r) => { r.tags[0] = 'x'.repeat(65) }, 'lexicon-max-graphemes', '/tags/0'],
    ['a post with facets, a reply, langs, tags and self-labels', 'labels of a type the closed-in-practice union does not list, open: accepted', (r) => { r.labels = { $type: 'com.example.labels', x: 1 } }, 'accepted', ''],
    ['a post with images', 'five images', (r) => { r.embed.images = Array(5).fill(r.embed.images[0]) }, 'lexicon-max-length', '/embed/images'],
    ['a post with images', 'an image over 2 MB', (r) => { r.embed.images[0].image.size = 2_000_001 }, 'lexicon-blob-size', '/embed/images/0/image'],
    ['a post with images', 'a video as an image', (r) => { r.embed.images[0].image.mimeType = 'video/mp4' }, 'lexicon-blob-accept', '/embed/images/0/image'],
    ['a post with images', 'an aspect ratio of width 0', (r) => { r.embed.images[0].aspectRatio.width = 0 }, 'lexicon-minimum', '/embed/images/0/aspectRatio/width'],
    ['a post with images', 'an image without alt', (r) => { delete r.embed.images[0].alt }, 'lexicon-required', '/embed/images/0/alt'],
    ['a post with images', 'an embed $type with #main', (r) => { r.embed.$type = 'app.bsky.embed.images#main' }, 'lexicon-type', '/embed'],
    ['a post with a link card', 'a card without a title', (r) => { delete r.embed.external.title }, 'lexicon-required', '/embed/external/title'],
    ['a post with a link card', 'a thumb of size 0', (r) => { r.embed.external.thumb.size = 0 }, 'lexicon-blob', '/embed/external/thumb'],
    ['a quote post with a video', 'a video of another type', (r) => { r.embed.media.video.mimeType = 'video/webm' }, 'lexicon-blob-accept', '/embed/media/video'],
    ['a quote post with a video', 'a caption in no language', (r) => { r.embed.media.captions[0].lang = '' }, 'lexicon-format', '/embed/media/captions/0/lang'],
    ['a quote post with a video', 'a quoted record with a CID of another form', (r) => { r.embed.record.record.cid = 'QmNotACid' }, 'lexicon-format', '/embed/record/record/cid'],
    ['a like', 'a subject without cid', (r) => { delete r.subject.cid }, 'lexicon-required', '/subject/cid'],
    ['a like', 'another record type', (r) => { r.$type = 'app.bsky.feed.repost' }, 'lexicon-type', '/$type'],
    ['a follow', 'a handle for a DID', (r) => { r.subject = 'alice.test' }, 'lexicon-format', '/subject'],
    ['a block', 'a number for a DID', (r) => { r.subject = 42 }, 'lexicon-kind', '/subject'],
    ['a profile', 'a display name of 65 graphemes', (r) => { r.displayName = 'x'.repeat(65) }, 'lexicon-max-graphemes', '/displayName'],
    ['a profile', 'a GIF avatar', (r) => { r.avatar.mimeType = 'image/gif' }, 'lexicon-blob-accept', '/avatar'],
    ['a profile', 'a legacy avatar blob: accepted', (r) => { r.avatar = { cid: image.toString(), mimeType: 'image/png' } }, 'accepted', ''],
    ['a profile', 'a float beside the Lexicon\'s properties', (r) => { r.score = 0.5 }, 'lexicon-float', '/score']
  ]
  for (const [name, change, how, rule, at] of BROKEN) {
    it(`${name}, ${change}: ${rule === 'accepted' ? 'accepted' : `${rule} at ${at || 'the top'}`} (decode, validate, encode)`, () => {
      const [type, value] = RECORDS[name]
      const changed = structuredClone(value)
      // structuredClone keeps CIDs as plain objects: put the links back
      const relink = (/** @type {any} */ v) => {
        if (v === null || typeof v !== 'object') return v
        if (v['/'] instanceof Uint8Array) return CID.decode(v['/'])
        for (const k of Object.keys(v)) v[k] = relink(v[k])
        return v
      }
      relink(changed)
      how(changed)
      const expected = rule === 'accepted' ? 'accepted' : `${rule} at ${at}`
      assert.deepEqual(verdicts(type, changed), [expected, expected, expected])
    })
  }
})
