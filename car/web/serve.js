#!/usr/bin/env node
// `npm run web`: builds the page (build.js) and serves the folder on localhost, read-only, with
// the page's own Content-Security-Policy also sent as a header (it then covers the worker too).
// `node car/web/serve.js [--port N] [--dir DIR]` (port 8080 by default, any free one when it is
// taken); Ctrl-C stops it.
import http from 'node:http'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildWeb } from './build.js'

const TYPES = new Map([['.html', 'text/html; charset=utf-8'], ['.js', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'], ['.txt', 'text/plain; charset=utf-8'], ['.png', 'image/png'], ['.svg', 'image/svg+xml']])

/**
 * The Content-Security-Policy the page's <meta> carries, read from index.html so there is one copy.
 *
 * @param {string} dir
 */
export function pagePolicy (dir) {
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8')
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)
  if (!m) throw new Error(`${dir}/index.html has no Content-Security-Policy <meta>`)
  return m[1]
}

/**
 * Serve `dir` (files directly in it only) on 127.0.0.1.
 *
 * @param {string} dir
 * @param {number} [port] 0: any free port
 * @returns {Promise<{ url: string, server: http.Server }>}
 */
export async function serveDir (dir, port = 0) {
  const policy = pagePolicy(dir)
  const server = http.createServer((req, res) => {
    let name = ''
    try {
      name = decodeURIComponent(new URL(req.url || '/', 'http://localhost').pathname).slice(1) || 'index.html'
    } catch { /* a malformed escape: not found */ }
    const file = path.join(dir, name)
    // the folder's own files only: no subfolders, no way out of it
    if (!name || name.includes('/') || name.includes('\\') || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    res.writeHead(200, {
      'content-type': TYPES.get(path.extname(file)) ?? 'application/octet-stream',
      'content-security-policy': policy,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store'
    })
    res.end(fs.readFileSync(file))
  })
  await new Promise((resolve, reject) => {
    server.once('error', (err) => {
      // the port asked for is taken: any free one
      if (/** @type {NodeJS.ErrnoException} */ (err).code === 'EADDRINUSE' && port !== 0) server.listen(0, '127.0.0.1', () => resolve(undefined))
      else reject(err)
    })
    server.listen(port, '127.0.0.1', () => resolve(undefined))
  })
  const address = /** @type {import('node:net').AddressInfo} */ (server.address())
  return { url: `http://127.0.0.1:${address.port}/`, server }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2)
  const at = (/** @type {string} */ flag) => { const i = args.indexOf(flag); return i >= 0 ? args[i + 1] : undefined }
  const dir = at('--dir') ? path.resolve(/** @type {string} */ (at('--dir'))) : await buildWeb()
  const { url } = await serveDir(dir, Number(at('--port') ?? 8080))
  console.log(`serving ${dir} at ${url} (Ctrl-C to stop)`)
}
