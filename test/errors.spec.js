// lib/errors.js: the rule table (RULES) is the one statement of which rules exist and which the relaxed mode
// lifts. Errors take their `relaxable` from it, and the README's two rule tables must list exactly its rules.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { RULES } from '../lib/errors.js'
import { decode, encode, DagCborDecodeError } from '../index.js'

const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8')

/**
 * The rows of the first table after `heading` in the README, as [first cell, last cell].
 * @param {string} heading
 * @returns {Array<[string, string]>}
 */
function tableAfter (heading) {
  const start = readme.indexOf(heading)
  assert.ok(start >= 0, `README has no "${heading}"`)
  const lines = readme.slice(start).split('\n')
  const first = lines.findIndex((line) => line.startsWith('| rule |'))
  /** @type {Array<[string, string]>} */
  const rows = []
  for (let i = first + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    const cells = lines[i].split('|').slice(1, -1).map((cell) => cell.trim())
    rows.push([cells[0].replace(/`/g, ''), cells[cells.length - 1]])
  }
  return rows
}

const decodeRules = Object.keys(RULES).filter((rule) => RULES[rule].side !== 'encode')
const encodeRules = Object.keys(RULES).filter((rule) => RULES[rule].side !== 'decode')

describe('errors: the rule table', () => {
  it('every rule has a phrase and a side', () => {
    for (const [rule, { side, phrase, relaxable }] of Object.entries(RULES)) {
      assert.match(rule, /^[a-z0-9-]+$/)
      assert.ok(['decode', 'encode', 'both'].includes(side), rule)
      assert.ok(phrase.length > 3, rule)
      assert.equal(typeof relaxable, 'boolean', rule)
    }
  })

  it("the README's decode table lists exactly the decode rules, with relaxed mode as the table says", () => {
    const rows = tableAfter('`decode` rejects, with a `DagCborDecodeError`')
    assert.deepEqual(rows.map(([rule]) => rule).sort(), [...decodeRules].sort())
    for (const [rule, relaxedMode] of rows) {
      assert.equal(relaxedMode !== 'rejects', RULES[rule].relaxable, `${rule}: README says "${relaxedMode}"`)
    }
  })

  it("the README's encode table lists exactly the encode rules", () => {
    const rows = tableAfter('`encode` throws a `DagCborEncodeError`')
    assert.deepEqual(rows.map(([rule]) => rule).sort(), [...encodeRules].sort())
  })

  // one input per relaxable rule and one per rule that is not: the error's relaxable comes from the table
  /** @type {Array<[string, string]>} */
  const inputs = [
    ['a26161016161' + '02', 'duplicate-key'],
    ['a2616201616101', 'map-key-order'],
    ['1801', 'non-shortest'],
    ['f93c00', 'float-size'],
    ['f7', 'undefined'],
    ['61ff', 'invalid-utf8'],
    ['6261', 'truncated'],
    ['c101', 'tag']
  ]
  for (const [hex, rule] of inputs) {
    it(`a ${rule} error is relaxable exactly when the table says so, and relaxed mode agrees`, () => {
      const bytes = Uint8Array.from(Buffer.from(hex, 'hex'))
      assert.throws(() => decode(bytes), (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === rule && e.relaxable === RULES[rule].relaxable)
      let relaxedOk = true
      try { decode(bytes, { relaxed: true }) } catch { relaxedOk = false }
      assert.equal(relaxedOk, RULES[rule].relaxable)
    })
  }

  it('encode errors name rules from the table', () => {
    for (const value of [undefined, NaN, [1n << 70n], { a: new Set() }, '\ud800']) {
      assert.throws(() => encode(value), (/** @type {any} */ e) => RULES[e.rule] !== undefined && RULES[e.rule].side !== 'decode')
    }
  })
})
