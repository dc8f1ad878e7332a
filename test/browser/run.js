#!/usr/bin/env node
// `npm run test:browser`: runs the browser-runnable tests (test/browser/*.test.js) in headless
// Chromium, driven by playwright-core against Debian's /usr/bin/chromium (no browser download).
//   1. builds dist/ (./build.js) for examples/browser.html
//   2. bundles test/browser/*.test.js with esbuild (platform 'browser'); the codec-fixtures are
//      embedded at build time as base64 through the virtual module 'virtual:codec-fixtures'
//   3. serves the bundle, mocha's browser build, dist/ and examples/ from a localhost http server
//   4. runs mocha in the page, then drives examples/browser.html and compares its CID with node's
// Last line: `browser: N passing, M failing`. Exit code 1 if anything failed, nothing ran, or
// Chromium is missing. `node test/browser/run.js --serve` only builds and serves, for manual use.
import * as esbuild from 'esbuild'
import http from 'node:http'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import util from 'node:util'
import { build as buildDist, root } from './build.js'

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'
]
const here = path.dirname(fileURLToPath(import.meta.url))
const fixturesDir = fileURLToPath(new URL('../fixtures/codec-fixtures/', import.meta.url))
const foreignMultiformats = path.join(root, 'node_modules/ipld-garbage/node_modules/multiformats/esm/src')
const RUN_TIMEOUT_MS = 240_000

// Example input for examples/browser.html (DAG-JSON); node computes the expected CID independently.
export const EXAMPLE_INPUT = JSON.stringify({
  hello: 'world',
  numbers: [1, -2, 3.5, 'big:'],
  link: { '/': 'bafyreihdb57fdysx5h35urvxz64ros7zvywshber7id6t6c6fek37jgyfe' },
  bytes: { '/': { bytes: 'AQIDBA' } },
  ok: true,
  nothing: null
}, null, 2).replace('"big:"', '18446744073709551615')

function readFixtures () {
  if (!fs.existsSync(fixturesDir)) {
    throw new Error(`codec-fixtures missing at ${fixturesDir} (see test/fixtures/README.md)`)
  }
  const fixtures = []
  for (const name of fs.readdirSync(fixturesDir).sort()) {
    const dir = path.join(fixturesDir, name)
    if (!fs.statSync(dir).isDirectory()) continue
    for (const file of fs.readdirSync(dir)) {
      if (!file.endsWith('.dag-cbor')) continue
      const bytes = fs.readFileSync(path.join(dir, file))
      fixtures.push({ name, cid: file.slice(0, -'.dag-cbor'.length), base64: bytes.toString('base64') })
    }
  }
  if (fixtures.length === 0) throw new Error(`no .dag-cbor fixtures found under ${fixturesDir}`)
  return fixtures
}

const testPlugin = {
  name: 'browser-test-modules',
  setup (build) {
    build.onResolve({ filter: /^virtual:codec-fixtures$/ }, () => ({ path: 'codec-fixtures', namespace: 'virtual' }))
    build.onLoad({ filter: /.*/, namespace: 'virtual' }, () => ({
      contents: `export default ${JSON.stringify(readFixtures())}`,
      loader: 'js'
    }))
    // package.json says "sideEffects": false; the test files are nothing but side effects
    build.onResolve({ filter: /\.test\.js$/ }, (args) => ({ path: path.join(args.resolveDir, args.path), sideEffects: true }))
    // a second, foreign copy of multiformats' CID (v9, from ipld-garbage) for the foreign-CID test
    build.onResolve({ filter: /^foreign-multiformats\// }, (args) => {
      const file = path.join(foreignMultiformats, args.path.slice('foreign-multiformats/'.length) + '.js')
      if (!fs.existsSync(file)) throw new Error(`foreign multiformats copy not found: ${file}`)
      return { path: file }
    })
  }
}

export async function bundleTests () {
  const testFiles = fs.readdirSync(here).filter((f) => f.endsWith('.test.js')).sort()
  if (testFiles.length === 0) throw new Error(`no *.test.js in ${here}`)
  const result = await esbuild.build({
    stdin: {
      contents: testFiles.map((f) => `import './${f}'`).join('\n'),
      resolveDir: here,
      sourcefile: 'browser-tests-entry.js'
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    sourcemap: 'inline',
    write: false,
    logLevel: 'silent',
    plugins: [testPlugin]
  })
  return { code: result.outputFiles[0].text, testFiles }
}

const TEST_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>dag-cbor browser tests</title>
<link rel="stylesheet" href="/__test/mocha.css"></head>
<body><div id="mocha"></div>
<script src="/__test/mocha.js"></script>
<script>mocha.setup({ ui: 'bdd', reporter: 'html', timeout: 30000 })</script>
<script src="/__test/tests.js"></script>
<script>
  const results = []
  const runner = mocha.run()
  runner.on('pass', (t) => results.push({ title: t.fullTitle(), state: 'passed' }))
  runner.on('fail', (t, err) => results.push({ title: t.fullTitle(), state: 'failed',
    error: String(err && err.stack || err) }))
  runner.on('end', () => { window.__mochaDone = { stats: runner.stats, results } })
</script></body></html>`

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json', '.json': 'application/json' }

function startServer (testBundle) {
  const memory = new Map([
    ['/__test/index.html', { type: TYPES['.html'], body: TEST_PAGE }],
    ['/__test/tests.js', { type: TYPES['.js'], body: testBundle }],
    ['/__test/mocha.js', { type: TYPES['.js'], body: fs.readFileSync(path.join(root, 'node_modules/mocha/mocha.js')) }],
    ['/__test/mocha.css', { type: TYPES['.css'], body: fs.readFileSync(path.join(root, 'node_modules/mocha/mocha.css')) }]
  ])
  const staticDirs = ['examples', 'dist']
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost')
    if (url.pathname === '/favicon.ico') return res.writeHead(204).end()
    const hit = memory.get(url.pathname)
    if (hit) {
      res.writeHead(200, { 'content-type': hit.type })
      return res.end(hit.body)
    }
    const rel = path.normalize(decodeURIComponent(url.pathname)).replace(/^[/\\]+/, '')
    const file = path.join(root, rel)
    if (staticDirs.some((d) => rel.startsWith(d + path.sep)) && file.startsWith(root) &&
        fs.existsSync(file) && fs.statSync(file).isFile()) {
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' })
      return res.end(fs.readFileSync(file))
    }
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('not found')
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

// What node says the example page must show for EXAMPLE_INPUT: parse DAG-JSON with @ipld/dag-json
// (independent of the page's own parser), encode with this repo's codec, hash with node's sha256.
async function expectedForExample () {
  const dagJson = await import('@ipld/dag-json')
  const { encode } = await import('../../index.js')
  const { CID } = await import('multiformats/cid')
  const { sha256 } = await import('multiformats/hashes/sha2')
  const value = dagJson.decode(new TextEncoder().encode(EXAMPLE_INPUT))
  const bytes = encode(value)
  const cid = CID.create(1, 0x71, await sha256.digest(bytes))
  return { cid: cid.toString(), hex: Buffer.from(bytes).toString('hex'), value, dagJson }
}

async function testExample (context, base, check) {
  const page = await context.newPage()
  const pageErrors = []
  page.on('pageerror', (e) => pageErrors.push(String(e)))
  try {
    await page.goto(`${base}/examples/browser.html`)
    await page.waitForFunction(() => window.exampleReady === true, null, { timeout: 15000 })
    await page.fill('#input', EXAMPLE_INPUT)
    await page.click('#encode')
    await page.waitForFunction(() => document.querySelector('#cid').textContent.trim() !== '' ||
      document.querySelector('#error').textContent.trim() !== '', null, { timeout: 15000 })
    const shown = await page.evaluate(() => ({
      cid: document.querySelector('#cid').textContent.trim(),
      hex: document.querySelector('#hex').textContent.replace(/\s+/g, ''),
      decoded: document.querySelector('#decoded').textContent,
      error: document.querySelector('#error').textContent.trim()
    }))
    const expected = await expectedForExample()
    await check('examples/browser.html shows no error and no page errors', () => {
      if (shown.error) throw new Error(`page shows an error: ${shown.error}`)
      if (pageErrors.length) throw new Error(`page errors: ${pageErrors.join('; ')}`)
    })
    await check('examples/browser.html shows the CID node computes for the same value', () => {
      if (shown.cid !== expected.cid) throw new Error(`page CID ${shown.cid} !== node CID ${expected.cid}`)
    })
    await check('examples/browser.html shows the encoded hex node computes', () => {
      if (shown.hex !== expected.hex) throw new Error(`page hex ${shown.hex} !== node hex ${expected.hex}`)
    })
    await check('examples/browser.html shows the decoded value (same data model as the input)', () => {
      const back = expected.dagJson.decode(new TextEncoder().encode(shown.decoded))
      const a = Buffer.from(expected.dagJson.encode(back)).toString()
      const b = Buffer.from(expected.dagJson.encode(expected.value)).toString()
      if (a !== b) throw new Error(`decoded shown as ${a}, expected ${b}`)
    })
    // kept in memory: a test writes no file it does not clean up
    const png = await page.screenshot({ fullPage: true })
    await check('the page renders (a full-page screenshot is a non-trivial PNG)', () => {
      if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG')
      if (png.length <= 5 * 1024) throw new Error(`PNG only ${png.length} bytes`)
    })
  } finally {
    await page.close()
  }
}

/**
 * A console message's text as the page meant it: the driver's text() joins the arguments' text and
 * leaves printf-style placeholders (`%s`, `%d`) unfilled, so a format string with values of plain
 * types is formatted here by util.format; anything else is the driver's text.
 *
 * @param {import('playwright-core').ConsoleMessage} m
 * @returns {Promise<string>}
 */
async function consoleText (m) {
  try {
    const args = m.args()
    if (args.length < 2) return m.text()
    const values = await Promise.all(args.map((a) => a.jsonValue().catch(() => undefined)))
    const plain = values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
    return plain && typeof values[0] === 'string' && values[0].includes('%') ? util.format(...values) : m.text()
  } catch {
    return m.text() // the page went away meanwhile
  }
}

async function main () {
  const serveOnly = process.argv.includes('--serve')
  if (!serveOnly && !fs.existsSync(CHROMIUM)) {
    console.error(`Chromium not found at ${CHROMIUM}. Install it with: apt-get install -y chromium`)
    console.log('browser: 0 passing, 0 failing')
    return 1
  }
  await buildDist()
  const { code, testFiles } = await bundleTests()
  const server = await startServer(code)
  const base = `http://127.0.0.1:${server.address().port}`
  if (serveOnly) {
    console.log(`serving: ${base}/__test/index.html (tests)  ${base}/examples/browser.html (example); Ctrl-C to stop`)
    return new Promise(() => {})
  }
  const { chromium } = await import('playwright-core')
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-chromium-'))
  let passing = 0
  let failing = 0
  let context
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS
    })
    const page = await context.newPage()
    page.on('pageerror', (e) => console.error(`  [page error] ${e}`))
    // in the order logged, each once its arguments' values are here
    let consoleErrors = Promise.resolve()
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors = consoleErrors.then(async () => console.error(`  [console] ${await consoleText(m)}`))
    })
    await page.goto(`${base}/__test/index.html`)
    const handle = await page.waitForFunction(() => window.__mochaDone, null, { timeout: RUN_TIMEOUT_MS - 30_000 })
    const { stats, results } = await handle.jsonValue()
    await consoleErrors
    console.log(`mocha in Chromium (${await context.browser()?.version() ?? 'chromium'}), tests from ${testFiles.join(', ')}:`)
    for (const r of results) {
      if (r.state === 'passed') console.log(`  ✔ ${r.title}`)
      else console.log(`  ✗ ${r.title}\n      ${r.error.split('\n').slice(0, 4).join('\n      ')}`)
    }
    passing += stats.passes
    failing += stats.failures
    if (stats.passes + stats.failures === 0) {
      failing++
      console.log('  ✗ no mocha tests ran in the page')
    }
    await page.close()

    console.log('example page (driven from node):')
    try {
      await testExample(context, base, async (title, fn) => {
        try {
          await fn()
          passing++
          console.log(`  ✔ ${title}`)
        } catch (e) {
          failing++
          console.log(`  ✗ ${title}\n      ${e.message}`)
        }
      })
    } catch (e) {
      failing++
      console.log(`  ✗ examples/browser.html could not be driven\n      ${e.message.split('\n')[0]}`)
    }
  } finally {
    if (context) await context.close()
    server.close()
    fs.rmSync(userDataDir, { recursive: true, force: true })
  }
  console.log(`browser: ${passing} passing, ${failing} failing`)
  return failing === 0 && passing > 0 ? 0 : 1
}

const timer = setTimeout(() => {
  console.error(`browser tests timed out after ${RUN_TIMEOUT_MS / 1000}s`)
  console.log('browser: 0 passing, 1 failing')
  process.exit(1)
}, RUN_TIMEOUT_MS)
timer.unref()

main().then((code) => { process.exitCode = code }, (e) => {
  console.error(e && e.stack ? e.stack : e)
  console.log('browser: 0 passing, 1 failing')
  process.exitCode = 1
})
