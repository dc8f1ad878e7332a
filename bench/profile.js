#!/usr/bin/env node
// CPU-profile ours on one corpus and print the top self-time functions (file:line).
//   node bench/profile.js CORPUS [encode|decode|roundtrip] [ms=3000] [--top=20]
// CORPUS is a substring of a corpus name from bench/corpora.js (e.g. atproto-post, garbage-100KB).
// Same V8 sampling profiler as `node --cpu-prof`, but started through node:inspector after the
// corpora are built and a 300 ms warm-up, so only the codec work is sampled. Prints only.
//   --save=FILE.cpuprofile also writes the profile (open it in Chrome DevTools).
import { Session } from 'node:inspector'
import { writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'))

async function main ([corpusName, dir = 'decode', ms = '3000']) {
  const { loadCorpora, CORPUS_NAMES } = await import('./corpora.js')
  const ours = await import('../index.js')
  // only the first matching corpus is generated: a fresh process, as `npm run bench` gives each corpus
  const name = CORPUS_NAMES.find((n) => n.includes(corpusName))
  const c = name && (await loadCorpora({ quick: true, filter: (n) => n === name }))[0]
  if (!c) throw new Error('no corpus matching ' + corpusName)
  const relaxed = new Set()
  for (const b of c.blocks) { try { ours.decode(b) } catch { relaxed.add(b) } }
  const R = { relaxed: true }
  const E = { escapedBytes: true }
  const dec = (b) => relaxed.has(b) ? ours.decode(b, R) : ours.decode(b)
  const fn = dir === 'encode' ? (v) => ours.encode(v) : dir === 'decode' ? dec : (b) => relaxed.has(b) ? ours.encode(ours.decode(b, R), E) : ours.encode(ours.decode(b))
  const items = dir === 'encode' ? c.values : c.blocks
  const run = (dur) => {
    const end = Date.now() + dur
    let ops = 0
    let sink
    while (Date.now() < end) {
      for (let i = 0; i < items.length; i++) sink = fn(items[i])
      ops += items.length
    }
    globalThis.__sink = sink
    return ops
  }
  run(300)
  const session = new Session()
  session.connect()
  const post = (m, p) => new Promise((resolve, reject) => session.post(m, p, (e, r) => e ? reject(e) : resolve(r)))
  await post('Profiler.enable')
  await post('Profiler.setSamplingInterval', { interval: 100 })
  await post('Profiler.start')
  const ops = run(Number(ms))
  const { profile } = await post('Profiler.stop')
  session.disconnect()
  console.log(`${c.name} ${dir}: ${ops} ops in ${ms} ms (profiler on)`)
  const save = flags.find((f) => f.startsWith('--save='))
  if (save) writeFileSync(save.slice(7), JSON.stringify(profile))
  const top = Number((flags.find((f) => f.startsWith('--top=')) || '--top=20').slice(6))
  report(profile, top)
}

function report (prof, top) {
  const byId = new Map(prof.nodes.map((n) => [n.id, n]))
  const self = new Map()
  let total = 0
  for (let i = 0; i < prof.samples.length; i++) {
    const dt = prof.timeDeltas[i] || 0
    total += dt
    const n = byId.get(prof.samples[i])
    const cf = n.callFrame
    let where = cf.url ? cf.url.replace('file://', '') : ''
    if (where.startsWith('/')) where = relative(root, where)
    const key = `${cf.functionName || '(anonymous)'}  ${where ? where + ':' + (cf.lineNumber + 1) : ''}`
    self.set(key, (self.get(key) || 0) + dt)
  }
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)
  console.log(`  self time  share  function  file:line   (total ${(total / 1000).toFixed(0)} ms sampled)`)
  for (const [k, us] of rows) console.log(`  ${(us / 1000).toFixed(0).padStart(7)} ms ${(100 * us / total).toFixed(1).padStart(5)}%  ${k}`)
  // Hot source lines of the project's own files (V8 positionTicks: samples per line, incl. inlined code).
  const lines = new Map()
  let ticks = 0
  for (const n of prof.nodes) {
    for (const pt of n.positionTicks || []) {
      ticks += pt.ticks
      const url = n.callFrame.url.replace('file://', '')
      if (!url.startsWith(root) || url.includes('node_modules') || url.includes('/bench/')) continue
      const key = `${relative(root, url)}:${pt.line}  (${n.callFrame.functionName || 'anonymous'})`
      lines.set(key, (lines.get(key) || 0) + pt.ticks)
    }
  }
  if (ticks) {
    console.log('  hottest lines in lib/ (share of line-attributed samples):')
    for (const [k, t] of [...lines.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`    ${(100 * t / ticks).toFixed(1).padStart(5)}%  ${k}`)
  }
}

main(args).catch((e) => console.log('profile error:', e && e.stack))
