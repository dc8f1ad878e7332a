// Bench (issue 63): a CAR of small records, read by every hashed path of the library beside the
// fastest JS reader (@atcute/car), that reader plus a hash call per block, @ipld/car, and the floor
// (@atcute/car's section walk and crypto.hash('sha256') of each block: the same sections found and
// hashed, nothing else). The CAR: 200,000 records like app.bsky.feed.post (about 585 B of DAG-CBOR
// each, sha2-256 CIDs, dag-cbor codec), deterministic, written to the OS temp dir and removed after.
// Each row runs in a process of its own (small-records-rows.js: the CAR in memory and the modules
// imported before its clock starts, then one pass), rows interleaved round by round (order flipped
// every other round); `dag-cbor-car verify` is timed as a user runs it, the whole process. Medians
// with min-max, and the targets as ratios of the medians.
//
// Usage: node bench/small-records.js [--runs 3] [--records 200000] [--car FILE]
//        node bench/small-records.js --make FILE [--records 200000]   only write the CAR
//        (npm run bench:car -- --only small-records)
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import * as ours from 'dag-cbor-fast'

const here = path.dirname(fileURLToPath(import.meta.url))

/** @param {number} n @returns {number[]} */
const varint = (n) => {
  const out = []
  while (n >= 0x80) { out.push((n % 0x80) | 0x80); n = Math.floor(n / 0x80) }
  out.push(n)
  return out
}

/**
 * A CAR of `records` post-like DAG-CBOR records, each its own sha2-256 dag-cbor CID: text of 20 to
 * 620 characters, a creation time, languages, and for about half a reply's two strong references (a
 * CID string and an at:// URI each), a third a facet: the shape of app.bsky.feed.post. Deterministic.
 *
 * @param {string} file
 * @param {number} records
 * @returns {{ bytes: number, blocks: number, mean: number }}
 */
export function makeSmallRecordsCar (file, records) {
  let seed = 0x2545f491
  const rnd = () => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) / 2 ** 32 }
  const word = () => Math.floor(rnd() * 36 ** 5).toString(36).slice(0, 2 + Math.floor(rnd() * 7))
  const tid = () => Math.floor(rnd() * 2 ** 52).toString(32).padStart(13, '2')
  const did = () => `did:plc:${Math.floor(rnd() * 2 ** 52).toString(32)}${Math.floor(rnd() * 2 ** 52).toString(32)}`.slice(0, 32)
  const cidOf = (/** @type {Uint8Array} */ bytes) => CID.createV1(0x71, createDigest(0x12, crypto.hash('sha256', bytes, 'buffer')))
  /** @type {CID[]} */
  const recent = []
  const ref = () => ({ cid: (recent[Math.floor(rnd() * recent.length)] ?? cidOf(new Uint8Array(1))).toString(), uri: `at://${did()}/app.bsky.feed.post/${tid()}` })
  /** @type {Uint8Array[]} */
  const chunks = []
  let size = 0
  let blockBytes = 0
  const put = (/** @type {Uint8Array | number[]} */ b) => { const u = b instanceof Uint8Array ? b : Uint8Array.from(b); chunks.push(u); size += u.length }
  const block = (/** @type {CID} */ cid, /** @type {Uint8Array} */ bytes) => { put(varint(cid.bytes.length + bytes.length)); put(cid.bytes); put(bytes); blockBytes += bytes.length }
  const posts = []
  for (let n = 0; n < records; n++) {
    const words = []
    for (let length = 20 + Math.floor(rnd() * 600), chars = 0; chars < length;) { const w = word(); words.push(w); chars += w.length + 1 }
    const text = words.join(' ')
    /** @type {Record<string, unknown>} */
    const post = { $type: 'app.bsky.feed.post', text, langs: ['en'], createdAt: new Date(1.7e12 + n * 997).toISOString() }
    if (rnd() < 0.5) post.reply = { root: ref(), parent: ref() }
    if (rnd() < 0.33) {
      const at = Math.floor(rnd() * text.length)
      post.facets = [{ index: { byteStart: at, byteEnd: Math.min(text.length, at + 12) }, features: [{ $type: 'app.bsky.richtext.facet#link', uri: `https://example.com/${word()}/${word()}` }] }]
    }
    const bytes = ours.encode(post)
    const cid = cidOf(bytes)
    if (recent.length < 4096) recent.push(cid)
    else recent[n % 4096] = cid
    posts.push({ cid, bytes })
  }
  const header = ours.encode({ roots: [posts[0].cid], version: 1 })
  put(varint(header.length))
  put(header)
  for (const { cid, bytes } of posts) block(cid, bytes)
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) { out.set(c, at); at += c.length }
  fs.writeFileSync(file, out)
  return { bytes: size, blocks: records, mean: blockBytes / records }
}

/** the rows: [label, row of small-records-rows.js (or 'command'), checks hashes] */
const ROWS = /** @type {const} */ ([
  ['@atcute/car fromUint8Array (zero-copy views, lazy CIDs)', 'atcute-view', false],
  ['@atcute/car + node:crypto createHash(sha256) per block', 'atcute-createhash', true],
  ['floor: @atcute/car section walk + crypto.hash(sha256)', 'floor', true],
  ['@ipld/car CarBufferReader', 'ipld-buffer-reader', false],
  ['@ipld/car CarBlockIterator', 'ipld-iterator', false],
  ['ours CarBufferReader.fromBytes + blocks()', 'buffer-reader', true],
  ['ours CarReader.fromBytes + blocks()', 'reader', true],
  ['ours CarBlockIterator.fromBytes', 'iterator', true],
  ['ours CarBlockIterator, workers: 2', 'iterator-2', true],
  ['ours verifyCar', 'verify', true],
  ['ours verifyCar, workers: 2', 'verify-2', true],
  ['ours CarBlockIterator, verifyHashes: false, viewBytes', 'iterator-views', false],
  ['ours `dag-cbor-car verify` (whole process)', 'command', true]
])

/**
 * @param {{ runs?: number, records?: number, car?: string }} [options]
 */
export function smallRecords ({ runs = 3, records = 200000, car } = {}) {
  const file = car ?? path.join(os.tmpdir(), `dag-cbor-car-small-records-${process.pid}.car`)
  try {
    if (!car) {
      // made in a child process: in Linux a child's peak RSS starts from its parent's, so this
      // process stays small for the rows' figures to be their own
      const made = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--make', file, '--records', String(records)], { encoding: 'utf8' })
      if (made.status !== 0) throw new Error(`making the small-records CAR failed: ${made.stderr}`)
      process.stdout.write(made.stdout)
    }
    const size = fs.statSync(file).size
    const rowScript = path.join(here, 'small-records-rows.js')
    const bin = path.join(here, '..', 'bin', 'dag-cbor-car.js')
    console.log(`node ${process.version}, ${os.availableParallelism()} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${runs} runs of each row, interleaved; median (min-max)\n`)
    /** @type {Map<string, number[]>} */
    const ms = new Map(ROWS.map(([, row]) => [row, []]))
    /** @type {Map<string, number[]>} each pass's CPU time, all threads (not for the command) */
    const cpuMs = new Map(ROWS.map(([, row]) => [row, []]))
    /** @type {Map<string, number>} */
    const rss = new Map()
    /** @type {Map<string, string>} */
    const sums = new Map()
    for (let r = 0; r < runs; r++) {
      for (const [, row] of r % 2 ? [...ROWS].reverse() : ROWS) {
        if (row === 'command') {
          const t = performance.now()
          const p = spawnSync(process.execPath, [bin, 'verify', file], { encoding: 'utf8' })
          if (p.status !== 0) throw new Error(`dag-cbor-car verify failed (${p.status}): ${p.stderr}${p.stdout}`)
          ms.get(row)?.push(performance.now() - t)
          continue
        }
        const p = spawnSync(process.execPath, [rowScript, row, file], { encoding: 'utf8', maxBuffer: 1 << 20 })
        if (p.status !== 0) throw new Error(`row ${row} failed (${p.status}): ${p.stderr}`)
        const out = JSON.parse(p.stdout.trim().split('\n').pop() ?? '{}')
        ms.get(row)?.push(out.ms)
        cpuMs.get(row)?.push(out.cpuMs)
        rss.set(row, Math.max(rss.get(row) ?? 0, out.rss))
        if (out.sum) sums.set(row, `${out.blocks}/${out.sum}`)
      }
    }
    const middle = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
    const median = (/** @type {string} */ row) => middle(ms.get(row) ?? [])
    const cpu = (/** @type {string} */ row) => middle(cpuMs.get(row) ?? [])
    // the CPU time beside the wall time: on a loaded machine the wall time also counts waiting for a core
    console.log('| reader | checks hashes | ms | MB/s | CPU ms | peak RSS MB |')
    console.log('| --- | --- | ---: | ---: | ---: | ---: |')
    for (const [label, row, hashed] of ROWS) {
      const xs = ms.get(row) ?? []
      const cpuText = row === 'command' ? '-' : cpu(row).toFixed(0)
      console.log(`| ${label} | ${hashed ? 'yes' : 'no'} | ${median(row).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}) | ${(size / 1e3 / median(row)).toFixed(0)} | ${cpuText} | ${rss.has(row) ? (/** @type {number} */ (rss.get(row)) / 1e6).toFixed(0) : '-'} |`)
    }
    // the rows that hand out every block's bytes and digest agree on what they handed out
    const handed = new Set(['atcute-view', 'ipld-buffer-reader', 'ipld-iterator', 'buffer-reader', 'reader', 'iterator', 'iterator-2', 'iterator-views'].map((row) => sums.get(row)))
    if (handed.size !== 1) console.log(`\nTHE READERS DISAGREE on the blocks handed out (count/checksum): ${[...handed].join(', ')}`)

    const verdict = (/** @type {boolean} */ met) => met ? 'met' : 'NOT MET'
    const createHash = median('atcute-createhash')
    const floor = median('floor')
    console.log('\ntargets (issue 63), ratios of the medians (one-thread rows: the same ratios of CPU time in brackets):')
    for (const [label, row] of ROWS.filter(([, row, hashed]) => hashed && !['atcute-createhash', 'floor', 'iterator-2', 'verify-2'].includes(row))) {
      const t = median(row)
      const byCpu = row === 'command' ? '' : ` [${(cpu('atcute-createhash') / cpu(row)).toFixed(2)}x; ${(cpu(row) / cpu('floor')).toFixed(2)}x]`
      console.log(`  ${label}: ${(createHash / t).toFixed(2)}x @atcute/car + createHash (at least 1.3x) ${verdict(createHash / t >= 1.3)}; ${(t / floor).toFixed(2)}x the floor's time (at most 1.25x) ${verdict(t / floor <= 1.25)}${byCpu}`)
    }
    for (const row of ['iterator-2', 'verify-2']) {
      const t = median(row)
      console.log(`  ${ROWS.find(([, r]) => r === row)?.[0]}: ${(createHash / t).toFixed(2)}x @atcute/car + createHash (at least 2.5x) ${verdict(createHash / t >= 2.5)}`)
    }
    const bufferReader = median('buffer-reader')
    console.log(`  ours CarBufferReader / ours CarBlockIterator: ${(bufferReader / median('iterator')).toFixed(2)}x the time (at most 1.1x) ${verdict(bufferReader / median('iterator') <= 1.1)} [${(cpu('buffer-reader') / cpu('iterator')).toFixed(2)}x]`)
    console.log(`  ours CarBufferReader vs @ipld/car CarBufferReader (unhashed): ${(median('ipld-buffer-reader') / bufferReader).toFixed(2)}x (at least 2x) ${verdict(median('ipld-buffer-reader') / bufferReader >= 2)} [${(cpu('ipld-buffer-reader') / cpu('buffer-reader')).toFixed(2)}x]`)
    const views = median('iterator-views')
    console.log(`  ours verifyHashes: false + viewBytes / @atcute/car fromUint8Array: ${(views / median('atcute-view')).toFixed(2)}x the time (at most 2x) ${verdict(views / median('atcute-view') <= 2)} [${(cpu('iterator-views') / cpu('atcute-view')).toFixed(2)}x]`)
  } finally {
    if (!car) fs.rmSync(file, { force: true })
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, records: { type: 'string', default: '200000' }, car: { type: 'string' }, make: { type: 'string' } } })
  if (values.make) {
    const made = makeSmallRecordsCar(values.make, Number(values.records))
    console.log(`small records: ${made.blocks} post-like DAG-CBOR records, ${made.mean.toFixed(0)} B each on average, ${(made.bytes / 1e6).toFixed(0)} MB`)
  } else {
    smallRecords({ runs: Number(values.runs), records: Number(values.records), car: values.car })
  }
}
