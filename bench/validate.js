#!/usr/bin/env node
// validate vs decode: how much faster the strict validating walk (lib/validate.js) is than strict
// decode of the same blocks, ours and @ipld/dag-cbor's, interleaved in one process per corpus.
//   node bench/validate.js [--quick] [--only=SUBSTRING]
// Prints, per corpus, validate's MB/s and its speed as a multiple of each decode's (median of the
// per-round ratios). Blocks strict decode rejects (the real CARs hold some) are left out.
import * as ref from '@ipld/dag-cbor'
import { decode, validate } from '../index.js'
import { loadCorpora } from './corpora.js'
import { runInterleaved, median, medianRatio } from './harness.js'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const only = (args.find((a) => a.startsWith('--only=')) || '').slice(7)
const cfg = quick ? { rounds: 5, roundMs: 25, warmMs: 30 } : { rounds: 15, roundMs: 60, warmMs: 120 }
const LINKS = { links: true }

const corpora = await loadCorpora({ quick, filter: (name) => name.includes(only) })
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
