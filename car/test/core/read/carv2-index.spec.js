// The CARv2 index check (issue 61, items 4 and 5): an index whose records are out of the order the
// CARv2 spec gives them (and go-car writes, and readers binary-search) is a problem naming its byte
// offset; one block repeated many times, every copy indexed, gets the right answer; what was right stays
// right. CARv2 files are built here by hand (the index as go-car lays it out: multihash codes ascending,
// buckets by width ascending, records by digest) or are go-car's own fixtures, corrupted in memory.
// How fast and small the check is, is measured by bench/carv2-index.js, not here.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { sha256, sha512 } from 'multiformats/hashes/sha2'
import { identity } from 'multiformats/hashes/identity'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import { carV1, carV2, section, varint } from '../../helpers/car-oracle.js'
import { verifyCar } from '../../../lib/node/node-library.js'
import { formatSummary } from '../../../lib/core/report/summary.js'

const V2_MH = fileURLToPath(new URL('../../fixtures/genesis-slice-v2.car', import.meta.url))
const V2_SORTED = fileURLToPath(new URL('../../fixtures/genesis-slice-v2-index-sorted.car', import.meta.url))
const PAYLOAD_AT = 51 // pragma and fixed header: where a CARv2 built here starts its payload

/**
 * @typedef {{ digest: Uint8Array, offset: number }} IndexRecord
 * @typedef {{ width: number, records: IndexRecord[] }} IndexBucket
 * @typedef {{ code: number, buckets: IndexBucket[] }} IndexCode
 * @typedef {{ cid: CID, bytes: Uint8Array }} Block
 */

/** @param {unknown} value @param {{ digest: (b: Uint8Array) => any }} [hasher] */
async function block (value, hasher = sha256) {
  const bytes = dagCbor.encode(value)
  return { cid: CID.create(1, dagCbor.code, await hasher.digest(bytes)), bytes }
}

/** @param {Uint8Array} a @param {Uint8Array} b */
const compareDigests = (a, b) => Buffer.compare(a, b)

/**
 * A CARv2 of `blocks` with an index laid out as go-car writes it, which `layout` may then rearrange.
 *
 * @param {Block[]} blocks in CAR order, the first one the root
 * @param {{ indexSorted?: boolean, withIdentity?: boolean, fullyIndexed?: boolean, layout?: (codes: IndexCode[]) => void }} [options]
 */
function indexedCar (blocks, { indexSorted = false, withIdentity = false, fullyIndexed = false, layout = () => {} } = {}) {
  const v1 = carV1([blocks[0].cid], blocks)
  const header = v1.length - blocks.reduce((n, b) => n + section(b).length, 0)
  /** @type {Map<number, Map<number, IndexRecord[]>>} code -> digest length -> records */
  const byCode = new Map()
  let offset = header
  for (const b of blocks) {
    const { code, digest } = b.cid.multihash
    if (code !== identity.code || withIdentity) {
      const key = indexSorted ? 0 : code
      if (!byCode.has(key)) byCode.set(key, new Map())
      const widths = /** @type {Map<number, IndexRecord[]>} */ (byCode.get(key))
      if (!widths.has(digest.length)) widths.set(digest.length, [])
      widths.get(digest.length)?.push({ digest, offset })
    }
    offset += section(b).length
  }
  /** @type {IndexCode[]} */
  const codes = [...byCode].sort((a, b) => a[0] - b[0]).map(([code, widths]) => ({
    code,
    buckets: [...widths].sort((a, b) => a[0] - b[0]).map(([length, records]) => ({ width: length + 8, records: records.sort((x, y) => compareDigests(x.digest, y.digest)) }))
  }))
  layout(codes)
  /** @param {IndexBucket[]} buckets */
  const bucketBytes = (buckets) => {
    const count = Buffer.alloc(4)
    count.writeInt32LE(buckets.length)
    return [count, ...buckets.flatMap(({ width, records }) => {
      const head = Buffer.alloc(12)
      head.writeUInt32LE(width)
      head.writeBigUInt64LE(BigInt(width * records.length), 4)
      return [head, ...records.map(({ digest, offset }) => {
        const record = Buffer.alloc(width)
        record.set(digest)
        record.writeBigUInt64LE(BigInt(offset), width - 8)
        return record
      })]
    })]
  }
  const parts = indexSorted
    ? [varint(0x0400), ...bucketBytes(codes.flatMap((c) => c.buckets))]
    : [varint(0x0401), Buffer.from(new Int32Array([codes.length]).buffer), ...codes.flatMap(({ code, buckets }) => {
        const c = Buffer.alloc(8)
        c.writeBigUInt64LE(BigInt(code))
        return [c, ...bucketBytes(buckets)]
      })]
  const car = carV2(v1, { indexOffset: PAYLOAD_AT + v1.length, trailer: Buffer.concat(parts) })
  if (fullyIndexed) car[11] = 0x80
  return car
}

/** the payload offsets of the sections of `blocks`, as indexedCar lays them out */
function sectionOffsets (/** @type {Block[]} */ blocks) {
  const v1 = carV1([blocks[0].cid], blocks)
  let at = v1.length - blocks.reduce((n, b) => n + section(b).length, 0)
  return blocks.map((b) => { const here = at; at += section(b).length; return here })
}

/** @param {Uint8Array} car */
async function check (car) {
  const s = await verifyCar(car, { relaxed: true })
  return { result: s.result, index: s.index, problems: s.problems.filter((/** @type {any} */ p) => p.kind === 'index').map((/** @type {any} */ p) => [p.at, p.message]) }
}

/**
 * A go-car fixture's index buckets: where each record starts in the file, by bucket.
 *
 * @param {Buffer} car
 * @returns {{ width: number, records: number[] }[]}
 */
function fixtureBuckets (car) {
  const indexOffset = Number(car.readBigUInt64LE(43))
  let at = indexOffset
  const format = (car[at] & 0x7f) | (car[at + 1] << 7) // a two-byte varint
  at += 2
  let codes = 1
  if (format === 0x0401) { codes = car.readInt32LE(at); at += 4 }
  const out = []
  for (let c = 0; c < codes; c++) {
    if (format === 0x0401) at += 8
    const buckets = car.readInt32LE(at)
    at += 4
    for (let k = 0; k < buckets; k++) {
      const width = car.readUInt32LE(at)
      const length = Number(car.readBigUInt64LE(at + 4))
      at += 12
      const records = []
      for (let r = 0; r < length / width; r++) records.push(at + r * width)
      out.push({ width, records })
      at += length
    }
  }
  return out
}

describe('the CARv2 index check', function () {
  this.timeout(60000)

  describe('records out of order are a problem, naming the byte offset', () => {
    for (const [file, format] of [[V2_SORTED, 'IndexSorted'], [V2_MH, 'MultihashIndexSorted']]) {
      it(`${format} (written by go-car): two records of a bucket swapped; the blocks still all match, but a reader would miss some`, async () => {
        const clean = fs.readFileSync(file)
        const bucket = fixtureBuckets(clean).sort((a, b) => b.records.length - a.records.length)[0]
        assert.ok(bucket.records.length >= 4)
        const [first, second] = bucket.records.slice(1, 3)
        const car = Buffer.from(clean)
        car.set(clean.subarray(second, second + bucket.width), first)
        car.set(clean.subarray(first, first + bucket.width), second)
        const r = await check(car)
        assert.deepEqual(r.index, { format, entries: 33, problems: 1 })
        assert.equal(r.result, 'fail')
        assert.equal(r.problems.length, 1)
        const [at, message] = r.problems[0]
        assert.equal(at, second) // the record that sorts before the one ahead of it
        assert.match(message, new RegExp(`^CARv2 index record at byte offset ${second} is out of order: its digest sorts before the previous record's`))
        // the summary's index line counts problems, not only mismatches with the blocks (there are none here)
        const line = formatSummary(/** @type {any} */ (await verifyCar(new Uint8Array(car)))).split('\n').find((l) => l.startsWith('  index'))
        assert.equal(line, `  index       CARv2 ${format}, 33 entries: 1 problem (see problems: records that do not match the blocks or are out of order)`)
      })
    }

    it('a bucket reversed: each record after the first is out of order', async () => {
      const blocks = []
      for (let i = 0; i < 12; i++) blocks.push(await block({ i }))
      const r = await check(indexedCar(blocks, { layout: (codes) => codes[0].buckets[0].records.reverse() }))
      assert.equal(r.index?.problems, 11)
      assert.equal(r.problems.length, 10) // the summary keeps ten
      for (const [, message] of r.problems) assert.match(message, /^CARv2 index record at byte offset \d+ is out of order/)
    })

    it('buckets not by width, smallest first, or a width twice (a reader keeps one bucket per width)', async () => {
      /** @param {unknown} value an identity-CID block: its digest is its bytes */
      const inline = (value) => {
        const bytes = dagCbor.encode(value)
        return { cid: CID.create(1, dagCbor.code, identity.digest(bytes)), bytes }
      }
      const cases = [
        // IndexSorted: one list of buckets, here sha2-256's 40-byte records and sha2-512's 72-byte ones
        { indexSorted: true, blocks: [await block({ a: 1 }), await block({ b: 2 }, sha512), await block({ c: 3 }), await block({ d: 4 }, sha512)], small: 40, large: 72 },
        // MultihashIndexSorted: buckets by width within one code, here identity digests of 4 and 11 bytes
        { indexSorted: false, withIdentity: true, blocks: [await block({ a: 1 }), inline({ x: 1 }), inline({ x: 'abcdefg' }), inline({ x: 2 })], small: 12, large: 19 }
      ]
      for (const { blocks, small, large, ...options } of cases) {
        const swapped = await check(indexedCar(blocks, { ...options, layout: (codes) => codes[0].buckets.reverse() }))
        assert.equal(swapped.index?.problems, 1, JSON.stringify(swapped))
        assert.match(swapped.problems[0][1], new RegExp(`^CARv2 index bucket of ${small}-byte records at byte offset \\d+ is out of order: it follows one of ${large}-byte records`))
        const split = await check(indexedCar(blocks, {
          ...options,
          layout: (codes) => {
            const [first] = codes[0].buckets
            codes[0].buckets.splice(1, 0, { width: first.width, records: first.records.splice(1) })
          }
        }))
        assert.equal(split.index?.problems, 1, JSON.stringify(split))
        assert.match(split.problems[0][1], new RegExp(`^CARv2 index bucket of ${small}-byte records at byte offset \\d+ is out of order: it follows one of ${small}-byte records`))
      }
    })

    it('MultihashIndexSorted: multihash codes not ascending, or one code twice', async () => {
      const blocks = [await block({ a: 1 }), await block({ b: 2 }, blake2b256), await block({ c: 3 })]
      const reversed = await check(indexedCar(blocks, { layout: (codes) => codes.reverse() }))
      assert.equal(reversed.index?.problems, 1, JSON.stringify(reversed))
      assert.match(reversed.problems[0][1], /^CARv2 index multihash code 0x12 at byte offset \d+ is out of order: it follows code 0xb220/)
      const twice = await check(indexedCar(blocks, {
        layout: (codes) => {
          const sha = codes[0]
          codes.splice(1, 0, { code: sha.code, buckets: [{ width: 40, records: sha.buckets[0].records.splice(1) }] })
        }
      }))
      assert.equal(twice.index?.problems, 1, JSON.stringify(twice))
      assert.match(twice.problems[0][1], /^CARv2 index multihash code 0x12 at byte offset \d+ is out of order: it follows code 0x12/)
    })

    it('records of equal digests may be in any order of offsets (go-car\'s sort is not stable)', async () => {
      const one = await block({ once: 'repeated' })
      const blocks = [one, one, one, one]
      const r = await check(indexedCar(blocks, { layout: (codes) => codes[0].buckets[0].records.reverse() }))
      assert.deepEqual(r.index, { format: 'MultihashIndexSorted', entries: 4, problems: 0 })
      assert.equal(r.result, 'ok')
    })
  })

  describe('one block repeated many times', () => {
    /** @type {Block[]} */
    let copies
    /** @type {number[]} */
    let offsets
    before(async () => {
      copies = new Array(3000).fill(await block({ many: 'copies' }))
      offsets = sectionOffsets(copies)
    })

    it('every copy in the index: the index matches', async () => {
      for (const indexSorted of [false, true]) {
        const r = await check(indexedCar(copies, { indexSorted }))
        assert.deepEqual(r.index, { format: indexSorted ? 'IndexSorted' : 'MultihashIndexSorted', entries: 3000, problems: 0 })
        assert.equal(r.result, 'ok')
      }
    })

    it('only the first copy in the index: the index matches (a CID listed once is found)', async () => {
      const r = await check(indexedCar(copies, { layout: (codes) => codes[0].buckets[0].records.splice(1) }))
      assert.deepEqual(r.index, { format: 'MultihashIndexSorted', entries: 1, problems: 0 })
    })

    it('one copy\'s record pointing between sections: that entry is the one problem', async () => {
      const wrong = offsets[1500] + 1
      const r = await check(indexedCar(copies, { layout: (codes) => { codes[0].buckets[0].records[1500].offset = wrong } }))
      assert.deepEqual(r.index, { format: 'MultihashIndexSorted', entries: 3000, problems: 1 })
      assert.deepEqual(r.problems, [[PAYLOAD_AT + wrong, `CARv2 index lists a block at byte offset ${PAYLOAD_AT + wrong}, where no block starts`]])
    })

    it('the first copy left out: its block is given the other offsets, the first few listed', async () => {
      const r = await check(indexedCar(copies, { layout: (codes) => codes[0].buckets[0].records.shift() }))
      assert.equal(r.index?.problems, 1)
      const listed = offsets.slice(1, 9).map((o) => PAYLOAD_AT + o).join(', ')
      assert.deepEqual(r.problems, [[PAYLOAD_AT + offsets[0], `CARv2 index gives the block at byte offset ${PAYLOAD_AT + offsets[0]} the offsets ${listed} and 2991 more`]])
    })
  })

  describe('what was right stays right', () => {
    /** @type {Block[]} */
    let blocks
    /** @type {number[]} */
    let offsets
    before(async () => {
      blocks = [await block({ root: true })]
      for (let i = 0; i < 40; i++) blocks.push(await block({ i }, i % 3 === 0 ? blake2b256 : sha256))
      const inline = dagCbor.encode({ inline: 1 })
      blocks.push({ cid: CID.create(1, dagCbor.code, identity.digest(inline)), bytes: inline })
      offsets = sectionOffsets(blocks)
    })

    it('an index as go-car writes it matches, in both formats, identity CIDs listed or not', async () => {
      for (const indexSorted of [false, true]) {
        for (const withIdentity of [false, true]) {
          const r = await check(indexedCar(blocks, { indexSorted, withIdentity }))
          assert.deepEqual(r.index, { format: indexSorted ? 'IndexSorted' : 'MultihashIndexSorted', entries: withIdentity ? 42 : 41, problems: 0 })
          assert.equal(r.result, 'ok')
        }
      }
    })

    it('a CIDv0 block, whose multihash is the whole CID, is matched too', async () => {
      const bytes = new Uint8Array([0x0a, 0x02, 0x08, 0x01]) // a dag-pb node
      const v0 = { cid: CID.createV0(await sha256.digest(bytes)), bytes }
      const r = await check(indexedCar([...blocks, v0]))
      assert.deepEqual(r.index, { format: 'MultihashIndexSorted', entries: 42, problems: 0 })
    })

    it('a block left out, an entry where no block starts, an entry naming another block: each said, blocks first', async () => {
      // blocks 2, 3, 5 and 6 are sha2-256 ones (the first bucket); block 6 stays listed
      const car = indexedCar(blocks, {
        layout: (codes) => {
          const sha = codes[0].buckets[0].records
          const find = (/** @type {number} */ i) => /** @type {IndexRecord} */ (sha.find((r) => r.offset === offsets[i]))
          sha.splice(sha.indexOf(find(2)), 1)
          find(3).offset += 1
          find(5).offset = offsets[6]
        }
      })
      const at = (/** @type {number} */ i) => PAYLOAD_AT + offsets[i]
      const r = await check(car)
      assert.deepEqual(r.index, { format: 'MultihashIndexSorted', entries: 40, problems: 5 })
      assert.deepEqual(r.problems.slice(0, 3), [
        [at(2), `CARv2 index does not list the block at byte offset ${at(2)}`],
        [at(3), `CARv2 index gives the block at byte offset ${at(3)} the offset ${at(3) + 1}`],
        [at(5), `CARv2 index gives the block at byte offset ${at(5)} the offset ${at(6)}`]
      ])
      // the entries in the index's order, which is by digest
      assert.deepEqual(r.problems.slice(3).sort((a, b) => a[0] - b[0]), [
        [at(3) + 1, `CARv2 index lists a block at byte offset ${at(3) + 1}, where no block starts`],
        [at(6), `CARv2 index names a different block than the one at byte offset ${at(6)}`]
      ])
    })

    it('fully indexed: an identity-CID block must be listed', async () => {
      const at = PAYLOAD_AT + offsets[41]
      const left = await check(indexedCar(blocks, { fullyIndexed: true }))
      assert.deepEqual(left.problems, [[at, `CARv2 index does not list the identity-CID block at byte offset ${at}, though the header says the CAR is fully indexed`]])
      const listed = await check(indexedCar(blocks, { fullyIndexed: true, withIdentity: true }))
      assert.deepEqual(listed.index, { format: 'MultihashIndexSorted', entries: 42, problems: 0 })
    })
  })
})
