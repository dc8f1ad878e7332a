#!/usr/bin/env node
// `npm run size`: minified esbuild bundles (platform browser, ESM) of what a user imports, gzipped
// with node's zlib at level 9, all measured in this run. Prints met / not met; never fails.
import * as esbuild from 'esbuild'
import zlib from 'node:zlib'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
const TARGET_KB = 8
const KB = 1024

async function measure (contents) {
  const result = await esbuild.build({
    stdin: { contents, resolveDir: root, sourcefile: 'size-entry.js', loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
    // '<this package>' resolves to the repo root (as a user's `import ... from 'dag-cbor-fast'` would)
    alias: { [pkg.name]: root }
  })
  const code = result.outputFiles[0].contents
  const gz = zlib.gzipSync(code, { level: 9 }).length
  const inputs = result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].inputs
  return { min: code.length, gz, inputs }
}

const me = pkg.name
const rows = [
  ['ours: encode + decode', `export { encode, decode } from '${me}'`],
  ['ours: decode only', `export { decode } from '${me}'`],
  ['ours: encode only', `export { encode } from '${me}'`],
  ['ours: encodeOptions + decodeOptions', `export { encodeOptions, decodeOptions } from '${me}'`],
  ['ours: encode + decode + options', `export { encode, decode, encodeOptions, decodeOptions } from '${me}'`],
  ['@ipld/dag-cbor: encode + decode', "export { encode, decode } from '@ipld/dag-cbor'"],
  ['@atcute/cbor: encode + decode', "export { encode, decode } from '@atcute/cbor'"],
  ['multiformats: CID alone', "export { CID } from 'multiformats/cid'"]
]

const results = new Map()
for (const [label, contents] of rows) {
  try {
    results.set(label, await measure(contents))
  } catch (e) {
    results.set(label, { error: e.message.split('\n').slice(0, 2).join(' ') })
  }
}

const pad = Math.max(...rows.map(([l]) => l.length)) + 2
console.log('bundle: esbuild --bundle --minify --format=esm --platform=browser; gzip level 9 (node zlib)')
console.log('what'.padEnd(pad) + 'min KB'.padStart(10) + 'gz KB'.padStart(10) + 'gz bytes'.padStart(10))
for (const [label] of rows) {
  const r = results.get(label)
  if (r.error) { console.log(label.padEnd(pad) + `  build failed: ${r.error}`); continue }
  console.log(label.padEnd(pad) + (r.min / KB).toFixed(2).padStart(10) + (r.gz / KB).toFixed(2).padStart(10) + String(r.gz).padStart(10))
}
console.log('(KB = 1024 bytes)')

if (!results.get(rows[0][0]).error) {
  // where the minified bytes of 'ours: encode + decode' come from (before gzip)
  const byFile = Object.entries(results.get(rows[0][0]).inputs).filter(([, i]) => i.bytesInOutput > 0)
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
  console.log('ours: encode + decode, minified bytes by input: ' +
    byFile.map(([f, i]) => `${path.relative(root, path.resolve(root, f)).replace(/^node_modules\//, '')} ${i.bytesInOutput}`).join(', '))
}

const both = results.get(rows[0][0])
const dec = results.get(rows[1][0])
const opts = results.get(rows[3][0])
const withOpts = results.get(rows[4][0])
const checks = []
if (!both.error) {
  const cidInside = Object.keys(both.inputs).some((f) => /multiformats[/\\].*cid\.js$/.test(f))
  checks.push([`encode + decode <= ${TARGET_KB} KB gz with multiformats' CID inside (${(both.gz / KB).toFixed(2)} KB, CID ${cidInside ? 'inside' : 'NOT inside'})`,
    both.gz <= TARGET_KB * KB && cidInside])
}
if (!both.error && !dec.error) {
  checks.push([`decode only is smaller than encode + decode (${(dec.gz / KB).toFixed(2)} < ${(both.gz / KB).toFixed(2)} KB)`, dec.gz < both.gz])
}
if (!both.error && !opts.error && !withOpts.error) {
  // Files whose code ends up in the options-only bundle but not in the encode+decode bundle are the
  // options' own cost; "costs nothing unless imported" = none of their bytes in encode+decode.
  const used = (inputs) => new Set(Object.entries(inputs).filter(([, i]) => i.bytesInOutput > 0).map(([f]) => f))
  const inBoth = used(both.inputs)
  const optionOnly = [...used(opts.inputs)].filter((f) => !inBoth.has(f))
  const optionBytes = Object.entries(withOpts.inputs).filter(([f]) => optionOnly.includes(f)).reduce((n, [, i]) => n + i.bytesInOutput, 0)
  console.log(`options-only inputs: ${optionOnly.length ? optionOnly.map((f) => path.relative(root, path.resolve(root, f))).join(', ') : '(none)'}`)
  checks.push([`options objects cost nothing unless imported (importing them adds ${withOpts.gz - both.gz} gz bytes / ${optionBytes} min bytes from options-only files; encode + decode contains 0 bytes of those files)`,
    optionOnly.length > 0 && withOpts.gz > both.gz])
}
for (const [what, met] of checks) console.log(`${met ? 'met    ' : 'NOT met'}  ${what}`)
