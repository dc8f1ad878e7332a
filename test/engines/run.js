#!/usr/bin/env node
// `npm run test:engines`: the codec's tests beyond the system's Node (engines/engines.js installs
// the engines from engines/package-lock.json when they are missing):
//   - the whole mocha suite (test/**/*.spec.js, as `npm run test:node`) on Node 22, 24 and 26
//   - the smoke test test/engines/smoke.test.js (codec-fixtures, negative conformance cases, a CAR
//     round trip) with mocha in Bun and Deno, and bundled by esbuild in Chromium and Firefox
//   node test/engines/run.js [--engines=node22,bun,...]
// Every run's output is printed with its engine's name in front; the counts are mocha's own. Last
// line: `engines: N passing, M failing`. Exit code 1 if anything failed, crashed or did not run.
import * as esbuild from 'esbuild'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { pickEngines, ensureInstalled, runFile, versionOf, serve, launchBrowser, root, BROWSER_BUNDLE, countsOf, printPrefixed } from '../../engines/engines.js'
import { loadFixtures, loadNegativeFixtures } from '../helpers/fixtures.js'
import { formatConsole } from './console-format.js'

const DEFAULT_ENGINES = 'node22,node24,node26,chromium,firefox,bun,deno'
const arg = (process.argv.find((a) => a.startsWith('--engines=')) || '').slice('--engines='.length)
const here = path.dirname(fileURLToPath(import.meta.url))
const mocha = path.join(root, 'node_modules/mocha/bin/mocha.js')
const smoke = path.join(here, 'smoke.test.js')
const NODE_SUITE_MS = 15 * 60_000
const SMOKE_MS = 5 * 60_000

/**
 * The smoke test as one browser bundle with mocha's browser build: the fixture readers, which read
 * files in Node, Bun and Deno, are replaced by the same data embedded at build time.
 *
 * @returns {Promise<Map<string, { type: string, body: string | Uint8Array }>>}
 */
async function smokePage () {
  const fixtures = loadFixtures().map((f) => ({ ...f, cbor: b64(f.cbor), json: f.json && b64(f.json) }))
  const cars = Object.fromEntries(['filecoin-calibnet-genesis.car', 'filecoin-sample-v1.car']
    .map((f) => [f, fs.readFileSync(path.join(root, 'test/fixtures/cars', f)).toString('base64')]))
  const embedded = `import { CarReader } from '@ipld/car'
    const fromB64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0))
    const fixtures = ${JSON.stringify(fixtures)}
    const negative = ${JSON.stringify(loadNegativeFixtures())}
    const cars = ${JSON.stringify(cars)}
    export function loadFixtures () { return fixtures.map((f) => ({ ...f, cbor: fromB64(f.cbor), json: f.json && fromB64(f.json) })) }
    export function loadNegativeFixtures () { return negative }
    export async function loadCar (file) {
      if (!cars[file]) throw new Error('CAR not embedded: ' + file)
      const reader = await CarReader.fromBytes(fromB64(cars[file]))
      const blocks = []
      for await (const { cid, bytes } of reader.blocks()) blocks.push({ cid, bytes })
      return blocks
    }`
  const result = await esbuild.build({
    ...BROWSER_BUNDLE,
    entryPoints: [smoke],
    plugins: [{
      name: 'embedded-fixtures',
      setup (build) {
        build.onResolve({ filter: /helpers\/fixtures\.js$/ }, () => ({ path: 'fixtures', namespace: 'embedded' }))
        build.onLoad({ filter: /.*/, namespace: 'embedded' }, () => ({ contents: embedded, loader: 'js', resolveDir: here }))
      }
    }]
  })
  // no 'unsafe-eval': the codec (and dag-cbor-fast/schema) must run where pages forbid eval and new
  // Function; the smoke test checks that this policy is in force
  const html = `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="script-src 'self' 'unsafe-inline'"><title>smoke test</title>
<script src="/mocha.js"></script>
<script>
  mocha.setup({ ui: 'bdd', reporter: 'spec', timeout: 60000 })
  // the spec reporter's lines as mocha prints them in Node (console-format.js)
  const format = ${formatConsole.toString()}
  const log = console.log.bind(console)
  Mocha.reporters.Base.consoleLog = (...args) => log(format(...args))
</script>
<script type="module">
  await import('/smoke.js')
  const failures = []
  const runner = mocha.run()
  runner.on('fail', (t, err) => failures.push(t.fullTitle() + ': ' + String(err && err.message || err)))
  runner.on('end', () => { window.__done = { passes: runner.stats.passes, failures: runner.stats.failures, failed: failures } })
</script>`
  return new Map([
    ['/', { type: 'text/html', body: html }],
    ['/mocha.js', { type: 'text/javascript', body: fs.readFileSync(path.join(root, 'node_modules/mocha/mocha.js')) }],
    ['/smoke.js', { type: 'text/javascript', body: result.outputFiles[0].text }]
  ])
}

/** @param {Uint8Array} bytes */
function b64 (bytes) { return Buffer.from(bytes).toString('base64') }

/**
 * @param {import('../../engines/engines.js').Engine} engine
 * @returns {Promise<{ passing: number, failing: number, version: string }>}
 */
async function runBrowser (engine) {
  const server = await serve(await smokePage())
  let session
  try {
    session = await launchBrowser(engine)
    /** @type {string[]} */
    const log = []
    const done = await session.run(`${server.base}/`, SMOKE_MS, (text) => log.push(text))
    printPrefixed(engine.name, log.join('\n'))
    for (const f of done.failed) printPrefixed(engine.name, `  ✗ ${f}`)
    const passing = done.passes
    const failing = done.failures + (passing + done.failures === 0 ? 1 : 0)
    return { passing, failing, version: session.version }
  } finally {
    if (session) await session.close()
    server.close()
  }
}

/**
 * @param {import('../../engines/engines.js').Engine} engine
 * @returns {Promise<{ passing: number, failing: number, version: string }>}
 */
async function runProcess (engine) {
  const suite = engine.kind === 'node'
  const r = await runFile(engine, mocha, suite ? ['test/**/*.spec.js'] : [smoke], { timeoutMs: suite ? NODE_SUITE_MS : SMOKE_MS })
  printPrefixed(engine.name, r.stdout + (r.stderr ? '\n' + r.stderr : ''))
  return { ...countsOf(r.stdout, r.code), version: versionOf(engine) }
}

async function main () {
  const engines = pickEngines(arg || DEFAULT_ENGINES)
  ensureInstalled()
  let passing = 0
  let failing = 0
  /** @type {string[]} */
  const lines = []
  for (const engine of engines) {
    const t0 = Date.now()
    let result
    try {
      result = engine.kind === 'browser' ? await runBrowser(engine) : await runProcess(engine)
    } catch (e) {
      printPrefixed(engine.name, `could not run: ${/** @type {any} */ (e)?.stack ?? e}`)
      result = { passing: 0, failing: 1, version: '?' }
    }
    passing += result.passing
    failing += result.failing
    const what = engine.kind === 'node' ? 'test/**/*.spec.js' : 'smoke test'
    lines.push(`${engine.name} (${result.version}), ${what}: ${result.passing} passing, ${result.failing} failing, ${((Date.now() - t0) / 1000).toFixed(0)} s`)
  }
  for (const l of lines) console.log(l)
  console.log(`engines: ${passing} passing, ${failing} failing`)
  return failing === 0 && passing > 0 ? 0 : 1
}

main().then((code) => { process.exitCode = code }, (e) => {
  console.error(e && e.stack ? e.stack : e)
  console.log('engines: 0 passing, 1 failing')
  process.exitCode = 1
})
