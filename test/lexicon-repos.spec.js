// dag-cbor-fast/lexicon on real records: every record in the AT Protocol repo CARs of the test
// data (car/test/fixtures/atproto/, written by the atproto reference stack in 2023: posts with the
// deprecated `entities`, a legacy `{ cid, mimeType }` image blob, a profile with two blobs) is
// accepted by its type's codec against the published Lexicons, its value equal to generic
// decode's, validate agreeing, and encode(decode(bytes)) giving back its bytes.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { CarReader } from '@ipld/car'
import { compile } from '../lib/lexicon/index.js'
import { decode } from '../index.js'
import { publishedDocuments } from './helpers/lexicons.js'

const CARS = ['repo-small-v2.car', 'repo-slice-v2.car']

/**
 * @returns {Promise<Array<{ car: string, cid: string, bytes: Uint8Array, value: any }>>} each
 *   DAG-CBOR block that is a record (a map with a string $type)
 */
async function records () {
  const found = []
  for (const car of CARS) {
    const reader = await CarReader.fromBytes(fs.readFileSync(new URL(`../car/test/fixtures/atproto/${car}`, import.meta.url)))
    for await (const block of reader.blocks()) {
      if (block.cid.code !== 0x71) continue
      const value = decode(block.bytes)
      if (value !== null && typeof value === 'object' && typeof value.$type === 'string') found.push({ car, cid: block.cid.toString(), bytes: new Uint8Array(block.bytes), value })
    }
  }
  return found
}

describe('dag-cbor-fast/lexicon: the records of real repositories', () => {
  it('every record is accepted, decoded as generic decode does, and re-encoded to its bytes', async () => {
    const lexicons = compile(publishedDocuments())
    const all = await records()
    /** @type {Record<string, number>} */
    const byType = {}
    for (const { car, cid, bytes, value } of all) {
      const codec = lexicons.record(value.$type)
      const typed = codec.decode(bytes)
      assert.deepStrictEqual(typed, value, `${car} ${cid}`)
      codec.validate(bytes)
      assert.deepStrictEqual(codec.encode(typed), bytes, `${car} ${cid}`)
      byType[value.$type] = (byType[value.$type] ?? 0) + 1
    }
    // the counts of car/test/fixtures/README.md: 6 records in the small repo, the slice's one post
    assert.deepEqual(byType, { 'app.bsky.feed.post': 6, 'app.bsky.actor.profile': 1 })
  })

  it('the legacy blob is read as written and written back as read', async () => {
    const lexicons = compile(publishedDocuments())
    const legacy = (await records()).find((r) => r.value.embed?.images?.[0]?.image?.cid !== undefined)
    assert.ok(legacy, 'the slice holds a post with a legacy image blob')
    const codec = lexicons.record('app.bsky.feed.post')
    assert.deepEqual(Object.keys(codec.decode(legacy.bytes).embed.images[0].image).sort(), ['cid', 'mimeType'])
    assert.deepStrictEqual(codec.encode(codec.decode(legacy.bytes)), legacy.bytes)
  })

  it('a real post broken in one place is refused there', async () => {
    const lexicons = compile(publishedDocuments())
    const post = (await records()).find((r) => r.value.embed !== undefined)
    assert.ok(post)
    const codec = lexicons.record('app.bsky.feed.post')
    const broken = structuredClone(post.value)
    broken.embed.images[0].image.mimeType = 'video/mp4'
    assert.throws(() => codec.encode(broken), { rule: 'lexicon-blob-accept', path: '/embed/images/0/image' })
    const late = { ...post.value, createdAt: '2023-03-13T19:48:20' }
    assert.throws(() => codec.encode(late), { rule: 'lexicon-format', path: '/createdAt' })
  })
})
