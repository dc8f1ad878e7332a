#!/usr/bin/env node
// `npm run size`: minified esbuild bundles (platform browser, ESM) of what a user imports, gzipped
// with node's zlib at level 9, all measured in this run. Prints the table as Markdown (bench/README.md's
// bundle-size table is this table: `npm run size -- --write-readme` puts it between that file's
// size markers), then the checks: each of the three drop-in bundles (named encode + decode, the
// namespace used as a value, the README's Block.encode example) at most its ceiling in
// bench/size-ceilings.json, so that no change grows one unnoticed (the dag-cbor-fast/lexicon entry
// and its app.bsky.feed.post codec, compiled and ahead of time, have ceilings there too); and,
// reported beside, the goals: each at most @ipld/dag-cbor's same bundle, the ahead-of-time post
// codec at most 1.5x @atcute's post schema and validator. Exits 1 exactly when a bundle is over
// its ceiling (or cannot be built or compared).
import * as esbuild from 'esbuild'
import zlib from 'node:zlib'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
const KB = 1024
const README = path.join(root, 'README.md')
// the file whose size markers hold this table (bench/README.md, "Bundle size")
const TABLE_FILE = path.join(root, 'bench', 'README.md')
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
/** the drop-in entries, each measured for ours and for @ipld/dag-cbor the same way: [label, ours];
 * the budget is each of ours at most @ipld/dag-cbor's */
/** the Lexicon entry: not a drop-in, but held to its own ceiling too */
const LEXICON = 'ours: dag-cbor-fast/lexicon compile (Lexicon record codecs)'
/** The published Lexicon documents an app.bsky.feed.post codec needs (test/fixtures/lexicons/): the
 * post's and every document a ref in them names, since compile checks that every ref resolves. */
function postDocuments () {
  const dir = path.join(root, 'test/fixtures/lexicons')
  const byId = new Map(fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'))
    .map((f) => [JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).id, f.split(path.sep).join('/')]))
  const needed = new Set(['app.bsky.feed.post'])
  for (const id of needed) {
    const text = fs.readFileSync(path.join(dir, byId.get(id)), 'utf8')
    for (const [, ref] of text.matchAll(/"(?:ref|refs)":\s*(\[[^\]]*\]|"[^"]*")/g)) {
      for (const r of [JSON.parse(ref)].flat()) if (!r.startsWith('#')) needed.add(r.split('#')[0])
    }
  }
  return [...needed].map((id) => `./test/fixtures/lexicons/${byId.get(id)}`)
}
const POST_FILES = postDocuments()
/** issue 64's size goal: our post codec (compile of the published documents, then decode, which
 * checks as it reads), bundled, at most 1.5x @atcute's post schema and validator (of a value
 * already decoded) */
const LEXICON_POST = `ours: app.bsky.feed.post codec (compile of its ${POST_FILES.length} published documents, decode)`
/** issue 64's size goal row: the module toJavaScript writes for the post (committed as
 * bench/generated/lexicon-post.js) with dag-cbor-fast/lexicon/runtime, decode only */
const LEXICON_POST_AOT = 'ours: app.bsky.feed.post codec, ahead of time (toJavaScript module + dag-cbor-fast/lexicon/runtime, decode)'
const ATCUTE_POST = '@atcute/bluesky app.bsky.feed.post schema + @atcute/lexicons safeParse'
const LEXICON_POST_GOAL = 1.5
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
  [LEXICON, "export { compile } from './lib/lexicon/index.js'"],
  [LEXICON_POST, POST_FILES.map((f, i) => `import d${i} from '${f}' with { type: 'json' }\n`).join('') +
    `import { compile } from './lib/lexicon/index.js'\nconst post = compile([${POST_FILES.map((_, i) => `d${i}`).join(', ')}]).record('app.bsky.feed.post')\nexport const decodePost = (bytes) => post.decode(bytes)\n`],
  [LEXICON_POST_AOT, "import { decode } from './bench/generated/lexicon-post.js'\nexport const decodePost = (bytes) => decode('app.bsky.feed.post', bytes)\n"],
  [ATCUTE_POST, "import { mainSchema } from '@atcute/bluesky/types/app/feed/post'\nimport { safeParse } from '@atcute/lexicons/validations'\nexport const checkPost = (value) => safeParse(mainSchema, value)\n"],
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
table.push('', `KB = 1024 bytes. Each of our three drop-in bundles (the first three pairs) must stay at most its ceiling (bench/size-ceilings.json, today's size); the goal is at most ${REF}'s.`)
console.log(table.join('\n'))
console.log()

// where the minified bytes of 'ours: encode + decode' and of the ahead-of-time post codec come
// from (before gzip)
for (const label of [rows[0][0], LEXICON_POST_AOT]) {
  if (results.get(label).error) continue
  const byFile = Object.entries(results.get(label).inputs).filter(([, i]) => i.bytesInOutput > 0)
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
  console.log(`${label.replace(/ \(.*/, '')}, minified bytes by input: ` +
    byFile.map(([f, i]) => `${path.relative(root, path.resolve(root, f)).replace(/^node_modules\//, '')} ${i.bytesInOutput}`).join(', '))
}

/** each drop-in bundle's ceiling: no change may grow it (bench/size-ceilings.json says why) */
const ceilings = JSON.parse(fs.readFileSync(path.join(root, 'bench/size-ceilings.json'), 'utf8'))
/** the checks that fail the run: [what, met] */
const checks = []
/** the goal, reported beside: [what, met] */
const goals = []
for (const [label, code] of DROP_IN) {
  const ours = results.get(`ours: ${label}`)
  const ref = results.get(`${REF}: ${label}`)
  if (code === blockExample && !code.includes('Block.encode')) checks.push([`${label}: README.md has its Block example ('// block.mjs')`, false])
  else if (ours.error || ref.error) checks.push([`${label}: both build (${ours.error || ref.error})`, false])
  else {
    const ceiling = ceilings[label]
    checks.push([`${label}: ours at most its ceiling (${ours.gz} <= ${ceiling} B gz)`, typeof ceiling === 'number' && ours.gz <= ceiling])
    goals.push([`${label}: ours at most ${REF}'s (${ours.gz} <= ${ref.gz} B gz, ${ours.gz <= ref.gz ? `${ref.gz - ours.gz} B under` : `${ours.gz - ref.gz} B over`})`, ours.gz <= ref.gz])
  }
}

{
  const lexicon = results.get(LEXICON)
  const ceiling = ceilings[LEXICON]
  checks.push([lexicon.error ? `${LEXICON}: builds (${lexicon.error})` : `${LEXICON}: at most its ceiling (${lexicon.gz} <= ${ceiling} B gz)`, !lexicon.error && typeof ceiling === 'number' && lexicon.gz <= ceiling])
  const atcute = results.get(ATCUTE_POST)
  for (const label of [LEXICON_POST, LEXICON_POST_AOT]) {
    const post = results.get(label)
    if (post.error || atcute.error) {
      checks.push([`${label}: both build (${post.error || atcute.error})`, false])
      continue
    }
    const postCeiling = ceilings[label]
    checks.push([`${label}: at most its ceiling (${post.gz} <= ${postCeiling} B gz)`, typeof postCeiling === 'number' && post.gz <= postCeiling])
    // the goal is the ahead-of-time codec's; the compiled one's ratio is shown beside
    if (label === LEXICON_POST_AOT) goals.push([`${label}: at most ${LEXICON_POST_GOAL}x @atcute's post schema + validator (${post.gz} <= ${Math.floor(atcute.gz * LEXICON_POST_GOAL)} B gz; ${(post.gz / atcute.gz).toFixed(2)}x; compiled: ${(results.get(LEXICON_POST).gz / atcute.gz).toFixed(2)}x)`, post.gz <= atcute.gz * LEXICON_POST_GOAL])
  }
}

// bench/README.md's table is this one: rewritten on request, otherwise compared
const readme = fs.readFileSync(TABLE_FILE, 'utf8')
const begin = readme.indexOf(BEGIN)
const end = readme.indexOf(END)
if (begin >= 0 && end > begin) {
  const block = `${BEGIN}\n${table.join('\n')}\n${END}`
  const current = readme.slice(begin, end + END.length)
  if (process.argv.includes('--write-readme')) {
    if (current !== block) fs.writeFileSync(TABLE_FILE, readme.slice(0, begin) + block + readme.slice(end + END.length))
    console.log(`bench/README.md: bundle-size table ${current === block ? 'already up to date' : 'rewritten'}`)
  } else {
    console.log(`bench/README.md: bundle-size table ${current === block ? 'matches this run' : 'differs from this run (npm run size -- --write-readme rewrites it)'}`)
  }
} else {
  console.log(`bench/README.md: no ${BEGIN} ... ${END} block`)
}

for (const [what, met] of checks) console.log(`${met ? 'met    ' : 'NOT met'}  ${what}`)
for (const [what, met] of goals) console.log(`goal ${met ? 'met    ' : 'NOT met'}  ${what} (reported, not a failure: bench/README.md, "Bundle size")`)
if (checks.some(([, met]) => !met)) process.exitCode = 1
