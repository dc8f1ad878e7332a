// The embedded default input: a deterministic sample CAR generated in memory from a seed. Seeded
// ipld-garbage blocks plus Filecoin-header-like (blake2b-256), AT-Protocol-record-like (sha2-256) and
// HAMT-like shapes, all linked by CID from one root, plus two deliberately non-canonical blocks whose
// bytes are built by hand (unsorted map keys; a non-shortest integer) and one identity-hashed block.
import { CarWriter } from '@ipld/car/writer'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { identity } from 'multiformats/hashes/identity'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import { garbage } from 'ipld-garbage'
import { encode } from '../../index.js'
import { mulberry32, withMathRandom } from '../../test/helpers/prng.js'

export const SAMPLE_SEED = 20240601
const DAG_CBOR = 0x71
const RAW = 0x55

// Minimal hand encoder for the deliberately non-canonical blocks (the codec would refuse to write them).
/** @param {number} major @param {number} n @returns {number[]} */
const head = (major, n) => n < 24 ? [major << 5 | n] : n < 256 ? [major << 5 | 24, n] : [major << 5 | 25, n >> 8, n & 255]
/** @param {string} s */
const text = (s) => { const b = new TextEncoder().encode(s); return [...head(3, b.length), ...b] }

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
 * Generate the sample CAR.
 *
 * @param {number} seed
 * @param {{ garbageBlocks?: number }} [options]
 * @returns {Promise<Uint8Array>}
 */
export async function sampleCar (seed, { garbageBlocks = 1500 } = {}) {
  const rnd = mulberry32(seed)
  const int = (/** @type {number} */ n) => Math.floor(rnd() * n)
  const randomBytes = (/** @type {number} */ n) => Uint8Array.from({ length: n }, () => int(256))
  /** @type {{ cid: CID, bytes: Uint8Array }[]} */
  const blocks = []
  const add = (/** @type {Uint8Array} */ bytes, hasher = sha256, code = DAG_CBOR) => {
    const cid = CID.create(1, code, /** @type {any} */ (hasher.digest(bytes)))
    blocks.push({ cid, bytes })
    return cid
  }
  const addValue = (/** @type {any} */ value, hasher = sha256) => add(encode(value), hasher)

  // raw "image" blobs, referenced from AT-Protocol-like posts
  const blobs = Array.from({ length: 12 }, () => add(randomBytes(1024 + int(16384)), sha256, RAW))

  // AT-Protocol-like: post records in an MST-like tree, and a signed commit pointing at it
  const base = Date.UTC(2024, 0, 1)
  const words = ['ipld', 'cbor', 'canonical', 'bytes', 'links', 'blocks', 'hash', 'car', 'stream', 'record']
  const records = Array.from({ length: 400 }, (_, i) => {
    const post = {
      $type: 'app.bsky.feed.post',
      text: Array.from({ length: 3 + int(20) }, () => words[int(words.length)]).join(' '),
      createdAt: new Date(base + i * 61000 + int(60000)).toISOString(),
      langs: ['en']
    }
    if (i % 9 === 0) {
      Object.assign(post, {
        embed: {
          $type: 'app.bsky.embed.images',
          images: [{ alt: `image ${i}`, image: { $type: 'blob', ref: blobs[i % blobs.length], mimeType: 'image/jpeg', size: 1000 + i } }]
        }
      })
    }
    return addValue(post)
  })
  let left = null
  for (let i = 0; i < records.length; i += 20) {
    const entries = records.slice(i, i + 20).map((v, j) => ({ p: j === 0 ? 0 : 12, k: new TextEncoder().encode(`app.bsky.feed.post/3k${(i + j).toString(36).padStart(8, '0')}`), v, t: null }))
    left = addValue({ l: left, e: entries })
  }
  const commit = addValue({ did: 'did:plc:sample0000000000000000', version: 3, data: left, rev: '3ksample0000', prev: null, sig: randomBytes(64) })

  // HAMT-like (Filecoin actor state): [bitfield, [pointer...]], pointers are links or [[key, value]] buckets
  const actors = Array.from({ length: 16 }, (_, n) => {
    const buckets = Array.from({ length: 8 }, (_, b) => [[randomBytes(4), [blobs[(n + b) % blobs.length], null, int(1000), randomBytes(9)]]])
    return addValue([randomBytes(4), buckets], blake2b256)
  })
  const hamtRoot = addValue([new Uint8Array([0xff, 0xff]), actors], blake2b256)

  // Filecoin-header-like tuples, a chain linked by parents
  let parent = null
  for (let height = 0; height < 60; height++) {
    const messages = addValue([left, commit], blake2b256)
    parent = addValue([
      new Uint8Array([0, 0xe8, 0x07]), [randomBytes(96)], [1, randomBytes(96)], [[height, randomBytes(96)]], [[3, randomBytes(192)]],
      parent ? [parent] : [], randomBytes(8), height, hamtRoot, messages, messages, [2, randomBytes(96)],
      1700000000 + height * 30, [2, randomBytes(96)], 0, randomBytes(4)
    ], blake2b256)
  }

  // seeded ipld-garbage (its CIDs are a foreign multiformats copy: the codec must encode them too)
  const junk = Array.from({ length: garbageBlocks }, () => addValue(withMathRandom(rnd, () => garbage(300))))

  const odd = [add(unsortedKeysRecord()), add(nonShortestIntTuple())]
  const tiny = add(encode({ note: 'identity-hashed' }), identity)

  const root = encode({ sample: 'dag-cbor-car', seed, atproto: commit, filecoin: parent, hamt: hamtRoot, garbage: junk, odd, tiny })
  const rootCid = CID.create(1, DAG_CBOR, sha256.digest(root))
  const { writer, out } = CarWriter.create([rootCid])
  const collected = (async () => {
    const chunks = []
    for await (const c of out) chunks.push(c)
    return chunks
  })()
  await writer.put({ cid: rootCid, bytes: root })
  for (const b of blocks) await writer.put(b)
  await writer.close()
  const chunks = await collected
  const car = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
  let at = 0
  for (const c of chunks) { car.set(c, at); at += c.length }
  return car
}
