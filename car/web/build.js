#!/usr/bin/env node
// `npm run build:web`: bundles the page (app.js) and its Web Worker (worker.js) with esbuild and
// copies index.html and style.css beside them, into car/web/dist/ (or the folder given as the first
// argument). Static files only: any static host serves the folder. The last line printed is the
// folder that holds index.html.
import * as esbuild from 'esbuild'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const webDir = path.dirname(fileURLToPath(import.meta.url))

/**
 * @param {string} [outDir]
 * @returns {Promise<string>} the folder holding index.html
 */
export async function buildWeb (outDir = path.join(webDir, 'dist')) {
  fs.rmSync(outDir, { recursive: true, force: true })
  fs.mkdirSync(outDir, { recursive: true })
  await esbuild.build({
    entryPoints: { app: path.join(webDir, 'app.js'), worker: path.join(webDir, 'worker.js') },
    outdir: outDir,
    bundle: true,
    // classic scripts: the page loads app.js with <script src>, and the worker starts as a classic
    // worker, which every browser the page supports runs
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap: false,
    legalComments: 'linked',
    logLevel: 'warning',
    // the core picks its hashers and codecs for the platform; nothing node-only may reach the page
    define: { 'process.env.NODE_ENV': '"production"' }
  })
  for (const file of ['index.html', 'style.css', 'favicon.svg']) fs.copyFileSync(path.join(webDir, file), path.join(outDir, file))
  return outDir
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const out = await buildWeb(process.argv[2] ? path.resolve(process.argv[2]) : undefined)
  for (const f of fs.readdirSync(out).sort()) console.log(`  ${f}  ${fs.statSync(path.join(out, f)).size} B`)
  console.log(out)
}
