#!/usr/bin/env node
// validate vs decode: how much faster the strict validating walk (lib/validate.js) is than strict
// decode of the same blocks, ours and @ipld/dag-cbor's, interleaved in one process per corpus.
//   node bench/validate.js [--quick] [--only=SUBSTRING]
// Prints, per corpus, validate's MB/s and its speed as a multiple of each decode's (median of the
// per-round ratios). Blocks strict decode rejects (the real CARs hold some) are left out. Besides
// bench/corpora.js's corpora, car-tool-blocks: the blocks of the CAR tool's generated benchmark CAR.
import * as ref from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import { decode, encode } from '../index.js'
import { validate } from '../lib/validate.js'
import { loadCorpora } from './corpora.js'
import { runInterleaved, median, medianRatio } from './harness.js'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const only = (args.find((a) => a.startsWith('--only=')) || '').slice(7)
const cfg = quick ? { rounds: 5, roundMs: 25, warmMs: 30 } : { rounds: 15, roundMs: 60, warmMs: 120 }
const LINKS = { links: true }

/**
 * The DAG-CBOR blocks of car/bench/car-tool.js's --make-car (the CAR tool's benchmark, which runs
 * validate on every block): AT-Protocol-like posts, each replying to the one before, and every 64th
 * block a Filecoin-like header linking the posts since. Made here the same way, without the CAR.
 *
 * @param {number} n - how many blocks
 */
function carToolBlocks (n) {
  let seed = 0x9e3779b9
  const rnd = () => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) / 2 ** 32 }
  const bytesOf = (/** @type {number} */ k) => Uint8Array.from({ length: k }, () => rnd() * 256)
  // a random sha2-256 CID stands in for the block's hash (the links' bytes are what validate reads)
  const cidOf = () => CID.create(1, 0x71, createDigest(0x12, bytesOf(32)))
  /** @type {CID[]} */
  let recent = []
  /** @type {CID|null} */
  let parent = null
  const blocks = []
  for (let i = 0; i < n; i++) {
    if (i % 64 === 63) {
      const bytes = encode([parent ? [parent] : [], recent, i, bytesOf(96), [2, bytesOf(96)], 1700000000 + i])
      parent = cidOf()
      recent = []
      blocks.push(bytes)
    } else {
      const words = Array.from({ length: 5 + Math.floor(rnd() * 60) }, () => Math.floor(rnd() * 1e6).toString(36))
      const bytes = encode({ $type: 'app.bsky.feed.post', text: words.join(' '), createdAt: new Date(1.7e12 + i * 1000).toISOString(), langs: ['en'], reply: recent.length ? { parent: recent[recent.length - 1] } : null })
      recent.push(cidOf())
      blocks.push(bytes)
    }
  }
  const totalBytes = blocks.reduce((a, b) => a + b.length, 0)
  return { name: 'car-tool-blocks', blocks, chunk: Math.max(1, Math.min(64, Math.round(65536 / (totalBytes / n)))) }
}

const corpora = [...await loadCorpora({ quick, filter: (name) => name.includes(only) }), ...('car-tool-blocks'.includes(only) ? [carToolBlocks(quick ? 1000 : 4000)] : [])]
console.log(`validate vs strict decode (${quick ? 'quick' : 'full'} run; speed ratios, median of ${cfg.rounds} rounds)`)
console.log(`${'corpus'.padEnd(18)} ${'blocks'.padStart(6)} ${'validate MB/s'.padStart(13)} ${'x ours decode'.padStart(13)} ${'x @ipld decode'.padStart(14)} ${'{links} x decode'.padStart(16)}`)
for (const c of corpora) {
  const items = c.blocks.filter((block) => { try { decode(block); return true } catch { return false } })
  // every block validate accepts must be one decode accepts, and the other way round
  for (const block of c.blocks) {
    let v = true
    try { validate(block) } catch { v = false }
    let d = true
    try { decode(block) } catch { d = false }
    if (v !== d) throw new Error(`${c.name}: validate ${v ? 'accepts' : 'rejects'} a block strict decode ${d ? 'accepts' : 'rejects'}`)
  }
  const bytes = items.reduce((a, b) => a + b.length, 0) / items.length
  const cells = [
    { name: 'validate', fn: (/** @type {Uint8Array} */ b) => validate(b), items },
    { name: 'validate links', fn: (/** @type {Uint8Array} */ b) => validate(b, LINKS), items },
    { name: 'ours decode', fn: (/** @type {Uint8Array} */ b) => decode(b), items },
    { name: '@ipld/dag-cbor decode', fn: (/** @type {Uint8Array} */ b) => ref.decode(b), items }
  ]
  const [v, vl, d, r] = runInterleaved(cells, { ...cfg, chunk: c.chunk })
  const fmt = (/** @type {number} */ x) => `${x.toFixed(2)}x`
  console.log(`${c.name.padEnd(18)} ${String(items.length).padStart(6)} ${(median(v) * bytes / 1e6).toFixed(0).padStart(13)} ${fmt(medianRatio(v, d)).padStart(13)} ${fmt(medianRatio(v, r)).padStart(14)} ${fmt(medianRatio(vl, d)).padStart(16)}`)
}
