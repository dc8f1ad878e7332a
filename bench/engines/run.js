#!/usr/bin/env node
// The cross-engine bench (`npm run bench:engines`): the corpora and peers of `npm run bench`, encode
// and decode, in every engine of engines/engines.js: the system's Node, Node 22, 24 and 26, Debian's
// chromium and firefox-esr, Bun and Deno. Prints, per engine, a Markdown table of ratios against
// @ipld/dag-cbor measured in the same run (median over rounds, with the spread of the per-round
// ratios), then every pair where a peer is ahead of ours.
//   node bench/engines/run.js [--engines=node,chromium,...] [--only=SUBSTRING] [--rounds=7]
//                             [--ms=40] [--warm=150] [--full-corpora]
// Each corpus runs in a fresh process (Node, Bun, Deno) or a fresh page (browsers), as `npm run
// bench` runs each in a fresh process. Benchmarks only print: the exit code is 0 whatever happens.
import * as esbuild from 'esbuild'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ENGINES, pickEngines, ensureInstalled, runFile, versionOf, serve, launchBrowser, root, BROWSER_BUNDLE } from '../../engines/engines.js'
import { CORPUS_NAMES } from '../corpora.js'
import { median } from '../harness.js'
import { VIEW_ROW, POOL_ROW, SLICE_ROW } from './measure.js'
import { FRESH_ROW, INTERNED_ROW } from '../map-floor.js'
import { TYPED_ROW, AOT_ROW, REF_TYPED_ROW, OURS_TYPED_ROW } from '../schema-corpora.js'

const args = process.argv.slice(2)
/** @param {string} name @param {string} fallback */
const opt = (name, fallback) => (args.find((a) => a.startsWith(`--${name}=`)) || '').slice(name.length + 3) || fallback
const cfg = { rounds: Number(opt('rounds', '7')), roundMs: Number(opt('ms', '40')), warmMs: Number(opt('warm', '150')), quick: !args.includes('--full-corpora') }
const only = opt('only', '')
const corpora = CORPUS_NAMES.filter((n) => !only || n.includes(only))
const here = path.dirname(fileURLToPath(import.meta.url))
const RESULT_MARK = '@@engine-result '
const PEERS = ['cbor-x', '@atcute/cbor']
const COLUMNS = ['ours', VIEW_ROW, POOL_ROW, 'cbor-x', '@atcute/cbor', 'JSON']
/** decode floors (bench/map-floor.js), shown only where a corpus of the run has them */
const FLOORS = [FRESH_ROW, INTERNED_ROW]
/** the row of ours for one direction only */
const ONLY_IN = /** @type {Record<string, string>} */ ({ [VIEW_ROW]: 'decode', [POOL_ROW]: 'encode', [FRESH_ROW]: 'decode', [INTERNED_ROW]: 'decode' })
/** corpora bound by copying bytes (bench/run.js's COPY_BOUND): left out of the under-2x list */
const COPY_BOUND = ['bytes-1MiB']
/** bench/run.js's targets for a copy-bound encode: ours at least this ratio to @ipld/dag-cbor, and
 * its time at most SLICE_BOUND times that of slice() of the payload */
const COPY_BOUND_ENCODE = 1
const SLICE_BOUND = 1.3

/**
 * @typedef {import('./measure.js').CorpusResult} CorpusResult
 * @typedef {{ engine: string, version: string, clock: string, results: CorpusResult[], failures: string[] }} EngineRun
 */

/** @param {number} x */
const fmt = (x) => Number.isFinite(x) ? x.toFixed(2) : '-'

/**
 * Per-round ratios a[r] / b[r]: their median and range.
 *
 * @param {number[]} a
 * @param {number[]} b
 */
function ratioStats (a, b) {
  const rs = []
  for (let r = 0; r < Math.min(a.length, b.length); r++) rs.push(a[r] / b[r])
  return { median: median(rs), min: Math.min(...rs), max: Math.max(...rs) }
}

/**
 * @param {import('./measure.js').Direction} d
 * @param {string} row
 * @param {string} [base]
 */
function stats (d, row, base = '@ipld/dag-cbor') {
  const i = d.rows.indexOf(row)
  const j = d.rows.indexOf(base)
  return i < 0 || j < 0 ? null : ratioStats(d.rates[i], d.rates[j])
}

/** @param {{ median: number, min: number, max: number } | null} s */
const cell = (s) => s ? `${fmt(s.median)} (${fmt(s.min)}-${fmt(s.max)})` : 'n/a'

// ---- browsers: one esbuild bundle of page.js, with browser stand-ins for the node: modules ----

/** @returns {Promise<string>} */
async function bundlePage () {
  const cars = Object.fromEntries(fs.readdirSync(path.join(root, 'test/fixtures/cars')).filter((f) => f.endsWith('.car'))
    .map((f) => [f, fs.readFileSync(path.join(root, 'test/fixtures/cars', f)).toString('base64')]))
  /** @type {Record<string, string>} */
  const standIns = {
    'node:perf_hooks': 'export const performance = globalThis.performance',
    // the harness turns on V8's gc() with this; Chromium is started with --expose-gc instead
    'node:v8': 'export function setFlagsFromString () {}',
    // the harness's fallback for gc(): none in Firefox, where the collector runs when it decides
    'node:vm': 'export function runInNewContext () { return () => {} }',
    // the real CAR corpora, embedded at build time
    'node:fs': `const cars = ${JSON.stringify(cars)}
      export function readFileSync (url) {
        const name = String(url).split('/').pop()
        if (!cars[name]) throw new Error('not embedded in the bench bundle: ' + url)
        return Uint8Array.from(atob(cars[name]), (c) => c.charCodeAt(0))
      }`
  }
  const result = await esbuild.build({
    ...BROWSER_BUNDLE,
    entryPoints: [path.join(here, 'page.js')],
    // browsers have no CPU clock for a page: the harness's process.cpuUsage becomes wall time
    define: { 'process.cpuUsage': 'globalThis.__wallClockUsage', 'process.argv': '[]' },
    banner: { js: 'globalThis.__wallClockUsage = (since) => { const t = performance.now() * 1000; return since ? { user: t - since.user, system: 0 } : { user: t, system: 0 } };' },
    plugins: [{
      name: 'node-stand-ins',
      setup (build) {
        build.onResolve({ filter: /^node:/ }, (a) => standIns[a.path] ? { path: a.path, namespace: 'stand-in' } : { errors: [{ text: `no browser stand-in for ${a.path}` }] })
        build.onLoad({ filter: /.*/, namespace: 'stand-in' }, (a) => ({ contents: standIns[a.path], loader: 'js' }))
      }
    }]
  })
  return result.outputFiles[0].text
}

// ---- running ----

/**
 * @param {import('../../engines/engines.js').Engine} engine
 * @param {(corpus: string) => Promise<CorpusResult>} measure
 * @param {string} version
 * @param {string} clock
 * @returns {Promise<EngineRun>}
 */
async function runCorpora (engine, measure, version, clock) {
  /** @type {EngineRun} */
  const run = { engine: engine.name, version, clock, results: [], failures: [] }
  for (const corpus of corpora) {
    const t0 = Date.now()
    try {
      run.results.push(await measure(corpus))
      process.stderr.write(`  ${engine.name} ${corpus}: ${((Date.now() - t0) / 1000).toFixed(1)} s\n`)
    } catch (e) {
      const why = String(/** @type {any} */ (e)?.message ?? e).split('\n').slice(0, 3).join(' ').slice(0, 300)
      run.failures.push(`${corpus}: ${why}`)
      process.stderr.write(`  ${engine.name} ${corpus}: failed: ${why}\n`)
    }
  }
  return run
}

/** @param {import('../../engines/engines.js').Engine} engine @returns {Promise<EngineRun>} */
async function runProcessEngine (engine) {
  const child = path.join(here, 'child.js')
  // The cbor-x native addon npm install builds here is compiled against Node's V8 and crashes Bun and
  // Deno when it loads (symbol lookup error, abort), so there cbor-x runs in JavaScript, as in browsers.
  const env = engine.kind === 'node' ? {} : { CBOR_NATIVE_ACCELERATION_DISABLED: 'true' }
  const version = versionOf(engine) + (engine.bin === process.execPath ? ' (system)' : '')
  return runCorpora(engine, async (corpus) => {
    const r = await runFile(engine, child, [corpus, String(cfg.rounds), String(cfg.roundMs), String(cfg.warmMs), cfg.quick ? '1' : '0'], { timeoutMs: 300_000, env })
    const line = r.stdout.split('\n').find((l) => l.startsWith(RESULT_MARK))
    if (!line) throw new Error(`no result (exit ${r.code}${r.signal ? ', ' + r.signal : ''}): ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`)
    return JSON.parse(line.slice(RESULT_MARK.length))
  }, version, 'CPU time (process.cpuUsage)')
}

/** @type {Promise<string> | null} */
let bundled = null

/** @param {import('../../engines/engines.js').Engine} engine @returns {Promise<EngineRun>} */
async function runBrowserEngine (engine) {
  bundled ??= bundlePage()
  const html = '<!doctype html><meta charset="utf-8"><title>cross-engine bench</title><script type="module" src="/bench.js"></script>'
  const server = await serve(new Map([
    ['/', { type: 'text/html', body: html }],
    ['/bench.js', { type: 'text/javascript', body: await bundled }]
  ]))
  let session
  try {
    session = await launchBrowser(engine)
    const s = /** @type {import('../../engines/engines.js').BrowserSession} */ (session)
    let clock = 'wall time (performance.now)'
    const run = await runCorpora(engine, async (corpus) => {
      const q = new URLSearchParams({ corpus, rounds: String(cfg.rounds), ms: String(cfg.roundMs), warm: String(cfg.warmMs), quick: cfg.quick ? '1' : '0' })
      const done = await s.run(`${server.base}/?${q}`, 300_000)
      if (done.error) throw new Error(done.error)
      clock = `wall time (performance.now${done.isolated ? ', cross-origin isolated' : ', NOT isolated: coarse'}); ${done.gc ? 'gc() between runs' : 'no gc() between runs'}`
      return done.result
    }, s.version, '')
    run.clock = clock
    return run
  } finally {
    if (session) await session.close()
    server.close()
  }
}

// ---- report ----

/** @param {EngineRun} run */
function printEngine (run) {
  const native = run.results.some((r) => r.cborxNative) ? 'native addon (cbor-extract) loaded' : 'JavaScript only'
  console.log(`\n### ${run.engine}: ${run.version}\n`)
  console.log(`Clock: ${run.clock}. cbor-x: ${native}. Ratios to @ipld/dag-cbor (ops/s), median over ${cfg.rounds} rounds, (min-max) of the per-round ratios.\n`)
  const columns = [...COLUMNS, ...FLOORS.filter((f) => run.results.some((r) => r.decode?.rows.includes(f)))]
  console.log(`| corpus | dir | ${columns.join(' | ')} |`)
  console.log(`| --- | --- | ${columns.map(() => '---:').join(' | ')} |`)
  for (const r of run.results) {
    for (const dir of /** @type {const} */ (['encode', 'decode'])) {
      const d = r[dir]
      if (!d) { console.log(`| ${r.corpus} | ${dir} | ${columns.map(() => 'n/a').join(' | ')} |`); continue }
      console.log(`| ${r.corpus} | ${dir} | ${columns.map((c) => ONLY_IN[c] !== undefined && ONLY_IN[c] !== dir ? '' : FLOORS.includes(c) && !d.rows.includes(c) ? '' : cell(stats(d, c))).join(' | ')} |`)
    }
  }
  printTyped(run)
  const notes = run.results.flatMap((r) => r.notes.map((n) => `${r.corpus}: ${n}`))
  const all = [viewsLine(run), ...copyBoundLines(run), ...notes, ...run.failures.map((f) => `not measured: ${f}`)]
  if (all.length) console.log('\n' + all.map((n) => `- ${n}`).join('\n'))
}

/**
 * bench/run.js's two targets for each copy-bound corpus's encode, decided in this engine's run.
 *
 * @param {EngineRun} run
 * @returns {string[]}
 */
function copyBoundLines (run) {
  return run.results.filter((r) => r.encode?.rows.includes(SLICE_ROW)).map((r) => {
    const d = /** @type {import('./measure.js').Direction} */ (r.encode)
    const vsRef = stats(d, 'ours')
    // ours' time over slice's: slice's rate over ours'
    const vsSlice = stats(d, SLICE_ROW, 'ours')
    const met = (/** @type {boolean} */ ok) => ok ? 'met' : 'NOT met'
    return `${r.corpus} encode: ours ${cell(vsRef)} @ipld/dag-cbor, target >= ${fmt(COPY_BOUND_ENCODE)}: ${vsRef ? met(vsRef.median >= COPY_BOUND_ENCODE) : 'unknown'}; ` +
      `ours takes ${cell(vsSlice)} the time of ${SLICE_ROW}, target <= ${SLICE_BOUND}: ${vsSlice ? met(vsSlice.median <= SLICE_BOUND) : 'unknown'}`
  })
}

/**
 * The typed codec (dag-cbor-fast/schema, bench/schema-corpora.js) on the corpora with a schema, as
 * bench/schema.js prints it: ratios between rows measured in the same rounds.
 *
 * @param {EngineRun} run
 */
function printTyped (run) {
  const typed = run.results.filter((r) => r.decode?.rows.includes(TYPED_ROW))
  if (!typed.length) return
  console.log('\nTyped codec (median over rounds, (min-max)): typed decode / ours (generic decode), / (@ipld/dag-cbor + toTyped); the same with the struct readers toJavaScript writes (ahead of time); (ours + toTyped) / (@ipld/dag-cbor + toTyped); typed encode / ours (generic encode of the representation).\n')
  console.log('| corpus | typed / ours decode | typed / (@ipld + toTyped) | ahead of time / ours decode | ahead of time / (@ipld + toTyped) | (ours + toTyped) / (@ipld + toTyped) | typed / ours encode |')
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |')
  for (const r of typed) {
    const d = /** @type {import('./measure.js').Direction} */ (r.decode)
    const e = r.encode
    console.log(`| ${r.corpus} | ${cell(stats(d, TYPED_ROW, 'ours'))} | ${cell(stats(d, TYPED_ROW, REF_TYPED_ROW))} | ${cell(stats(d, AOT_ROW, 'ours'))} | ${cell(stats(d, AOT_ROW, REF_TYPED_ROW))} | ${cell(stats(d, OURS_TYPED_ROW, REF_TYPED_ROW))} | ${e ? cell(stats(e, TYPED_ROW, 'ours')) : 'n/a'} |`)
  }
}

/**
 * Whether some of a peer's encode results on a corpus were views (of a shared buffer or of an
 * over-sized chunk), as checked in that engine before timing.
 *
 * @param {CorpusResult} r
 * @param {string} peer
 */
const encodesViews = (r, peer) => (r.encodeViews?.[peer]?.views ?? 0) > 0

/**
 * Which peers' encode results were views in this engine, and of how many buffers: one per result
 * is an over-sized chunk each, fewer a shared buffer.
 *
 * @param {EngineRun} run
 * @returns {string}
 */
function viewsLine (run) {
  const parts = ['@ipld/dag-cbor', ...PEERS].map((peer) => {
    const seen = run.results.filter((r) => encodesViews(r, peer))
    if (seen.length === 0) return `${peer}: none`
    const sum = (/** @type {'views'|'results'|'buffers'} */ k) => seen.reduce((n, r) => n + r.encodeViews[peer][k], 0)
    return `${peer}: ${sum('views')} of ${sum('results')} results on ${seen.length} corpora, in ${sum('buffers')} buffers`
  })
  return `encode results that are views, not arrays of their own (byteOffset above 0, or a longer buffer): ${parts.join('; ')}`
}

/** @param {EngineRun[]} runs */
function printSummary (runs) {
  console.log('\n### Where a peer is ahead of ours\n')
  console.log(`Every engine, corpus and direction where a peer is ahead: where the median over rounds of (peer's rate / ours, in the same round) is above 1, as \`npm run bench\` decides it. cbor-x's decode returns byte strings as views of the input, so it is compared with \`${VIEW_ROW}\`; a peer whose encode results on that corpus, in that engine, were views (of a buffer shared with other results, or of an over-sized chunk) with \`${POOL_ROW}\`; the rest with \`ours\`. "peer / ours" is that median (min-max over rounds); "beyond spread" when the peer is ahead in every round.\n`)
  console.log('| engine | corpus | dir | peer | peer vs ref | ours vs ref | peer / ours | beyond spread |')
  console.log('| --- | --- | --- | --- | ---: | ---: | ---: | --- |')
  let n = 0
  /** @type {string[]} */
  const under = []
  for (const run of runs) {
    for (const r of run.results) {
      for (const dir of /** @type {const} */ (['encode', 'decode'])) {
        const d = r[dir]
        if (!d) continue
        for (const peer of PEERS) {
          const mine = peer === 'cbor-x' && dir === 'decode' && d.rows.includes(VIEW_ROW)
            ? VIEW_ROW
            : dir === 'encode' && encodesViews(r, peer) && d.rows.includes(POOL_ROW) ? POOL_ROW : 'ours'
          const vs = stats(d, peer, mine)
          const p = stats(d, peer)
          const o = stats(d, mine)
          if (!vs || !p || !o || !(vs.median > 1)) continue
          n++
          console.log(`| ${run.engine} | ${r.corpus} | ${dir} | ${peer}${mine !== 'ours' ? ' (vs ' + mine + ')' : ''} | ${cell(p)} | ${cell(o)} | ${cell(vs)} | ${vs.min > 1 ? 'yes' : 'no'} |`)
        }
        const o = stats(d, 'ours')
        const json = stats(d, 'JSON')
        if (o && o.median < 2 && !COPY_BOUND.includes(r.corpus) && !(json && o.median >= json.median)) {
          under.push(`${run.engine} ${r.corpus} ${dir}: ours ${fmt(o.median)}${json ? `, JSON ${fmt(json.median)}` : ''}`)
        }
      }
    }
  }
  if (n === 0) console.log('| (none) | | | | | | | |')
  console.log(`\n${n} pair(s) where a peer is ahead.`)
  console.log(`\nWhere ours is under 2x @ipld/dag-cbor and under the engine's JSON ratio (${COPY_BOUND.join(', ')} aside): ${under.length ? '\n\n' + under.map((u) => `- ${u}`).join('\n') : 'nowhere.'}`)
}

async function main () {
  const t0 = Date.now()
  const engines = pickEngines(opt('engines', ''))
  if (engines.some((e) => e.kind !== 'browser' && e.name !== 'node') || engines.some((e) => e.browser === 'firefox')) ensureInstalled()
  const started = new Date().toISOString().replace(/\.\d+Z$/, 'Z')
  console.log(`## Cross-engine run, ${started}\n`)
  console.log(`\`npm run bench:engines${args.length ? ' -- ' + args.join(' ') : ''}\`: ${corpora.length} corpora (${cfg.quick ? "`npm run bench -- --quick`'s sizes" : 'full sizes'}), ${cfg.rounds} interleaved rounds x ${cfg.roundMs} ms per row after ${cfg.warmMs} ms warm-up, a fresh process or page per corpus; engines: ${engines.map((e) => e.name).join(', ')}.`)
  /** @type {EngineRun[]} */
  const runs = []
  for (const engine of engines) {
    const e0 = Date.now()
    process.stderr.write(`${engine.name}...\n`)
    try {
      const run = engine.kind === 'browser' ? await runBrowserEngine(engine) : await runProcessEngine(engine)
      runs.push(run)
      printEngine(run)
    } catch (e) {
      console.log(`\n### ${engine.name}: not run\n\n${String(/** @type {any} */ (e)?.message ?? e).split('\n')[0]}`)
    }
    process.stderr.write(`${engine.name}: ${((Date.now() - e0) / 1000).toFixed(0)} s\n`)
  }
  printSummary(runs)
  console.log(`\n(${ENGINES.length === engines.length ? 'all engines' : engines.length + ' engine(s)'} in ${((Date.now() - t0) / 60000).toFixed(1)} min)`)
}

main().catch((e) => console.log('bench error (benchmarks never fail):', e && e.stack)).finally(() => { process.exitCode = 0 })
