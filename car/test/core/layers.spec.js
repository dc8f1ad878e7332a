// The core's folders are its stages, and imports only go down: api → run → write → report → check →
// graph → read → base (docs/layers.md). A file may import its own folder and any folder below it;
// index.js re-exports and holds nothing else.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'

const core = new URL('../../lib/core/', import.meta.url).pathname
export const ORDER = ['base', 'read', 'graph', 'check', 'report', 'write', 'run', 'api']

/** @param {string} dir @returns {string[]} */
function walk (dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : [])
}

/** The stage folder a core file sits in, or null for index.js. @param {string} file */
function stageOf (file) {
  const top = path.relative(core, file).split(path.sep)[0]
  return top.endsWith('.js') ? null : top
}

/**
 * Every relative module a file loads, statically or with import() (JSDoc type references, in
 * comments, load nothing and are not counted).
 *
 * @param {string} file
 */
export function importsOf (file) {
  const text = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/g)].map((m) => path.resolve(path.dirname(file), m[1] ?? m[2]))
}

describe('core: one folder per stage, imports only go down', () => {
  const files = walk(core)

  it('every file is in a stage folder, except index.js', () => {
    const loose = files.filter((f) => stageOf(f) === null).map((f) => path.relative(core, f))
    assert.deepEqual(loose, ['index.js'])
    const folders = [...new Set(files.map(stageOf).filter(Boolean))].sort()
    assert.deepEqual(folders, [...ORDER].sort())
  })

  it('no file imports from a folder above its own', () => {
    const upward = []
    for (const file of files) {
      const from = stageOf(file)
      if (from === null) continue
      for (const target of importsOf(file)) {
        const to = stageOf(target)
        if (!target.startsWith(core) || to === null) { upward.push(`${path.relative(core, file)} imports ${path.relative(core, target)}`); continue }
        if (ORDER.indexOf(to) > ORDER.indexOf(from)) upward.push(`${path.relative(core, file)} (${from}) imports ${path.relative(core, target)} (${to})`)
      }
    }
    assert.deepEqual(upward, [])
  })

  it('index.js only re-exports', () => {
    const code = fs.readFileSync(path.join(core, 'index.js'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').split('\n').filter((l) => l.trim() && !l.startsWith('//'))
    assert.deepEqual(code.filter((l) => !/^export (?:\{[^}]+\}|\* as \w+) from '\.\/[a-z]+\/[a-z-]+\.js'$/.test(l)), [])
  })
})
