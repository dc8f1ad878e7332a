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
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const CAR = fileURLToPath(new URL('..', import.meta.url))
const LIB = path.join(CAR, 'lib')
const CODE = /\.(?:c|m)?js$/
const SMALL = 10
const MARKER = /^\/\/ Own file: \S/

/**
 * Names two files may share, each with why. The package's two entries are index.js: its Node
 * entry and its platform-neutral core, which lib/node/library-build.cjs and library-bundle.js load
 * by these paths.
 * @type {Record<string, string[]>}
 */
const SHARED = {
  index: ['core/index.js', 'node/index.js']
}

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
 * Names shared by more than one file, beyond SHARED.
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
    const allowed = SHARED[name.replace(CODE, '')]
    if (allowed && list.every((f) => allowed.includes(f))) continue
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

describe('car/lib: every file says what it is', () => {
  const files = walk(LIB)
  const read = (/** @type {string} */ file) => fs.readFileSync(path.join(LIB, file), 'utf8')

  it('the rules catch what they are for', () => {
    assert.deepEqual(sharedNames(['core/read/errors.js', 'core/base/errors.js', 'node/sample.car', 'node/sample.js', 'node/a.cjs', 'core/a.js', 'x/b.json', 'y/b.json']), [
      'a.js: node/a.cjs, core/a.js',
      'b.json: x/b.json, y/b.json',
      'errors.js: core/read/errors.js, core/base/errors.js'
    ])
    assert.deepEqual(sharedNames(['core/index.js', 'node/index.js']), [])
    assert.deepEqual(sharedNames(['core/index.js', 'node/index.js', 'commands/index.js']), [
      'index.js: core/index.js, node/index.js, commands/index.js'
    ])
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
