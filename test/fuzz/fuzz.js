#!/usr/bin/env node
// Fuzz the codec: npm run fuzz -- --iterations N --seed S [--start K] [--sources a,b] [--replay file.bin]
// Deterministic for a seed: input i comes from its own PRNG stream (seed, i), so a run can be split into
// chunks with --start, and any single input replays with --start i --iterations 1.
// Prints outcome counts, inputs/s and the differential converse; saves failing inputs to .fuzz-failures/.
// Exits 1 when any invariant failed.
// npm run fuzz -- --minutes N [--seed S]: every oracle of the project for N minutes in all, a third
// each: this codec fuzzer, the typed codecs against @ipld/schema (schema-oracle.js), and the CAR
// tool's readers, writers and command against each other, @ipld/car and go-car's recorded verdicts
// (car/test/oracle/run.js, run as its own process); each prints what it tried.
import fs from 'node:fs'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { runFuzz, replayBytes, FAILURE_DIR, SOURCES } from './fuzzer.js'

const USAGE = `usage: npm run fuzz -- [--iterations N] [--seed S] [--start K] [--sources ${SOURCES.join(',')}]
                    [--replay file.bin] [--json] [--no-save]
       npm run fuzz -- --minutes N [--seed S]   (every oracle: codec, typed codecs, CAR tool)`

/** @type {any} */
let args
try {
  args = parseArgs({
    options: {
      iterations: { type: 'string', default: '10000' },
      minutes: { type: 'string' },
      seed: { type: 'string', default: '1' },
      start: { type: 'string', default: '0' },
      sources: { type: 'string', default: SOURCES.join(',') },
      replay: { type: 'string' },
      json: { type: 'boolean', default: false },
      'no-save': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false }
    }
  }).values
} catch (e) {
  console.error(`${/** @type {Error} */ (e).message}\n${USAGE}`)
  process.exit(2)
}
if (args.help) {
  console.log(USAGE)
  process.exit(0)
}

/** @param {string} name @param {string} v */
function int (name, v) {
  const n = Number(v)
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} wants a non-negative integer, got ${v}`)
  return n
}

/** @param {Record<string, number>} table */
function sorted (table) {
  return Object.entries(table).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
}

if (args.minutes !== undefined) {
  const minutes = Number(args.minutes)
  if (!(minutes > 0)) throw new Error(`--minutes wants a positive number, got ${args.minutes}`)
  process.exitCode = await runEveryOracle(minutes, int('seed', args.seed))
} else if (args.replay) {
  const { found } = replayBytes(new Uint8Array(fs.readFileSync(args.replay)))
  for (const f of found) console.log(`FAIL ${f.kind}: ${f.detail}`)
  console.log(found.length ? `${found.length} failed checks` : 'all checks pass')
  process.exitCode = found.length ? 1 : 0
} else {
  const iterations = int('iterations', args.iterations)
  const seed = int('seed', args.seed)
  const start = int('start', args.start)
  const sources = args.sources.split(',')
  for (const s of sources) if (!SOURCES.includes(s)) throw new Error(`unknown source ${s}; sources: ${SOURCES.join(',')}`)
  console.log(`fuzz: seed ${seed}, inputs ${start}..${start + iterations - 1}, sources ${sources.join(',')}`)
  const stats = await runFuzz({
    iterations,
    seed,
    start,
    sources,
    saveDir: args['no-save'] ? null : FAILURE_DIR,
    onProgress: (s, done) => process.stderr.write(`  ${done}/${iterations} inputs, ${s.failureCount} failures\n`)
  })
  if (args.json) {
    console.log(JSON.stringify(stats))
  } else {
    const rate = stats.total / (stats.elapsedMs / 1000)
    console.log(`\n${stats.total} inputs in ${(stats.elapsedMs / 1000).toFixed(1)} s = ${Math.round(rate)} inputs/s`)
    console.log('inputs per source: ' + sorted(stats.inputs).map(([k, v]) => `${k} ${v}`).join(', '))
    console.log('\noutcomes:')
    for (const [k, v] of sorted(stats.outcomes)) console.log(`  ${String(v).padStart(9)}  ${k}`)
    console.log('\ndifferential: @ipld/dag-cbor accepts, our strict decode rejects (by our rule):')
    for (const [k, v] of sorted(stats.converse)) {
      const [ex] = stats.converseExamples[k]
      console.log(`  ${String(v).padStart(9)}  ${k.padEnd(16)} e.g. ${ex.hex.length > 64 ? ex.hex.slice(0, 64) + '…' : ex.hex}: ${ex.detail}`)
    }
    console.log('\nencode: @ipld/dag-cbor encodes, we reject (by our rule and planted value):')
    for (const [k, v] of sorted(stats.encodeConverse)) console.log(`  ${String(v).padStart(9)}  ${k}`)
    console.log(`\nfailures: ${stats.failureCount}`)
    for (const [k, v] of sorted(stats.failures)) console.log(`  ${String(v).padStart(9)}  ${k}`)
    for (const f of stats.failureRecords.slice(0, 10)) console.log('  ' + JSON.stringify(f))
    if (stats.failureCount && !args['no-save']) console.log(`failing inputs saved under ${FAILURE_DIR} (failures.jsonl explains each)`)
  }
  process.exitCode = stats.failureCount ? 1 : 0
}

/**
 * Every oracle for `minutes` in all, a third each, one after the other; the exit code is 1 when any
 * of them found a disagreement.
 *
 * @param {number} minutes
 * @param {number} seed
 */
async function runEveryOracle (minutes, seed) {
  const share = minutes * 60_000 / 3
  let failed = false

  console.log(`fuzz: every oracle for ${minutes} min (${(share / 60_000).toFixed(1)} min each), seed ${seed}`)
  console.log('\n== the codec: strict decode, validate and encode against @ipld/dag-cbor and cborg')
  const until = Date.now() + share
  let start = 0
  let total = 0
  let failures = 0
  const CHUNK = 2000
  while (Date.now() < until) {
    const stats = await runFuzz({ iterations: CHUNK, seed, start, sources: SOURCES, saveDir: FAILURE_DIR })
    total += stats.total
    failures += stats.failureCount
    for (const f of stats.failureRecords.slice(0, 5)) console.log('  ' + JSON.stringify(f))
    start += CHUNK
  }
  console.log(`  ${total} inputs, ${failures} failures`)
  failed ||= failures > 0

  console.log('\n== the typed codecs (dag-cbor-fast/schema) against @ipld/schema')
  const { runSchemaOracle } = await import('./schema-oracle.js')
  const typed = await runSchemaOracle({ seed, iterations: Infinity, deadline: Date.now() + share, log: (line) => console.error(line) })
  console.log(`  ${typed.schemas} schemas (${typed.refused} roots refused as colliding, ${typed.roots} compiled), ${typed.values} values, ${typed.mutations} mutations (${typed.mutationsAccepted} accepted), ${typed.aheadOfTime} ahead-of-time checks`)
  console.log(`  allowed differences: ${Object.entries(typed.reasons).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`)
  console.log(`  disagreements: ${typed.disagreements.length}`)
  for (const d of typed.disagreements.slice(0, 10)) console.log('  ' + JSON.stringify(d).slice(0, 400))
  failed ||= typed.disagreements.length > 0

  console.log('\n== the CAR tool: every read path, the writers and the command, against each other, @ipld/car and go-car')
  const car = spawnSync(process.execPath, [fileURLToPath(new URL('../../car/test/oracle/run.js', import.meta.url)), '--minutes', String(share / 60_000), '--seed', String(seed)], { stdio: 'inherit' })
  failed ||= car.status !== 0

  console.log(`\nfuzz: ${failed ? 'FAILED: see the disagreements above' : 'no disagreement'}`)
  return failed ? 1 : 0
}
