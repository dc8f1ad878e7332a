#!/usr/bin/env node
// CPU-profile ours on one corpus and print the top self-time functions (file:line).
//   node bench/profile.js CORPUS [encode|decode|roundtrip] [ms=3000] [--top=20]
// CORPUS is a substring of a corpus name from bench/corpora.js (e.g. atproto-post, garbage-100KB).
// Runs the work in a child `node --cpu-prof` and reads the .cpuprofile it writes. Prints only.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(import.meta.url)
const root = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'))

async function child ([corpusName, dir = 'decode', ms = '3000']) {
  const { loadCorpora } = await import('./corpora.js')
  const ours = await import('../index.js')
  const c = (await loadCorpora({ quick: true })).find((x) => x.name.includes(corpusName))
  if (!c) throw new Error('no corpus matching ' + corpusName)
  const relaxed = new Set()
  for (const b of c.blocks) { try { ours.decode(b) } catch { relaxed.add(b) } }
  const R = { relaxed: true }
  const E = { escapedBytes: true }
  const dec = (b) => relaxed.has(b) ? ours.decode(b, R) : ours.decode(b)
  const fn = dir === 'encode' ? (v) => ours.encode(v) : dir === 'decode' ? dec : (b) => relaxed.has(b) ? ours.encode(ours.decode(b, R), E) : ours.encode(ours.decode(b))
  const items = dir === 'encode' ? c.values : c.blocks
  const end = Date.now() + Number(ms)
  let ops = 0
  let sink
  while (Date.now() < end) {
    for (let i = 0; i < items.length; i++) sink = fn(items[i])
    ops += items.length
  }
  globalThis.__sink = sink
  console.log(`${c.name} ${dir}: ${ops} ops in ${ms} ms (profiler on)`)
}

function report (file, top) {
  const prof = JSON.parse(readFileSync(file, 'utf8'))
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
}

if (flags.includes('--child')) {
  child(args).catch((e) => console.log('profile child error:', e && e.stack))
} else {
  const top = Number((flags.find((f) => f.startsWith('--top=')) || '--top=20').slice(6))
  const dir = mkdtempSync(join(tmpdir(), 'dagcbor-prof-'))
  try {
    const r = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir=' + dir, here, '--child', ...args], { encoding: 'utf8' })
    process.stdout.write(r.stdout || '')
    if (r.stderr) process.stdout.write(r.stderr)
    const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))
    if (files.length) report(join(dir, files[0]), top)
    else console.log('no profile written')
  } catch (e) {
    console.log('profile error:', e && e.stack)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
