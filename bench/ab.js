// A/B: two builds of this codec, interleaved in one process with @ipld/dag-cbor, on one corpus and
// direction. For judging a change on a busy machine, where separate runs differ more than the change.
//   node bench/ab.js <a/index.js> <b/index.js> <corpus> <encode|decode> [--rounds=N] [--ms=N]
// Prints each build's median per-round ratio to @ipld/dag-cbor and the median per-round b/a ratio.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import * as ref from '@ipld/dag-cbor'
import { loadCorpora } from './corpora.js'
import { runInterleaved, medianRatio } from './harness.js'

const [aPath, bPath, corpus, dir] = process.argv.slice(2)
const flag = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback)
if (!aPath || !bPath || !corpus || !['encode', 'decode'].includes(dir)) {
  console.log('usage: node bench/ab.js <a/index.js> <b/index.js> <corpus> <encode|decode> [--rounds=N] [--ms=N]')
  process.exit(2)
}
const [a, b] = await Promise.all([aPath, bPath].map((p) => import(pathToFileURL(path.resolve(p)).href)))
const [c] = await loadCorpora({ filter: (name) => name === corpus })
if (!c) throw new Error(`no corpus ${corpus}`)
// blocks strict decode rejects (the real CARs hold some) are left out of a decode run
const items = dir === 'encode' ? c.values : c.blocks.filter((block) => { try { a.decode(block); return true } catch { return false } })
if (items.length < (dir === 'encode' ? c.values : c.blocks).length) console.log(`(${c.blocks.length - items.length} blocks strict decode rejects are left out)`)
const job = (codec) => dir === 'encode' ? (v) => codec.encode(v) : (x) => codec.decode(x)
const cells = [{ name: 'ref', fn: job(ref), items }, { name: 'a', fn: job(a), items }, { name: 'b', fn: job(b), items }]
const [r, ra, rb] = runInterleaved(cells, { rounds: flag('rounds', 21), roundMs: flag('ms', 60), warmMs: 300, chunk: 16 })
console.log(`${corpus} ${dir}: a ${medianRatio(ra, r).toFixed(2)}x, b ${medianRatio(rb, r).toFixed(2)}x @ipld/dag-cbor; b/a ${medianRatio(rb, ra).toFixed(3)}`)
