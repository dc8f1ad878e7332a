// A fresh clone with nothing beside it runs every test: no tracked file that tests, the fuzzer, the benches,
// the tool or CI run reaches outside the repository for data (the project's shared data lives beside the
// repo on developers' machines and is copied into test/fixtures/). The checker is tested on lines that
// must and must not match, so this spec can fail.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))

/**
 * A path or URL that climbs out of the repository to its sibling 'shared' folder.
 * @param {string} text
 * @returns {boolean}
 */
export function readsOutside (text) {
  return /(\.\.\/)+shared\b/.test(text)
}

describe('self-contained: nothing reads outside the repository', () => {
  it('the checker finds what it should and nothing else', () => {
    // built from parts, so that this file does not itself name the folder
    const up = '../'
    assert.ok(readsOutside(`new URL('${up.repeat(3)}shared/fixtures/', import.meta.url)`))
    assert.ok(readsOutside(`cat ${up}shared/data/x.car`))
    assert.ok(!readsOutside("new URL('../fixtures/cars/', import.meta.url)"))
    assert.ok(!readsOutside('--shared-process'))
    assert.ok(!readsOutside('a shared prefix'))
  })

  it('no tracked script, test, bench, tool or CI file climbs out to the sibling shared folder', () => {
    const files = execFileSync('git', ['ls-files', '-z', 'lib', 'index.js', 'test', 'bench', 'car', '.ci', 'package.json', 'examples'], { cwd: root, encoding: 'utf8' })
      .split('\0').filter((f) => /\.(m?js|cjs|ts|json|sh|html)$|^\.ci\//.test(f) && !f.startsWith('test/fixtures/'))
    assert.ok(files.length > 50, `only ${files.length} files listed`)
    const offenders = files.filter((f) => readsOutside(fs.readFileSync(`${root}/${f}`, 'utf8')))
    assert.deepEqual(offenders, [])
  })

  it('every file under test/fixtures/ is named in its README with a source and a licence', () => {
    const readme = fs.readFileSync(`${root}/test/fixtures/README.md`, 'utf8')
    for (const dir of ['codec-fixtures/', 'codec-fixtures-negative/', 'cars/filecoin-calibnet-genesis.car', 'cars/filecoin-sample-v1.car', 'lexicons/']) {
      assert.ok(readme.includes(dir), `test/fixtures/README.md does not name ${dir}`)
    }
    const listed = execFileSync('git', ['ls-files', '-z', 'test/fixtures'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)
    const covered = listed.filter((f) => f === 'test/fixtures/README.md' || /^test\/fixtures\/(codec-fixtures|codec-fixtures-negative|lexicons)\/|^test\/fixtures\/cars\/filecoin-(calibnet-genesis|sample-v1)\.car$/.test(f))
    assert.deepEqual(listed.filter((f) => !covered.includes(f)), [], 'files in test/fixtures/ that its README does not cover')
    assert.match(readme, /Apache-2\.0 OR MIT/)
  })
})
