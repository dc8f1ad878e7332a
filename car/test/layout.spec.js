// car/lib's files say what they are (issue 62, item 1): no two share a name, so a stack trace, an
// editor tab or a search result names one file; and no file under 10 lines stands alone without
// saying why, so a reader does not open a file to find three lines that belong next to their caller.
//
// The rules:
// - names: no two files under lib/ share a name, and no two modules (.js, .cjs, .mjs) share one
//   but for their extension. (lib/node/sample.car, .json and .js are one sample: the
//   data and the module that reads it.)
// - small files: a code file of fewer than 10 lines has, among its first three lines, a comment line
//   `// Own file: <why>` (a module something loads by its path, such as an `imports` map target or
//   a worker's module URL, or an entry point named in package.json); or it is folded into its
//   neighbour.
// - package.json's exports and imports name files that exist (a declaration file, types/X.d.ts,
//   is built from lib/X.js: that source must exist).
// - tests beside what they test (item 5): test/ has lib/'s folders, and each code file lib/D/x.js
//   has a spec test/D/x.spec.js, or a row in test/D/COVERAGE.md naming the specs that test it
//   (each of which exists); a row for a file that has gone, or that has its own spec, is stale.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const CAR = fileURLToPath(new URL('..', import.meta.url))
const LIB = path.join(CAR, 'lib')
const TEST = path.join(CAR, 'test')
const CODE = /\.(?:c|m)?js$/
const SMALL = 10
const MARKER = /^\/\/ Own file: \S/

/**
 * Small files whose first lines are not this project's to change here, each with why it is a file.
 * An entry for a file that has gone or grown, or now says why itself, is not needed and not used.
 * @type {Record<string, string>}
 */
const SMALL_ELSEWHERE = {
  'node/cli-bundle.js': "the command bundle's entry point (scripts/bundle.js builds build/cli/ from it)"
}

/** @param {string} dir @returns {string[]} every file under dir, relative to lib/ */
function walk (dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name)
    return e.isDirectory() ? walk(full) : [path.relative(LIB, full).split(path.sep).join('/')]
  })
}

/**
 * Names shared by more than one file.
 * @param {string[]} files relative to lib/
 * @returns {string[]} one line per shared name
 */
export function sharedNames (files) {
  /** @type {Map<string, string[]>} */
  const byName = new Map()
  const add = (/** @type {string} */ name, /** @type {string} */ file) => byName.set(name, [...(byName.get(name) ?? []), file])
  for (const file of files) {
    const base = path.posix.basename(file)
    add(CODE.test(base) ? base.replace(CODE, '') + '.js' : base, file)
  }
  const lines = []
  for (const [name, list] of byName) {
    if (list.length < 2) continue
    lines.push(`${name}: ${list.join(', ')}`)
  }
  return lines.sort()
}

/**
 * Code files under SMALL lines that do not say why they are files of their own.
 * @param {string[]} files relative to lib/
 * @param {(file: string) => string} read
 * @returns {string[]}
 */
export function unexplainedSmallFiles (files, read) {
  return files.filter((file) => {
    if (!CODE.test(file)) return false
    const lines = read(file).split('\n')
    if (lines[lines.length - 1] === '') lines.pop()
    if (lines.length >= SMALL) return false
    if (lines.slice(0, 3).some((l) => MARKER.test(l))) return false
    return !Object.hasOwn(SMALL_ELSEWHERE, file)
  }).map((file) => `lib/${file}`)
}

/**
 * The rows of a COVERAGE.md table: file name => the specs named for it.
 * @param {string} text
 * @returns {Map<string, string[]>}
 */
export function coverageRows (text) {
  const rows = new Map()
  for (const [, file, specs] of text.matchAll(/^\| `([^`]+)` \| (.*) \|$/gm)) rows.set(file, [...specs.matchAll(/`([^`]+)`/g)].map((m) => m[1]))
  return rows
}

/**
 * What is wrong with the tests' layout: code files of lib/ with neither a spec of their own nor a
 * row in their folder's COVERAGE.md, rows naming specs that do not exist, and stale rows.
 * @param {string[]} files lib/'s files, relative to lib/
 * @param {(file: string) => boolean} exists a path relative to test/
 * @param {(folder: string) => string | null} table a test folder's COVERAGE.md (folder relative to test/, '' for test/ itself)
 * @returns {string[]}
 */
export function coverageProblems (files, exists, table) {
  const problems = []
  /** @type {Map<string, string[]>} folder => its code files' names */
  const byFolder = new Map()
  for (const file of files.filter((f) => CODE.test(f))) {
    const folder = path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file)
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), path.posix.basename(file)])
  }
  for (const [folder, names] of byFolder) {
    const text = table(folder)
    const rows = text === null ? new Map() : coverageRows(text)
    const at = (/** @type {string} */ name) => folder === '' ? name : `${folder}/${name}`
    for (const name of names) {
      const own = at(name.replace(CODE, '.spec.js'))
      const row = rows.get(name)
      if (exists(own)) {
        if (row) problems.push(`test/${at('COVERAGE.md')}: ${name} has its own spec, test/${own}`)
        continue
      }
      if (!row || row.length === 0) { problems.push(`lib/${at(name)}: no test/${own}, and no row in test/${at('COVERAGE.md')}`); continue }
      for (const spec of row) {
        const target = path.posix.normalize(path.posix.join(folder, spec))
        if (!spec.endsWith('.spec.js') || !exists(target)) problems.push(`test/${at('COVERAGE.md')}: ${name}'s spec ${spec} is not a spec here`)
      }
    }
    for (const name of rows.keys()) if (!names.includes(name)) problems.push(`test/${at('COVERAGE.md')}: ${name} is not a file of lib/${folder}`)
  }
  return problems
}

describe('car/lib: every file says what it is', () => {
  const files = walk(LIB)
  const read = (/** @type {string} */ file) => fs.readFileSync(path.join(LIB, file), 'utf8')

  it('the rules catch what they are for', () => {
    assert.deepEqual(sharedNames(['core/read/errors.js', 'core/base/errors.js', 'node/sample.car', 'node/sample.js', 'node/a.cjs', 'core/a.js', 'x/b.json', 'y/b.json']), [
      'a.js: node/a.cjs, core/a.js',
      'b.json: x/b.json, y/b.json',
      'errors.js: core/read/errors.js, core/base/errors.js'
    ])
    assert.deepEqual(sharedNames(['core/index.js', 'node/index.js']), ['index.js: core/index.js, node/index.js'])
    assert.deepEqual(sharedNames(['core/index.js', 'node/node-library.js', 'node/library.cjs']), [])
    const texts = /** @type {Record<string, string>} */ ({
      'a.js': 'export const a = 1\n',
      'b.js': "'use strict'\n// Own file: the exports map's target for x\nexports.a = 1\n",
      'c.js': '// Own file:\nexport const c = 1\n',
      'd.js': 'x\n'.repeat(SMALL),
      'e.json': '{}'
    })
    assert.deepEqual(unexplainedSmallFiles(Object.keys(texts), (f) => texts[f]), ['lib/a.js', 'lib/c.js'])
  })

  it('no two files under lib/ share a name', () => {
    assert.ok(files.length > 100, `expected car/lib's files, found ${files.length}`)
    assert.deepEqual(sharedNames(files), [], 'files sharing a name (rename one for what it does)')
  })

  it(`no code file under ${SMALL} lines stands alone without a first-lines "// Own file: why" comment`, () => {
    assert.deepEqual(unexplainedSmallFiles(files, read), [], 'fold these into the file that uses them, or say why they are files of their own')
  })

  it("package.json's exports and imports name files that exist", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(CAR, 'package.json'), 'utf8'))
    /** @type {string[]} */
    const targets = []
    const collect = (/** @type {unknown} */ t) => {
      if (typeof t === 'string') targets.push(t)
      else if (t && typeof t === 'object') Object.values(t).forEach(collect)
    }
    collect(manifest.exports)
    collect(manifest.imports)
    const missing = targets.map((t) => t.replace(/^\.\/types\/(.*)\.d\.ts$/, './$1.js')).filter((t) => !fs.existsSync(path.join(CAR, t)))
    assert.deepEqual(missing, [])
  })
})

describe('car/test follows car/lib: every file of lib/ has a spec that tests it', () => {
  it('the rule catches what it is for', () => {
    const tests = new Set(['core/read/a.spec.js', 'core/read/b.spec.js', 'core/api/x.spec.js'])
    const tables = /** @type {Record<string, string>} */ ({ 'core/read': '| `c.js` | `b.spec.js`, `../api/x.spec.js` |\n| `d.js` | `../api/y.spec.js` |\n| `a.js` | `b.spec.js` |\n| `gone.js` | `b.spec.js` |\n' })
    assert.deepEqual(coverageProblems(['core/read/a.js', 'core/read/c.js', 'core/read/d.js', 'core/read/e.js', 'core/read/data.json'], (f) => tests.has(f), (d) => tables[d] ?? null), [
      'test/core/read/COVERAGE.md: a.js has its own spec, test/core/read/a.spec.js',
      "test/core/read/COVERAGE.md: d.js's spec ../api/y.spec.js is not a spec here",
      'lib/core/read/e.js: no test/core/read/e.spec.js, and no row in test/core/read/COVERAGE.md',
      'test/core/read/COVERAGE.md: gone.js is not a file of lib/core/read'
    ])
  })

  it("every code file under lib/ has test/<its folder>/<name>.spec.js or a row in that folder's COVERAGE.md", () => {
    const table = (/** @type {string} */ folder) => {
      const file = path.join(TEST, folder, 'COVERAGE.md')
      return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null
    }
    assert.deepEqual(coverageProblems(walk(LIB), (f) => fs.existsSync(path.join(TEST, f)), table), [])
  })
})
