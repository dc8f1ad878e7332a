// The core (lib/core/) runs in browsers, Web Workers, Deno, Bun and workerd: no node: import, no
// Node built-in module, no Buffer, process, require, fs or worker_threads, in any file under
// lib/core/ and in any file lib/core/index.js reaches through its relative imports (static or
// dynamic), all of which must be under lib/core/.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { builtinModules } from 'node:module'
import { fileURLToPath } from 'node:url'

const CORE = fileURLToPath(new URL('../../lib/core/', import.meta.url))
/** the package's `imports` map: a `#name` the core imports is followed to its "default" target, a core file */
const IMPORTS = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).imports
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]]))
const NODE_GLOBALS = /\b(Buffer|process|require|__dirname|__filename|setImmediate)\b/

/** @param {string} text the code without its comments and string contents */
function code (text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
    .replace(/`(?:[^`\\]|\\.)*`/g, '``')
    .replace(/'(?:[^'\\\n]|\\.)*'/g, "''")
}

/** @param {string} text @returns {string[]} every module specifier: static imports, re-exports, dynamic import() of a literal */
function specifiers (text) {
  const stripped = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
  const found = []
  for (const m of stripped.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*'([^']+)'|(?:^|\n)\s*import\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)) found.push(m[1] ?? m[2] ?? m[3])
  return found
}

/** @param {string} file @returns {string[]} problems */
function problemsOf (file) {
  const text = fs.readFileSync(file, 'utf8')
  const problems = []
  for (const spec of specifiers(text)) {
    if (spec.startsWith('node:') || BUILTINS.has(spec) || BUILTINS.has(spec.split('/')[0])) problems.push(`${path.relative(CORE, file)} imports ${spec}`)
  }
  const globals = NODE_GLOBALS.exec(code(text))
  if (globals) problems.push(`${path.relative(CORE, file)} uses ${globals[1]}`)
  return problems
}

/** @param {string} dir @returns {string[]} */
function jsFiles (dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? jsFiles(path.join(dir, e.name)) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : [])
}

describe('lib/core is platform-neutral', () => {
  it('no file under lib/core imports a Node built-in or uses Buffer, process or require', () => {
    const files = jsFiles(CORE)
    assert.ok(files.length > 20, `expected the core's files, found ${files.length}`)
    assert.deepEqual(files.flatMap(problemsOf), [])
  })

  it('everything lib/core/index.js reaches through relative imports is under lib/core', () => {
    const seen = new Set()
    const todo = [path.join(CORE, 'index.js')]
    const outside = []
    while (todo.length) {
      const file = /** @type {string} */ (todo.pop())
      if (seen.has(file)) continue
      seen.add(file)
      if (!file.startsWith(CORE)) { outside.push(file); continue }
      for (const spec of specifiers(fs.readFileSync(file, 'utf8'))) {
        if (spec.startsWith('.')) todo.push(path.resolve(path.dirname(file), spec))
        else if (spec.endsWith('-stages')) todo.push(path.resolve(CORE, '..', '..', IMPORTS[spec].default))
      }
    }
    assert.deepEqual(outside, [])
    for (const stage of ['read/source.js', 'read/open-car.js', 'check/hash.js', 'check/classify.js', 'check/car-checks.js', 'report/summary.js', 'write/memory-target.js', 'run/pipeline.js', 'check/atproto/repo-walk.js']) {
      assert.ok(seen.has(path.join(CORE, stage)), `index.js reaches ${stage}`)
    }
  })

  it('the scan finds what it looks for', () => {
    // the checks above must be able to fail: the same scan on a Node file of the shell
    const shell = fileURLToPath(new URL('../../lib/node/output.js', import.meta.url))
    assert.ok(problemsOf(shell).some((p) => p.includes('imports node:fs')))
    assert.ok(problemsOf(fileURLToPath(new URL('../../lib/node/hashers-node.js', import.meta.url))).some((p) => p.includes('uses process')))
    assert.ok(problemsOf(fileURLToPath(new URL('../../lib/node/bytes-node.js', import.meta.url))).some((p) => p.includes('Buffer')))
  })
})
