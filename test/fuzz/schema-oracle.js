// The typed codec (dag-cbor-fast/schema) against its oracle: @ipld/schema's typed form
// (create(schema, type).toTyped / toRepresentation) over @ipld/dag-cbor, on random schemas
// (test/helpers/schema-values.js: every kind and representation the compiler supports, names a
// plain object inherits, and now and then a representation made to collide).
//
// For each schema: compile refuses it exactly when collisionsOf finds a collision. For each root
// it compiles: random typed values encode to the bytes @ipld/dag-cbor writes for toRepresentation,
// and decode to toTyped of @ipld/dag-cbor's decode (same verdict, same value); mutations of those
// bytes get the same verdict as toTyped over @ipld/dag-cbor's strict decode, and the same value;
// encode(decode(bytes)) gives the bytes back for every input decode accepts; validate accepts
// exactly what decode does; every other schema's roots also run through a module toJavaScript
// writes, which must answer as compile's codec does. Where the oracle and the codec may differ,
// the difference is one of REASONS, each checked, never assumed.
//
//   const { schemas, values, mutations, disagreements } = await runSchemaOracle({ seed: 1, iterations: 200 })
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL, fileURLToPath } from 'node:url'
import * as dagCbor from '@ipld/dag-cbor'
import { compile, toJavaScript } from '../../lib/schema/index.js'
import { DagCborDecodeError, DagCborEncodeError, decode } from '../../index.js'
import { Rng } from './prng.js'
import { mutate } from './mutate.js'
import { walk } from './cbor.js'
import { bytesEqual, dataModelDiff, toHex } from '../helpers/ipld-equal.js'
import { randomValue, randomSchema, collisionsOf, create, referenceSchema } from '../helpers/schema-values.js'

/**
 * Where the oracle and the typed codec may answer differently, and why that is right. Each is
 * checked where it is used.
 */
export const REASONS = {
  'not-canonical': "@ipld/dag-cbor's decode is lax (its encode of what it read gives other bytes); the codec's strict decode refuses",
  'big-integer': 'an integer outside -(2^53)+1..2^53-1, which @ipld/dag-cbor reads as a BigInt; the typed codec refuses it (no Int, Float or Any holds one)',
  'integral-float': 'a float64 holding an integer: read as a Number, written back as an integer (decode of both gives the same value); -0.0 too where an int enum reads it as its member 0',
  'implicit-written': 'an implicit field written out holding its implicit value: read, then left out when written (decode of both gives the same value)',
  'float-read-as-int': "an integral value of a kinded union's float member, which is written as an integer and read back as the int member: @ipld/schema writes it, the codec refuses",
  'proto-key': "@ipld/schema's transforms store a key named __proto__ (a field, union member or map key) by assignment, which sets the prototype: the key is lost there. Such schemas and values are checked against @ipld/dag-cbor's decode and the codec's own round trip",
  bom: "cborg's TextDecoder drops a leading U+FEFF from every string: for input with one, the oracle's generic value is dag-cbor-fast's decode (test/differential.spec.js checks it against @ipld/dag-cbor)",
  'inherited-name': "@ipld/schema reads by name without checking for an own property: an enum's representation (renames['constructor'] is Object's constructor), so it cannot build a schema with such an enum, which is checked as for recursive types; and an absent implicit field, filled in only when ret[name] === undefined, which an inherited member never is (its toTyped then lacks the field, the only difference allowed)",
  'recursive-types': "@ipld/schema cannot build the typed form of recursive types: checked against @ipld/dag-cbor's decode and the codec's own round trip",
  'too-deep': "nested deeper than @ipld/schema's toTyped answers in time (it doubles its work per level of nested lists): checked only to be answered"
}

/** the deepest value the reference is asked about */
const MAX_REFERENCE_DEPTH = 14
const LIB = pathToFileURL(fileURLToPath(new URL('../../lib/schema/index.js', import.meta.url))).href

/**
 * @param {unknown} v
 * @returns {number}
 */
function depthOf (v) {
  if (typeof v !== 'object' || v === null || v instanceof Uint8Array || /** @type {any} */ (v).asCID === v) return 0
  let max = 0
  for (const x of Object.values(v)) max = Math.max(max, depthOf(x))
  return max + 1
}

/**
 * @param {unknown} v
 * @returns {boolean}
 */
function hasBigInt (v) {
  if (typeof v === 'bigint') return true
  if (typeof v !== 'object' || v === null || v instanceof Uint8Array || /** @type {any} */ (v).asCID === v) return false
  return Object.values(v).some(hasBigInt)
}

/**
 * @param {unknown} v
 * @returns {boolean} whether a map in v has a key __proto__
 */
function hasProtoKey (v) {
  if (typeof v !== 'object' || v === null || v instanceof Uint8Array || /** @type {any} */ (v).asCID === v) return false
  if (!Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, '__proto__')) return true
  return Object.values(v).some(hasProtoKey)
}

/**
 * The names of implicit fields that a plain object inherits (`constructor`...).
 *
 * @param {{ types: Record<string, any> }} schema
 * @returns {Set<string>}
 */
function inheritedImplicits (schema) {
  const names = new Set()
  for (const t of Object.values(schema.types)) {
    const fields = t.struct?.representation?.map?.fields ?? {}
    for (const [name, o] of Object.entries(fields)) if (o.implicit !== undefined && name in Object.prototype) names.add(name)
  }
  return names
}

/**
 * `ours` without the keys in `names` that `theirs` lacks at the same place (a copy).
 *
 * @param {any} ours
 * @param {any} theirs
 * @param {Set<string>} names
 * @returns {any}
 */
function withoutMissing (ours, theirs, names) {
  if (typeof ours !== 'object' || ours === null || typeof theirs !== 'object' || theirs === null || ours instanceof Uint8Array || ours.asCID === ours) return ours
  if (Array.isArray(ours)) return ours.map((v, i) => withoutMissing(v, Array.isArray(theirs) ? theirs[i] : undefined, names))
  /** @type {Record<string, unknown>} */
  const out = {}
  for (const k of Object.keys(ours)) {
    const theirsHas = Object.prototype.hasOwnProperty.call(theirs, k)
    if (names.has(k) && !theirsHas) continue
    Object.defineProperty(out, k, { value: withoutMissing(ours[k], theirsHas ? theirs[k] : undefined, names), enumerable: true, writable: true, configurable: true })
  }
  return out
}

/**
 * @param {Uint8Array} bytes
 * @returns {boolean} whether the bytes hold U+FEFF's UTF-8 (a string may start with it)
 */
function hasBom (bytes) {
  for (let i = 0; i + 2 < bytes.length; i++) if (bytes[i] === 0xef && bytes[i + 1] === 0xbb && bytes[i + 2] === 0xbf) return true
  return false
}

/**
 * @param {Uint8Array} bytes
 * @returns {boolean} whether the bytes hold float64 -0.0 (fb 80 00 ... 00)
 */
function hasNegativeZero (bytes) {
  const negativeZero = [0xfb, 0x80, 0, 0, 0, 0, 0, 0, 0]
  for (let i = 0; i + 8 < bytes.length; i++) if (negativeZero.every((b, k) => bytes[i + k] === b)) return true
  return false
}

/**
 * @ipld/dag-cbor's decode, but dag-cbor-fast's for input holding a U+FEFF (REASONS.bom: cborg drops
 * it at the start of a string, changing the value, or making two keys one).
 *
 * @param {Uint8Array} bytes
 * @returns {unknown}
 */
function genericDecode (bytes) {
  return hasBom(bytes) ? decode(bytes) : dagCbor.decode(bytes)
}

/**
 * @param {() => any} f
 * @returns {{ ok: true, value: any } | { ok: false, error: any }}
 */
function attempt (f) {
  try {
    return { ok: true, value: f() }
  } catch (error) {
    return { ok: false, error }
  }
}

/**
 * The oracle for one root: toTyped over @ipld/dag-cbor's decode, and @ipld/dag-cbor's encode of
 * toRepresentation; null when @ipld/schema cannot build the root's typed form.
 *
 * @param {{ types: Record<string, any> }} schema
 * @param {string} root
 */
function oracleFor (schema, root) {
  let typed
  try {
    typed = create(referenceSchema(schema), root)
  } catch (e) {
    if (e instanceof RangeError || /Recursive typedef/.test(/** @type {Error} */ (e).message)) return 'recursive-types'
    const inheritedMember = Object.values(schema.types).some((t) => t.enum?.members.some((/** @type {string} */ m) => m in Object.prototype))
    if (inheritedMember && /Enum members must be/.test(/** @type {Error} */ (e).message)) return 'inherited-name'
    throw e
  }
  return {
    /**
     * @param {Uint8Array} bytes
     * @returns {{ ok: true, value: any } | { ok: false, why: string, generic?: unknown } | { ok: 'too deep' } | { ok: 'proto key' }}
     */
    decode (bytes) {
      let generic
      try { generic = genericDecode(bytes) } catch (e) { return { ok: false, why: `generic decode: ${/** @type {Error} */ (e).message}` } }
      if (hasProtoKey(generic)) return { ok: 'proto key' }
      if (depthOf(generic) > MAX_REFERENCE_DEPTH) return { ok: 'too deep' }
      let value
      try { value = typed.toTyped(generic) } catch (e) { return { ok: false, why: `toTyped threw ${/** @type {Error} */ (e).message}`, generic } }
      return value === undefined ? { ok: false, why: 'toTyped: undefined', generic } : { ok: true, value }
    },
    /** @param {any} value @returns {Uint8Array|null} */
    encode (value) {
      const repr = typed.toRepresentation(value)
      return repr === undefined ? null : new Uint8Array(dagCbor.encode(repr))
    },
    /** @param {any} value */
    toTyped (value) { return typed.toTyped(value) }
  }
}

/**
 * Whether the schema has an implicit field among its types.
 *
 * @param {{ types: Record<string, any> }} schema
 */
function hasImplicit (schema) {
  return JSON.stringify(schema).includes('"implicit":')
}

/**
 * Run the oracle over `iterations` random schemas (or until `deadline`).
 *
 * @param {object} options
 * @param {number} options.seed
 * @param {number} options.iterations - how many random schemas
 * @param {number} [options.deadline] - a Date.now() value: stop starting schemas after it
 * @param {(line: string) => void} [options.log]
 * @param {number} [options.values] - random values per root (default 30)
 * @param {number} [options.mutations] - mutations per root (default 60)
 * @returns {Promise<{ schemas: number, refused: number, roots: number, values: number, mutations: number, mutationsAccepted: number, aheadOfTime: number, reasons: Record<string, number>, disagreements: Array<Record<string, unknown>> }>}
 *   refused: roots whose schema compile refused (a collision, as collisionsOf predicts); roots: roots
 *   compiled and checked; reasons: how often each of REASONS explained a difference
 */
export async function runSchemaOracle ({ seed, iterations, deadline, log = () => {}, values = 30, mutations = 60 }) {
  const counts = { schemas: 0, refused: 0, roots: 0, values: 0, mutations: 0, mutationsAccepted: 0, aheadOfTime: 0 }
  /** @type {Record<string, number>} */
  const reasons = Object.fromEntries(Object.keys(REASONS).map((k) => [k, 0]))
  /** @type {Array<Record<string, unknown>>} */
  const disagreements = []
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-fast-schema-oracle-'))
  try {
    for (let i = 0; i < iterations && (deadline === undefined || Date.now() < deadline); i++) {
      const r = new Rng(seed, i)
      const schema = randomSchema(r, 3 + r.int(6), { collide: r.chance(0.25) })
      counts.schemas++
      /** @param {string} root @param {string} what @param {Record<string, unknown>} [more] */
      const disagree = (root, what, more = {}) => {
        if (disagreements.length < 50) disagreements.push({ seed, iteration: i, root, what, ...more, schema: JSON.stringify(schema) })
        log(`schema oracle: seed ${seed} iteration ${i} root ${root}: ${what}`)
      }
      for (const root of Object.keys(schema.types).slice(-2)) {
        const collisions = collisionsOf(schema, root)
        const compiled = attempt(() => compile(schema, root))
        if (!compiled.ok) {
          if (collisions.length === 0) disagree(root, `compile refused a schema with no collision: ${compiled.error?.message}`)
          else if (!(compiled.error instanceof Error) || compiled.error instanceof TypeError || !/\(types[.[]/.test(compiled.error.message)) disagree(root, `compile refused a colliding schema (${collisions[0]}) without naming where: ${compiled.error}`)
          else counts.refused++
          continue
        }
        if (collisions.length) {
          disagree(root, `compile accepted a schema whose representations collide: ${collisions.join('; ')}`)
          continue
        }
        counts.roots++
        let aot = null
        if (i % 2 === 0) {
          // toJavaScript compiles every struct of the schema: it refuses a collision anywhere
          const source = attempt(() => toJavaScript(schema, { from: LIB }))
          const anywhere = Object.keys(schema.types).filter((t) => schema.types[t].struct).flatMap((t) => collisionsOf(schema, t))
          if (!source.ok && anywhere.length === 0) disagree(root, `toJavaScript refused a schema with no collision: ${source.error?.message}`)
          else if (source.ok && anywhere.length > 0) disagree(root, `toJavaScript accepted a schema whose representations collide: ${anywhere.join('; ')}`)
          else if (source.ok) {
            const file = path.join(dir, `schema-${i}-${root}.mjs`)
            fs.writeFileSync(file, source.value)
            // a module that does not load (invalid JS) is a disagreement, not the end of the run
            const loaded = await import(pathToFileURL(file).href).then((m) => ({ ok: true, m }), (error) => ({ ok: false, error }))
            if (!loaded.ok) {
              disagree(root, `toJavaScript wrote a module that does not load: ${loaded.error?.message}`)
              continue
            }
            aot = loaded.m.compileTyped(root)
            counts.aheadOfTime++
          }
        }
        const oracle = oracleFor(schema, root)
        if (typeof oracle === 'string') reasons[oracle]++
        checkRoot(r, schema, root, compiled.value, aot, typeof oracle === 'string' ? null : oracle, { values, mutations }, counts, reasons, (what, more) => disagree(root, what, more))
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return { ...counts, reasons, disagreements }
}

/**
 * @param {any} r
 * @param {{ types: Record<string, any> }} schema
 * @param {string} root
 * @param {ReturnType<typeof compile>} typed
 * @param {ReturnType<typeof compile>|null} aot - the same codec with toJavaScript's readers
 * @param {Exclude<ReturnType<typeof oracleFor>, string>|null} oracle - null: none (one of REASONS)
 * @param {{ values: number, mutations: number }} n
 * @param {Record<string, number>} counts
 * @param {Record<string, number>} reasons
 * @param {(what: string, more?: Record<string, unknown>) => void} disagree
 */
function checkRoot (r, schema, root, typed, aot, oracle, n, counts, reasons, disagree) {
  if (oracle !== null && JSON.stringify(schema).includes('"__proto__"')) {
    reasons['proto-key']++
    oracle = null
  }
  /** @type {Uint8Array[]} */
  const blocks = []
  for (let v = 0; v < n.values; v++) {
    const value = randomValue(r, schema, root)
    const ours = attempt(() => typed.encode(value))
    counts.values++
    if (oracle === null || hasProtoKey(value)) {
      if (oracle !== null) reasons['proto-key']++
      if (!ours.ok) {
        if (ours.error instanceof DagCborEncodeError && ours.error.rule === 'schema-union' && /reads back as its int member/.test(ours.error.message)) reasons['float-read-as-int']++
        else disagree(`encode refused a generated value: ${ours.error?.message}`)
        continue
      }
      blocks.push(ours.value)
      checkInput(ours.value, schema, typed, aot, null, counts, reasons, disagree, value)
      continue
    }
    const expected = attempt(() => oracle.encode(value))
    if (!expected.ok || expected.value === null) {
      disagree(`toRepresentation refused a generated value: ${expected.ok ? 'undefined' : expected.error?.message}`)
      continue
    }
    if (!ours.ok) {
      // the one value the codec refuses and @ipld/schema writes: it reads back as another member
      // (or, where the int member refuses that integer, not at all)
      const readBack = oracle.decode(expected.value)
      if (ours.error instanceof DagCborEncodeError && ours.error.rule === 'schema-union' && /reads back as its int member/.test(ours.error.message) &&
          (readBack.ok !== true || dataModelDiff(readBack.value, value) !== null)) {
        reasons['float-read-as-int']++
      } else {
        disagree(`encode refused what toRepresentation writes: ${ours.error?.message}`, { bytes: toHex(expected.value) })
      }
      continue
    }
    if (!bytesEqual(ours.value, expected.value)) {
      disagree(`encode wrote ${toHex(ours.value, 200)}, @ipld/dag-cbor of toRepresentation ${toHex(expected.value, 200)}`)
      continue
    }
    blocks.push(ours.value)
    checkInput(ours.value, schema, typed, aot, oracle, counts, reasons, disagree, value)
  }
  for (let m = 0; m < n.mutations && blocks.length; m++) {
    const a = blocks[r.int(blocks.length)]
    const b = blocks[r.int(blocks.length)]
    const { bytes } = mutate(r, { bytes: a, items: walk(a) }, { bytes: b, items: walk(b) })
    counts.mutations++
    if (checkInput(bytes, schema, typed, aot, oracle, counts, reasons, disagree)) counts.mutationsAccepted++
  }
}

/**
 * One input: decode against the oracle, validate against decode, toJavaScript's readers against
 * compile's, and encode(decode(bytes)) against the bytes.
 *
 * @param {Uint8Array} bytes
 * @param {{ types: Record<string, any> }} schema
 * @param {ReturnType<typeof compile>} typed
 * @param {ReturnType<typeof compile>|null} aot
 * @param {Exclude<ReturnType<typeof oracleFor>, string>|null} oracle
 * @param {Record<string, number>} counts
 * @param {Record<string, number>} reasons
 * @param {(what: string, more?: Record<string, unknown>) => void} disagree
 * @param {unknown} [encoded] - the typed value these bytes were written from
 * @returns {boolean|void} true: decode accepted the input, and nothing disagreed
 */
function checkInput (bytes, schema, typed, aot, oracle, counts, reasons, disagree, encoded) {
  const hex = toHex(bytes, 400)
  const ours = attempt(() => typed.decode(bytes))
  if (!ours.ok && !(ours.error instanceof DagCborDecodeError)) return disagree(`decode threw a stray ${ours.error?.name}: ${ours.error?.message}`, { bytes: hex })
  if (!ours.ok && !(ours.error.offset >= 0 && ours.error.offset <= bytes.length && typeof ours.error.typePath === 'string')) return disagree(`decode's error has no offset in the input or no type path: ${ours.error.message}`, { bytes: hex })
  // validate answers as decode
  const valid = attempt(() => typed.validate(bytes))
  if (!valid.ok && !(valid.error instanceof DagCborDecodeError)) return disagree(`validate threw a stray ${valid.error?.name}: ${valid.error?.message}`, { bytes: hex })
  if (valid.ok !== ours.ok) return disagree(`validate ${valid.ok ? 'accepts' : 'rejects'} what decode ${ours.ok ? 'accepts' : 'rejects'}`, { bytes: hex })
  if (aot !== null) {
    const theirs = attempt(() => aot.decode(bytes))
    if (theirs.ok !== ours.ok || (ours.ok ? dataModelDiff(theirs.value, ours.value) !== null : theirs.error?.message !== ours.error.message)) {
      return disagree(`toJavaScript's readers answer ${theirs.ok ? 'a value' : theirs.error?.message}, compile's ${ours.ok ? 'a value' : ours.error.message}`, { bytes: hex })
    }
  }
  if (encoded !== undefined && ours.ok && (oracle === null || hasProtoKey(encoded))) {
    const diff = dataModelDiff(ours.value, encoded)
    if (diff !== null) return disagree(`decode of encode differs from the value encoded: ${diff}`, { bytes: hex })
  }
  if (oracle !== null) {
    if (hasBom(bytes)) reasons.bom++
    const expected = oracle.decode(bytes)
    if (expected.ok === 'too deep') {
      reasons['too-deep']++
    } else if (expected.ok === 'proto key') {
      reasons['proto-key']++
      if (ours.ok && !attempt(() => genericDecode(bytes)).ok) return disagree('decode reads what @ipld/dag-cbor refuses', { bytes: hex })
    } else if (expected.ok === true && ours.ok) {
      const diff = dataModelDiff(ours.value, expected.value)
      if (diff !== null) {
        const names = inheritedImplicits(schema)
        if (names.size === 0 || dataModelDiff(withoutMissing(ours.value, expected.value, names), expected.value) !== null) return disagree(`decode differs from toTyped: ${diff}`, { bytes: hex })
        reasons['inherited-name']++
      }
    } else if (expected.ok === true) {
      // the codec refuses what the oracle reads: only bytes @ipld/dag-cbor reads laxly, or a BigInt
      const generic = genericDecode(bytes)
      const rewritten = attempt(() => new Uint8Array(dagCbor.encode(generic)))
      if ((!rewritten.ok || !bytesEqual(rewritten.value, bytes)) && !attempt(() => decode(bytes)).ok) reasons['not-canonical']++
      else if (hasBigInt(generic) && ours.error.rule === 'schema-kind') reasons['big-integer']++
      else return disagree(`decode refuses (${ours.error.message}) what toTyped reads`, { bytes: hex })
    } else if (ours.ok) {
      // the oracle refuses what the codec reads: never right, unless @ipld/dag-cbor read a BigInt
      // that toTyped then refused, where the codec ... reads no BigInt either (so it refused too)
      return disagree(`decode reads what the oracle refuses (${expected.why})`, { bytes: hex })
    }
  } else if (ours.ok) {
    // recursive types: what decode accepts, @ipld/dag-cbor reads and writes back the same
    const generic = attempt(() => genericDecode(bytes))
    if (!generic.ok) return disagree(`decode reads what @ipld/dag-cbor refuses: ${generic.error?.message}`, { bytes: hex })
  }
  if (!ours.ok) return
  // encode(decode(bytes)) gives the bytes back, but where a listed reason says otherwise
  const again = attempt(() => typed.encode(ours.value))
  if (!again.ok) return disagree(`encode refuses what decode returned: ${again.error?.message}`, { bytes: hex })
  if (bytesEqual(again.value, bytes)) return true
  const reread = attempt(() => typed.decode(again.value))
  if (!reread.ok || dataModelDiff(reread.value, ours.value) !== null) return disagree(`encode(decode(bytes)) gives ${toHex(again.value, 400)}, which does not decode to the same value`, { bytes: hex })
  // neither reason adds bytes: an integer is no longer than its float64, an implicit field goes
  const shorter = again.value.length <= bytes.length
  const result = valid.ok ? valid.value : null
  if (shorter && result !== null && (result.integralFloats > 0 || hasNegativeZero(bytes))) reasons['integral-float']++
  else if (shorter && hasImplicit(schema)) reasons['implicit-written']++
  else return disagree(`encode(decode(bytes)) gives ${toHex(again.value, 400)}, not the bytes`, { bytes: hex })
  return true
}
