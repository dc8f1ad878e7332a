// What the CARv2 index check costs (issue 61, items 4 and 5): builds, in the OS temp dir, a CARv2 of many
// small blocks with a MultihashIndexSorted index as go-car writes it, the same payload without its index,
// and one block repeated N times with every copy in the index; runs `verify --workers 1` on each under
// /usr/bin/time -v and prints the wall time, the peak RSS and the ratio of the indexed file's peak to the
// unindexed one's (the target: within 2x). Never run from the tests: it takes a minute or more.
//
// Usage: node car/bench/carv2-index.js [--blocks N] [--copies N] [--keep]
//   --blocks N   distinct blocks in the first two files (default 400000, about 32 MB)
//   --copies N   copies of the one block in the third (default 200000, about 15.6 MB)
//   --keep       leave the files in the temp dir (their paths are printed)
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'

const TOOL = fileURLToPath(new URL('../bin/dag-cbor-car.js', import.meta.url))
const SHA2_256 = 0x12

const args = process.argv.slice(2)
if (args.includes('--help') || args.includes('-h')) {
  console.log('usage: node car/bench/carv2-index.js [--blocks N] [--copies N] [--keep]')
  process.exit(0)
}
const option = (/** @type {string} */ name, /** @type {number} */ fallback) => {
  const at = args.indexOf(name)
  return at === -1 ? fallback : Number(args[at + 1])
}
const blockCount = option('--blocks', 400_000)
const copyCount = option('--copies', 200_000)

/** @param {number} n */
function varint (n) {
  const out = []
  while (n >= 0x80) { out.push((n % 0x80) | 0x80); n = Math.floor(n / 0x80) }
  out.push(n)
  return Buffer.from(out)
}

/** @param {Uint8Array} bytes a DAG-CBOR block, its CID (sha2-256) and digest */
function block (bytes) {
  const digest = createHash('sha256').update(bytes).digest()
  return { cid: CID.create(1, dagCbor.code, createDigest(SHA2_256, digest)), digest, bytes }
}

/**
 * A CARv2: the pragma, its header, the CARv1 payload, and the index (none when `withIndex` is false:
 * index offset 0), as go-car's MultihashIndexSorted: one code, one bucket of 40-byte records sorted by digest.
 *
 * @param {string} file
 * @param {{ cid: CID, digest: Buffer, bytes: Uint8Array }[]} blocks in CAR order (repeats allowed)
 * @param {boolean} withIndex
 */
function writeCarV2 (file, blocks, withIndex) {
  const header = dagCbor.encode({ roots: [blocks[0].cid], version: 1 })
  const parts = [varint(header.length), header]
  let size = parts[0].length + header.length
  const offsets = []
  for (const b of blocks) {
    offsets.push(size)
    const length = varint(b.cid.bytes.length + b.bytes.length)
    parts.push(length, b.cid.bytes, b.bytes)
    size += length.length + b.cid.bytes.length + b.bytes.length
  }
  const dataOffset = 51
  const fixed = Buffer.alloc(51)
  Buffer.from([0x0a, 0xa1, 0x67, 0x76, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e, 0x02]).copy(fixed, 0)
  fixed.writeBigUInt64LE(BigInt(dataOffset), 27)
  fixed.writeBigUInt64LE(BigInt(size), 35)
  fixed.writeBigUInt64LE(withIndex ? BigInt(dataOffset + size) : 0n, 43)
  const out = [fixed, ...parts]
  if (withIndex) {
    const order = blocks.map((_, i) => i).sort((a, b) => Buffer.compare(blocks[a].digest, blocks[b].digest) || a - b)
    const records = Buffer.alloc(40 * blocks.length)
    order.forEach((i, k) => {
      blocks[i].digest.copy(records, 40 * k)
      records.writeBigUInt64LE(BigInt(offsets[i]), 40 * k + 32)
    })
    const head = Buffer.alloc(2 + 4 + 8 + 4 + 4 + 8)
    head.set([0x81, 0x08], 0) // MultihashIndexSorted, 0x0401, as a varint
    head.writeInt32LE(1, 2) // one multihash code
    head.writeBigUInt64LE(BigInt(SHA2_256), 6)
    head.writeInt32LE(1, 14) // one bucket
    head.writeUInt32LE(40, 18)
    head.writeBigUInt64LE(BigInt(records.length), 22)
    out.push(head, records)
  }
  fs.writeFileSync(file, Buffer.concat(out))
}

/** @param {string} file @returns {{ exit: number | null, wall: number, rssMB: number }} */
function measure (file) {
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, TOOL, 'verify', '--workers', '1', file], { encoding: 'utf8', maxBuffer: 1 << 26 })
  if (r.error) throw r.error
  const wallText = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)/.exec(r.stderr)?.[1] ?? ''
  const wall = wallText.split(':').reduce((sum, part) => sum * 60 + Number(part), 0)
  const rssKB = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1])
  return { exit: r.status, wall, rssMB: rssKB / 1024 }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carv2-index-bench-'))
try {
  const blocks = []
  for (let i = 0; i < blockCount; i++) blocks.push(block(dagCbor.encode({ n: i, s: 'small block, about eighty bytes' })))
  const indexed = path.join(dir, `${blockCount}-indexed.car`)
  const plain = path.join(dir, `${blockCount}-no-index.car`)
  const copies = path.join(dir, `${copyCount}-copies-indexed.car`)
  writeCarV2(indexed, blocks, true)
  writeCarV2(plain, blocks, false)
  const one = block(dagCbor.encode({ n: -1, s: 'one block, repeated many times' }))
  writeCarV2(copies, new Array(copyCount).fill(one), true)
  blocks.length = 0

  const rows = [[`${blockCount} blocks, with its index`, indexed], [`${blockCount} blocks, no index`, plain], [`1 block x ${copyCount}, every copy indexed`, copies]]
  /** @type {Record<string, ReturnType<typeof measure>>} */
  const results = {}
  for (const [name, file] of rows) {
    const m = results[name] = measure(file)
    const mb = (fs.statSync(file).size / 1e6).toFixed(1)
    console.log(`${name.padEnd(40)} ${mb.padStart(6)} MB  exit ${m.exit}  ${m.wall.toFixed(2).padStart(7)} s wall  ${m.rssMB.toFixed(0).padStart(6)} MB peak RSS`)
  }
  const ratio = results[rows[0][0]].rssMB / results[rows[1][0]].rssMB
  console.log(`peak RSS, indexed / no index: ${ratio.toFixed(2)}x (target: at most 2x)`)
  if (args.includes('--keep')) console.log(`files kept in ${dir}`)
} finally {
  if (!args.includes('--keep')) fs.rmSync(dir, { recursive: true, force: true })
}
