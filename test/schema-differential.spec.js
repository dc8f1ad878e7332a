// The typed codec (dag-cbor-fast/schema) against the generic one plus @ipld/schema's typed form:
// for every value, typed encode writes generic encode of toRepresentation, and for every input,
// typed decode returns toTyped of generic decode, or both reject; validate accepts exactly what
// typed decode does. On the Filecoin and AT Protocol schemas (examples/schemas/): random typed
// values, then mutations of their bytes (test/fuzz/mutate.js). On random schemas: the oracle loop
// of test/fuzz/schema-oracle.js (against @ipld/schema over @ipld/dag-cbor, colliding schemas
// included), with a fixed seed. SCHEMA_SEED=<int> explores other seeds; counts are printed.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { fromDSL } from '@ipld/schema/from-dsl.js'
import { compile, toJavaScript } from '../lib/schema/index.js'
import { DagCborDecodeError, decode } from '../index.js'
import { Rng } from './fuzz/prng.js'
import { mutate } from './fuzz/mutate.js'
import { walk } from './fuzz/cbor.js'
import { toHex } from './helpers/ipld-equal.js'
import { randomValue, reference } from './helpers/schema-values.js'
import { runSchemaOracle } from './fuzz/schema-oracle.js'
import { filecoinSchema } from '../examples/schemas/filecoin.js'
import { atprotoSchema } from '../examples/schemas/atproto.js'

const SEED = process.env.SCHEMA_SEED ? Number(process.env.SCHEMA_SEED) : 0x5c4e3a
/** random schemas the oracle runs (8-12 s on the shared 2-core machine this was written on) */
const ORACLE_ITERATIONS = 250
const counts = { aheadOfTime: 0, values: 0, valuesRejected: 0, mutants: 0, mutantsAccepted: 0, tooDeep: 0, schemas: 0, selfChecked: 0 }

/**
 * @ipld/schema's typed form cannot be built for recursive types (a type that refers to itself:
 * "Recursive typedef"; types that refer to each other: its builder recurses until the stack runs
 * out): there the typed codec is checked against the generic codec alone.
 * Typed decode then must return what was encoded, accept only what generic decode accepts, and
 * what it returns must encode to bytes it decodes to the same value.
 *
 * @param {ReturnType<typeof compile>} typed
 */
function selfReference (typed) {
  return {
    /** @param {Uint8Array} bytes */
    decode (bytes) {
      try { decode(bytes) } catch (e) { return { ok: false, why: `decode: ${/** @type {Error} */ (e).message}` } }
      try {
        const value = typed.decode(bytes)
        // bytes with an integral float or an implicit field's value written out re-encode shorter,
        // to bytes that decode to the same value
        assert.deepStrictEqual(typed.decode(typed.encode(value)), value, 'typed decode of typed encode of typed decode')
        return { ok: true, value }
      } catch (e) {
        if (e instanceof DagCborDecodeError) return { ok: false, why: e.message }
        throw e
      }
    },
    /** @param {any} value */
    encode (value) { return typed.encode(value) }
  }
}

/** where the modules toJavaScript writes go, for the test to import */
const AOT_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-fast-aot-'))
const FROM = pathToFileURL(path.resolve('lib/schema/index.js')).href
let modules = 0

/**
 * The codec of `root` from a module toJavaScript writes for `schema` (its struct readers written out).
 *
 * @param {{ types: Record<string, any> }} schema
 * @param {string} root
 */
async function aheadOfTime (schema, root) {
  const file = path.join(AOT_DIR, `schema-${modules++}.mjs`)
  fs.writeFileSync(file, toJavaScript(schema, { from: FROM }))
  const { compileTyped } = await import(pathToFileURL(file).href)
  return compileTyped(root)
}

/**
 * @param {{ types: Record<string, any> }} schema
 * @param {string} root
 * @param {number} seed
 * @param {number} values - how many random values
 * @param {number} mutants - mutations of their bytes
 * @param {ReturnType<typeof compile>} [codec] - default compile(schema, root)
 */
function differential (schema, root, seed, values, mutants, codec) {
  const typed = codec ?? compile(schema, root)
  let ref
  try {
    ref = reference(schema, root)
  } catch (e) {
    if (!(e instanceof RangeError) && !/Recursive typedef/.test(/** @type {Error} */ (e).message)) throw e
    ref = selfReference(typed)
    counts.selfChecked++
  }
  const r = new Rng(seed)
  /** @type {Uint8Array[]} */
  const blocks = []
  for (let i = 0; i < values; i++) {
    const value = randomValue(r, schema, root)
    const bytes = ref.encode(value)
    assert.ok(bytes, `${root} #${i}: toRepresentation refused a generated value`)
    const ours = typed.encode(value)
    assert.equal(toHex(ours), toHex(bytes), `${root} #${i}: typed encode differs from generic encode of the representation`)
    const expected = ref.decode(bytes)
    if (expected.ok === true) {
      assert.deepStrictEqual(typed.decode(bytes), expected.value, `${root} #${i}: ${toHex(bytes)}`)
      typed.validate(bytes)
    } else {
      // a value whose bytes read back as another member: a Float member's integral value, with an
      // Int member before it in a kinded union, reads as that Int member (both reject, or both
      // read it so)
      assert.ok(expected.ok === false, `${root} #${i}: too deep`)
      assert.throws(() => typed.decode(bytes), DagCborDecodeError, `${root} #${i}: typed decode accepts what the reference rejects (${expected.why}): ${toHex(bytes)}`)
      counts.valuesRejected++
    }
    blocks.push(bytes)
    counts.values++
  }
  for (let i = 0; i < mutants && blocks.length; i++) {
    const a = blocks[r.int(blocks.length)]
    const b = blocks[r.int(blocks.length)]
    const { bytes } = mutate(r, { bytes: a, items: walk(a) }, { bytes: b, items: walk(b) })
    const expected = ref.decode(bytes)
    /** @type {any} */
    let got
    let error = null
    try { got = typed.decode(bytes) } catch (e) { error = e }
    const where = `${root} mutant ${i}: ${toHex(bytes, 200)}`
    if (expected.ok === 'too deep') {
      // nested deeper than the reference can answer in time: only that typed decode answers
      assert.ok(error === null || error instanceof DagCborDecodeError, `${where}: ${error}`)
      counts.tooDeep++
    } else if (expected.ok) {
      assert.equal(error, null, `${where}: typed decode rejects what the reference accepts: ${error?.message}`)
      assert.deepStrictEqual(got, expected.value, where)
      counts.mutantsAccepted++
    } else {
      assert.ok(error instanceof DagCborDecodeError, `${where}: typed decode accepts what the reference rejects (${expected.why}), or throws a stray error: ${error}`)
      assert.ok(error.offset >= 0 && error.offset <= bytes.length, `${where}: offset ${error.offset}`)
      assert.equal(typeof error.typePath, 'string', where)
    }
    let valid = true
    try { typed.validate(bytes) } catch (e) {
      valid = false
      assert.ok(e instanceof DagCborDecodeError, `${where}: validate threw ${e}`)
    }
    assert.equal(valid, error === null, `${where}: validate ${valid ? 'accepts' : 'rejects'} what typed decode ${error ? 'rejects' : 'accepts'}`)
    counts.mutants++
  }
}

describe('schema: typed codec = generic codec + @ipld/schema typed form', function () {
  this.timeout(60000)
  after(() => fs.rmSync(AOT_DIR, { recursive: true, force: true }))
  after(() => console.log(`      schema differential (seed ${SEED}): ${counts.values} values (${counts.valuesRejected} whose bytes both reject), ${counts.mutants} mutated inputs (${counts.mutantsAccepted} accepted; ${counts.tooDeep} nested too deep for @ipld/schema's toTyped, checked only to be answered), ${counts.selfChecked} roots with recursive types, which @ipld/schema cannot build, checked against generic decode alone; ${counts.aheadOfTime} roots also through toJavaScript's modules`))

  const filecoin = fromDSL(filecoinSchema)
  const atproto = fromDSL(atprotoSchema)
  for (const root of ['BlockHeader', 'Message', 'SignedMessage']) {
    it(`Filecoin ${root}`, () => differential(filecoin, root, SEED + root.length, 300, 600))
    it(`Filecoin ${root}, struct readers written ahead of time (toJavaScript)`, async () => {
      differential(filecoin, root, SEED + root.length + 1, 150, 300, await aheadOfTime(filecoin, root))
      counts.aheadOfTime++
    })
  }
  for (const root of ['Commit', 'MSTNode', 'Post']) {
    it(`AT Protocol ${root}`, () => differential(atproto, root, SEED + root.length, 300, 600))
    it(`AT Protocol ${root}, struct readers written ahead of time (toJavaScript)`, async () => {
      differential(atproto, root, SEED + root.length + 1, 150, 300, await aheadOfTime(atproto, root))
      counts.aheadOfTime++
    })
  }
  it('random schemas against @ipld/schema over @ipld/dag-cbor (test/fuzz/schema-oracle.js)', async function () {
    this.timeout(120000)
    const result = await runSchemaOracle({ seed: SEED, iterations: ORACLE_ITERATIONS })
    const { disagreements, reasons, ...oracleCounts } = result
    console.log(`      schema oracle (seed ${SEED}, ${ORACLE_ITERATIONS} schemas): ${JSON.stringify(oracleCounts)}; differences explained: ${JSON.stringify(reasons)}`)
    assert.deepStrictEqual(disagreements, [], `${disagreements.length} disagreements; the first: ${JSON.stringify(disagreements[0], null, 2)}`)
    // each part of the oracle ran: refusals, roots checked, mutants accepted and rejected
    assert.ok(result.refused > 0 && result.roots > 100 && result.mutationsAccepted > 0 && result.mutationsAccepted < result.mutations && result.aheadOfTime > 0)
  })
})
