// The generator of the embedded sample, lib/node/sample.car: a small CAR from hand-written shapes,
// the same bytes on every run: AT-Protocol-like post records in an MST-like chain under a signed
// commit (sha2-256), a HAMT-like map (blake2b-256), a chain of Filecoin-header-like tuples
// (blake2b-256), raw blobs, nested lists and maps, one identity-hashed block, and planted blocks the
// tool must report: two non-canonical ones (unsorted map keys; a non-shortest integer) and one
// canonical block holding float64 integers as Go and Rust write them. "Random" bytes come from
// SHA-256 of a label. Its output is committed, lib/node/sample.car with what a check of it must
// report in lib/node/sample.json, so that a run reads them (lib/node/sample.js) instead of hashing
// and encoding the sample anew; test/node/sample.spec.js fails when they are not what this builds now.
//   node scripts/sample-car.js      write them again (after changing the shapes here)
import crypto from 'node:crypto'
import { CID } from 'multiformats/cid'
import { identity } from 'multiformats/hashes/identity'
import { create as createDigest } from 'multiformats/hashes/digest'
import { encode } from 'dag-cbor-fast'
import { loadHasher, digestOf } from '../lib/core/check/hash.js'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'

const DAG_CBOR = 0x71
const RAW = 0x55
const SHA2_256 = 0x12
const BLAKE2B_256 = 0xb220

/**
 * Deterministic filler bytes: SHA-256 of the label, then of the label and a counter.
 *
 * @param {string} label
 * @param {number} n
 */
function filler (label, n) {
  const out = new Uint8Array(n)
  for (let i = 0, block = 0; i < n; i += 32, block++) {
    out.set(sha256Of(`${label}/${block}`).subarray(0, Math.min(32, n - i)), i)
  }
  return out
}

/**
 * One-shot crypto.hash where Node has it (20.12 and later): no Hash object per 32 bytes of filler.
 *
 * @type {(text: string) => Uint8Array}
 */
const sha256Of = typeof crypto.hash === 'function'
  ? (text) => /** @type {Buffer} */ (crypto.hash('sha256', text, 'buffer'))
  : (text) => crypto.createHash('sha256').update(text).digest()

// A minimal hand encoder for the planted blocks (the codec would refuse to write them).
/** @param {number} major @param {number} n @returns {number[]} */
const head = (major, n) => n < 24 ? [major << 5 | n] : n < 256 ? [major << 5 | 24, n] : [major << 5 | 25, n >> 8, n & 255]
/** @param {string} s */
const text = (s) => { const b = new TextEncoder().encode(s); return [...head(3, b.length), ...b] }
/** @param {number} x a float64, big-endian */
const float64 = (x) => { const b = new Uint8Array(9); b[0] = 0xfb; new DataView(b.buffer).setFloat64(1, x); return [...b] }

/** A post record whose keys are in insertion order, not length-first order ("createdAt" comes first). */
function unsortedKeysRecord () {
  return new Uint8Array([
    ...head(5, 3),
    ...text('createdAt'), ...text('2024-06-01T12:00:00.000Z'),
    ...text('$type'), ...text('app.bsky.feed.post'),
    ...text('text'), ...text('keys written in the wrong order on purpose')
  ])
}

/** A Filecoin-like [miner, height] tuple whose height 42 is written as a 32-bit int (0x1a 0000002a). */
function nonShortestIntTuple () {
  return new Uint8Array([...head(4, 2), ...head(2, 3), 0x00, 0xe8, 0x07, 0x1a, 0x00, 0x00, 0x00, 0x2a])
}

/**
 * A canonical block as a Go program writes it: {"Epoch": 42, "Ticket": [h'010203', 1.0], "Weight": 2.0}
 * with 1.0 and 2.0 as float64. Valid, canonical DAG-CBOR; JavaScript reads Numbers 1 and 2 and
 * would write them back as integers.
 */
function goFloatsRecord () {
  return new Uint8Array([
    ...head(5, 3),
    ...text('Epoch'), ...head(0, 42),
    ...text('Ticket'), ...head(4, 2), ...head(2, 3), 1, 2, 3, ...float64(1),
    ...text('Weight'), ...float64(2)
  ])
}

/**
 * Build the sample CAR.
 *
 * @returns {Promise<{ bytes: Uint8Array, expected: import('../lib/node/sample.js').SampleExpectation, blocks: number }>}
 */
export async function buildSampleCar () {
  // sha2-256 and blake2b-256 through the hashers verify checks with (blake2b-256 loaded now, as
  // checking the sample needs it)
  await loadHasher(BLAKE2B_256)
  const hasher = (/** @type {number} */ code) => ({ digest: (/** @type {Uint8Array} */ bytes) => createDigest(code, /** @type {Uint8Array} */ (digestOf(code, bytes))) })
  const sha256 = hasher(SHA2_256)
  const blake2b256 = hasher(BLAKE2B_256)
  /** @type {{ cid: CID, bytes: Uint8Array }[]} */
  const blocks = []
  /** @typedef {{ digest: (bytes: Uint8Array) => any }} Hasher sha2-256, blake2b-256, identity: synchronous here */
  const add = (/** @type {Uint8Array} */ bytes, /** @type {Hasher} */ hasher = sha256, code = DAG_CBOR) => {
    const cid = CID.create(1, code, /** @type {any} */ (hasher.digest(bytes)))
    blocks.push({ cid, bytes })
    return cid
  }
  const addValue = (/** @type {any} */ value, /** @type {Hasher} */ hasher = sha256) => add(encode(value), hasher)

  // raw "image" blobs, referenced from the posts
  const blobs = Array.from({ length: 12 }, (_, i) => add(filler(`blob ${i}`, 1024 + 512 * i), sha256, RAW))

  // AT-Protocol-like: post records, MST-like nodes of 20 entries chained by "l", a signed commit
  const words = ['ipld', 'cbor', 'canonical', 'bytes', 'links', 'blocks', 'hash', 'car', 'stream', 'record']
  const unsorted = add(unsortedKeysRecord())
  const records = Array.from({ length: 200 }, (_, i) => {
    if (i === 137) return unsorted // a planted non-canonical record, linked from the tree like the rest
    const post = {
      $type: 'app.bsky.feed.post',
      text: Array.from({ length: 3 + (i * 7) % 17 }, (_, w) => words[(i + w * 3) % words.length]).join(' '),
      createdAt: new Date(Date.UTC(2024, 0, 1) + i * 61000).toISOString(),
      langs: i % 5 === 0 ? ['en', 'ja'] : ['en']
    }
    if (i % 9 === 0) {
      Object.assign(post, {
        embed: {
          $type: 'app.bsky.embed.images',
          images: [{ alt: `image ${i}`, image: { $type: 'blob', ref: blobs[i % blobs.length], mimeType: 'image/jpeg', size: 1024 + 512 * (i % blobs.length) } }]
        }
      })
    }
    return addValue(post)
  })
  /** @type {CID | null} */
  let left = null
  for (let i = 0; i < records.length; i += 20) {
    const entries = records.slice(i, i + 20).map((v, j) => ({ p: j === 0 ? 0 : 12, k: new TextEncoder().encode(`app.bsky.feed.post/3k${(i + j).toString(36).padStart(8, '0')}`), v, t: null }))
    left = addValue({ l: left, e: entries })
  }
  const commit = addValue({ did: 'did:plc:sample0000000000000000', version: 3, data: left, rev: '3ksample0000', prev: null, sig: filler('sig', 64) })

  // HAMT-like (Filecoin actor state): [bitfield, [pointer...]], pointers are [[key, value]] buckets
  const actors = Array.from({ length: 16 }, (_, n) => {
    const buckets = Array.from({ length: 8 }, (_, b) => [[filler(`key ${n}/${b}`, 4), [blobs[(n + b) % blobs.length], null, (n * 131 + b * 17) % 1000, filler(`nonce ${n}/${b}`, 9)]]])
    return addValue([filler(`bitfield ${n}`, 4), buckets], blake2b256)
  })
  const hamtRoot = addValue([new Uint8Array([0xff, 0xff]), actors], blake2b256)

  // Filecoin-header-like tuples, a chain linked by parents, each with a messages block
  /** @type {CID | null} */
  let parent = null
  for (let height = 0; height < 40; height++) {
    const messages = addValue([left, commit], blake2b256)
    parent = addValue([
      new Uint8Array([0, 0xe8, 0x07]), [filler(`ticket ${height}`, 96)], [1, filler(`election ${height}`, 96)],
      [[height, filler(`beacon ${height}`, 96)]], [[3, filler(`post ${height}`, 192)]],
      parent ? [parent] : [], filler(`weight ${height}`, 8), height, hamtRoot, messages, messages,
      [2, filler(`bls ${height}`, 96)], 1700000000 + height * 30, [2, filler(`block sig ${height}`, 96)], 0, filler(`fee ${height}`, 4)
    ], blake2b256)
  }

  // nested lists and maps with every DAG-CBOR kind: ints of every width, negatives, floats,
  // booleans, null, byte strings, unicode text, links, deep nesting
  const nested = Array.from({ length: 8 }, (_, i) => {
    let deep = /** @type {any} */ ({ leaf: i, link: records[i] })
    for (let d = 0; d < 12 + i; d++) deep = d % 2 ? [deep, d] : { [`level${d}`]: deep }
    return addValue({
      ints: [0, 23, 24, 255, 256, 65535, 65536, 2 ** 32, Number.MAX_SAFE_INTEGER, -1, -24, -25, -(2 ** 32) - 1, 2n ** 64n - 1n, -(2n ** 64n)],
      floats: [0.5, -1.25, 3.141592653589793, 1e300, -2.5e-300],
      flags: [true, false, null],
      bytes: [new Uint8Array(0), filler(`bytes ${i}`, 23), filler(`more bytes ${i}`, 300)],
      text: ['', 'ascii', 'ünïcödé', '日本語', '\u{1F480} astral'],
      deep
    })
  })

  const tiny = add(encode({ note: 'identity-hashed: the CID holds the bytes' }), identity)
  const tuple = add(nonShortestIntTuple())
  const floats = add(goFloatsRecord())

  const root = encode({ sample: 'dag-cbor-car', atproto: commit, filecoin: parent, hamt: hamtRoot, nested, planted: { tuple, floats }, tiny })
  const rootCid = CID.create(1, DAG_CBOR, /** @type {any} */ (sha256.digest(root)))
  blocks.unshift({ cid: rootCid, bytes: root })
  return {
    bytes: carBytes(rootCid, blocks),
    blocks: blocks.length,
    expected: {
      problems: [{ cid: unsorted.toString(), kind: 'non-canonical' }, { cid: tuple.toString(), kind: 'non-canonical' }],
      integralFloats: [floats.toString()]
    }
  }
}

/**
 * @param {CID} root
 * @param {{ cid: CID, bytes: Uint8Array }[]} blocks
 */
function carBytes (root, blocks) {
  /** @param {number} n */
  const varint = (n) => { const out = []; while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n >>>= 7 } out.push(n); return out }
  const header = encode({ roots: [root], version: 1 })
  /** @type {Uint8Array[]} */
  const parts = [Uint8Array.from(varint(header.length)), header]
  for (const { cid, bytes } of blocks) parts.push(Uint8Array.from(varint(cid.bytes.length + bytes.length)), cid.bytes, bytes)
  const car = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) { car.set(p, at); at += p.length }
  return car
}

/**
 * Write lib/node/sample.car and lib/node/sample.json (its block count and planted CIDs), each whole
 * and renamed into place: a run started meanwhile reads the old files or the new ones.
 */
export async function writeSample () {
  const { bytes, expected, blocks } = await buildSampleCar()
  for (const [name, contents] of /** @type {const} */ ([['sample.car', bytes], ['sample.json', JSON.stringify({ blocks, expected })]])) {
    const file = fileURLToPath(new URL(`../lib/node/${name}`, import.meta.url))
    const partial = `${file}.${process.pid}.tmp`
    fs.writeFileSync(partial, contents)
    fs.renameSync(partial, file)
  }
}

// run directly: write lib/node/sample.car and sample.json
if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) await writeSample()
