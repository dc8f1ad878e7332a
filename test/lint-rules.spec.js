// The repository's own lint rules (lint/local-rules.js, run by `npm run lint`), and what the
// linter cannot see: that each package declares the commands its scripts run.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Linter, RuleTester } from 'eslint'
import local from '../lint/local-rules.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const inCar = path.join(root, 'car/lib/some-file.js')
const inRoot = path.join(root, 'test/some-file.js')

const tester = new RuleTester({ languageOptions: { ecmaVersion: 'latest', sourceType: 'module' } })

describe('lint rule local/declared-imports', () => {
  tester.run('declared-imports', local.rules['declared-imports'], {
    valid: [
      // car/package.json's dependency, its own name, Node's built-ins, its subpath imports, files
      { filename: inCar, code: "import { CID } from 'multiformats/cid'" },
      { filename: inCar, code: "export { CarReader } from 'dag-cbor-car/reader'" },
      { filename: inCar, code: "import fs from 'node:fs'; import path from 'path'; import { strict } from 'assert/strict'" },
      { filename: inCar, code: "import { hashers } from '#hashers'; import x from './x.js'; import y from '../y.js'" },
      { filename: inCar, code: "const m = await import('hash-wasm'); const r = require('@noble/hashes/sha2.js')" },
      // a specifier computed at run time is not checked
      { filename: inCar, code: 'const m = await import(`${base}/x.js`); const n = await import(name)' },
      { filename: inRoot, code: "import eslint from 'eslint'; import { decode } from 'dag-cbor-fast'" }
    ],
    invalid: [
      // eslint is the root's devDependency only: in car/ it runs only thanks to the workspace
      { filename: inCar, code: "import { Linter } from 'eslint'", errors: [{ message: /'eslint' is package 'eslint', which car\/package.json does not declare/ }] },
      { filename: inCar, code: "export * from '@eslint/js/src/index.js'", errors: [{ message: /package '@eslint\/js'.*Add '@eslint\/js' to car\/package.json's dependencies/ }] },
      { filename: inCar, code: "const m = await import('eslint')", errors: 1 },
      { filename: inCar, code: 'const m = await import(`eslint`)', errors: 1 },
      { filename: inCar, code: "const m = require('eslint/use-at-your-own-risk')", errors: 1 },
      { filename: inCar, code: "const url = import.meta.resolve('globals')", errors: 1 },
      // the root does not declare the CAR tool
      { filename: inRoot, code: "import { CarReader } from 'dag-cbor-car'", errors: [{ message: /which package.json does not declare/ }] }
    ]
  })
})

describe('lint rule local/jsdoc-types', () => {
  const linter = new Linter()
  /** @param {string} code */
  const unused = (code) => linter.verify(code, [{
    plugins: { local },
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module' },
    rules: { 'local/jsdoc-types': 'error', 'no-unused-vars': 'error' }
  }]).map((m) => m.message)

  it('a name used only in a JSDoc type is used', () => {
    assert.deepEqual(unused("import { CID } from 'multiformats/cid'\n/** @param {CID} cid */\nexport function f (cid) { return cid }"), [])
    assert.deepEqual(unused("import { CID } from 'multiformats/cid'\n/** @typedef {{ cid: CID, n: number }} Block */\nexport const x = 1"), [])
    assert.deepEqual(unused("import * as fs from 'node:fs'\nexport const f = /** @type {typeof fs.readFileSync} */ (Function)"), [])
  })
  it('a name in JSDoc prose, in a line comment, or nowhere is still unused', () => {
    assert.deepEqual(unused("import { CID } from 'multiformats/cid'\n/** Takes a CID. */\nexport const x = 1"), ["'CID' is defined but never used."])
    assert.deepEqual(unused("import { CID } from 'multiformats/cid'\n// {CID}\nexport const x = 1"), ["'CID' is defined but never used."])
    assert.deepEqual(unused("import { CID } from 'multiformats/cid'\nexport const x = 1"), ["'CID' is defined but never used."])
  })
})

describe('every package declares the commands its scripts run', () => {
  const NODE_COMMANDS = new Set(['node', 'npm', 'npx'])
  for (const dir of ['.', 'car', 'engines']) {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'))
    it(`${path.join(dir, 'package.json')}`, () => {
      const declared = new Set(Object.keys({ ...manifest.dependencies, ...manifest.devDependencies, ...manifest.optionalDependencies }))
      /** @type {Map<string, string>} command -> the installed package whose bin it is */
      const bins = new Map()
      for (const name of fs.readdirSync(path.join(root, 'node_modules/.bin'))) {
        const target = fs.realpathSync(path.join(root, 'node_modules/.bin', name))
        const pkg = path.relative(path.join(root, 'node_modules'), target).split(path.sep)
        bins.set(name, pkg[0].startsWith('@') ? pkg.slice(0, 2).join('/') : pkg[0])
      }
      const missing = []
      for (const [script, line] of Object.entries(manifest.scripts ?? {})) {
        for (const command of line.split(/&&|\|\||;|\|/)) {
          const word = command.trim().split(/\s+/).find((w) => !/^[A-Z_]+=/.test(w))
          if (!word || NODE_COMMANDS.has(word)) continue
          const pkg = bins.get(word)
          if (!pkg || !declared.has(pkg)) missing.push(`scripts.${script} runs ${word}${pkg ? ` (package ${pkg})` : ''}`)
        }
      }
      assert.deepEqual(missing, [], `${path.join(dir, 'package.json')}: a script runs a command from a package it does not declare; add the package to its devDependencies`)
    })
  }
})
