// dag-cbor-fast/schema, rule by rule: rows of { schema (DSL), root, data (hex), expected } for
// typed decode (a value, or the rule, byte offset, data path and type path of the error), typed
// encode (the bytes, or the rule), what compile refuses, and the codec's general promises (bytes
// it returns own their memory, maxDepth holds for recursive types, validate answers as
// dag-cbor-fast/validate, no code is generated at run time). Expected bytes are written by hand.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { fromDSL } from '@ipld/schema/from-dsl.js'
import { CID } from 'multiformats/cid'
import { compile, toTypeScript, toJavaScript } from '../lib/schema/index.js'
import { encode, DagCborDecodeError, DagCborEncodeError } from '../index.js'
import { validate } from '../lib/validate.js'
import { filecoinSchema } from '../examples/schemas/filecoin.js'
import { atprotoSchema } from '../examples/schemas/atproto.js'

const hex = (/** @type {string} */ h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16))
const toHex = (/** @type {Uint8Array} */ b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
const CID_HEX = 'd82a58250001711220' + '00'.repeat(32)
const cid = CID.parse('bafyreiaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')

const SCHEMA = `
type Pair struct { a Int b String } representation tuple
type Swapped struct { a Int b String } representation tuple { fieldOrder ["b", "a"] }
type Rec struct {
  name String
  count optional Int
  note nullable String
  kind Int (implicit 1)
  old String (rename "o")
} representation map
type Keyed union { | Pair "p" | Rec "r" } representation keyed
type Kinded union { | Int int | Float float | String string | Pair list | Null null } representation kinded
type Inline union { | A "a" | B "b" } representation inline { discriminantKey "t" }
type A struct { x Int } representation map
type B struct { y optional String } representation map
type Color enum { | Red ("r") | Green } representation string
type Level enum { | Low ("1") | High ("10") } representation int
type Tree struct { kids [Tree] } representation map
type Ints [nullable Int]
type Dict {String:Bytes}
type Holder struct { link &Any any Any } representation map
type Nums struct { i Int f Float } representation tuple
type Triple struct { a Int b String c Int } representation tuple
`
const dmt = fromDSL(SCHEMA)

/** decode rows: the root, the input, and the typed value or the error */
const DECODE = [
  { root: 'Pair', data: '820162 78', error: { rule: 'truncated', offset: 2 } },
  { root: 'Pair', data: '8201617a', expected: { a: 1, b: 'z' } },
  { root: 'Swapped', data: '82617a01', expected: { a: 1, b: 'z' } },
  { root: 'Pair', data: '83016161f6', error: { rule: 'schema-tuple-length', offset: 0, path: '', typePath: 'Pair' } },
  { root: 'Pair', data: '820102', error: { rule: 'schema-kind', offset: 2, path: '/1', typePath: 'Pair.b' } },
  { root: 'Pair', data: 'a0', error: { rule: 'schema-kind', offset: 0, typePath: 'Pair' } },
  // integers: a float64 holding an integer is an Int (as @ipld/schema's Number.isInteger); 2^53 is not
  { root: 'Nums', data: '82fb3ff0000000000000fb3ff8000000000000', expected: { i: 1, f: 1.5 } },
  { root: 'Nums', data: '82fb3ff8000000000000 01', error: { rule: 'schema-kind', offset: 1, typePath: 'Nums.i' } },
  { root: 'Nums', data: '821b0020000000000000 01', error: { rule: 'schema-kind', offset: 1, typePath: 'Nums.i' } },
  { root: 'Nums', data: '8201 f93c00', error: { rule: 'float-size', offset: 2, typePath: 'Nums.f' } },
  { root: 'Nums', data: '82181701', error: { rule: 'non-shortest', offset: 1, typePath: 'Nums.i' } },
  // map structs: fields in canonical key order ('o' < 'kind' < 'name' < 'note'), optional, nullable, implicit, rename
  { root: 'Rec', data: 'a3616f6178646e616d656179646e6f7465f6', expected: { name: 'y', note: null, kind: 1, old: 'x' } },
  { root: 'Rec', data: 'a5616f6178' + '646b696e6402' + '646e616d656179' + '646e6f74656161' + '65636f756e7403', expected: { name: 'y', note: 'a', kind: 2, old: 'x', count: 3 } },
  // a missing field is the block's fault: the error is at the map, whether found at a later key or at the end
  { root: 'Rec', data: 'a2616f6178646e616d656179', error: { rule: 'schema-missing-field', offset: 0, typePath: 'Rec' } },
  { root: 'Rec', data: 'a3616f6178646e616d656179646b696e6402', error: { rule: 'map-key-order', offset: 12, typePath: 'Rec' } },
  { root: 'Rec', data: 'a26461626364f6616f6178', error: { rule: 'schema-unknown-field', offset: 1, typePath: 'Rec' } },
  { root: 'Rec', data: 'a4616f6178617a00646e616d656179646e6f7465f6', error: { rule: 'schema-unknown-field', offset: 5, typePath: 'Rec' } },
  { root: 'Rec', data: 'a4616f6178616f6178646e616d656179646e6f7465f6', error: { rule: 'duplicate-key', offset: 5, typePath: 'Rec' } },
  { root: 'Rec', data: 'a3616f0a646e616d656179646e6f7465f6', error: { rule: 'schema-kind', offset: 3, path: '/o', typePath: 'Rec.old' } },
  { root: 'Rec', data: 'a2616f6178646e6f7465f6', error: { rule: 'schema-missing-field', offset: 0, typePath: 'Rec' } },
  { root: 'Keyed', data: 'a16172a2616f6178646e6f7465f6', error: { rule: 'schema-missing-field', offset: 3, path: '/r', typePath: 'Keyed(Rec)' } },
  { root: 'Rec', data: 'a3616f6178646e616d656179646e6f746501', error: { rule: 'schema-kind', offset: 17, path: '/note', typePath: 'Rec.note' } },
  { root: 'Rec', data: 'a301616f6178646e616d656179', error: { rule: 'map-key-type', offset: 1, typePath: 'Rec' } },
  // unions
  { root: 'Keyed', data: 'a1617082016161', expected: { Pair: { a: 1, b: 'a' } } },
  { root: 'Keyed', data: 'a1617182016161', error: { rule: 'schema-union', offset: 1, typePath: 'Keyed' } },
  { root: 'Keyed', data: 'a2617082016161617182016161', error: { rule: 'schema-union', offset: 0, typePath: 'Keyed' } },
  { root: 'Keyed', data: 'a16170820102', error: { rule: 'schema-kind', offset: 5, path: '/p/1', typePath: 'Keyed(Pair).b' } },
  { root: 'Kinded', data: '05', expected: { Int: 5 } },
  { root: 'Kinded', data: 'fb3ff8000000000000', expected: { Float: 1.5 } },
  { root: 'Kinded', data: 'fb4000000000000000', expected: { Int: 2 } },
  { root: 'Kinded', data: 'f6', expected: { Null: null } },
  { root: 'Kinded', data: '8201617a', expected: { Pair: { a: 1, b: 'z' } } },
  { root: 'Kinded', data: 'a0', error: { rule: 'schema-union', offset: 0, typePath: 'Kinded' } },
  { root: 'Kinded', data: '1b0020000000000000', error: { rule: 'schema-kind', offset: 0, typePath: 'Kinded(Int)' } },
  { root: 'Inline', data: 'a261746161617805', expected: { A: { x: 5 } } },
  { root: 'Inline', data: 'a1617461 62', expected: { B: {} } },
  { root: 'Inline', data: 'a261746163617805', error: { rule: 'schema-union', offset: 3, typePath: 'Inline' } },
  { root: 'Inline', data: 'a1617805', error: { rule: 'schema-union', offset: 0, typePath: 'Inline' } },
  { root: 'Inline', data: 'a261746161 6178f6', error: { rule: 'schema-kind', offset: 7, path: '/x', typePath: 'Inline(A).x' } },
  // enums
  { root: 'Color', data: '6172', expected: 'Red' },
  { root: 'Color', data: '65477265656e', expected: 'Green' },
  { root: 'Color', data: '63526564', error: { rule: 'schema-enum', offset: 0, typePath: 'Color' } },
  { root: 'Level', data: '0a', expected: 'High' },
  { root: 'Level', data: '02', error: { rule: 'schema-enum', offset: 0, typePath: 'Level' } },
  // lists, maps, links, Any
  { root: 'Ints', data: '8301f603', expected: [1, null, 3] },
  { root: 'Ints', data: '8201 6161', error: { rule: 'schema-kind', offset: 2, path: '/1', typePath: 'Ints[1]' } },
  { root: 'Dict', data: 'a2616141016162420203', expected: { a: new Uint8Array([1]), b: new Uint8Array([2, 3]) } },
  { root: 'Dict', data: 'a2616241016161420203', error: { rule: 'map-key-order', offset: 5, path: '/a', typePath: 'Dict["a"]' } },
  { root: 'Dict', data: 'a1616101', error: { rule: 'schema-kind', offset: 3, path: '/a', typePath: 'Dict["a"]' } },
  { root: 'Holder', data: `a263616e79a1617882f5f6646c696e6b${CID_HEX}`, expected: { any: { x: [true, null] }, link: cid } },
  { root: 'Holder', data: `a263616e791b0020000000000000646c696e6b${CID_HEX}`, error: { rule: 'schema-kind', offset: 5, path: '/any', typePath: 'Holder.any' } },
  { root: 'Holder', data: 'a263616e79f6646c696e6b4100', error: { rule: 'schema-kind', offset: 11, path: '/link', typePath: 'Holder.link' } },
  { root: 'Holder', data: 'a263616e79 a16178f7 646c696e6b', error: { rule: 'undefined', offset: 8, path: '/any/x', typePath: 'Holder.any' } },
  // recursive types
  { root: 'Tree', data: 'a1646b69647382a1646b69647380a1646b69647380', expected: { kids: [{ kids: [] }, { kids: [] }] } },
  { root: 'Tree', data: 'a1646b69647381a1646b69647381 01', error: { rule: 'schema-kind', offset: 14, path: '/kids/0/kids/0', typePath: 'Tree.kids[0].kids[0]' } }
]

describe('schema: typed decode, rule by rule', () => {
  for (const row of DECODE) {
    const data = row.data.replace(/ /g, '')
    it(`${row.root} ${data} -> ${row.error ? row.error.rule : JSON.stringify(row.expected, (k, v) => v instanceof Uint8Array ? toHex(v) : v?.asCID === v ? String(v) : v)}`, () => {
      const codec = compile(dmt, row.root)
      if (row.error) {
        // validate runs dag-cbor-fast/validate first: a block it rejects is rejected as it does
        let generic = null
        try { validate(hex(data)) } catch (e) { generic = /** @type {any} */ (e) }
        if (generic !== null) assert.throws(() => codec.validate(hex(data)), { rule: generic.rule, offset: generic.offset, message: generic.message })
        for (const run of [() => codec.decode(hex(data)), ...(generic === null ? [() => codec.validate(hex(data))] : [])]) {
          assert.throws(run, (/** @type {any} */ e) => {
            assert.ok(e instanceof DagCborDecodeError)
            assert.equal(e.rule, row.error.rule, e.message)
            assert.equal(e.offset, row.error.offset, e.message)
            if (row.error.path !== undefined) assert.equal(e.path, row.error.path, e.message)
            // validate reports the codec's own rules first (lib/validate.js), without a type path
            if (row.error.typePath !== undefined && e.typePath !== undefined) {
              assert.equal(e.typePath, row.error.typePath, e.message)
              assert.match(e.message, new RegExp(`at byte ${row.error.offset}\\b.* in ${row.error.typePath.replace(/[[\]().]/g, '\\$&')}: .* \\[rule: ${row.error.rule}\\]$`))
            }
            return true
          })
        }
      } else {
        assert.deepStrictEqual(codec.decode(hex(data)), row.expected)
        assert.deepStrictEqual(codec.validate(hex(data)), validate(hex(data)))
      }
    })
  }
})

/** encode rows: the root, the typed value, and the bytes or the error */
const ENCODE = [
  { root: 'Pair', value: { a: 1, b: 'z' }, data: '8201617a' },
  { root: 'Swapped', value: { b: 'z', a: 1 }, data: '82617a01' },
  // keys in another order than the fields'; fields are own properties only (as generic encode
  // writes only own keys): an inherited member, a getter of a class included, is no field; a key that is no field
  { root: 'Pair', value: { b: 'z', a: 1 }, data: '8201617a' },
  { root: 'Pair', value: new (class { get a () { return 1 } get b () { return 'z' } })(), error: { rule: 'schema-missing-field', path: '/0', typePath: 'Pair.a' } },
  { root: 'Pair', value: Object.assign(Object.create({ a: 1 }), { b: 'z' }), error: { rule: 'schema-missing-field', path: '/0', typePath: 'Pair.a' } },
  { root: 'Rec', value: Object.assign(Object.create({ count: 3 }), { name: 'y', note: null, old: 'x' }), data: 'a3616f6178646e616d656179646e6f7465f6' },
  { root: 'Pair', value: { a: 1, c: 2, b: 'z' }, error: { rule: 'schema-unknown-field', path: '/c', typePath: 'Pair.c' } },
  { root: 'Rec', value: { name: 'y', note: null, kind: 1, old: 'x' }, data: 'a3616f6178646e616d656179646e6f7465f6' },
  { root: 'Rec', value: { name: 'y', note: null, old: 'x', kind: 2, count: 3 }, data: 'a5616f6178646b696e6402646e616d656179646e6f7465f665636f756e7403' },
  { root: 'Rec', value: { name: 'y', note: null, old: 'x', count: undefined }, data: 'a3616f6178646e616d656179646e6f7465f6' },
  { root: 'Rec', value: { name: 'y', old: 'x' }, error: { rule: 'schema-missing-field', path: '/note', typePath: 'Rec.note' } },
  { root: 'Rec', value: { name: 'y', note: null, old: 'x', extra: 1 }, error: { rule: 'schema-unknown-field', path: '/extra', typePath: 'Rec.extra' } },
  { root: 'Rec', value: { name: 1, note: null, old: 'x' }, error: { rule: 'schema-kind', path: '/name', typePath: 'Rec.name' } },
  // a missing or unknown field is reported before a bad value of a field written ahead of it
  { root: 'Rec', value: { name: 1, old: 'x' }, error: { rule: 'schema-missing-field', path: '/note', typePath: 'Rec.note' } },
  { root: 'Rec', value: { name: 1, note: null, old: 'x', extra: 1 }, error: { rule: 'schema-unknown-field', path: '/extra', typePath: 'Rec.extra' } },
  { root: 'Keyed', value: { Pair: { a: 1, b: 'a' } }, data: 'a1617082016161' },
  { root: 'Keyed', value: { Pair: { a: 1, b: 'a' }, Rec: {} }, error: { rule: 'schema-union', path: '', typePath: 'Keyed' } },
  { root: 'Kinded', value: { Float: 1.5 }, data: 'fb3ff8000000000000' },
  { root: 'Kinded', value: { Pair: { a: 1, b: 'z' } }, data: '8201617a' },
  // an integral Float is written as an integer, which reads back as the Int member
  { root: 'Kinded', value: { Float: 2 }, error: { rule: 'schema-union', path: '', typePath: 'Kinded' } },
  { root: 'Kinded', value: { Int: 2 }, data: '02' },
  { root: 'Inline', value: { A: { x: 5 } }, data: 'a261746161617805' },
  { root: 'Inline', value: { B: { y: 'q' } }, data: 'a2617461626179617' + '1' },
  { root: 'Color', value: 'Red', data: '6172' },
  { root: 'Color', value: 'Blue', error: { rule: 'schema-enum', path: '', typePath: 'Color' } },
  { root: 'Level', value: 'High', data: '0a' },
  { root: 'Ints', value: [1, null, 3], data: '8301f603' },
  { root: 'Ints', value: [1, 2n], error: { rule: 'schema-kind', path: '/1', typePath: 'Ints[1]' } },
  { root: 'Dict', value: { b: new Uint8Array([2, 3]), a: new Uint8Array([1]) }, data: 'a2616141016162420203' },
  { root: 'Holder', value: { link: cid, any: { x: [true, null] } }, data: `a263616e79a1617882f5f6646c696e6b${CID_HEX}` },
  { root: 'Holder', value: { link: cid, any: { x: [1, 2n ** 60n] } }, error: { rule: 'schema-kind', path: '/any', typePath: 'Holder.any' } },
  { root: 'Holder', value: { link: cid, any: undefined }, error: { rule: 'schema-missing-field', path: '/any', typePath: 'Holder.any' } },
  { root: 'Holder', value: { link: 'bafy', any: 1 }, error: { rule: 'schema-kind', path: '/link', typePath: 'Holder.link' } },
  { root: 'Nums', value: { i: 1.5, f: 1 }, error: { rule: 'schema-kind', path: '/0', typePath: 'Nums.i' } },
  { root: 'Nums', value: { i: -0, f: -0 }, data: '82fb8000000000000000fb8000000000000000' },
  // a tuple's fields are written as its for-in meets them in order; where they stop coming so (or a
  // field fails), the rest is read by name, and the errors are those of reading every field by name
  { root: 'Swapped', value: { a: 1, b: 'z' }, data: '82617a01' },
  { root: 'Triple', value: { a: 1, c: 3, b: 'z' }, data: '8301617a03' },
  { root: 'Triple', value: { a: 1, c: 'x', b: 'z' }, error: { rule: 'schema-kind', path: '/2', typePath: 'Triple.c' } },
  { root: 'Pair', value: { a: 1, b: 2 }, error: { rule: 'schema-kind', path: '/1', typePath: 'Pair.b' } },
  { root: 'Pair', value: { a: 1, b: undefined }, error: { rule: 'schema-missing-field', path: '/1', typePath: 'Pair.b' } },
  { root: 'Pair', value: Object.assign(Object.create({ b: 'z' }), { a: 1 }), error: { rule: 'schema-missing-field', path: '/1', typePath: 'Pair.b' } },
  { root: 'Pair', value: Object.assign(Object.create({ b: 2 }), { a: 1 }), error: { rule: 'schema-missing-field', path: '/1', typePath: 'Pair.b' } },
  { root: 'Pair', value: { a: 1, b: 'z', c: 2 }, error: { rule: 'schema-unknown-field', path: '/c', typePath: 'Pair.c' } },
  { root: 'Pair', value: { a: 'x', b: 'z', c: 2 }, error: { rule: 'schema-unknown-field', path: '/c', typePath: 'Pair.c' } },
  // with as many keys as fields, an unknown key is found as a missing field, or after a bad one
  { root: 'Triple', value: { a: 1, b: 'z', d: 3 }, error: { rule: 'schema-missing-field', path: '/2', typePath: 'Triple.c' } },
  { root: 'Triple', value: { a: 1, b: 2, d: 3 }, error: { rule: 'schema-kind', path: '/1', typePath: 'Triple.b' } }
]

describe('schema: typed encode, rule by rule', () => {
  for (const row of ENCODE) {
    it(`${row.root} ${JSON.stringify(row.value, (k, v) => typeof v === 'bigint' ? `${v}n` : v instanceof Uint8Array ? toHex(v) : v?.asCID === v ? String(v) : v)} -> ${row.error ? row.error.rule : row.data}`, () => {
      const codec = compile(dmt, row.root)
      if (row.error) {
        assert.throws(() => codec.encode(row.value), (/** @type {any} */ e) => {
          assert.ok(e instanceof DagCborEncodeError)
          assert.equal(e.rule, row.error.rule, e.message)
          assert.equal(e.path, row.error.path, e.message)
          assert.equal(e.typePath, row.error.typePath, e.message)
          return true
        })
      } else {
        const bytes = codec.encode(row.value)
        assert.equal(toHex(bytes), row.data)
        assert.equal(bytes.byteOffset, 0)
        assert.equal(bytes.buffer.byteLength, bytes.length, 'the result owns exactly its bytes')
      }
    })
  }
  it('at the depth limit, a tuple struct\'s unknown field is reported before the limit, a missing one after it', () => {
    const keyed = compile(dmt, 'Keyed')
    const rule = (/** @type {unknown} */ value) => /** @type {any} */ (attemptError(() => keyed.encode(value, { maxDepth: 1 })))?.rule
    assert.equal(rule({ Pair: { a: 1, b: 'z', c: 2 } }), 'schema-unknown-field')
    assert.equal(rule({ Pair: { a: 1, b: 'z' } }), 'depth')
    assert.equal(rule({ Pair: { a: 1 } }), 'depth')
    assert.equal(toHex(keyed.encode({ Pair: { a: 1, b: 'z' } }, { maxDepth: 2 })), 'a16170820161' + '7a')
  })
  it('an implicit field holding its implicit value is not written; reading it back fills it in', () => {
    const codec = compile(dmt, 'Rec')
    const bytes = codec.encode({ name: 'y', note: null, old: 'x', kind: 1 })
    assert.equal(toHex(bytes), 'a3616f6178646e616d656179646e6f7465f6')
    assert.deepStrictEqual(codec.decode(bytes), { name: 'y', note: null, old: 'x', kind: 1 })
  })
})

describe('schema: compile', () => {
  const refused = [
    ['type S struct { a Int } representation listpairs', 'S', /listpairs representation of structs is not supported/],
    ['type S struct { a String b String } representation stringjoin { join ":" }', 'S', /stringjoin representation of structs is not supported/],
    ['type M {Int:String}', 'M', /keys of type "Int" are not supported/],
    ['type M {String:Int} representation listpairs', 'M', /listpairs representation of maps is not supported/],
    ['type U union { | A "a" } representation envelope { discriminantKey "t" contentKey "c" }\ntype A struct {}', 'U', /envelope representation of unions is not supported/],
    ['type U union { | A "00" } representation bytesprefix\ntype A bytes', 'U', /bytesprefix representation of unions is not supported/],
    ['type S struct { a optional Int } representation tuple', 'S', /optional fields are not supported in a tuple/],
    ['type S struct { a Missing }', 'S', /refers to type "Missing", which the schema does not define/],
    ['type U union { | P "p" } representation inline { discriminantKey "t" }\ntype P struct { a Int } representation tuple', 'U', /must be a struct of map representation/],
    ['type U union { | P "p" } representation inline { discriminantKey "a" }\ntype P struct { a Int }', 'U', /discriminant key "a"/]
  ]
  for (const [dsl, root, why] of refused) {
    it(`refuses ${dsl.split('\n')[0]}`, () => assert.throws(() => compile(fromDSL(dsl), root), why))
  }
  it('refuses an unknown root', () => assert.throws(() => compile(dmt, 'Nope'), /does not define/))
  it('takes a struct field named __proto__ (only a parsed schema can have one) as an own property, and reads the key through rename', () => {
    for (const representation of [{ map: {} }, { tuple: {} }]) {
      const parsed = { types: { S: { struct: { fields: JSON.parse('{ "__proto__": { "type": "Int" }, "a": { "type": "Int" } }'), representation } } } }
      const codec = compile(parsed, 'S')
      const bytes = representation.map ? encode(JSON.parse('{ "__proto__": 5, "a": 1 }')) : encode([5, 1])
      const value = codec.decode(bytes)
      assert.equal(Object.getPrototypeOf(value), Object.prototype)
      assert.deepEqual(Object.getOwnPropertyDescriptor(value, '__proto__'), { value: 5, writable: true, enumerable: true, configurable: true })
      assert.deepStrictEqual(codec.encode(value), bytes)
    }
    const renamed = compile(fromDSL('type S struct { p Int (rename "__proto__") a Int }'), 'S')
    const bytes = encode(JSON.parse('{ "__proto__": 5, "a": 1 }'))
    assert.deepStrictEqual(renamed.decode(bytes), { p: 5, a: 1 })
    assert.deepStrictEqual(renamed.encode({ p: 5, a: 1 }), bytes)
  })
  it('takes DSL text with @ipld/schema\'s parser passed in, and says how when it is not', () => {
    assert.deepStrictEqual(compile(SCHEMA, 'Pair', { fromDSL }).decode(hex('8201617a')), { a: 1, b: 'z' })
    assert.throws(() => compile(SCHEMA, 'Pair'), /import \{ fromDSL \} from '@ipld\/schema\/from-dsl\.js'/)
  })
})

/** every name Object.prototype has, `__proto__` included (the names a typed value inherits) */
const INHERITED = Object.getOwnPropertyNames(Object.prototype)

describe('schema: fields named as Object.prototype members', () => {
  // a parsed schema, as fromDSL writes it (JSON.parse keeps "__proto__" an own key)
  const fields = Object.fromEntries(INHERITED.map((n) => [n, { type: 'Int', optional: true }]))
  const schema = {
    types: {
      Opt: { struct: { fields, representation: { map: {} } } },
      Req: { struct: { fields: Object.fromEntries(INHERITED.map((n) => [n, { type: 'Int' }])), representation: { map: {} } } },
      Tup: { struct: { fields: Object.fromEntries(INHERITED.map((n) => [n, { type: 'String' }])), representation: { tuple: {} } } },
      Imp: JSON.parse('{ "struct": { "fields": { "__proto__": { "type": "Int" }, "constructor": { "type": "Int" }, "toString": { "type": "String" }, "valueOf": { "type": "Bool" } }, ' +
        '"representation": { "map": { "fields": { "__proto__": { "implicit": 2 }, "constructor": { "implicit": 1 }, "toString": { "implicit": "s" }, "valueOf": { "implicit": false } } } } } }')
    }
  }
  /** an object with these own properties (`__proto__` defined, not set) */
  const own = (/** @type {[string, unknown][]} */ entries) => {
    /** @type {Record<string, unknown>} */
    const o = {}
    for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true })
    return o
  }
  it('an absent optional or implicit field is absent, and encode does not read the inherited member', () => {
    const opt = compile(schema, 'Opt')
    assert.deepStrictEqual(opt.decode(hex('a0')), {})
    assert.equal(toHex(opt.encode({})), 'a0')
    assert.equal(toHex(opt.encode(opt.decode(hex('a0')))), 'a0')
    const one = encode(own([['valueOf', 3]]))
    assert.deepStrictEqual(opt.decode(one), own([['valueOf', 3]]))
    assert.deepStrictEqual(opt.encode(opt.decode(one)), one)
    const imp = compile(schema, 'Imp')
    const filled = imp.decode(hex('a0'))
    assert.deepStrictEqual(filled, own([['__proto__', 2], ['constructor', 1], ['toString', 's'], ['valueOf', false]]))
    assert.equal(Object.getPrototypeOf(filled), Object.prototype)
    assert.equal(toHex(imp.encode(filled)), 'a0')
  })
  it('every one of them, __proto__ included, round-trips as a field of a map and of a tuple struct', () => {
    const map = own(INHERITED.map((n, i) => [n, i]))
    const bytes = encode(map)
    for (const codec of [compile(schema, 'Req'), compile(schema, 'Opt')]) {
      const value = codec.decode(bytes)
      assert.equal(Object.getPrototypeOf(value), Object.prototype)
      assert.deepStrictEqual(value, map)
      assert.deepStrictEqual(codec.encode(value), bytes)
    }
    const tup = compile(schema, 'Tup')
    const list = encode(INHERITED)
    const value = tup.decode(list)
    assert.deepStrictEqual(value, own(INHERITED.map((n) => [n, n])))
    assert.deepStrictEqual(tup.encode(value), list)
  })
  it('a required one that is only inherited is missing', () => {
    assert.throws(() => compile(schema, 'Req').encode(own(INHERITED.filter((n) => n !== 'toString').map((n) => [n, 1]))), { rule: 'schema-missing-field', typePath: 'Req.toString' })
    assert.throws(() => compile(schema, 'Req').decode(encode(own(INHERITED.filter((n) => n !== 'toString').map((n) => [n, 1])))), { rule: 'schema-missing-field', offset: 0, message: /block has no field "toString" required by struct Req/ })
  })
  it('toJavaScript\'s readers read them as compile does', async () => {
    const file = path.join(os.tmpdir(), `dag-cbor-fast-proto-${process.pid}.mjs`)
    fs.writeFileSync(file, toJavaScript(schema, { from: pathToFileURL(path.resolve('lib/schema/index.js')).href }))
    try {
      const { compileTyped } = await import(pathToFileURL(file).href)
      for (const root of ['Opt', 'Req', 'Tup', 'Imp']) {
        const codec = compile(schema, root)
        const aot = compileTyped(root)
        for (const bytes of [hex('a0'), encode(own(INHERITED.map((n, i) => [n, i]))), encode(own([['hasOwnProperty', 4]])), encode(INHERITED)]) {
          let expected
          try { expected = codec.decode(bytes) } catch (e) { expected = e }
          let got
          try { got = aot.decode(bytes) } catch (e) { got = e }
          if (expected instanceof Error) assert.equal(/** @type {any} */ (got)?.message, expected.message, root)
          else {
            assert.deepStrictEqual(got, expected, root)
            assert.equal(Object.getPrototypeOf(got), Object.prototype)
          }
        }
      }
    } finally {
      fs.rmSync(file, { force: true })
    }
  })
})

describe('schema: compile refuses representations that collide', () => {
  const refused = [
    // enum strings equal to each other, or to another member's own (default) string
    ['type E enum { | A ("x") | B ("x") }', 'E', /type "E" \(types\.E\.enum\.representation\.string\): members "A" and "B" are both written "x"/],
    ['type E enum { | A ("B") | B }', 'E', /members "A" and "B" are both written "B"/],
    ['type E enum { | A ("1") | B ("1") } representation int', 'E', /type "E" \(types\.E\.enum\.representation\.int\): members "A" and "B" are both written 1/],
    // union keys, kinds and discriminants naming one member twice
    ['type U union { | A "a" | A "b" } representation keyed\ntype A int', 'U', /type "U" \(types\.U\.union\.representation\.keyed\): keys "a" and "b" both name member "A"/],
    ['type U union { | A int | A float } representation kinded\ntype A any', 'U', /type "U" \(types\.U\.union\.representation\.kinded\): kinds "int" and "float" both name member "A"/],
    ['type U union { | A "a" | A "b" } representation inline { discriminantKey "t" }\ntype A struct { x Int }', 'U', /type "U" \(types\.U\.union\.representation\.inline\.discriminantTable\): discriminants "a" and "b" both name member "A"/],
    // struct keys: a rename making two fields one key, or a rename that is another field's name
    ['type S struct { a Int (rename "b") b Int }', 'S', /type "S" \(types\.S\.struct\.representation\.map\.fields\): fields "a" and "b" are both written with the key "b"/],
    ['type S struct { a Int (rename "k") b Int (rename "k") }', 'S', /fields "a" and "b" are both written with the key "k"/],
    ['type S struct { a Int (rename "b") b Int (rename "c") }', 'S', /type "S" \(types\.S\.struct\.representation\.map\.fields\.a\.rename\): field "a" is renamed "b", the name of field "b"/],
    // a kinded union's member written as another kind than the one naming it, or never read back
    ['type U union { | Int string } representation kinded', 'U', /type "U" \(types\.U\.union\.representation\.kinded\): kind "string" names member "Int", which is written as int/],
    ['type U union { | P map } representation kinded\ntype P struct { a Int } representation tuple', 'U', /kind "map" names member "P", which is written as list/],
    // null for a nullable place, and null for a kinded union's null member
    ['type S struct { u nullable U }\ntype U union { | Null null | Int int } representation kinded', 'S', /type "S" \(types\.S\.struct\.fields\.u\.nullable\): field "u" is nullable, and its type "U" writes its member "Null" as null too/],
    ['type L [nullable U]\ntype U union { | Null null | Int int } representation kinded', 'L', /type "L" \(types\.L\.list\.valueNullable\): values are nullable, and their type "U" writes its member "Null" as null too/],
    ['type M {String:nullable C}\ntype C = U\ntype U union { | Null null | Int int } representation kinded', 'M', /type "M" \(types\.M\.map\.valueNullable\): values are nullable, and their type "C" writes its member "Null" as null too/],
    ['type U union { | Float float | Int int } representation kinded', 'U', /type "U" \(types\.U\.union\.representation\.kinded\): kinds "float" and "int": every number reads as member "Float" \(float is listed first\), so member "Int" would read back as "Float"/]
  ]
  for (const [dsl, root, why] of refused) {
    it(`refuses ${dsl.split('\n')[0]}`, () => assert.throws(() => compile(fromDSL(dsl), root), why))
  }
  it('refuses a parsed schema whose enum lists a member twice, or a representation for no member', () => {
    assert.throws(() => compile({ types: { E: { enum: { members: ['A', 'A'] } } } }, 'E'), /type "E" \(types\.E\.enum\.members\): member "A" is listed twice/)
    assert.throws(() => compile({ types: { E: { enum: { members: ['A'], representation: { string: { B: 'b' } } } } } }, 'E'), /type "E" \(types\.E\.enum\.representation\.string\): "B" is not a member/)
  })
  it('the value that was ambiguous round-trips once the collision is gone', () => {
    const e = compile(fromDSL('type E enum { | A ("B") | B ("b") }'), 'E')
    for (const m of ['A', 'B']) assert.equal(e.decode(e.encode(m)), m)
  })
})

describe('schema: options', () => {
  const codec = compile(dmt, 'Tree')
  const bytes = hex('a1646b69647380')
  const calls = [
    (/** @type {any} */ o) => codec.decode(bytes, o),
    (/** @type {any} */ o) => codec.validate(bytes, o),
    (/** @type {any} */ o) => codec.encode({ kids: [] }, o)
  ]
  it('maxDepth must be a positive integer', () => {
    for (const call of calls) {
      for (const bad of [NaN, 0, -1, 1.5, Infinity]) assert.throws(() => call({ maxDepth: bad }), { name: 'RangeError', message: /options\.maxDepth must be a positive integer/ })
      for (const bad of ['3', null, 3n]) assert.throws(() => call({ maxDepth: bad }), { name: 'TypeError', message: /options\.maxDepth must be a positive integer/ })
      assert.throws(() => call({ maxDepth: 1 }), { rule: 'depth' })
      call({ maxDepth: 2 })
      call(undefined)
      call({})
    }
  })
  it('options must be an object, and each of its keys an option', () => {
    for (const call of calls) {
      for (const bad of [null, 5, 'x', [1]]) assert.throws(() => call(bad), { name: 'TypeError', message: /options must be an object/ })
      assert.throws(() => call({ maxdepth: 2 }), { name: 'TypeError', message: /unknown option "maxdepth"/ })
    }
    assert.deepStrictEqual(codec.validate(bytes, { links: true }).links, [])
    assert.throws(() => codec.decode(bytes, { links: true }), { name: 'TypeError', message: /unknown option "links"/ })
    assert.throws(() => codec.validate(bytes, { links: 1 }), { name: 'TypeError', message: /options\.links must be a boolean/ })
  })
  it('compile checks its options', () => {
    assert.throws(() => compile(dmt, 'Tree', /** @type {any} */ (5)), { name: 'TypeError', message: /options must be an object/ })
    assert.throws(() => compile(dmt, 'Tree', /** @type {any} */ ({ fromDsl: fromDSL })), { name: 'TypeError', message: /unknown option "fromDsl"/ })
    assert.throws(() => compile(SCHEMA, 'Tree', /** @type {any} */ ({ fromDSL: 'x' })), { name: 'TypeError', message: /options\.fromDSL must be a function/ })
    assert.throws(() => compile(dmt, 'Tree', /** @type {any} */ ({ readers: { Tree: 1 } })), { name: 'TypeError', message: /options\.readers\.Tree must be a function/ })
    assert.throws(() => compile(dmt, 'Tree', /** @type {any} */ ({ readers: [] })), { name: 'TypeError', message: /options\.readers must be an object/ })
  })
})

describe('schema: a missing field is the block\'s', () => {
  it('an AT Protocol commit without rev: the block lacks it, at the map', () => {
    const commit = compile(fromDSL('type Commit struct { did String version Int rev String sig Bytes } representation map'), 'Commit')
    // {did, sig, version}: "rev" would come between "sig" and "version"
    const bytes = encode({ did: 'd', version: 3, sig: new Uint8Array(1) })
    assert.throws(() => commit.decode(bytes), (/** @type {any} */ e) => {
      assert.equal(e.rule, 'schema-missing-field')
      assert.equal(e.offset, 0)
      assert.match(e.message, /^DAG-CBOR decode at byte 0 in Commit: block has no field "rev" required by struct Commit \[rule: schema-missing-field\]$/)
      return true
    })
    // at the end: the map, too
    assert.throws(() => commit.decode(encode({ did: 'd', rev: 'r', sig: new Uint8Array(1) })), { offset: 0, message: /block has no field "version" required by struct Commit/ })
    const renamed = compile(fromDSL('type S struct { a Int (rename "A") b Int }'), 'S')
    assert.throws(() => renamed.decode(encode({ b: 1 })), { offset: 0, message: /block has no field "A" \(a\) required by struct S/ })
  })
})

describe('schema: safety', () => {
  it('a getter that runs generic encode during a typed encode, and one that runs a typed encode during generic encode, leave the outer result whole', () => {
    const typed = compile(fromDSL('type Pair struct { a String b Bytes }'), 'Pair')
    const long = 'x'.repeat(3000) // past the first buffers, so that a shared writer would be overwritten
    const inner = { a: long, b: new Uint8Array(2000).fill(9) }
    const expected = typed.encode(inner)
    const withGeneric = { get a () { encode({ other: long, more: [long, long] }); return long }, b: inner.b }
    assert.deepEqual(typed.encode(withGeneric), expected)
    const outer = { x: long, get y () { typed.encode(inner); return long } }
    assert.deepEqual(encode(outer), encode({ x: long, y: long }))
  })
  it('a getter that throws, or runs a typed encode, while a struct\'s fields are read leaves nothing of that value to the next encode', () => {
    const typed = compile(fromDSL('type S struct { a optional String b optional Int c optional String }'), 'S')
    const throwing = { a: 'x', b: 1, get c () { throw new Error('getter') } }
    assert.throws(() => typed.encode(throwing), /getter/)
    assert.equal(toHex(typed.encode({})), 'a0')
    assert.equal(toHex(typed.encode({ c: 'z' })), 'a16163617a')
    const nested = { a: 'x', get b () { typed.encode({ c: 'inner' }); return 2 }, c: 'y' }
    assert.equal(toHex(typed.encode(nested)), 'a361616178616202616361' + '79')
    const pair = compile(fromDSL('type Pair struct { a Int b String } representation tuple'), 'Pair')
    assert.throws(() => pair.encode({ a: 1, get b () { throw new Error('getter') } }), /getter/)
    assert.throws(() => pair.encode({ a: 1 }), { rule: 'schema-missing-field' })
  })
  it('a union member type named __proto__ is an own property of the typed value, not its prototype', () => {
    const schema = JSON.parse('{"types":{"U":{"union":{"members":["__proto__"],"representation":{"keyed":{"p":"__proto__"}}}},"__proto__":{"int":{}}}}')
    const value = compile(schema, 'U').decode(hex('a1617005'))
    assert.equal(Object.getPrototypeOf(value), Object.prototype)
    assert.deepEqual(Object.getOwnPropertyDescriptor(value, '__proto__'), { value: 5, writable: true, enumerable: true, configurable: true })
  })
  it('a struct whose fields fill the writer\'s buffer gets its head (written after its fields) right', () => {
    const typed = compile(fromDSL('type S struct { a String b optional String c Int }'), 'S')
    for (const n of [60000, 70000, 200000]) {
      const value = { a: 'x'.repeat(n), c: n }
      assert.deepEqual(typed.encode(value), encode(value))
      assert.deepEqual(typed.encode({ wrap: value }.wrap), encode({ a: value.a, c: n }))
    }
  })
  it('byte strings it returns own their bytes', () => {
    const input = hex('a2616141016162420203')
    const value = compile(dmt, 'Dict').decode(input)
    for (const b of Object.values(value)) {
      assert.notEqual(b.buffer, input.buffer)
      assert.equal(b.buffer.byteLength, b.length)
    }
  })
  it('holds maxDepth for recursive types, on decode, validate and encode, with no stack overflow', () => {
    const tree = compile(dmt, 'Tree')
    // n levels of { kids: [ ... ] } around { kids: [] }
    const deep = (/** @type {number} */ n) => {
      const bytes = new Uint8Array(7 * n + 7)
      for (let i = 0; i < n; i++) bytes.set(hex('a1646b69647381'), 7 * i)
      bytes.set(hex('a1646b69647380'), 7 * n)
      return bytes
    }
    assert.equal(JSON.stringify(tree.decode(deep(10), { maxDepth: 22 })).length > 0, true)
    for (const n of [11, 100000]) {
      for (const run of [() => tree.decode(deep(n), { maxDepth: 22 }), () => tree.validate(deep(n), { maxDepth: 22 })]) {
        assert.throws(run, (/** @type {any} */ e) => e instanceof DagCborDecodeError && e.rule === 'depth')
      }
    }
    /** @type {any} */
    let value = { kids: [] }
    for (let i = 0; i < 100000; i++) value = { kids: [value] }
    assert.throws(() => tree.encode(value), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'depth')
    /** @type {any} */
    const loop = { kids: [] }
    loop.kids.push(loop)
    assert.throws(() => tree.encode(loop), (/** @type {any} */ e) => e instanceof DagCborEncodeError && e.rule === 'depth')
  })
  it('generates no code at run time (no eval, no Function constructor in lib/schema/)', () => {
    for (const file of fs.readdirSync(new URL('../lib/schema/', import.meta.url))) {
      const source = fs.readFileSync(new URL(`../lib/schema/${file}`, import.meta.url), 'utf8')
      assert.doesNotMatch(source, /\beval\s*\(|\bFunction\s*\(|new\s+Function\b|setTimeout\s*\(\s*['"`]/, file)
    }
  })
})

describe('schema: struct readers written ahead of time (toJavaScript)', () => {
  it('a struct with no fields (map representation) gets a module that loads and reads as compile does', async () => {
    // found by npm run fuzz (seed 5): its key dispatch began with an else and no if
    const schema = { types: { Empty: { struct: { fields: {}, representation: { map: {} } } } } }
    const file = path.join(os.tmpdir(), `dag-cbor-fast-empty-${process.pid}.mjs`)
    fs.writeFileSync(file, toJavaScript(schema, { from: pathToFileURL(path.resolve('lib/schema/index.js')).href }))
    try {
      const aot = (await import(pathToFileURL(file).href)).compileTyped('Empty')
      assert.deepStrictEqual(aot.decode(hex('a0')), compile(schema, 'Empty').decode(hex('a0')))
      const expected = /** @type {any} */ (attemptError(() => compile(schema, 'Empty').decode(hex('a16161f5'))))
      assert.equal(/** @type {any} */ (attemptError(() => aot.decode(hex('a16161f5'))))?.message, expected?.message)
      assert.ok(expected instanceof DagCborDecodeError)
    } finally {
      fs.rmSync(file, { force: true })
    }
  })
  it('a struct holding a list of itself through a named list type, read from the list type, as compile reads it', async () => {
    // found by the schema oracle (seed 11): the list's written loop took its item's node when the
    // struct's reader was made, before the list type (the root, being compiled) had one
    const schema = fromDSL('type Node struct {\n  kids optional Nodes\n  n Int\n}\ntype Nodes [Node]')
    const file = path.join(os.tmpdir(), `dag-cbor-fast-nodes-${process.pid}.mjs`)
    fs.writeFileSync(file, toJavaScript(schema, { from: pathToFileURL(path.resolve('lib/schema/index.js')).href }))
    try {
      const aot = (await import(pathToFileURL(file).href)).compileTyped('Nodes')
      const bytes = encode([{ n: 1, kids: [{ n: 2 }, { n: 3, kids: [] }] }])
      assert.deepStrictEqual(aot.decode(bytes), compile(schema, 'Nodes').decode(bytes))
      assert.deepStrictEqual(aot.decode(bytes), [{ n: 1, kids: [{ n: 2 }, { n: 3, kids: [] }] }])
      const bad = encode([{ n: 1, kids: [{ n: 'x' }] }])
      assert.equal(/** @type {any} */ (attemptError(() => aot.decode(bad)))?.message, /** @type {any} */ (attemptError(() => compile(schema, 'Nodes').decode(bad)))?.message)
    } finally {
      fs.rmSync(file, { force: true })
    }
  })
  it('the modules in bench/generated/ are what toJavaScript writes now', async () => {
    const { GENERATED } = await import('../bench/schema-corpora.js')
    for (const [file, text] of Object.entries(GENERATED())) {
      assert.equal(fs.readFileSync(new URL(`../bench/generated/${file}`, import.meta.url), 'utf8'), text, `bench/generated/${file}: run node bench/generate-schema-readers.js`)
    }
  })
  it('a module it writes reads as compile does, errors included', async () => {
    const { compileTyped } = await import('../bench/generated/atproto.js')
    const commit = compileTyped('Commit')
    const bytes = hex(`a6636469646178637265766133637369674100646461746${'1'}${CID_HEX}6470726576f66776657273696f6e03`)
    assert.deepStrictEqual(commit.decode(bytes), { did: 'x', rev: '3', sig: new Uint8Array([0]), data: cid, prev: null, version: 3 })
    assert.throws(() => commit.decode(hex('a1636469640a')), { rule: 'schema-kind', offset: 5, typePath: 'Commit.did' })
    assert.throws(() => commit.decode(hex('a0')), { rule: 'schema-missing-field', typePath: 'Commit' })
    // did, then data: sig, not the optional rev between them, is what the block lacks
    const lacksSig = encode({ did: 'x', data: cid, prev: null, version: 3 })
    assert.throws(() => commit.decode(lacksSig), { offset: 0, message: /block has no field "sig" required by struct Commit/ })
    assert.throws(() => compile(fromDSL(atprotoSchema), 'Commit').decode(lacksSig), { offset: 0, message: /block has no field "sig" required by struct Commit/ })
  })
})

describe('schema: TypeScript types', () => {
  it('toTypeScript writes the typed forms; examples/schemas/filecoin-types.ts is its output for the Filecoin schema', () => {
    const text = toTypeScript(fromDSL(filecoinSchema))
    assert.match(text, /export type BlockHeader = \{\n {2}Miner: Address\n {2}Ticket: Ticket \| null\n/)
    assert.match(text, /export type Address = Uint8Array/)
    assert.match(text, /export type TipSetKey = Array<CID>/)
    assert.equal(fs.readFileSync(new URL('../examples/schemas/filecoin-types.ts', import.meta.url), 'utf8'), text)
  })
  it('unions, enums, optional and nullable fields', () => {
    const text = toTypeScript(dmt)
    assert.match(text, /export type Keyed = \{ Pair: Pair \} \| \{ Rec: Rec \}/)
    assert.match(text, /export type Color = "Red" \| "Green"/)
    assert.match(text, /count\?: number\n/)
    assert.match(text, /note: string \| null\n/)
    assert.match(text, /kind: number\n/)
    assert.match(text, /export type Ints = Array<number \| null>/)
  })
})

/** The error `fn` throws, or undefined. @param {() => unknown} fn */
function attemptError (fn) {
  try { fn() } catch (e) { return e }
  return undefined
}
