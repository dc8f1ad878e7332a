#!/usr/bin/env node
// `npm run size`: minified esbuild bundles (platform browser, ESM) of what a user imports, gzipped
// with node's zlib at level 9, all measured in this run. Prints the table as Markdown (the README's
// bundle-size table is this table: `npm run size -- --write-readme` puts it between the README's
// size markers), then each budget check; exits 1 when a check is not met or a build fails.
import * as esbuild from 'esbuild'
import zlib from 'node:zlib'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
/** the budget for `import { encode, decode }` with multiformats' CID inside (issue 27) */
const BUDGET = 8192
const KB = 1024
const README = path.join(root, 'README.md')
const BEGIN = '<!-- size:begin -->'
const END = '<!-- size:end -->'

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
const REF = '@ipld/dag-cbor'
// the README's Block example, as a user pastes it (and the same with the import switched back)
const blockExample = fs.readFileSync(README, 'utf8').match(/```js\n\/\/ block\.mjs\n([\s\S]*?)```/)?.[1] ?? ''
const asRef = (/** @type {string} */ code) => code.replaceAll(`'${me}'`, `'${REF}'`)
const namespaceEntry = `import * as dagCbor from '${me}'\nexport default dagCbor`
/** the drop-in entries, each measured for ours and for @ipld/dag-cbor the same way: [label, ours] */
const DROP_IN = [
  ['encode + decode', `export { encode, decode } from '${me}'`],
  ['import * as dagCbor, used as a value', namespaceEntry],
  ["the README's Block.encode example", blockExample]
]
const rows = [
  ...DROP_IN.flatMap(([label, code]) => [[`ours: ${label}`, code], [`${REF}: ${label}`, asRef(code)]]),
  ['ours: decode only', `export { decode } from '${me}'`],
  ['ours: encode only', `export { encode } from '${me}'`],
  ['ours: encodeOptions + decodeOptions', `export { encodeOptions, decodeOptions } from '${me}'`],
  ['ours: encode + decode + options', `export { encode, decode, encodeOptions, decodeOptions } from '${me}'`],
  ['ours: dag-cbor-fast/schema compile (typed codec; no @ipld/schema)', "export { compile } from './lib/schema/index.js'"],
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

const table = [
  '| bundle (esbuild, minified, ESM, browser; gzip -9) | minified KB | gzipped KB | gzipped bytes |',
  '| --- | ---: | ---: | ---: |'
]
for (const [label] of rows) {
  const r = results.get(label)
  table.push(r.error
    ? `| ${label} | build failed | | |`
    : `| ${label} | ${(r.min / KB).toFixed(2)} | ${(r.gz / KB).toFixed(2)} | ${r.gz} |`)
}
table.push('', `KB = 1024 bytes. Budget: \`encode\` + \`decode\` at most ${BUDGET} bytes gzipped, with multiformats' \`CID\` inside.`)
console.log(table.join('\n'))
console.log()

if (!results.get(rows[0][0]).error) {
  // where the minified bytes of 'ours: encode + decode' come from (before gzip)
  const byFile = Object.entries(results.get(rows[0][0]).inputs).filter(([, i]) => i.bytesInOutput > 0)
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
  console.log('ours: encode + decode, minified bytes by input: ' +
    byFile.map(([f, i]) => `${path.relative(root, path.resolve(root, f)).replace(/^node_modules\//, '')} ${i.bytesInOutput}`).join(', '))
}

const both = results.get('ours: encode + decode')
const dec = results.get('ours: decode only')
const opts = results.get('ours: encodeOptions + decodeOptions')
const withOpts = results.get('ours: encode + decode + options')
const checks = []
if (!blockExample.includes('Block.encode')) checks.push(["README.md has its Block example ('// block.mjs')", false])
for (const [label] of DROP_IN) {
  const ours = results.get(`ours: ${label}`)
  const ref = results.get(`${REF}: ${label}`)
  if (!ours.error && !ref.error) checks.push([`${label}: ours at most ${REF}'s (${ours.gz} <= ${ref.gz} B gz)`, ours.gz <= ref.gz])
}
const named = results.get(`ours: ${DROP_IN[0][0]}`)
const namespace = results.get(`ours: ${DROP_IN[1][0]}`)
if (!named.error && !namespace.error) {
  checks.push([`import * as dagCbor within 1 KB of the named imports (${namespace.gz} - ${named.gz} = ${namespace.gz - named.gz} <= ${KB} B gz)`, namespace.gz - named.gz <= KB])
}
for (const [label] of rows) {
  if (results.get(label).error) checks.push([`${label} builds (${results.get(label).error})`, false])
}
if (!both.error) {
  const cidInside = Object.keys(both.inputs).some((f) => /multiformats[/\\].*cid\.js$/.test(f))
  checks.push([`encode + decode <= ${BUDGET} B gz with multiformats' CID inside (${both.gz} B, ${both.gz - BUDGET > 0 ? `${both.gz - BUDGET} B over` : `${BUDGET - both.gz} B under`}; CID ${cidInside ? 'inside' : 'NOT inside'})`,
    both.gz <= BUDGET && cidInside])
}
if (!both.error && !dec.error) {
  checks.push([`decode only is smaller than encode + decode (${dec.gz} < ${both.gz} B gz)`, dec.gz < both.gz])
}
if (!both.error && !opts.error && !withOpts.error) {
  // Files whose code ends up in the options-only bundle but not in the encode+decode bundle are the
  // options' own cost; "costs nothing unless imported" = none of their bytes in encode+decode.
  const used = (inputs) => new Set(Object.entries(inputs).filter(([, i]) => i.bytesInOutput > 0).map(([f]) => f))
  const inBoth = used(both.inputs)
  const optionOnly = [...used(opts.inputs)].filter((f) => !inBoth.has(f))
  const optionBytes = Object.entries(withOpts.inputs).filter(([f]) => optionOnly.includes(f)).reduce((n, [, i]) => n + i.bytesInOutput, 0)
  checks.push([`options objects cost nothing unless imported (importing them adds ${withOpts.gz - both.gz} gz bytes / ${optionBytes} min bytes from ${optionOnly.length} options-only files; encode + decode contains 0 bytes of those files)`,
    optionOnly.length > 0 && withOpts.gz > both.gz])
}

// the README's table is this one: rewritten on request, otherwise compared
const readme = fs.readFileSync(README, 'utf8')
const begin = readme.indexOf(BEGIN)
const end = readme.indexOf(END)
if (begin >= 0 && end > begin) {
  const block = `${BEGIN}\n${table.join('\n')}\n${END}`
  const current = readme.slice(begin, end + END.length)
  if (process.argv.includes('--write-readme')) {
    if (current !== block) fs.writeFileSync(README, readme.slice(0, begin) + block + readme.slice(end + END.length))
    console.log(`README.md: bundle-size table ${current === block ? 'already up to date' : 'rewritten'}`)
  } else {
    console.log(`README.md: bundle-size table ${current === block ? 'matches this run' : 'differs from this run (npm run size -- --write-readme rewrites it)'}`)
  }
} else {
  console.log(`README.md: no ${BEGIN} ... ${END} block`)
}

for (const [what, met] of checks) console.log(`${met ? 'met    ' : 'NOT met'}  ${what}`)
if (checks.some(([, met]) => !met)) process.exitCode = 1
