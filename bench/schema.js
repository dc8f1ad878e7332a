#!/usr/bin/env node
// The typed codec (dag-cbor-fast/schema) against decoding alone and against decoding then checking
// the shape, per corpus with a schema (bench/schema-corpora.js), interleaved in one process.
//   node bench/schema.js [--quick] [--only=SUBSTRING]
// Prints, per corpus, the median over rounds of each per-round speed ratio:
//   decode: typed / ours (generic decode, no shape checked), typed / (@ipld/dag-cbor + toTyped), the
//           same two for `ours typed, ahead of time` (struct readers from toJavaScript's module),
//           (ours + toTyped) / (@ipld/dag-cbor + toTyped), (ours + toTyped) / ours
//   encode: typed / ours (generic encode of the same representation)
// The cross-engine bench (npm run bench:engines) times the same rows in every engine.
import * as ref from '@ipld/dag-cbor'
import { decode, encode } from '../index.js'
import { loadCorpora } from './corpora.js'
import { runInterleaved, median, medianRatio } from './harness.js'
import { SCHEMA_CORPORA, typedCells, TYPED_ROW, AOT_ROW, REF_TYPED_ROW, OURS_TYPED_ROW } from './schema-corpora.js'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const only = (args.find((a) => a.startsWith('--only=')) || '').slice(7)
const cfg = quick ? { rounds: 5, roundMs: 25, warmMs: 30 } : { rounds: 15, roundMs: 60, warmMs: 120 }

const names = Object.keys(SCHEMA_CORPORA).filter((n) => n.includes(only))
const corpora = await loadCorpora({ quick, filter: (n) => names.includes(n) })
const fmt = (/** @type {number} */ x) => `${x.toFixed(2)}x`
console.log(`typed codec (${quick ? 'quick' : 'full'} run; speed ratios, median of ${cfg.rounds} rounds; ${process.release.name} ${process.version})`)
console.log('| corpus | root | blocks | avg B | typed decode MB/s | typed / ours decode | typed / (@ipld + toTyped) | ahead of time / ours decode | ahead of time / (@ipld + toTyped) | (ours + toTyped) / (@ipld + toTyped) | (ours + toTyped) / ours | typed / ours encode |')
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const c of corpora) {
  const typed = /** @type {NonNullable<ReturnType<typeof typedCells>>} */ (typedCells(c))
  const decodeCells = [
    ...typed.decode,
    { name: 'ours', fn: (/** @type {Uint8Array} */ b) => decode(b), items: c.blocks },
    { name: '@ipld/dag-cbor', fn: (/** @type {Uint8Array} */ b) => ref.decode(b), items: c.blocks }
  ]
  const encodeCells = [...typed.encode, { name: 'ours', fn: (/** @type {unknown} */ v) => encode(v), items: c.values }]
  const d = runInterleaved(decodeCells, { ...cfg, chunk: c.chunk })
  const e = runInterleaved(encodeCells, { ...cfg, chunk: c.chunk })
  const row = (/** @type {any[]} */ cells, /** @type {number[][]} */ rates, /** @type {string} */ name) => rates[cells.findIndex((x) => x.name === name)]
  const td = row(decodeCells, d, TYPED_ROW)
  const ad = row(decodeCells, d, AOT_ROW)
  const od = row(decodeCells, d, 'ours')
  const rt = row(decodeCells, d, REF_TYPED_ROW)
  const ot = row(decodeCells, d, OURS_TYPED_ROW)
  const te = row(encodeCells, e, TYPED_ROW)
  const oe = row(encodeCells, e, 'ours')
  console.log(`| ${c.name} | ${SCHEMA_CORPORA[c.name].root} | ${c.blocks.length} | ${c.avgBytes.toFixed(0)} | ${(median(td) * c.avgBytes / 1e6).toFixed(0)} | ${fmt(medianRatio(td, od))} | ${fmt(medianRatio(td, rt))} | ${fmt(medianRatio(ad, od))} | ${fmt(medianRatio(ad, rt))} | ${fmt(medianRatio(ot, rt))} | ${fmt(medianRatio(ot, od))} | ${fmt(medianRatio(te, oe))} |`)
}
