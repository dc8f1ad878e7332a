// Deterministic benchmark corpora. Every corpus is a list of data-model values (`values`) plus
// their canonical DAG-CBOR bytes (`blocks`, as written by @ipld/dag-cbor, the reference), so every
// codec gets exactly the same inputs.
import { readFileSync } from 'node:fs'
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import { garbage } from 'ipld-garbage'
import { CarReader } from '@ipld/car'
import * as refCodec from '@ipld/dag-cbor'
import { mulberry32 as prng, withMathRandom } from '../test/helpers/prng.js'
import { mstNode } from './atproto-mst.js'

const DAG_CBOR = 0x71
const RAW = 0x55
const SHA2_256 = 0x12
const BLAKE2B_256 = 0xb220

function randBytes (rnd, n) {
  const b = new Uint8Array(n)
  for (let i = 0; i < n; i++) b[i] = (rnd() * 256) | 0
  return b
}

function randCid (rnd, codec = DAG_CBOR, hash = SHA2_256) {
  return CID.create(1, codec, createDigest(hash, randBytes(rnd, 32)))
}

const B32 = 'abcdefghijklmnopqrstuvwxyz234567'
function randStr (rnd, n, alphabet = B32) {
  let s = ''
  for (let i = 0; i < n; i++) s += alphabet[(rnd() * alphabet.length) | 0]
  return s
}

/**
 * ipld-garbage emits CIDs from its own (foreign, multiformats 9) CID class with random hash
 * functions and codecs. We rewrite each into a multiformats CIDv1 sha2-256 (dag-cbor, or raw when the
 * original was raw) over the first 32 digest bytes, so every peer (including @atcute/cbor, which only
 * accepts sha2-256 dag-cbor/raw CIDs) can decode the same bytes. Everything else is left as generated.
 */
function normalizeGarbage (v) {
  if (v === null || typeof v !== 'object') return v
  const cid = CID.asCID(v)
  if (cid) {
    const digest = new Uint8Array(32)
    digest.set(cid.multihash.digest.subarray(0, 32))
    return CID.create(1, cid.code === RAW ? RAW : DAG_CBOR, createDigest(SHA2_256, digest))
  }
  if (v instanceof Uint8Array) return v
  if (Array.isArray(v)) return v.map(normalizeGarbage)
  const out = {}
  for (const k of Object.keys(v)) out[k] = normalizeGarbage(v[k])
  return out
}

// ipld-garbage sizes are heavy-tailed; drop the rare objects over 4x the target so the average
// stays near the target (the count argument is tuned per corpus for the seed used).
function garbageCorpus (name, seed, count, target, n, description) {
  const values = withMathRandom(prng(seed), () => {
    const out = []
    while (out.length < n) {
      const v = normalizeGarbage(garbage(count))
      if (refCodec.encode(v).length <= 4 * target) out.push(v)
    }
    return out
  })
  return { name, description, values }
}

// --- realistic shapes -----------------------------------------------------------------------

/** A Filecoin block header: 16-field array (Lotus BlockHeader) with blake2b-256 CIDs (also bench/memory.js's). */
export function filecoinHeader (rnd, i) {
  const cid = () => randCid(rnd, DAG_CBOR, BLAKE2B_256)
  return [
    new Uint8Array([0x00, 0xe8, 0x07 + (i % 100)]), // Miner (ID address)
    [randBytes(rnd, 96)], // Ticket { VRFProof }
    [1 + (i % 5), randBytes(rnd, 96)], // ElectionProof { WinCount, VRFProof }
    [[3000000 + i, randBytes(rnd, 96)]], // BeaconEntries [{ Round, Data }]
    [[3, randBytes(rnd, 192)]], // WinPoStProof [{ PoStProof, ProofBytes }]
    [cid(), cid(), cid()], // Parents
    randBytes(rnd, 11), // ParentWeight (big int bytes)
    2000000 + i, // Height
    cid(), // ParentStateRoot
    cid(), // ParentMessageReceipts
    cid(), // Messages
    [2, randBytes(rnd, 96)], // BLSAggregate
    1660000000 + i * 30, // Timestamp
    [2, randBytes(rnd, 96)], // BlockSig
    0, // ForkSignaling
    randBytes(rnd, 5) // ParentBaseFee
  ]
}

const WORDS = ('the quick brown fox jumps over lazy dog hello world posting from my phone today ' +
  'this is great news about atproto and bluesky feeds we love open protocols café naïve 日本語 🎉').split(' ')
function sentence (rnd, nWords) {
  const w = []
  for (let i = 0; i < nWords; i++) w.push(WORDS[(rnd() * WORDS.length) | 0])
  return w.join(' ')
}
function tid (rnd) { return '3k' + randStr(rnd, 11, '234567abcdefghijklmnopqrstuvwxyz') }
function did (rnd) { return 'did:plc:' + randStr(rnd, 24) }

/** An AT Protocol app.bsky.feed.post record (with reply refs, an image embed, facets). */
function atpPost (rnd, i) {
  const uri = () => `at://${did(rnd)}/app.bsky.feed.post/${tid(rnd)}`
  const strongRef = () => ({ cid: randCid(rnd).toString(), uri: uri() })
  const text = sentence(rnd, 8 + ((rnd() * 30) | 0))
  const post = {
    $type: 'app.bsky.feed.post',
    text,
    langs: ['en'],
    createdAt: new Date(1700000000000 + i * 61000).toISOString()
  }
  if (i % 2 === 0) post.reply = { root: strongRef(), parent: strongRef() }
  if (i % 3 === 0) {
    post.embed = {
      $type: 'app.bsky.embed.images',
      images: [{
        alt: sentence(rnd, 5),
        image: { $type: 'blob', ref: randCid(rnd, RAW), mimeType: 'image/jpeg', size: 100000 + ((rnd() * 900000) | 0) },
        aspectRatio: { width: 1000, height: 750 }
      }]
    }
  }
  if (i % 4 === 0) {
    post.facets = [{
      index: { byteStart: 0, byteEnd: 5 },
      features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/' + randStr(rnd, 12) }]
    }]
  }
  return post
}

/** An AT Protocol repo commit object (v3). */
function atpCommit (rnd) {
  return { did: did(rnd), rev: tid(rnd), sig: randBytes(rnd, 64), data: randCid(rnd), prev: null, version: 3 }
}

/** A HAMT-sharded UnixFS-directory-like node: 256 named links plus a bitfield. */
function hamtNode (rnd) {
  const Links = []
  for (let i = 0; i < 256; i++) {
    const prefix = i.toString(16).toUpperCase().padStart(2, '0')
    Links.push({
      Hash: randCid(rnd, (i & 3) ? RAW : DAG_CBOR),
      Name: prefix + 'file-' + randStr(rnd, 6 + ((rnd() * 14) | 0)) + '.txt',
      Tsize: (rnd() * 1e7) | 0
    })
  }
  return { Data: { type: 5, fanout: 256, hashType: 0x22, bitfield: randBytes(rnd, 32) }, Links }
}

/** One map with 10,000 keys (random base32 names of 4..16 chars, inserted in random order). */
function bigMap (rnd) {
  const m = {}
  let n = 0
  while (n < 10000) {
    const k = randStr(rnd, 4 + ((rnd() * 13) | 0))
    if (!Object.hasOwn(m, k)) n++
    const r = rnd()
    m[k] = r < 0.5 ? (rnd() * 1e6) | 0 : r < 0.8 ? randStr(rnd, 8) : r < 0.9 ? true : null
  }
  return m
}

function repeat (n, seed, fn) {
  const rnd = prng(seed)
  const out = []
  for (let i = 0; i < n; i++) out.push(fn(rnd, i))
  return out
}

// --- real blocks ----------------------------------------------------------------------------

const CAR_FILES = ['filecoin-calibnet-genesis.car', 'filecoin-sample-v1.car']

async function carCorpus (file) {
  const url = new URL('../test/fixtures/cars/' + file, import.meta.url)
  let bytes
  try {
    bytes = readFileSync(url)
  } catch (e) {
    throw new Error(`bench: missing real data ${url.pathname} (see test/fixtures/README.md): ${e.message}`)
  }
  const reader = await CarReader.fromBytes(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  const blocks = []
  for await (const { cid, bytes } of reader.blocks()) {
    if (cid.code === DAG_CBOR) blocks.push(bytes.slice())
  }
  return { name: 'car:' + file.replace(/\.car$/, ''), description: `real DAG-CBOR blocks of test/fixtures/cars/${file}`, blocks, real: true }
}

/** Finish a corpus: fill in `blocks` (reference encoding) or `values` (reference decoding). */
function finish (c) {
  if (!c.blocks) c.blocks = c.values.map((v) => refCodec.encode(v))
  // For real blocks the encode input is what @ipld/dag-cbor decodes (same input for every codec).
  if (!c.values) c.values = c.blocks.map((b) => refCodec.decode(b))
  c.totalBytes = c.blocks.reduce((a, b) => a + b.length, 0)
  c.avgBytes = c.totalBytes / c.blocks.length
  // Items per clock check in the timing loop: ~64 KiB of work, at least 1, at most 64 items.
  c.chunk = Math.max(1, Math.min(64, Math.round(65536 / c.avgBytes)))
  return c
}

/**
 * How to build each corpus, in bench order: [name, make(q)], where q(full, quick) picks a count
 * for the run's mode.
 *
 * @type {Array<[string, (q: (full: number, quick: number) => number) => any]>}
 */
const MAKERS = [
  ['garbage-40B', (q) => garbageCorpus('garbage-40B', 1, 17, 40, q(2000, 1000), 'ipld-garbage, ~40 B objects')],
  ['garbage-100B', (q) => garbageCorpus('garbage-100B', 2, 125, 100, q(1000, 500), 'ipld-garbage, ~100 B objects')],
  ['garbage-300B', (q) => garbageCorpus('garbage-300B', 3, 420, 300, q(1000, 400), 'ipld-garbage, ~300 B objects')],
  ['garbage-600B', (q) => garbageCorpus('garbage-600B', 4, 1000, 600, q(500, 200), 'ipld-garbage, ~600 B objects')],
  ['garbage-100KB', (q) => garbageCorpus('garbage-100KB', 5, 160000, 100000, q(8, 4), 'ipld-garbage, a few ~100 KB objects')],
  ['filecoin-header', (q) => ({ name: 'filecoin-header', description: 'Filecoin block header: 16-field array, blake2b-256 CIDs, byte strings', values: repeat(q(256, 128), 11, filecoinHeader) })],
  ['atproto-post', (q) => ({ name: 'atproto-post', description: 'AT Protocol app.bsky.feed.post records (reply refs, image embed, facets)', values: repeat(q(512, 256), 12, atpPost) })],
  ['atproto-commit', (q) => ({ name: 'atproto-commit', description: 'AT Protocol repo commit objects (v3)', values: repeat(q(512, 256), 13, atpCommit) })],
  ['atproto-mst', (q) => ({ name: 'atproto-mst', description: 'AT Protocol MST nodes (4-16 entries, CIDs, byte-string keys)', values: repeat(q(512, 256), 17, mstNode) })],
  ['hamt-256-links', (q) => ({ name: 'hamt-256-links', description: 'HAMT/UnixFS-like directory node with 256 links', values: repeat(q(16, 8), 14, hamtNode) })],
  ['bytes-1MiB', () => ({ name: 'bytes-1MiB', description: 'map holding one 1 MiB byte string', values: repeat(2, 15, (rnd, i) => ({ name: 'blob-' + i, data: randBytes(rnd, 1 << 20) })), bytesCorpus: true })],
  ['map-10k-keys', (q) => ({ name: 'map-10k-keys', description: 'one map with 10,000 keys (inserted unsorted)', values: repeat(q(2, 1), 16, bigMap) })],
  ...CAR_FILES.map((f) => /** @type {[string, () => any]} */ (['car:' + f.replace(/\.car$/, ''), () => carCorpus(f)]))
]

/** Corpus names in bench order (what `loadCorpora` can generate). */
export const CORPUS_NAMES = MAKERS.map(([name]) => name)

/**
 * The corpora, in bench order, each generated only when its name passes `filter` (so a child
 * process benchmarking one corpus builds only that one).
 *
 * @param {{ quick?: boolean, filter?: (name: string) => boolean }} [options]
 */
export async function loadCorpora ({ quick = false, filter = () => true } = {}) {
  /** @param {number} full @param {number} qk */
  const q = (full, qk) => quick ? qk : full
  const list = []
  for (const [name, make] of MAKERS) {
    if (!filter(name)) continue
    try { list.push(finish(await make(q))) } catch (e) { console.log(`!!! ${e.message} -- this corpus is skipped`) }
  }
  return list
}
