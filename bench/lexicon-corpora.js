// The generated corpora of the Lexicon bench (bench/lexicon.js): valid app.bsky.feed.post,
// app.bsky.feed.like and app.bsky.actor.profile records, deterministic (one seeded PRNG), shaped
// like the network's: posts of a few words to a few hundred characters (some non-ASCII, some
// emoji), with facets, embeds, langs, a reply, self-labels some of the time; likes of a post;
// profiles with a display name, a description, blobs, labels. Each record's bytes are written
// by generic encode (canonical DAG-CBOR).
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import { encode } from '../index.js'
import { mulberry32 } from '../test/helpers/prng.js'

const DAG_CBOR = 0x71
const RAW = 0x55
const SHA2_256 = 0x12
const B32 = 'abcdefghijklmnopqrstuvwxyz234567'
const WORDS = ('the a of and to in is it that for on with this my you we at be are was just so ' +
  'today really good news people think time love new open protocol feed bluesky post thread ' +
  'café naïve über straße jalapeño 日本語 東京 привет مرحبا 🎉 😂 🦋 👍🏽').split(' ')
const LANGS = ['en', 'ja', 'pt-BR', 'de', 'es', 'fr', 'ko']
const SELF_LABELS = ['sexual', 'nudity', 'porn', 'graphic-media']

/**
 * @param {() => number} rnd
 * @param {number} n
 * @param {string} [alphabet]
 */
function randStr (rnd, n, alphabet = B32) {
  let s = ''
  for (let i = 0; i < n; i++) s += alphabet[(rnd() * alphabet.length) | 0]
  return s
}

/**
 * @param {() => number} rnd
 * @param {number} codec
 */
function randCid (rnd, codec) {
  const digest = new Uint8Array(32)
  for (let i = 0; i < 32; i++) digest[i] = (rnd() * 256) | 0
  return CID.create(1, codec, createDigest(SHA2_256, digest))
}

/** @param {() => number} rnd @param {number} nWords */
function sentence (rnd, nWords) {
  const w = []
  for (let i = 0; i < nWords; i++) w.push(WORDS[(rnd() * WORDS.length) | 0])
  return w.join(' ')
}

/** @param {() => number} rnd */
const did = (rnd) => 'did:plc:' + randStr(rnd, 24)
/** @param {() => number} rnd */
const tid = (rnd) => '3l' + randStr(rnd, 11, '234567abcdefghijklmnopqrstuvwxyz')
/** @param {() => number} rnd @param {number} i */
const datetime = (rnd, i) => new Date(1700000000000 + i * 61000 + ((rnd() * 1000) | 0)).toISOString()
/** @param {() => number} rnd @param {string} collection */
const strongRef = (rnd, collection = 'app.bsky.feed.post') => ({ uri: `at://${did(rnd)}/${collection}/${tid(rnd)}`, cid: randCid(rnd, DAG_CBOR).toString() })
/** @param {() => number} rnd @param {string} mimeType @param {number} max */
const blob = (rnd, mimeType, max) => ({ $type: 'blob', ref: randCid(rnd, RAW), mimeType, size: 1000 + ((rnd() * (max - 1000)) | 0) })

/** @param {() => number} rnd @param {number} i */
function post (rnd, i) {
  /** @type {Record<string, any>} */
  const record = { $type: 'app.bsky.feed.post', text: sentence(rnd, 4 + ((rnd() * 36) | 0)), createdAt: datetime(rnd, i) }
  if (rnd() < 0.8) record.langs = rnd() < 0.9 ? [LANGS[(rnd() * LANGS.length) | 0]] : ['en', 'ja']
  if (rnd() < 0.35) record.reply = { root: strongRef(rnd), parent: strongRef(rnd) }
  if (rnd() < 0.3) {
    const handle = randStr(rnd, 8, 'abcdefghijklmnopqrstuvwxyz') + '.bsky.social'
    const url = 'https://example.com/' + randStr(rnd, 10)
    record.text = `@${handle} ${url} ${record.text}`
    const linkStart = handle.length + 2
    record.facets = [
      { index: { byteStart: 0, byteEnd: handle.length + 1 }, features: [{ $type: 'app.bsky.richtext.facet#mention', did: did(rnd) }] },
      { index: { byteStart: linkStart, byteEnd: linkStart + url.length }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: url }] }
    ]
  }
  const embed = rnd()
  if (embed < 0.2) {
    record.embed = {
      $type: 'app.bsky.embed.images',
      images: [{ alt: rnd() < 0.5 ? '' : sentence(rnd, 6), image: blob(rnd, 'image/jpeg', 1000000), aspectRatio: { width: 1200, height: 900 } }]
    }
  } else if (embed < 0.3) {
    record.embed = {
      $type: 'app.bsky.embed.external',
      external: { uri: 'https://news.example.org/' + randStr(rnd, 16), title: sentence(rnd, 6), description: sentence(rnd, 12), thumb: blob(rnd, 'image/jpeg', 1000000) }
    }
  } else if (embed < 0.37) {
    record.embed = { $type: 'app.bsky.embed.record', record: strongRef(rnd) }
  } else if (embed < 0.4) {
    record.embed = {
      $type: 'app.bsky.embed.recordWithMedia',
      record: { $type: 'app.bsky.embed.record', record: strongRef(rnd) },
      media: { $type: 'app.bsky.embed.images', images: [{ alt: sentence(rnd, 4), image: blob(rnd, 'image/png', 1000000) }] }
    }
  }
  if (rnd() < 0.03) record.labels = { $type: 'com.atproto.label.defs#selfLabels', values: [{ val: SELF_LABELS[(rnd() * SELF_LABELS.length) | 0] }] }
  return record
}

/** @param {() => number} rnd @param {number} i */
const like = (rnd, i) => ({ $type: 'app.bsky.feed.like', subject: strongRef(rnd), createdAt: datetime(rnd, i) })

/** @param {() => number} rnd @param {number} i */
function profile (rnd, i) {
  /** @type {Record<string, any>} */
  const record = { $type: 'app.bsky.actor.profile', displayName: sentence(rnd, 1 + ((rnd() * 3) | 0)) }
  if (rnd() < 0.85) record.description = sentence(rnd, 5 + ((rnd() * 30) | 0))
  if (rnd() < 0.9) record.avatar = blob(rnd, 'image/jpeg', 1000000)
  if (rnd() < 0.6) record.banner = blob(rnd, rnd() < 0.5 ? 'image/jpeg' : 'image/png', 1000000)
  if (rnd() < 0.1) record.labels = { $type: 'com.atproto.label.defs#selfLabels', values: [{ val: '!no-unauthenticated' }] }
  if (rnd() < 0.2) record.pinnedPost = strongRef(rnd)
  if (rnd() < 0.7) record.createdAt = datetime(rnd, i)
  return record
}

/**
 * @param {string} name
 * @param {string} description
 * @param {string} nsid
 * @param {(rnd: () => number, i: number) => unknown} make
 * @param {number} seed
 * @param {number} n
 */
function corpus (name, description, nsid, make, seed, n) {
  const rnd = mulberry32(seed)
  const records = []
  for (let i = 0; i < n; i++) records.push({ bytes: encode(make(rnd, i)), nsid })
  return { name, description, records }
}

/**
 * @param {boolean} quick - fewer records
 * @returns {Array<{ name: string, description: string, records: Array<{ bytes: Uint8Array, nsid: string }> }>}
 */
export function lexiconCorpora (quick) {
  const n = quick ? 500 : 2000
  return [
    corpus('post', 'generated app.bsky.feed.post (langs, replies, facets, image/link/quote embeds, self-labels, some of the time)', 'app.bsky.feed.post', post, 64001, n),
    corpus('like', 'generated app.bsky.feed.like (a strongRef subject, createdAt)', 'app.bsky.feed.like', like, 64002, n),
    corpus('profile', 'generated app.bsky.actor.profile (displayName, description, avatar and banner blobs, labels, pinnedPost)', 'app.bsky.actor.profile', profile, 64003, n)
  ]
}
