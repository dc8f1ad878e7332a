#!/usr/bin/env node
// Bench: the library's verifyCar in each runtime on one generated CAR (bench/car-tool.js --make-car,
// small blocks: sha2-256, blake2b-256 and identity hashes; in the OS temp dir, removed afterwards),
// printed as MB/s with the hash backends each runtime ended up with:
//   node (entry)   the package's Node entry, single thread (node:crypto's sha256)
//   node (core)    the platform-neutral core in Node (hash-wasm's WebAssembly, as in browsers)
//   deno, bun      the core (hash-wasm's WebAssembly)
//   deno (entry), bun (entry)   the package as they resolve `dag-cbor-car`: its Node entry (they
//                  match the "node" export condition), with node:crypto's sha256
// (the Node, Deno and Bun rows: runtimes-verify.js, a process per run, the file read into memory first)
//   workerd        car/examples/workerd/worker.js, the CAR POSTed to it from memory over localhost
//                  (time from sending to the answer: the transfer is part of it); the core's
//                  pure-JS hashes, as workerd forbids compiling WebAssembly at run time
//   workerd (node:crypto)   node-crypto.js, the same Worker with workerd's node:crypto SHA-256
// Rounds alternate the runtimes (A/B/C..., then again); printed: the median MB/s, the median of each
// round's ratio to the first row (the same moment's load), every run, and the load average.
// Usage: node bench/runtimes.js [--size 100M] [--runs 3] [--car FILE] [--runtimes node,node-core,deno,deno-entry,bun,bun-entry,workerd,workerd-node-crypto]
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { buildWorker } from '../examples/workerd/build.js'
import { pickEngines, ensureInstalled, versionOf, workerdVersion, startWorkerd, commandFor, postTo } from '../../engines/engines.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const { values: args } = parseArgs({ options: { size: { type: 'string', default: '100M' }, runs: { type: 'string', default: '3' }, car: { type: 'string' }, runtimes: { type: 'string', default: 'node,node-core,deno,deno-entry,bun,bun-entry,workerd,workerd-node-crypto' } } })
const runs = Number(args.runs)
const names = String(args.runtimes).split(',').map((s) => s.trim()).filter(Boolean)

/**
 * @typedef {{ seconds: number, result: string, backends: Record<string, string> }} Run
 * @typedef {{ name: string, version: string, run: () => Promise<Run>, peak?: () => number | null, close?: () => Promise<void> }} Runtime
 */

/**
 * A runtime that runs runtimes-verify.js in a process of its own per run.
 *
 * @param {string} name
 * @param {string} engineName
 * @param {'core' | 'node'} entry
 * @param {string} file
 * @returns {Runtime}
 */
function processRuntime (name, engineName, entry, file) {
  const engine = pickEngines(engineName)[0]
  return {
    name,
    version: versionOf(engine),
    async run () {
      const [bin, argv] = commandFor(engine, path.join(here, 'runtimes-verify.js'), [file, entry])
      const r = spawnSync(bin, argv, { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 24 })
      if (r.status !== 0) throw new Error(`${name}: exit ${r.status}: ${r.stderr}`)
      return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}')
    }
  }
}

/**
 * An example Worker in workerd; each run POSTs the CAR from memory.
 *
 * @param {string} name
 * @param {string} entry the Worker's file in car/examples/workerd
 * @param {string} file
 * @returns {Promise<Runtime>}
 */
async function workerdRuntime (name, entry, file) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'car-bench-workerd-'))
  const server = await startWorkerd(await buildWorker(entry, dir))
  const bytes = fs.readFileSync(file)
  return {
    name,
    version: workerdVersion(),
    async run () {
      const t0 = performance.now()
      let answer
      try {
        answer = await postTo(server.base, bytes)
      } catch (e) {
        throw new Error(`${name}: ${e}; workerd's output:\n${server.output()}`)
      }
      const seconds = (performance.now() - t0) / 1000
      if (answer.status !== 200 && answer.status !== 422) throw new Error(`${name}: status ${answer.status}: ${answer.text.slice(0, 1000)}; workerd's output:\n${server.output()}`)
      const summary = JSON.parse(answer.text)
      const backends = Object.fromEntries(String(answer.headers['x-hash-backends']).split(', ').map((kv) => kv.split('=')))
      return { seconds, result: summary.result, backends }
    },
    // peak resident memory of the workerd process over all its runs (Linux: VmHWM): the Worker
    // reads the body as it streams in, so this stays far below the CAR's size
    peak () {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.existsSync(`/proc/${server.pid}/status`) ? fs.readFileSync(`/proc/${server.pid}/status`, 'utf8') : '')
      return m ? Number(m[1]) * 1024 : null
    },
    async close () { await server.close(); fs.rmSync(dir, { recursive: true, force: true }) }
  }
}

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

async function main () {
  if (names.some((n) => n !== 'node' && n !== 'node-core')) ensureInstalled()
  let file = args.car
  const generated = !file
  if (!file) {
    file = path.join(os.tmpdir(), `dag-cbor-car-bench-runtimes-${process.pid}.car`)
    const r = spawnSync(process.execPath, [path.join(here, 'car-tool.js'), '--make-car', file, '--size', String(args.size)], { stdio: 'inherit' })
    if (r.status !== 0) throw new Error('making the CAR failed')
  }
  const size = fs.statSync(file).size
  /** @type {Runtime[]} */
  const runtimes = []
  try {
    for (const name of names) {
      if (name === 'node') runtimes.push(processRuntime('node (entry)', 'node', 'node', file))
      else if (name === 'node-core') runtimes.push(processRuntime('node (core)', 'node', 'core', file))
      else if (name === 'deno' || name === 'bun') runtimes.push(processRuntime(name, name, 'core', file))
      else if (name === 'deno-entry' || name === 'bun-entry') runtimes.push(processRuntime(`${name.slice(0, -6)} (entry)`, name.slice(0, -6), 'node', file))
      else if (name === 'workerd') runtimes.push(await workerdRuntime('workerd', 'worker.js', file))
      else if (name === 'workerd-node-crypto') runtimes.push(await workerdRuntime('workerd (node:crypto)', 'node-crypto.js', file))
      else throw new Error(`unknown runtime ${name}; known: node, node-core, deno, deno-entry, bun, bun-entry, workerd, workerd-node-crypto`)
    }
    console.log(`verifyCar on ${generated ? 'a generated CAR' : file} of ${(size / 1e6).toFixed(1)} MB, ${runs} rounds, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`)
    /** @type {Map<string, { seconds: number[], backends: Record<string, string> }>} */
    const results = new Map(runtimes.map((r) => [r.name, { seconds: [], backends: {} }]))
    for (let round = 0; round < runs; round++) {
      for (const runtime of runtimes) {
        const r = await runtime.run()
        if (r.result !== 'ok') throw new Error(`${runtime.name}: the bench CAR did not pass (${r.result})`)
        const entry = /** @type {{ seconds: number[], backends: Record<string, string> }} */ (results.get(runtime.name))
        entry.seconds.push(r.seconds)
        entry.backends = r.backends
      }
    }
    // against the first row, round by round (the same moment's load), then the median of those
    const first = /** @type {{ seconds: number[] }} */ (results.get(runtimes[0].name)).seconds
    for (const runtime of runtimes) {
      const { seconds, backends } = /** @type {{ seconds: number[], backends: Record<string, string> }} */ (results.get(runtime.name))
      const mbs = seconds.map((s) => size / 1e6 / s)
      const ratio = median(seconds.map((s, i) => first[i] / s))
      console.log(`  ${runtime.name.padEnd(21)} ${median(mbs).toFixed(0).padStart(5)} MB/s  ${ratio.toFixed(2)}x ${runtimes[0].name}  (runs ${mbs.map((m) => m.toFixed(0)).join(', ')})  sha2-256: ${backends['sha2-256']}, blake2b-256: ${backends['blake2b-256']}  ${runtime.version}`)
    }
    for (const runtime of runtimes) {
      const peak = runtime.peak?.()
      if (peak) console.log(`  ${runtime.name}: the workerd process's peak RSS ${(peak / 1e6).toFixed(0)} MB, for a CAR of ${(size / 1e6).toFixed(0)} MB`)
    }
    console.log(`  load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  } finally {
    for (const r of runtimes) if (r.close) await r.close()
    if (generated) fs.rmSync(file, { force: true })
  }
}

main().catch((e) => { console.error(e && e.stack ? e.stack : e); process.exitCode = 1 })
