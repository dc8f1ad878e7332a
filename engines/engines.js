// The engines the codec is tested and benchmarked in, and how to start each: the system's Node
// (the one running this), other Node release lines, Bun and Deno from this folder's own package
// (engines/package.json, installed by `npm ci --prefix engines` when missing), Debian's chromium
// (playwright-core, as test/browser/run.js drives it) and firefox-esr (puppeteer-core over WebDriver
// BiDi), and workerd (Cloudflare's Workers runtime, from engines/ too: it runs a Worker behind an
// HTTP socket rather than a script, so it is WORKERD, not one of ENGINES, and startWorkerd starts it).
// Used by test/engines/run.js, bench/engines/run.js and the CAR tool's runtime tests and bench.
import { spawnSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const enginesDir = path.dirname(fileURLToPath(import.meta.url))
export const root = path.dirname(enginesDir)
const modules = path.join(enginesDir, 'node_modules')

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
export const FIREFOX = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr'
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
  // window.gc, for the bench harness's untimed collection between runs
  '--js-flags=--expose-gc'
]

/**
 * @typedef {{ name: string, kind: 'node' | 'bun' | 'deno' | 'browser', bin?: string, browser?: 'chromium' | 'firefox' }} Engine
 */

/** @type {Engine[]} every engine, in report order */
export const ENGINES = [
  { name: 'node', kind: 'node', bin: process.execPath },
  { name: 'node22', kind: 'node', bin: path.join(modules, 'node22/bin/node') },
  { name: 'node24', kind: 'node', bin: path.join(modules, 'node24/bin/node') },
  { name: 'node26', kind: 'node', bin: path.join(modules, 'node26/bin/node') },
  { name: 'chromium', kind: 'browser', browser: 'chromium', bin: CHROMIUM },
  { name: 'firefox', kind: 'browser', browser: 'firefox', bin: FIREFOX },
  { name: 'bun', kind: 'bun', bin: path.join(modules, 'bun/bin/bun.exe') },
  { name: 'deno', kind: 'deno', bin: path.join(modules, 'deno/deno') }
]

/** workerd's binary from its platform package (the `workerd` package's bin is a shim that its install script replaces) */
export const WORKERD = Object.freeze({ name: 'workerd', bin: path.join(modules, `@cloudflare/workerd-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch === 'x64' ? '64' : process.arch}/bin/workerd${process.platform === 'win32' ? '.exe' : ''}`) })

/**
 * The engines named in a comma-separated list (all when empty); throws on an unknown name.
 *
 * @param {string} list
 * @returns {Engine[]}
 */
export function pickEngines (list) {
  if (!list) return ENGINES
  const names = list.split(',').map((s) => s.trim()).filter(Boolean)
  const unknown = names.filter((n) => !ENGINES.some((e) => e.name === n))
  if (unknown.length) throw new Error(`unknown engine(s) ${unknown.join(', ')}; known: ${ENGINES.map((e) => e.name).join(', ')}`)
  return ENGINES.filter((e) => names.includes(e.name))
}

/**
 * Installs engines/ from its lockfile when one of its engines (or puppeteer-core) is missing.
 * Output goes to stderr, so that a runner's stdout stays its report.
 */
export function ensureInstalled () {
  const needed = [...ENGINES.filter((e) => e.kind !== 'browser' && e.name !== 'node').map((e) => /** @type {string} */ (e.bin)),
    WORKERD.bin, path.join(modules, 'puppeteer-core/package.json')]
  if (needed.every((f) => fs.existsSync(f)) && installedAsPinned()) return
  console.error('engines: installing engines/ from its lockfile (npm ci --prefix engines)')
  const r = spawnSync('npm', ['ci', '--prefix', enginesDir, '--no-audit', '--no-fund'], { stdio: ['ignore', 2, 2] })
  if (r.status !== 0) throw new Error(`npm ci --prefix ${enginesDir} failed (exit ${r.status})`)
  const still = needed.filter((f) => !fs.existsSync(f))
  if (still.length) throw new Error(`after npm ci, still missing: ${still.join(', ')}`)
}

/** @returns {boolean} whether every package engines/package.json pins is installed at that version */
function installedAsPinned () {
  const { dependencies } = JSON.parse(fs.readFileSync(path.join(enginesDir, 'package.json'), 'utf8'))
  return Object.entries(dependencies).every(([name, spec]) => {
    const file = path.join(modules, name, 'package.json')
    return fs.existsSync(file) && JSON.parse(fs.readFileSync(file, 'utf8')).version === String(spec).replace(/^npm:.+@/, '')
  })
}

/**
 * The command line that runs a JS file in a non-browser engine.
 *
 * @param {Engine} engine
 * @param {string} file
 * @param {string[]} args
 * @returns {[string, string[]]}
 */
export function commandFor (engine, file, args = []) {
  if (engine.kind === 'deno') return [/** @type {string} */ (engine.bin), ['run', '-A', '--node-modules-dir=manual', file, ...args]]
  return [/** @type {string} */ (engine.bin), [file, ...args]]
}

/**
 * mocha's own counts from its spec reporter's summary; a run that crashed, or ended without a
 * summary, counts as one failure.
 *
 * @param {string} output
 * @param {number | null} code
 * @returns {{ passing: number, failing: number }}
 */
export function countsOf (output, code) {
  const passing = Number((output.match(/^\s*(\d+) passing/m) || [])[1] || 0)
  const failing = Number((output.match(/^\s*(\d+) failing/m) || [])[1] || 0)
  const crashed = code !== 0 && failing === 0
  return { passing, failing: failing + (crashed || passing + failing === 0 ? 1 : 0) }
}

/**
 * Print a run's output with the engine's name in front of every line (which also keeps .ci/run's
 * count of mocha's own summary lines from counting them twice).
 *
 * @param {string} name
 * @param {string} text
 */
export function printPrefixed (name, text) {
  for (const line of text.replace(/\n+$/, '').split('\n')) console.log(`[${name}] ${line}`)
}

/**
 * Runs a JS file in a non-browser engine from the repository root, collecting its output.
 *
 * @param {Engine} engine
 * @param {string} file
 * @param {string[]} args
 * @param {{ timeoutMs: number, env?: Record<string, string> }} options
 * @returns {Promise<{ code: number | null, signal: string | null, stdout: string, stderr: string }>}
 */
export function runFile (engine, file, args, { timeoutMs, env = {} }) {
  const [bin, argv] = commandFor(engine, file, args)
  return new Promise((resolve) => {
    // NO_COLOR: Deno and Bun colour their output otherwise, which a parser of mocha's summary trips on
    const child = spawn(bin, argv, { cwd: root, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    const timer = setTimeout(() => { stderr += `\n(killed after ${timeoutMs / 1000} s)`; child.kill('SIGKILL') }, timeoutMs)
    child.on('error', (e) => { stderr += String(e) })
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stdout, stderr }) })
  })
}

/**
 * The engine's version, as the engine reports it (browsers: once launched, see launchBrowser).
 *
 * @param {Engine} engine
 * @returns {string}
 */
export function versionOf (engine) {
  if (engine.kind === 'browser') {
    const r = spawnSync(/** @type {string} */ (engine.bin), ['--version'], { encoding: 'utf8' })
    return (r.stdout || '').trim() || 'unknown'
  }
  if (engine.kind === 'deno') {
    const r = spawnSync(/** @type {string} */ (engine.bin), ['--version'], { encoding: 'utf8' })
    return (r.stdout || '').trim().split('\n').slice(0, 2).join(', ')
  }
  const r = spawnSync(/** @type {string} */ (engine.bin), ['--version'], { encoding: 'utf8' })
  return (engine.kind === 'bun' ? 'bun ' : 'node ') + (r.stdout || '').trim()
}

/** @returns {string} workerd's version line, e.g. `workerd 2026-11-17` */
export function workerdVersion () {
  return (spawnSync(WORKERD.bin, ['--version'], { encoding: 'utf8' }).stdout || '').trim() || 'workerd (version unknown)'
}

/** @returns {Promise<number>} a TCP port on 127.0.0.1 that was free a moment ago */
function freePort () {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
      server.close(() => resolve(port))
    })
  })
}

/**
 * @param {number} port
 * @returns {Promise<boolean>} whether something accepts connections on 127.0.0.1:port
 */
function accepts (port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => { socket.destroy(); resolve(true) })
    socket.once('error', () => resolve(false))
  })
}

/**
 * Starts `workerd serve <config>` with its socket `socket` bound to a free port on 127.0.0.1, and
 * resolves once the port accepts connections. A port taken between choosing and binding (another
 * process's race) is retried on another port; a workerd that exits before listening rejects with
 * its output.
 *
 * @param {string} config - path of the workerd config (.capnp)
 * @param {{ socket?: string, timeoutMs?: number }} [options]
 * @returns {Promise<{ base: string, pid: number, output: () => string, close: () => Promise<void> }>}
 */
export async function startWorkerd (config, { socket = 'http', timeoutMs = 30_000 } = {}) {
  if (!fs.existsSync(WORKERD.bin)) throw new Error(`workerd not found at ${WORKERD.bin}. Install engines/ with: npm ci --prefix engines`)
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const child = spawn(WORKERD.bin, ['serve', config, '--socket-addr', `${socket}=127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d) => { output += d })
    child.stderr.on('data', (d) => { output += d })
    /** @type {Promise<void>} */
    const exited = new Promise((resolve) => child.once('close', (code, signal) => { output += `\n(workerd exited: code ${code}, signal ${signal})`; resolve() }))
    let gone = false
    exited.then(() => { gone = true })
    const close = async () => { if (!gone) child.kill('SIGTERM'); await exited }
    const deadline = Date.now() + timeoutMs
    while (!gone && Date.now() < deadline && !(await accepts(port))) await new Promise((resolve) => setTimeout(resolve, 50))
    if (!gone && Date.now() < deadline) return { base: `http://127.0.0.1:${port}`, pid: /** @type {number} */ (child.pid), output: () => output, close }
    await close()
    if (attempt < 3 && /address already in use/i.test(output)) continue
    throw new Error(`workerd did not start listening on port ${port} (${gone ? 'it exited' : `not within ${timeoutMs / 1000} s`}):\n${output}`)
  }
}

/**
 * POSTs a body to a local server (workerd) on a connection of its own: a request never reuses a
 * kept-alive connection that the server may be closing (fetch does, and its write then fails with
 * EPIPE). A stream body is sent as it is read, chunked. The answer is read even when the server
 * answered before taking the whole body.
 *
 * @param {string} url
 * @param {Uint8Array | import('node:stream').Readable} body
 * @returns {Promise<{ status: number, headers: import('node:http').IncomingHttpHeaders, text: string }>}
 */
export function postTo (url, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent: false }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (d) => { text += d })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }))
      response.on('error', reject)
    })
    request.on('error', (e) => reject(new Error(`POST ${url}: ${e.message}`)))
    if (body instanceof Uint8Array) request.end(body)
    else body.pipe(request)
  })
}

/**
 * Serves files from memory on localhost, cross-origin isolated (COOP + COEP), which gives pages
 * the fine-grained performance.now() the bench needs (coarse otherwise, to 1 ms in Firefox).
 *
 * @param {Map<string, { type: string, body: string | Uint8Array }>} files - by URL path
 * @returns {Promise<{ base: string, close: () => void }>}
 */
export async function serve (files) {
  const server = http.createServer((req, res) => {
    const hit = files.get(new URL(req.url || '/', 'http://localhost').pathname)
    if (!hit) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    res.writeHead(200, {
      'content-type': hit.type,
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
      'cache-control': 'no-store'
    })
    res.end(hit.body)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const address = /** @type {import('node:net').AddressInfo} */ (server.address())
  return { base: `http://127.0.0.1:${address.port}`, close: () => server.close() }
}

/**
 * @typedef {{ version: string, run: (url: string, timeoutMs: number, onConsole?: (text: string) => void) => Promise<any>, close: () => Promise<void> }} BrowserSession
 */

/**
 * Open `url` in `page` and wait for the page to set window.__done (its result, returned); a page
 * error rejects. The page is closed either way. `waitDone` is the driver's own waitForFunction call
 * (playwright and puppeteer order its arguments differently).
 *
 * @param {any} page
 * @param {string} url
 * @param {((text: string) => void) | undefined} onConsole
 * @param {(page: any) => Promise<any>} waitDone
 * @returns {Promise<any>}
 */
async function runOnPage (page, url, onConsole, waitDone) {
  try {
    const failed = new Promise((resolve, reject) => page.on('pageerror', (/** @type {Error} */ e) => reject(new Error(`page error: ${e.message}`))))
    if (onConsole) page.on('console', (/** @type {any} */ m) => onConsole(m.text()))
    await page.goto(url)
    return await Promise.race([waitDone(page).then((h) => h.jsonValue()), failed])
  } finally {
    await page.close()
  }
}

/** esbuild options for a bundle that a page of the browser runs (the bench's and the smoke test's) */
export const BROWSER_BUNDLE = Object.freeze({ bundle: true, format: /** @type {const} */ ('esm'), platform: /** @type {const} */ ('browser'), target: ['es2022'], write: false, logLevel: /** @type {const} */ ('silent') })

/**
 * Launches a browser. `run(url)` opens the URL in a fresh page, waits until the page sets
 * `window.__done`, returns that value (JSON) and closes the page. Page errors reject.
 *
 * @param {Engine} engine
 * @returns {Promise<BrowserSession>}
 */
export async function launchBrowser (engine) {
  if (!fs.existsSync(/** @type {string} */ (engine.bin))) {
    throw new Error(`${engine.name} not found at ${engine.bin}. Install it with: apt-get install -y ${engine.browser === 'firefox' ? 'firefox-esr' : 'chromium'}`)
  }
  if (engine.browser === 'chromium') {
    // the root's and the CAR tool's devDependency: this file serves their tests and benches, while
    // engines/package.json installs only the engines
    const { chromium } = await import('playwright-core') // eslint-disable-line local/declared-imports
    const browser = await chromium.launch({ executablePath: engine.bin, headless: true, args: CHROMIUM_ARGS })
    return {
      version: 'Chromium ' + browser.version(),
      run: async (url, timeoutMs, onConsole) => runOnPage(await browser.newPage(), url, onConsole,
        (page) => page.waitForFunction(() => /** @type {any} */ (window).__done, null, { timeout: timeoutMs })),
      close: () => browser.close()
    }
  }
  const puppeteer = (await import('puppeteer-core')).default
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-firefox-'))
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: engine.bin, headless: true, userDataDir: profile })
  return {
    version: (await browser.version()).replace('/', ' '),
    run: async (url, timeoutMs, onConsole) => runOnPage(await browser.newPage(), url, onConsole,
      (page) => page.waitForFunction(() => /** @type {any} */ (window).__done, { timeout: timeoutMs })),
    async close () {
      await browser.close()
      fs.rmSync(profile, { recursive: true, force: true })
    }
  }
}
