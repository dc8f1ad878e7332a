#!/usr/bin/env node
// Retained-memory benchmark (run with --expose-gc):  node --expose-gc bench/memory.js [--json]
//   blocks : keep 100,000 decoded blocks alive (makeBlocks: 331-336 B, 4 CIDs each; the mean is printed) -> retained bytes per block
//   cids   : same decodes, keep only the 4 CIDs of each block      -> retained bytes per CID
//   kept   : decode a map { data: <1 MiB bytes>, link: CID }, keep only the CID (x2000; x16 when each pins the 1 MiB) -> bytes per kept CID
//   field96, field1k : decode 100,000 Filecoin-header-shaped blocks and keep one byte-string field of
//            each (a 96-byte VRF proof; a 1 KiB proof): what a program that keeps an index of tickets,
//            signatures or keys retains -> bytes per kept value
//   keptResult : encode { data: <512 B> } 40,000 times and keep every 16th result -> bytes per kept result
// Retained = (heapUsed + arrayBuffers) after gc, minus the same before. Every decode gets its own
// fresh copy of the input bytes (as if read from disk), so views into the input count as retained.
// Each codec x measurement runs in its own child process. Prints only; never fails.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import * as ref from '@ipld/dag-cbor'
import { mulberry32 as prng } from '../test/helpers/prng.js'
import { filecoinHeader } from './corpora.js'
const N_BLOCKS = 100000
const N_DISTINCT = 1000
const N_KEPT = 2000
const CODECS = ['ours', '@ipld/dag-cbor', 'cbor-x', '@atcute/cbor']
const MODES = ['blocks', 'cids', 'kept', 'field96', 'field1k', 'keptResult']
/** the modes where ours must retain at most what @ipld/dag-cbor retains */
const AT_MOST_REF = ['field96', 'field1k', 'keptResult']
const N_RESULTS = 40000
const KEEP_EVERY = 16
const passFlags = process.argv.filter((a) => a === '--ref-as-ours')
const codecs = process.argv.includes('--only-ours') ? ['ours'] : CODECS

function makeBlocks () {
  const rnd = prng(42)
  const bytes = (n) => { const b = new Uint8Array(n); for (let i = 0; i < n; i++) b[i] = (rnd() * 256) | 0; return b }
  const cid = () => CID.create(1, 0x71, createDigest(0x12, bytes(32)))
  const out = []
  for (let i = 0; i < N_DISTINCT; i++) {
    out.push(ref.encode({
      name: 'entry-' + i.toString(36).padStart(6, '0'),
      size: (rnd() * 1e9) | 0,
      mtime: 1700000000 + i,
      kind: i % 3 ? 'file' : 'directory',
      links: [cid(), cid(), cid(), cid()],
      meta: { owner: 'did:plc:' + i.toString(36).padStart(24, 'x'), mode: 0o644, tags: ['a', 'b'] },
      sig: bytes(40)
    }))
  }
  return out
}

/**
 * Filecoin-header-shaped blocks (bench/corpora.js's filecoinHeader) whose ticket proof is `fieldSize` bytes.
 * @param {number} fieldSize
 * @returns {Uint8Array[]}
 */
function makeHeaders (fieldSize) {
  const rnd = prng(5)
  const out = []
  for (let i = 0; i < N_DISTINCT; i++) {
    const header = filecoinHeader(rnd, i)
    header[1] = [Uint8Array.from({ length: fieldSize }, () => (rnd() * 256) | 0)] // the ticket's VRF proof
    out.push(ref.encode(header))
  }
  return out
}

/**
 * Decode N_BLOCKS headers, each from a fresh copy of its input, and keep each one's ticket proof.
 * @param {(bytes: Uint8Array) => any} decode
 * @param {Uint8Array[]} srcs
 * @param {unknown[]|null} kept
 */
function fieldPass (decode, srcs, kept) {
  for (let i = 0; i < N_BLOCKS; i++) {
    const field = decode(srcs[i % N_DISTINCT].slice())[1][0]
    if (kept !== null) kept[i] = field
  }
}

// ArrayBuffer backing stores are released by a background sweeper after GC: settle before reading.
const settle = () => new Promise((resolve) => setTimeout(resolve, 30))
async function measured () {
  for (let i = 0; i < 3; i++) { global.gc(); await settle() }
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

function dropPass (decode, src, n) {
  for (let i = 0; i < n; i++) decode(src.slice())
}

function keepPass (decode, src, kept, n) {
  for (let i = 0; i < n; i++) {
    const v = decode(src.slice())
    if (!CID.asCID(v.link)) throw new Error('decoded link is not a CID')
    kept[i] = v.link
  }
}

function blocksPass (decode, srcs, kept, cidsOnly) {
  for (let i = 0; i < N_BLOCKS; i++) {
    const v = decode(srcs[i % N_DISTINCT].slice())
    if (cidsOnly) {
      const l = v.links
      kept[4 * i] = l[0]; kept[4 * i + 1] = l[1]; kept[4 * i + 2] = l[2]; kept[4 * i + 3] = l[3]
    } else kept[i] = v
  }
}

/**
 * Keep every KEEP_EVERY-th of N_RESULTS results of `make(i)`; a baseline pass that keeps nothing first.
 * @param {(i: number) => unknown} make
 * @returns {Promise<number>} retained bytes per kept result
 */
async function perKeptOf (make) {
  const kept = new Array(N_RESULTS / KEEP_EVERY).fill(null)
  keepEvery(make, null)
  const before = await measured()
  keepEvery(make, kept)
  const after = await measured()
  return (after - before) / kept.length
}

/**
 * @param {(i: number) => unknown} make
 * @param {unknown[]|null} kept
 */
function keepEvery (make, kept) {
  for (let i = 0; i < N_RESULTS; i++) {
    const r = make(i)
    if (kept !== null && i % KEEP_EVERY === 0) kept[i / KEEP_EVERY] = r
  }
}

async function child (codecName, mode) {
  const { makePeers, loadOurs } = await import('./peers.js')
  const { mod } = await loadOurs()
  const peer = makePeers(mod).find((p) => p.name === codecName)
  const decode = peer.decode
  if (mode === 'keptResult') {
    const rnd = prng(11)
    const values = Array.from({ length: 64 }, () => ({ data: Uint8Array.from({ length: 512 }, () => (rnd() * 256) | 0) }))
    return { perKept: await perKeptOf((i) => peer.encode(values[i & 63])) }
  }
  if (mode === 'field96' || mode === 'field1k') {
    const size = mode === 'field96' ? 96 : 1024
    const srcs = makeHeaders(size)
    const kept = new Array(N_BLOCKS).fill(null)
    fieldPass(decode, srcs, null) // keeps nothing: what a codec holds from its last call cancels out
    const before = await measured()
    fieldPass(decode, srcs, kept)
    const after = await measured()
    const last = /** @type {Uint8Array} */ (kept[N_BLOCKS - 1])
    if (!(last instanceof Uint8Array) || last.length !== size) throw new Error(`kept field is not ${size} bytes`)
    return { perKept: (after - before) / N_BLOCKS }
  }
  if (mode === 'kept') {
    const rnd = prng(7)
    const data = new Uint8Array(1 << 20)
    for (let i = 0; i < data.length; i++) data[i] = (rnd() * 256) | 0
    const link = CID.create(1, 0x71, createDigest(0x12, data.subarray(0, 32)))
    const src = ref.encode({ data, link })
    // Heap readings wobble by ~100 KB, so keep many CIDs -- unless a first small pass shows that
    // each kept CID pins its whole 1 MiB input (then 16 say enough, and 2,000 would need 2 GiB).
    const probe = new Array(16).fill(null)
    const p0 = await measured()
    keepPass(decode, src, probe, 16)
    const pinned = (await measured()) - p0 > 16 * 65536
    probe.fill(null)
    const nKept = pinned ? 16 : N_KEPT
    const kept = new Array(nKept).fill(null)
    // Baseline pass that keeps nothing: whatever a codec holds on to from its last call (one input,
    // a scratch buffer) is left over in both passes and cancels out of the difference.
    // A tiny decode after each pass also releases any reference a codec keeps to its last input.
    const tiny = ref.encode({ link })
    // (The loops live in their own functions so no dead local in this frame pins a decoded value.)
    dropPass(decode, src, nKept)
    decode(tiny.slice())
    const before = await measured()
    keepPass(decode, src, kept, nKept)
    decode(tiny.slice())
    const after = await measured()
    return { perKept: (after - before) / nKept, n: nKept }
  }
  const srcs = makeBlocks()
  const avg = srcs.reduce((a, b) => a + b.length, 0) / srcs.length
  const kept = new Array(mode === 'cids' ? N_BLOCKS * 4 : N_BLOCKS).fill(null)
  const before = await measured()
  blocksPass(decode, srcs, kept, mode === 'cids')
  const after = await measured()
  if (!CID.asCID(kept[kept.length - 1]) && mode === 'cids') throw new Error('not a CID')
  return mode === 'cids' ? { perCid: (after - before) / (4 * N_BLOCKS), avgBlock: avg } : { perBlock: (after - before) / N_BLOCKS, avgBlock: avg }
}

function runChild (codecName, mode) {
  const script = fileURLToPath(import.meta.url)
  const r = spawnSync(process.execPath, ['--expose-gc', script, `--child=${mode}`, `--codec=${codecName}`, ...passFlags], { encoding: 'utf8', timeout: 120000 })
  const last = (r.stdout || '').trim().split('\n').pop()
  try { return JSON.parse(last) } catch { return { error: ((r.stderr || '') + (r.stdout || '')).trim().split('\n').slice(-3).join(' | ') || `exit ${r.status}` } }
}

async function parent () {
  const json = process.argv.includes('--json')
  const rows = {}
  for (const codec of codecs) {
    rows[codec] = {}
    for (const mode of MODES) rows[codec][mode] = runChild(codec, mode)
  }
  const f = (x, k) => x.error ? 'error' : x[k].toFixed(0) + ' B'
  if (!json) {
    console.log(`Retained memory (heapUsed + arrayBuffers after gc), node ${process.version}`)
    console.log(`  ${N_BLOCKS.toLocaleString('en')} decoded blocks of ~${(rows.ours.blocks.avgBlock || 0).toFixed(0)} B with 4 CIDs each; each decode from a fresh copy of the input`)
    console.log(`  kept field: decode ${N_BLOCKS.toLocaleString('en')} Filecoin-header-shaped blocks, keep one byte string of each`)
    console.log(`  ${'codec'.padEnd(16)} ${'per block'.padStart(12)} ${'per CID'.padStart(10)} ${'kept CID of 1 MiB block'.padStart(25)} ${'kept 96 B field'.padStart(17)} ${'kept 1 KiB field'.padStart(18)} ${'kept 515 B encode result'.padStart(26)}`)
    for (const codec of codecs) {
      const r = rows[codec]
      console.log(`  ${codec.padEnd(16)} ${f(r.blocks, 'perBlock').padStart(12)} ${f(r.cids, 'perCid').padStart(10)} ${f(r.kept, 'perKept').padStart(25)} ${f(r.field96, 'perKept').padStart(17)} ${f(r.field1k, 'perKept').padStart(18)} ${f(r.keptResult, 'perKept').padStart(26)}`)
      for (const m of MODES) if (r[m].error) console.log(`    ! ${codec} ${m}: ${r[m].error.split(' | ')[0].slice(0, 200)}`)
    }
    const o = rows.ours
    const mark = (ok) => ok === undefined ? 'unknown' : ok ? 'met' : 'NOT met'
    console.log('Targets')
    console.log(`  [${mark(o.cids.error ? undefined : o.cids.perCid <= 350)}] <= 350 B retained per decoded CID (ours ${f(o.cids, 'perCid')})`)
    console.log(`  [${mark(o.kept.error ? undefined : o.kept.perKept < 1024)}] kept CID from a decoded 1 MiB block retains < 1 KB (ours ${f(o.kept, 'perKept')})`)
    const r = rows['@ipld/dag-cbor']
    const what = { field96: 'a kept 96 B field', field1k: 'a kept 1 KiB field', keptResult: 'a kept 515 B encode result' }
    for (const m of AT_MOST_REF) {
      // a few bytes of slack: heap readings after gc wobble by about that much per kept value
      const ok = o[m].error || !r || r[m].error ? undefined : o[m].perKept <= r[m].perKept + 8
      console.log(`  [${mark(ok)}] ${what[m]} retains at most what @ipld/dag-cbor's does (+8 B of reading noise): ours ${f(o[m], 'perKept')}, @ipld/dag-cbor ${r ? f(r[m], 'perKept') : 'not run'}`)
    }
  } else {
    const o = rows.ours
    if (o.cids.error || o.kept.error) console.log(JSON.stringify({ error: o.cids.error || o.kept.error }))
    else console.log(JSON.stringify({ ours: { perBlock: o.blocks.perBlock, perCid: o.cids.perCid, keptCid: o.kept.perKept, field96: o.field96.perKept, field1k: o.field1k.perKept, keptResult: o.keptResult.perKept }, all: rows }))
  }
}

const childArg = process.argv.find((a) => a.startsWith('--child='))
if (childArg) {
  const mode = childArg.slice(8)
  const codec = process.argv.find((a) => a.startsWith('--codec=')).slice(8)
  if (typeof global.gc !== 'function') {
    console.log(JSON.stringify({ error: 'run with node --expose-gc' }))
  } else {
    child(codec, mode).then((r) => console.log(JSON.stringify(r)), (e) => console.log(JSON.stringify({ error: String(e && e.stack).slice(0, 300) })))
  }
} else {
  parent().catch((e) => console.log('memory bench error (benchmarks never fail):', e && e.stack)).finally(() => { process.exitCode = 0 })
}
