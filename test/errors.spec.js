// lib/errors.js: the rule table (RULES) is the one statement of which rules exist and which the relaxed mode
// lifts. Errors take their `relaxable` from it, and the README's two rule tables must list exactly its rules.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { RULES } from '../lib/errors.js'
import { decode, encode, encodeInto, DagCborDecodeError, DagCborEncodeError } from '../index.js'

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
  it('every rule has a side and says whether relaxed mode lifts it', () => {
    for (const [rule, { side, relaxable }] of Object.entries(RULES)) {
      assert.match(rule, /^[a-z0-9-]+$/)
      assert.ok(['decode', 'encode', 'both'].includes(side), rule)
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

// One whole message per rule, as a user reads it: English with its units (bytes, items, entries),
// "not canonical" only where the rule is about canonical form, "not in the IPLD data model" for
// what relaxed mode reads but the data model lacks.
const RELAXED = '(decode(bytes, { relaxed: true }) reads it)'
/** @type {Array<[string, string]>} hex input, the whole message of strict decode's error */
const DECODE_MESSAGES = [
  ['6261', 'DAG-CBOR decode at byte 0: text string of 2 bytes, only 1 byte left [rule: truncated]'],
  ['a2616101', 'DAG-CBOR decode at byte 0: map of 2 entries (at least 2 bytes each), only 3 bytes left [rule: truncated]'],
  ['8301', 'DAG-CBOR decode at byte 0: array of 3 items (at least 1 byte each), only 1 byte left [rule: truncated]'],
  ['8201', 'DAG-CBOR decode at byte 0: array of 2 items (at least 1 byte each), only 1 byte left [rule: truncated]'],
  ['a16161', 'DAG-CBOR decode at byte 3 (/a): unexpected end of input [rule: truncated]'],
  ['0102', 'DAG-CBOR decode at byte 1: 1 byte left over after the first item (decodeFirst(bytes) returns the first item and the bytes after it) [rule: trailing-bytes]'],
  ['010203', 'DAG-CBOR decode at byte 1: 2 bytes left over after the first item (decodeFirst(bytes) returns the first item and the bytes after it) [rule: trailing-bytes]'],
  ['1c', 'DAG-CBOR decode at byte 0: additional information 28 is reserved [rule: malformed]'],
  ['9fff', 'DAG-CBOR decode at byte 0: indefinite-length item; DAG-CBOR has only definite lengths [rule: indefinite-length]'],
  ['1817', `DAG-CBOR decode at byte 0, not canonical ${RELAXED}: 23 is not in shortest form [rule: non-shortest]`],
  ['c101', 'DAG-CBOR decode at byte 0: tag 1 is not allowed; DAG-CBOR has only tag 42 (CID) [rule: tag]'],
  ['d82a00', 'DAG-CBOR decode at byte 2: tag 42 (CID) must hold a byte string [rule: cid]'],
  ['f3', 'DAG-CBOR decode at byte 0: simple value 19 is not in the IPLD data model [rule: simple-value]'],
  ['a16161f7', `DAG-CBOR decode at byte 3 (/a), not in the IPLD data model ${RELAXED}: undefined (0xf7) [rule: undefined]`],
  ['f93c00', `DAG-CBOR decode at byte 0, not canonical ${RELAXED}: 16-bit float; DAG-CBOR floats are 64-bit [rule: float-size]`],
  ['fb7ff8000000000000', 'DAG-CBOR decode at byte 0: NaN is not in the IPLD data model [rule: non-finite-float]'],
  ['a10102', 'DAG-CBOR decode at byte 1: map key is not a string [rule: map-key-type]'],
  ['a2616201616102', `DAG-CBOR decode at byte 4 (/a), not canonical ${RELAXED}: map key "a" is out of order (keys sort by length, then bytewise) [rule: map-key-order]`],
  ['a2616101616102', 'DAG-CBOR decode at byte 4 (/a): duplicate map key "a" [rule: duplicate-key]'],
  ['8161ff', `DAG-CBOR decode at byte 2 (/0), not in the IPLD data model ${RELAXED}: text is not valid UTF-8 [rule: invalid-utf8]`],
  ['818100', 'DAG-CBOR decode at byte 1 (/0): nesting deeper than maxDepth (1 level) [rule: depth]']
]
/** @type {Array<[string, () => unknown, string]>} a label, what throws, the whole message */
const ENCODE_MESSAGES = [
  ['undefined', () => encode({ a: [undefined] }), 'DAG-CBOR encode at /a/0: undefined is not in the IPLD data model [rule: undefined]'],
  ['non-finite-float', () => encode([NaN]), 'DAG-CBOR encode at /0: NaN is not in the IPLD data model [rule: non-finite-float]'],
  ['map-key-type', () => encode(new Map([[1, 2]])), 'DAG-CBOR encode at the top level: a Map key of type number; IPLD map keys are strings [rule: map-key-type]'],
  ['depth', () => encode([[1]], { maxDepth: 1 }), 'DAG-CBOR encode at /0: nesting deeper than maxDepth (1 level) [rule: depth]'],
  ['utf8', () => encode({ s: 'a\ud800' }), 'DAG-CBOR encode at /s: the lone surrogate at index 1 has no UTF-8 form [rule: utf8]'],
  ['circular', () => { const a = /** @type {any[]} */ ([]); a.push(a); return encode(a) }, 'DAG-CBOR encode at /0: circular reference [rule: circular]'],
  ['type', () => encode({ d: new Date(0) }), 'DAG-CBOR encode at /d: a Date is not in the IPLD data model [rule: type]'],
  ['type (bytes)', () => encode(new Int8Array(1)), 'DAG-CBOR encode at the top level: an Int8Array is not in the IPLD data model; bytes must be a Uint8Array [rule: type]'],
  ['integer-range', () => encode(2n ** 64n), 'DAG-CBOR encode at the top level: 18446744073709551616 is outside -2^64..2^64-1 [rule: integer-range]'],
  ['target-size', () => encodeInto('abc', new Uint8Array(1)), 'DAG-CBOR encode at the top level: the encoding takes 4 bytes, the target has 1 byte [rule: target-size]'],
  // '/' is the path of the value at key '', not of the value itself
  ['the value at key \'\'', () => encode({ '': undefined }), 'DAG-CBOR encode at /: undefined is not in the IPLD data model [rule: undefined]'],
  ['utf8, an escaped byte without escapedBytes', () => encode(['a\udcff']), 'DAG-CBOR encode at /0: the lone surrogate at index 1 has no UTF-8 form (U+DCFF is how decode(bytes, { relaxed: true }) keeps a byte of invalid UTF-8: encode(value, { escapedBytes: true }) writes it back as that byte) [rule: utf8]'],
  ['utf8, with escapedBytes: the first lone surrogate it cannot write', () => encode('\udcff\ud800', { escapedBytes: true }), 'DAG-CBOR encode at the top level: the lone surrogate at index 1 has no UTF-8 form [rule: utf8]']
]

describe('errors: one message per rule, word for word', () => {
  for (const [hex, message] of DECODE_MESSAGES) {
    it(`decode ${hex}`, () => {
      const bytes = Uint8Array.from(Buffer.from(hex, 'hex'))
      assert.throws(() => decode(bytes, hex === '818100' ? { maxDepth: 1 } : undefined), (/** @type {any} */ e) => {
        assert.ok(e instanceof DagCborDecodeError)
        assert.equal(e.message, message)
        return true
      })
    })
  }
  for (const [label, fn, message] of ENCODE_MESSAGES) {
    it(`encode: ${label}`, () => {
      assert.throws(fn, (/** @type {any} */ e) => {
        assert.ok(e instanceof DagCborEncodeError)
        assert.equal(e.message, message)
        return true
      })
    })
  }
  it('every rule has a message here', () => {
    const named = new Set([...ENCODE_MESSAGES.map(([, , m]) => m), ...DECODE_MESSAGES.map(([, m]) => m)].map((m) => /\[rule: ([a-z0-9-]+)\]$/.exec(m)?.[1]))
    assert.deepEqual([...named].sort(), Object.keys(RULES).sort())
  })
  it('a non-bytes argument to decode names what it got', () => {
    assert.throws(() => decode(/** @type {any} */ ('a16161')), { name: 'TypeError', message: 'DAG-CBOR decode: expected bytes (a Uint8Array, ArrayBuffer or ArrayBufferView), got a string' })
  })
})
