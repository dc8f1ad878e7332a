// Browser-safety of the codec: bundles index.js for platform 'browser' with esbuild, lists the
// bundle's inputs from the metafile, and asserts that none of the repo's own inputs (index.js, lib/)
// uses the Node globals `Buffer` / `process` or imports Node built-ins ('node:*' or bare 'fs' etc.).
// The checker is itself tested on synthetic offending sources, so this spec can fail.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { builtinModules } from 'node:module'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'

const root = fileURLToPath(new URL('../', import.meta.url))
const MARK = '__NODE_ONLY_GLOBAL__'
const GLOBALS = ['Buffer', 'process']
const builtins = new Set(builtinModules)

// Returns a list of problems ('global Buffer', "import 'node:fs'", ...) found in a JS source string.
// Globals are found with esbuild's `define`, which rewrites only free (unbound) identifier references,
// so the words in strings, comments, property names or local bindings do not count.
export async function findNodeOnlyUses (source, sourcefile = 'input.js') {
  const define = {}
  for (const g of GLOBALS) {
    define[g] = `${MARK}${g}`
    for (const scope of ['globalThis', 'window', 'self', 'global']) define[`${scope}.${g}`] = `${MARK}${g}`
  }
  const result = await esbuild.build({
    stdin: { contents: source, sourcefile, loader: 'js', resolveDir: root },
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'silent',
    define,
    plugins: [{
      // keep every import external: we only want the specifiers, not their files
      name: 'all-external',
      setup (build) {
        build.onResolve({ filter: /.*/ }, (args) => args.kind === 'entry-point' ? undefined : { path: args.path, external: true })
      }
    }]
  })
  const problems = []
  const out = result.outputFiles[0].text
  for (const g of GLOBALS) if (out.includes(`${MARK}${g}`)) problems.push(`global ${g}`)
  for (const input of Object.values(result.metafile.inputs)) {
    for (const imp of input.imports) {
      const spec = imp.original ?? imp.path
      if (spec.startsWith('node:') || builtins.has(spec) || builtins.has(spec.split('/')[0])) {
        problems.push(`import '${spec}'`)
      }
    }
  }
  return problems
}

async function bundleForBrowser () {
  return esbuild.build({
    entryPoints: [path.join(root, 'index.js')],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent'
  })
}

/**
 * The lib/ files that package.json's "imports" map reaches only under the "node" or "bun" condition
 * (a browser bundler resolves neither), such as lib/result-memory-node.js.
 * @returns {Set<string>}
 */
function runtimeOnlyFiles () {
  const { imports } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
  const only = new Set()
  const reachable = new Set()
  for (const conditions of Object.values(imports ?? {})) {
    for (const [condition, target] of Object.entries(conditions)) {
      const file = target.replace(/^\.\//, '');
      (condition === 'node' || condition === 'bun' ? only : reachable).add(file)
    }
  }
  for (const file of reachable) only.delete(file)
  return only
}

describe('browser-safe: index.js and lib/', function () {
  this.timeout(30000)

  it('bundles with esbuild for platform browser', async () => {
    const result = await bundleForBrowser()
    assert.equal(result.errors.length, 0)
    assert.ok(result.outputFiles[0].text.length > 1000, 'bundle has content')
  })

  it('no input from index.js or lib/ uses Buffer, process or node: imports', async () => {
    const { metafile } = await bundleForBrowser()
    const own = Object.keys(metafile.inputs)
      .map((p) => path.resolve(root, p))
      .filter((p) => p === path.join(root, 'index.js') || p.startsWith(path.join(root, 'lib') + path.sep))
    assert.ok(own.includes(path.join(root, 'index.js')), 'index.js is an input')
    assert.ok(own.length >= 2, `expected index.js and lib/ files among the inputs, got ${own.join(', ')}`)
    const report = []
    for (const file of own) {
      const problems = await findNodeOnlyUses(fs.readFileSync(file, 'utf8'), file)
      if (problems.length) report.push(`${path.relative(root, file)}: ${problems.join(', ')}`)
    }
    assert.deepEqual(report, [], `node-only uses:\n${report.join('\n')}`)
  })

  it('also checks every lib/ file, imported or not, but those package.json sends only Node and Bun to', async () => {
    const dir = path.join(root, 'lib')
    const runtimeOnly = runtimeOnlyFiles()
    assert.ok(runtimeOnly.size > 0, 'package.json imports have runtime-only targets')
    const files = fs.readdirSync(dir, { recursive: true }).filter((f) => /\.[cm]?js$/.test(f) && !runtimeOnly.has(`lib/${f}`))
    assert.ok(files.length > 0, 'lib/ has .js files')
    const report = []
    for (const f of files) {
      const problems = await findNodeOnlyUses(fs.readFileSync(path.join(dir, f), 'utf8'), f)
      if (problems.length) report.push(`lib/${f}: ${problems.join(', ')}`)
    }
    assert.deepEqual(report, [], `node-only uses:\n${report.join('\n')}`)
  })
})

describe('browser-safe: the checker itself', function () {
  this.timeout(30000)

  const offending = [
    ['Buffer.from', "export const f = (s) => Buffer.from(s, 'utf8')", 'global Buffer'],
    ['globalThis.Buffer', 'export const B = globalThis.Buffer', 'global Buffer'],
    ['typeof process', "export const isNode = typeof process !== 'undefined'", 'global process'],
    ['process.env', 'export const debug = process.env.DEBUG', 'global process'],
    ["import 'node:fs'", "import { readFileSync } from 'node:fs'\nexport { readFileSync }", "import 'node:fs'"],
    ["import 'crypto'", "import crypto from 'crypto'\nexport default crypto", "import 'crypto'"],
    ["import('node:zlib')", "export const z = () => import('node:zlib')", "import 'node:zlib'"],
    ["export from 'node:buffer'", "export { Buffer as B } from 'node:buffer'", "import 'node:buffer'"]
  ]
  for (const [what, source, expected] of offending) {
    it(`flags ${what}`, async () => {
      const problems = await findNodeOnlyUses(source)
      assert.ok(problems.includes(expected), `expected '${expected}' in ${JSON.stringify(problems)}`)
    })
  }

  it('does not flag the words in strings, comments, properties or local bindings', async () => {
    const source = [
      '// uses no Buffer and no process',
      "export const msg = 'cannot process a Buffer'",
      'export const get = (o) => o.process + o.Buffer',
      'export function f (process) { const Buffer = 1; return process + Buffer }',
      "import { CID } from 'multiformats/cid'",
      'export { CID }'
    ].join('\n')
    assert.deepEqual(await findNodeOnlyUses(source), [])
  })

  it('a node: import fails the platform browser build', async () => {
    await assert.rejects(esbuild.build({
      stdin: { contents: "import { readFileSync } from 'node:fs'\nconsole.log(readFileSync)", resolveDir: root },
      bundle: true, write: false, platform: 'browser', logLevel: 'silent'
    }))
  })
})
