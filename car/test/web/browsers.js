// The two browsers the page is tested in, behind one small interface: Debian's chromium driven by
// playwright-core, Debian's firefox-esr driven by puppeteer-core over WebDriver BiDi (from engines/,
// installed by `npm ci --prefix engines`). Neither downloads a browser. Also: the resident memory of
// a browser's processes, read from /proc.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { ensureInstalled } from '../../../engines/engines.js'

const root = fileURLToPath(new URL('../../../', import.meta.url))
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
export const FIREFOX = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr'
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic']

/**
 * @typedef {object} TestPage
 * @property {(url: string) => Promise<void>} goto
 * @property {(selector: string, file: string) => Promise<void>} setFile
 * @property {(fn: (arg: any) => unknown, arg: unknown, timeoutMs: number) => Promise<void>} waitFor
 *   until fn(arg), run in the page, is true (functions, not strings: the page's CSP forbids eval)
 * @property {(fn: (arg: any) => unknown, arg?: unknown) => Promise<any>} evaluate fn(arg) in the page; its JSON value
 * @property {(selector: string) => Promise<void>} click
 * @property {(options?: { fullPage?: boolean, type?: 'png' | 'jpeg', quality?: number }) => Promise<Buffer>} screenshot
 *   the viewport (or the whole page), as PNG (or JPEG)
 * @property {(selector: string, timeoutMs: number) => Promise<{ name: string, bytes: Buffer }>} download
 *   click `selector` and wait for the download it starts
 * @property {string[]} dialogs messages of dialogs the page opened (each dismissed)
 * @property {string[]} console console messages
 * @property {string[]} errors uncaught page errors
 * @property {string[]} requests URLs of every request the page (and its worker) made
 * @property {() => Promise<void>} close
 *
 * @typedef {object} TestBrowser
 * @property {'chromium' | 'firefox'} name
 * @property {string} version
 * @property {number} pid the browser's main process
 * @property {(viewport?: { width: number, height: number }) => Promise<TestPage>} newPage
 * @property {() => Promise<void>} close
 */

/** @param {'chromium' | 'firefox'} name @returns {string | null} why it cannot run here, or null (installing engines/ first for Firefox) */
export function missing (name) {
  const bin = name === 'chromium' ? CHROMIUM : FIREFOX
  if (!fs.existsSync(bin)) return `${bin} not found (apt-get install -y ${name === 'chromium' ? 'chromium' : 'firefox-esr'})`
  // puppeteer-core, which drives Firefox, comes from engines/: installed from its lockfile on first use
  if (name === 'firefox') ensureInstalled()
  return null
}

/**
 * @param {'chromium' | 'firefox'} name
 * @returns {Promise<TestBrowser>}
 */
export async function launch (name) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), `car-web-${name}-`))
  if (name === 'chromium') {
    const { chromium } = await import('playwright-core')
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 900 } })
    const pid = findProcess(profile)
    return {
      name,
      version: 'Chromium ' + (context.browser()?.version() ?? ''),
      pid,
      async newPage (viewport) {
        const page = await context.newPage()
        if (viewport) await page.setViewportSize(viewport)
        /** @type {TestPage} */
        const wrapped = {
          ...observe(page),
          goto: async (url) => { await page.goto(url) },
          setFile: (selector, file) => page.setInputFiles(selector, file),
          waitFor: async (fn, arg, timeout) => { await page.waitForFunction(fn, arg, { timeout, polling: 100 }) },
          evaluate: (fn, arg) => page.evaluate(fn, arg),
          click: (selector) => page.click(selector),
          screenshot: (options = {}) => page.screenshot(options),
          async download (selector, timeout) {
            const [download] = await Promise.all([page.waitForEvent('download', { timeout }), page.click(selector)])
            return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) }
          },
          close: () => page.close()
        }
        return wrapped
      },
      async close () {
        await context.close()
        fs.rmSync(profile, { recursive: true, force: true })
      }
    }
  }
  const require = createRequire(path.join(root, 'engines/package.json'))
  const puppeteer = (await import(require.resolve('puppeteer-core'))).default
  // downloads go to a folder of the profile, without asking
  const downloads = path.join(profile, 'downloads')
  fs.mkdirSync(downloads)
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    userDataDir: profile,
    defaultViewport: { width: 1280, height: 900 },
    extraPrefsFirefox: { 'browser.download.dir': downloads, 'browser.download.folderList': 2, 'browser.download.useDownloadDir': true, 'browser.download.always_ask_before_handling_new_types': false }
  })
  return {
    name,
    version: (await browser.version()).replace('/', ' '),
    pid: browser.process()?.pid ?? findProcess(profile),
    async newPage (viewport) {
      const page = await browser.newPage()
      if (viewport) await page.setViewport(viewport)
      /** @type {TestPage} */
      const wrapped = {
        ...observe(page),
        goto: async (url) => { await page.goto(url) },
        async setFile (selector, file) {
          const input = await page.$(selector)
          if (!input) throw new Error(`no ${selector} on the page`)
          await input.uploadFile(file)
        },
        waitFor: async (fn, arg, timeout) => { await page.waitForFunction(fn, { timeout, polling: 100 }, arg) },
        evaluate: (fn, arg) => page.evaluate(fn, arg),
        click: (selector) => page.click(selector),
        screenshot: async (options = {}) => Buffer.from(await page.screenshot(options)),
        async download (selector, timeout) {
          const before = new Set(fs.readdirSync(downloads))
          await page.click(selector)
          const until = Date.now() + timeout
          for (;;) {
            const names = fs.readdirSync(downloads).filter((n) => !before.has(n))
            const done = names.find((n) => !n.endsWith('.part') && !names.includes(n + '.part'))
            if (done) {
              // the file is renamed from .part when complete; its size settles then
              const file = path.join(downloads, done)
              await new Promise((resolve) => setTimeout(resolve, 200))
              return { name: done, bytes: fs.readFileSync(file) }
            }
            if (Date.now() > until) throw new Error(`no download finished in ${timeout} ms`)
            await new Promise((resolve) => setTimeout(resolve, 100))
          }
        },
        close: () => page.close()
      }
      return wrapped
    },
    async close () {
      await browser.close()
      fs.rmSync(profile, { recursive: true, force: true })
    }
  }
}

/**
 * What a page does that a test looks for, recorded as it happens (every dialog dismissed). Both
 * drivers' pages name these events and their payloads' methods alike.
 *
 * @param {{ on: (event: string, listener: (x: any) => void) => unknown }} page a playwright or puppeteer page
 * @returns {Pick<TestPage, 'dialogs' | 'console' | 'errors' | 'requests'>}
 */
function observe (page) {
  /** @type {Pick<TestPage, 'dialogs' | 'console' | 'errors' | 'requests'>} */
  const seen = { dialogs: [], console: [], errors: [], requests: [] }
  page.on('dialog', (d) => { seen.dialogs.push(d.message()); d.dismiss().catch(() => {}) })
  page.on('console', (m) => seen.console.push(m.text()))
  page.on('pageerror', (e) => seen.errors.push(String(e)))
  page.on('request', (r) => seen.requests.push(r.url()))
  return seen
}

/** @returns {Map<number, number>} parent pid of every process */
function parents () {
  const map = new Map()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      // the command name (field 2) may hold spaces and parentheses: fields after the last ')'
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      map.set(Number(entry), Number(fields[1]))
    } catch { /* the process ended */ }
  }
  return map
}

/**
 * The oldest process whose command line names `profile` (the browser's main process).
 *
 * @param {string} profile
 */
function findProcess (profile) {
  const parent = parents()
  const named = [...parent.keys()].filter((pid) => {
    try { return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profile) } catch { return false }
  })
  const top = named.filter((pid) => !named.includes(/** @type {number} */ (parent.get(pid))))
  if (top.length === 0) throw new Error(`no browser process found for profile ${profile}`)
  return Math.min(...top)
}

/**
 * Resident memory of a process and all its descendants, in bytes (shared pages counted once per
 * process: an upper bound).
 *
 * @param {number} pid
 */
export function treeRss (pid) {
  const parent = parents()
  const tree = new Set([pid])
  let grew = true
  while (grew) {
    grew = false
    for (const [child, p] of parent) if (tree.has(p) && !tree.has(child)) { tree.add(child); grew = true }
  }
  let total = 0
  for (const p of tree) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))
      if (m) total += Number(m[1]) * 1024
    } catch { /* ended */ }
  }
  return total
}
