#!/usr/bin/env node
// The Lexicon bench (bench/lexicon.js) in other engines: Bun, Deno and the Node versions run
// bench/lexicon.js itself; browsers (chromium, firefox) a page bundling bench/lexicon-measure.js,
// with the Lexicon documents and the repo CARs embedded. Prints each engine's report as it comes.
// In a browser the clock is wall time (performance.now), as in bench/engines/run.js.
//   node bench/engines/lexicon.js [--engines=bun,chromium] [--quick] [--only=SUBSTRING]
// Benchmarks only print: the exit code is 0 whatever happens.
import * as esbuild from 'esbuild'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { pickEngines, ensureInstalled, runFile, serve, launchBrowser, root, BROWSER_BUNDLE } from '../../engines/engines.js'
import { publishedDocuments } from '../../test/helpers/lexicons.js'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const only = (args.find((a) => a.startsWith('--only=')) || '').slice(7)
const names = (args.find((a) => a.startsWith('--engines=')) || '--engines=bun,chromium').slice(10)
const here = path.dirname(fileURLToPath(import.meta.url))
const CARS = ['repo-small-v2.car', 'repo-slice-v2.car'].map((car) => path.join(root, 'car/test/fixtures/atproto', car))

/** @returns {Promise<string>} the page's bundle */
async function bundlePage () {
  /** @type {Record<string, string>} */
  const standIns = {
    'node:perf_hooks': 'export const performance = globalThis.performance',
    // the harness turns on V8's gc() with this; Chromium is started with --expose-gc instead
    'node:v8': 'export function setFlagsFromString () {}',
    'node:vm': 'export function runInNewContext () { return () => {} }',
    'lexicon-data': `export const documents = ${JSON.stringify(publishedDocuments())}
      export const cars = ${JSON.stringify(CARS.map((file) => fs.readFileSync(file).toString('base64')))}`
  }
  const result = await esbuild.build({
    ...BROWSER_BUNDLE,
    entryPoints: [path.join(here, 'lexicon-page.js')],
    // browsers have no CPU clock for a page: the harness's process.cpuUsage becomes wall time
    define: { 'process.cpuUsage': 'globalThis.__wallClockUsage' },
    banner: { js: 'globalThis.__wallClockUsage = (since) => { const t = performance.now() * 1000; return since ? { user: t - since.user, system: 0 } : { user: t, system: 0 } };' },
    plugins: [{
      name: 'stand-ins',
      setup (build) {
        build.onResolve({ filter: /^(node:|lexicon-data$)/ }, (a) => standIns[a.path] ? { path: a.path, namespace: 'stand-in' } : { errors: [{ text: `no browser stand-in for ${a.path}` }] })
        build.onLoad({ filter: /.*/, namespace: 'stand-in' }, (a) => ({ contents: standIns[a.path], loader: 'js' }))
      }
    }]
  })
  return result.outputFiles[0].text
}

/** @param {import('../../engines/engines.js').Engine} engine */
async function inBrowser (engine) {
  const html = '<!doctype html><meta charset="utf-8"><title>Lexicon bench</title><script type="module" src="/bench.js"></script>'
  const server = await serve(new Map([
    ['/', { type: 'text/html', body: html }],
    ['/bench.js', { type: 'text/javascript', body: await bundlePage() }]
  ]))
  let session
  try {
    session = await launchBrowser(engine)
    const q = new URLSearchParams({ quick: quick ? '1' : '0', only, engine: `${session.version} (wall time)` })
    const done = await session.run(`${server.base}/?${q}`, 1_800_000)
    console.log(done.lines.join('\n'))
    if (done.error) console.log(`  bench error in ${engine.name}: ${done.error}`)
  } finally {
    if (session) await session.close()
    server.close()
  }
}

const engines = pickEngines(names)
if (engines.some((e) => e.kind !== 'browser' && e.kind !== 'node')) ensureInstalled()
for (const engine of engines) {
  console.log(`\n### ${engine.name}\n`)
  try {
    if (engine.kind === 'browser') await inBrowser(engine)
    else {
      const r = await runFile(engine, path.join(root, 'bench/lexicon.js'), args.filter((a) => a === '--quick' || a.startsWith('--only=')), { timeoutMs: 1_800_000 })
      console.log(r.stdout.replace(/\n+$/, ''))
      if (r.code !== 0) console.log(`  bench error in ${engine.name} (exit ${r.code}${r.signal ? ', ' + r.signal : ''}): ${r.stderr.slice(-400)}`)
    }
  } catch (e) {
    console.log(`  bench error in ${engine.name}: ${String(/** @type {any} */ (e)?.stack ?? e).slice(0, 600)}`)
  }
}
