// The READMEs are a user's reference, short like their peers' (@ipld/dag-cbor's, go-car's): how the
// code works goes to docs/ and car/docs/, bench history to the commits. This keeps them that short.
import assert from 'node:assert/strict'
import fs from 'node:fs'

/** [file under the repository root, most lines it may have] */
const LIMITS = /** @type {const} */ ([['README.md', 250], ['car/README.md', 300], ['bench/README.md', 400]])

/** @param {string} text */
function lineCount (text) {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

describe('README length', () => {
  for (const [file, limit] of LIMITS) {
    it(`${file} is at most ${limit} lines`, () => {
      const lines = lineCount(fs.readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'))
      assert.ok(lines <= limit, `${file} has ${lines} lines, more than ${limit}: move how it works to docs/ (car/docs/ for the CAR tool; docs/benchmarks.md for the benches)`)
    })
  }
})
