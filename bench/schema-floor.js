#!/usr/bin/env node
// The typed decode floor: what building a block's typed value costs when nothing is parsed or
// checked, against our generic decode of the same block, interleaved in one process.
//   node bench/schema-floor.js [--quick] [--only=SUBSTRING]
// Each block's typed value is first walked into a tape (what to build, in order, and where each
// leaf's bytes lie in the block); timing replays the tape, building exactly the value the typed
// decoder returns: each object by one object literal per shape (written here, in the bench, by
// `new Function`; never in lib/), each list as decode makes it, each leaf from the block's bytes
// as both decoders make it (byte strings by an owned exact-size slice(), text by lib/utf8.js, CIDs
// by lib/cid-decode.js); numbers, booleans and null ready-made. Nothing is parsed or checked and
// no key string is made, so it is optimistic (the one switch per item aside): where its ratio to
// our generic decode is under 1.3x, typed decode cannot reach 1.3x of it on that corpus while it
// returns owned byte strings (bench/floor.js is the same floor for generic decode); under 6x
// @ipld/dag-cbor + @ipld/schema's toTyped (timed in the same rounds), it cannot reach 6x that.
// The encode floor writes each block's bytes into a new result of exactly its size: the heads and
// keys between leaves as ready-made chunks, each leaf from the typed value (byte strings and CIDs
// copied, text by lib/utf8.js). The walk that finds the leaves is done beforehand, so it is
// optimistic too: under 1.3x our generic encode, typed encode cannot reach 1.3x of it.
import { fromDSL } from '@ipld/schema/from-dsl.js'
import { CID } from 'multiformats/cid'
import { decode, encode } from '../index.js'
import { compile } from '../lib/schema/index.js'
import { readUtf8, writeUtf8 } from '../lib/utf8.js'
import { readCid } from '../lib/cid-decode.js'
import { toByteView } from '../lib/byte-view.js'
import { loadCorpora } from './corpora.js'
import { tapesOf, TEXT as FLOOR_TEXT, BYTES as FLOOR_BYTES, LINK as FLOOR_LINK } from './floor.js'
import { toHex, bytesEqual, dataModelDiff } from '../test/helpers/ipld-equal.js'
import { runInterleaved, medianRatio } from './harness.js'
import { SCHEMA_CORPORA, typedCells, REF_TYPED_ROW } from './schema-corpora.js'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const only = (args.find((a) => a.startsWith('--only=')) || '').slice(7)
const cfg = quick ? { rounds: 5, roundMs: 25, warmMs: 30 } : { rounds: 15, roundMs: 60, warmMs: 120 }

/**
 * Where each text string, byte string and CID of a block lies (CIDs from their 0x00 prefix), by
 * kind and content, from bench/floor.js's tape of the block (map keys are not leaves).
 *
 * @param {Uint8Array} src
 * @returns {Map<string, Array<[number, number]>>}
 */
function leavesOf (src) {
  /** @type {Map<string, Array<[number, number]>>} */
  const at = new Map()
  const { ops } = tapesOf([src])[0]
  for (let k = 0; k < ops.length; k += 3) {
    const op = ops[k]
    const a = ops[k + 1]
    const b = ops[k + 2]
    const key = op === FLOOR_TEXT ? 't' + toHex(src.subarray(a, b)) : op === FLOOR_BYTES ? 'b' + toHex(src.subarray(a, b)) : op === FLOOR_LINK ? 'c' + toHex(src.subarray(a + 1, b)) : null
    if (key === null) continue
    const list = at.get(key) || []
    list.push([a, b])
    at.set(key, list)
  }
  return at
}

const STRUCT = 0
const ARRAY = 1
const TEXT = 2
const BYTES = 3
const LINK = 4
const CONST = 5

/** one builder per object shape (its keys in order): an object literal of `build()` calls */
/** @type {Map<string, number>} */
const shapeIds = new Map()
/** @type {Array<(b: () => unknown) => object>} */
const shapes = []

/**
 * A tape for `value`, walked in the order the value is built; each leaf is found in the block by
 * its content and made from the block's bytes when replayed.
 *
 * @param {unknown} value - the typed decoder's value for the block
 * @param {Uint8Array} src
 * @returns {{ src: Uint8Array, ops: Int32Array, consts: unknown[] }}
 */
function tapeOf (value, src) {
  const leaves = leavesOf(src)
  const enc = new TextEncoder()
  /** @type {number[]} */
  const ops = []
  /** @type {unknown[]} */
  const consts = []
  const take = (/** @type {string} */ key) => {
    const list = leaves.get(key)
    if (!list || list.length === 0) return undefined
    return list.length > 1 ? list.shift() : list[0]
  }
  const constant = (/** @type {unknown} */ v) => { consts.push(v); ops.push(CONST, consts.length - 1, 0) }
  /** @param {unknown} v */
  const walk = (v) => {
    if (typeof v === 'string') {
      const at = take('t' + toHex(enc.encode(v)))
      return at ? ops.push(TEXT, at[0], at[1]) : constant(v)
    }
    if (v instanceof Uint8Array) {
      const at = take('b' + toHex(v))
      if (!at) throw new Error('a byte string not in the block')
      return ops.push(BYTES, at[0], at[1])
    }
    const cid = CID.asCID(v)
    if (cid) {
      const at = take('c' + toHex(cid.bytes))
      if (!at) throw new Error('a CID not in the block')
      return ops.push(LINK, at[0], at[1])
    }
    if (Array.isArray(v)) {
      ops.push(ARRAY, v.length, 0)
      return v.forEach(walk)
    }
    if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v)
      const shape = JSON.stringify(keys)
      let id = shapeIds.get(shape)
      if (id === undefined) {
        id = shapes.length
        shapeIds.set(shape, id)
        // eslint-disable-next-line no-new-func
        shapes.push(/** @type {any} */ (new Function('b', `return { ${keys.map((k) => `${JSON.stringify(k)}: b()`).join(', ')} }`)))
      }
      ops.push(STRUCT, id, 0)
      return keys.forEach((k) => walk(/** @type {any} */ (v)[k]))
    }
    constant(v)
  }
  walk(value)
  return { src, ops: Int32Array.from(ops), consts }
}

let ops = new Int32Array(0)
/** @type {unknown[]} */
let consts = []
let src = new Uint8Array(0)
let k = 0

/** @returns {unknown} */
function build () {
  const op = ops[k]
  const a = ops[k + 1]
  const b = ops[k + 2]
  k += 3
  switch (op) {
    case STRUCT: return shapes[a](build)
    case ARRAY: {
      const array = new Array(a)
      for (let i = 0; i < a; i++) array[i] = build()
      return array
    }
    case TEXT: return readUtf8(src, a, b, true)
    case BYTES: return src.slice(a, b)
    case LINK: return readCid(src, a, b)
    default: return consts[a]
  }
}

/** @param {{ src: Uint8Array, ops: Int32Array, consts: unknown[] }} tape */
function replay (tape) {
  ops = tape.ops
  consts = tape.consts
  src = tape.src
  k = 0
  return build()
}

/**
 * The encode tape of one block: its bytes cut at each leaf, and the typed value's leaf there.
 *
 * @param {unknown} value
 * @param {Uint8Array} src - the block: what typed encode of `value` writes
 * @returns {{ size: number, chunks: Uint8Array[], leaves: unknown[] }}
 */
function writeTapeOf (value, src) {
  /** @type {Array<[number, number, string]>} */
  const places = []
  for (const [key, list] of leavesOf(src)) for (const [a, b] of list) places.push([a, b, key])
  places.sort((x, y) => x[0] - y[0])
  /** @type {Map<string, unknown>} */
  const byContent = new Map()
  const enc = new TextEncoder()
  /** @param {unknown} v */
  const walk = (v) => {
    const cid = CID.asCID(v)
    if (typeof v === 'string') byContent.set('t' + toHex(enc.encode(v)), v)
    else if (v instanceof Uint8Array) byContent.set('b' + toHex(v), v)
    else if (cid) byContent.set('c' + toHex(cid.bytes), cid)
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk)
  }
  walk(value)
  const chunks = []
  const leaves = []
  let at = 0
  for (const [a, b, key] of places) {
    if (!byContent.has(key)) continue // a key or a discriminant: part of the ready-made chunks
    // a CID leaf starts at its 0x00 prefix, which the chunk before it holds
    const start = key[0] === 'c' ? a + 1 : a
    chunks.push(src.slice(at, start))
    leaves.push(byContent.get(key))
    at = b
  }
  chunks.push(src.slice(at))
  return { size: src.length, chunks, leaves }
}

/** @param {{ size: number, chunks: Uint8Array[], leaves: unknown[] }} tape */
function writeFromTape (tape) {
  const out = new Uint8Array(tape.size)
  const { chunks, leaves } = tape
  let pos = 0
  for (let i = 0; i < leaves.length; i++) {
    pos = put(out, chunks[i], pos)
    const leaf = leaves[i]
    if (typeof leaf === 'string') pos = writeUtf8(leaf, out, pos, false)
    else {
      const bytes = leaf instanceof Uint8Array ? leaf : /** @type {CID} */ (leaf).bytes
      pos = put(out, bytes, pos)
    }
  }
  put(out, chunks[leaves.length], pos)
  return out
}

/**
 * Copy `bytes` into `out` at `pos`: short ones byte by byte (a set() call costs more than the
 * copy), as our writer does.
 *
 * @param {Uint8Array} out
 * @param {Uint8Array} bytes
 * @param {number} pos
 * @returns {number} the position after
 */
function put (out, bytes, pos) {
  const n = bytes.length
  if (n > 16) out.set(bytes, pos)
  else for (let i = 0; i < n; i++) out[pos + i] = bytes[i]
  return pos + n
}

const names = Object.keys(SCHEMA_CORPORA).filter((n) => n.includes(only))
const corpora = await loadCorpora({ quick, filter: (n) => names.includes(n) })
console.log(`typed decode floor (${quick ? 'quick' : 'full'} run; speed ratios, median of ${cfg.rounds} rounds; ${process.release.name} ${process.version})`)
console.log('| corpus | root | floor / ours decode | typed / ours decode | typed / floor | floor / (@ipld + toTyped) | encode: floor / ours | typed / ours | typed / floor |')
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
for (const c of corpora) {
  const entry = SCHEMA_CORPORA[c.name]
  const typed = compile(fromDSL(entry.dsl), entry.root)
  const typedValues = c.blocks.map((b) => typed.decode(b))
  const items = c.blocks.map((b, i) => {
    const tape = tapeOf(typedValues[i], toByteView(b))
    const diff = dataModelDiff(replay(tape), typedValues[i], { keyOrder: true })
    if (diff !== null) throw new Error(`${c.name}: the floor builds another value: ${diff}`)
    return tape
  })
  const cells = [
    { name: 'floor', fn: replay, items },
    { name: 'typed', fn: (/** @type {Uint8Array} */ b) => typed.decode(b), items: c.blocks },
    { name: 'ours', fn: (/** @type {Uint8Array} */ b) => decode(b), items: c.blocks },
    /** @type {NonNullable<ReturnType<typeof typedCells>>} */ (typedCells(c)).decode.filter((x) => x.name === REF_TYPED_ROW)[0]
  ]
  const [floor, td, od, rt] = runInterleaved(cells, { ...cfg, chunk: c.chunk })
  const writeTapes = c.blocks.map((b, i) => {
    const tape = writeTapeOf(typedValues[i], toByteView(b))
    if (!bytesEqual(writeFromTape(tape), toByteView(b))) throw new Error(`${c.name}: the encode floor writes other bytes`)
    return tape
  })
  const encodeCells = [
    { name: 'floor', fn: writeFromTape, items: writeTapes },
    { name: 'typed', fn: (/** @type {unknown} */ v) => typed.encode(v), items: typedValues },
    { name: 'ours', fn: (/** @type {unknown} */ v) => encode(v), items: c.values }
  ]
  const [ef, te, oe] = runInterleaved(encodeCells, { ...cfg, chunk: c.chunk })
  const fmt = (/** @type {number} */ x) => `${x.toFixed(2)}x`
  console.log(`| ${c.name} | ${entry.root} | ${fmt(medianRatio(floor, od))} | ${fmt(medianRatio(td, od))} | ${fmt(medianRatio(td, floor))} | ${fmt(medianRatio(floor, rt))} | ${fmt(medianRatio(ef, oe))} | ${fmt(medianRatio(te, oe))} | ${fmt(medianRatio(te, ef))} |`)
}
