// A/B: two builds of this codec, interleaved in one process with @ipld/dag-cbor, on one corpus and
// direction. For judging a change on a busy machine, where separate runs differ more than the change.
//   node bench/ab.js <a/index.js> <b/index.js> <corpus> <encode|decode|validate> [--rounds=N] [--ms=N] [--one-order] [--pool]
// (validate: each build's lib/validate.js beside its index.js, on the blocks strict decode accepts)
// (--pool: both builds encode with { pool: true })
// (also `bun bench/ab.js ...` and `deno run -A --node-modules-dir=manual bench/ab.js ...`)
// The build a process imports second runs slower, by up to half on decode (bench/README.md, "Order
// effect"), so by default this runs two fresh processes of the same runtime, one with a imported
// first and one with b first, and prints each one's b/a and their geometric mean, in which the
// order's effect cancels. --one-order measures in this process only, a first.
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as ref from '@ipld/dag-cbor'
import { loadCorpora } from './corpora.js'

const args = process.argv.slice(2)
const [aPath, bPath, corpus, dir] = args.filter((x) => !x.startsWith('--'))
const flag = (name, fallback) => Number(args.find((x) => x.startsWith(`--${name}=`))?.split('=')[1] ?? fallback)
if (!aPath || !bPath || !corpus || !['encode', 'decode', 'validate'].includes(dir)) {
  console.log('usage: node bench/ab.js <a/index.js> <b/index.js> <corpus> <encode|decode|validate> [--rounds=N] [--ms=N] [--one-order] [--pool]')
  process.exit(2)
}
const RESULT = '@@ab '

if (args.includes('--one-order')) {
  await measure()
} else {
  const script = fileURLToPath(import.meta.url)
  const options = args.filter((x) => x.startsWith('--'))
  /** @param {string} first @param {string} second */
  const run = (first, second) => {
    const childArgs = [script, first, second, corpus, dir, ...options, '--one-order']
    const deno = /** @type {any} */ (globalThis).Deno
    const r = deno
      ? spawnSync(deno.execPath(), ['run', '-A', '--node-modules-dir=manual', ...childArgs], { encoding: 'utf8' })
      : spawnSync(process.execPath, childArgs, { encoding: 'utf8' })
    const line = (r.stdout || '').split('\n').find((l) => l.startsWith(RESULT))
    if (!line) throw new Error(`no result from ${first} then ${second}: ${(r.stderr || r.stdout || '').trim().split('\n').slice(-3).join(' ')}`)
    return JSON.parse(line.slice(RESULT.length))
  }
  const ab = run(aPath, bPath)
  const ba = run(bPath, aPath)
  // in the second run the first build imported is b: its "b/a" is a/b
  const both = Math.sqrt(ab.ratio / ba.ratio)
  console.log(`${corpus} ${dir}: a first: a ${ab.first.toFixed(2)}x, b ${ab.second.toFixed(2)}x @ipld/dag-cbor, b/a ${ab.ratio.toFixed(3)}; ` +
    `b first: b ${ba.first.toFixed(2)}x, a ${ba.second.toFixed(2)}x, b/a ${(1 / ba.ratio).toFixed(3)}; b/a, both orders: ${both.toFixed(3)}`)
}

async function measure () {
  // Bun has no V8 gc(); the harness's untimed collection between runs is Bun's own
  const bun = /** @type {any} */ (globalThis).Bun
  if (typeof globalThis.gc !== 'function' && bun) globalThis.gc = () => bun.gc(false)
  const { runInterleaved, medianRatio } = await import('./harness.js')
  /** @param {string} entry a build's index.js, and for validate its lib/validate.js beside it */
  const load = async (entry) => {
    const codec = await import(pathToFileURL(path.resolve(entry)).href)
    if (dir !== 'validate') return codec
    const { validate } = await import(pathToFileURL(path.resolve(path.dirname(entry), 'lib/validate.js')).href)
    return { ...codec, validate }
  }
  const a = await load(aPath)
  const b = await load(bPath)
  const [c] = await loadCorpora({ filter: (name) => name === corpus })
  if (!c) throw new Error(`no corpus ${corpus}`)
  // blocks strict decode rejects (the real CARs hold some) are left out of a decode run
  const items = dir === 'encode' ? c.values : c.blocks.filter((block) => { try { a.decode(block); return true } catch { return false } })
  if (items.length < (dir === 'encode' ? c.values : c.blocks).length) console.log(`(${c.blocks.length - items.length} blocks strict decode rejects are left out)`)
  const options = args.includes('--pool') ? { pool: true } : undefined
  const job = (codec) => dir === 'encode' ? (v) => codec.encode(v) : (x) => codec.decode(x)
  const ours = (codec) => dir === 'encode' ? (v) => codec.encode(v, options) : dir === 'validate' ? (x) => codec.validate(x) : (x) => codec.decode(x)
  const cells = [{ name: 'ref', fn: job(ref), items }, { name: 'a', fn: ours(a), items }, { name: 'b', fn: ours(b), items }]
  const [r, ra, rb] = runInterleaved(cells, { rounds: flag('rounds', 21), roundMs: flag('ms', 60), warmMs: 300, chunk: 16 })
  const result = { first: medianRatio(ra, r), second: medianRatio(rb, r), ratio: medianRatio(rb, ra) }
  console.log(`${corpus} ${dir}: a ${result.first.toFixed(2)}x, b ${result.second.toFixed(2)}x @ipld/dag-cbor; b/a ${result.ratio.toFixed(3)}`)
  console.log(RESULT + JSON.stringify(result))
}
