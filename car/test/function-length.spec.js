// No function in car/lib runs over 100 lines unless a comment right above it says why (issue 62,
// item 3): runPipeline had grown to 128 lines holding both the verify run and the rewrite run, and
// a reader had to keep both in mind to follow either.
//
// The rule:
// - files read: every tracked (git ls-files) .js and .cjs file under lib/, but lib/node/sample.*.
// - a function: a function declaration or expression, an arrow function, a method, an accessor or a
//   constructor, as TypeScript's parser reads the JavaScript (nested ones are measured on their own,
//   and count in the function around them too).
// - its length: the lines from its first token (`export`, `async`, its name...) to its closing
//   brace, both counted, blank and comment lines included.
// - a reason: a line starting `// long:` and then words, among the comment lines right above the
//   function's first line (the comments between it and the code or blank line before, its JSDoc
//   included).
// - every reason still in use: a `// long:` above a function of 100 lines or fewer is reported too,
//   so that it does not outlive the length it explained.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const CAR = fileURLToPath(new URL('..', import.meta.url))
const MOST_LINES = 100
const REASON = /^\s*\/\/ long: \S/

/** Tracked .js and .cjs files under lib/, as paths from car/. */
function libFiles () {
  const listed = spawnSync('git', ['ls-files', '-z', '--', 'lib'], { cwd: CAR, encoding: 'utf8' })
  assert.equal(listed.status, 0, `git ls-files failed: ${listed.stderr}`)
  return listed.stdout.split('\0').filter((f) => /\.c?js$/.test(f) && !f.startsWith('lib/node/sample.'))
}

/**
 * A function's name as a reader finds it: its own, or the variable, property or class member it is
 * given to.
 *
 * @param {ts.SignatureDeclaration} fn
 * @param {ts.SourceFile} file
 */
function nameOf (fn, file) {
  if (ts.isConstructorDeclaration(fn)) return 'constructor'
  if (fn.name) return fn.name.getText(file)
  const parent = fn.parent
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) return parent.name.getText(file)
  return '(anonymous)'
}

/**
 * Whether the comment lines right above line `first` (0-based) hold a reason.
 *
 * @param {string[]} lines
 * @param {number} first
 */
function hasReason (lines, first) {
  for (let i = first - 1; i >= 0; i--) {
    const line = lines[i].trim()
    if (!(line.startsWith('//') || line.startsWith('/*') || line.startsWith('*'))) return false
    if (REASON.test(line)) return true
  }
  return false
}

/**
 * Every function in a file with its length, and whether a reason stands above it.
 *
 * @param {string} file a path from car/
 * @returns {{ where: string, lines: number, reason: boolean }[]}
 */
function functionsOf (file) {
  const text = fs.readFileSync(path.join(CAR, file), 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS)
  const lines = text.split('\n')
  /** @type {{ where: string, lines: number, reason: boolean }[]} */
  const found = []
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      found.push({ where: `${file}:${first + 1} ${nameOf(node, source)}`, lines: last - first + 1, reason: hasReason(lines, first) })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe(`functions in car/lib: none over ${MOST_LINES} lines without a reason above it`, () => {
  const files = libFiles()
  const functions = files.flatMap(functionsOf)

  it('reads the library (the scan finds its files and functions)', () => {
    assert.ok(files.includes('lib/core/run/pipeline.js'), 'lib/core/run/pipeline.js is not among the files read')
    assert.ok(functions.some((f) => f.where.endsWith(' runPipeline')), 'runPipeline is not among the functions found')
  })

  it(`every function over ${MOST_LINES} lines has a \`// long: why\` comment right above it`, () => {
    const long = functions.filter((f) => f.lines > MOST_LINES && !f.reason)
    assert.deepEqual(long.map((f) => `${f.where} (${f.lines} lines)`), [],
      'split these functions, or say why one must stay whole in a line starting "// long:" right above it (above or below its JSDoc)')
  })

  it(`no \`// long:\` reason stands above a function of ${MOST_LINES} lines or fewer`, () => {
    const stale = functions.filter((f) => f.lines <= MOST_LINES && f.reason)
    assert.deepEqual(stale.map((f) => `${f.where} (${f.lines} lines)`), [],
      'these functions are short enough now: remove the "// long:" comment above each')
  })

  it('the parts of the rule hold on a sample', () => {
    const lines = ['const a = 1', '// long: one loop, its state in locals', '/**', ' * JSDoc', ' */', 'function f () {']
    assert.equal(hasReason(lines, 5), true, 'a reason above the JSDoc')
    assert.equal(hasReason(['// long: why', 'function f () {'], 1), true, 'a reason right above')
    assert.equal(hasReason(['// long: why', '', 'function f () {'], 2), false, 'a blank line between')
    assert.equal(hasReason(['// long: why', 'const b = 2', 'function f () {'], 2), false, 'code between')
    assert.equal(hasReason(['// long:', 'function f () {'], 1), false, 'no words after the marker')
  })
})
