#!/usr/bin/env node
// The required-work floor of typed decode on atproto-mst: a reader of the AT Protocol MSTNode
// written for that type alone, against generic decode, typed decode (closures) and the readers
// toJavaScript writes, interleaved in one process.
//   node bench/schema-mst-floor.js [--quick]
// The reader does all the work typed decode must and no more: each head read inline and checked
// (shortest form, within the input), each key compared to its bytes as written, each kind checked,
// integers within 2^53, CIDs checked and made by lib/cid-decode.js, byte strings copied by slice(),
// bytes after the block refused; each struct made by one object literal. Where typed decode falls
// short of a target and this reader does not, the shortfall is the cost of reading through shared
// closures or runtime calls, not of the work. Its values are checked equal to typed decode's first.
import { fromDSL } from '@ipld/schema/from-dsl.js'
import { decode } from '../index.js'
import { compile } from '../lib/schema/index.js'
import { readCid } from '../lib/cid-decode.js'
import { loadCorpora } from './corpora.js'
import { runInterleaved, medianRatio } from './harness.js'
import { SCHEMA_CORPORA } from './schema-corpora.js'
import { dataModelDiff } from '../test/helpers/ipld-equal.js'

const quick = process.argv.includes('--quick')
const cfg = quick ? { rounds: 5, roundMs: 25, warmMs: 30 } : { rounds: 15, roundMs: 60, warmMs: 120 }

/** @type {Uint8Array} */
let src = new Uint8Array(0)
let pos = 0
let end = 0

/**
 * @param {string} what
 * @param {number} at
 * @returns {never}
 */
function fail (what, at) {
  throw new Error(`atproto-mst floor: ${what} at byte ${at}`)
}

/**
 * The argument of the head at `at` (pos past its initial byte), in shortest form.
 *
 * @param {number} info
 * @param {number} at
 * @returns {number}
 */
function argument (info, at) {
  if (info < 24) return info
  let v = 0
  if (info === 24) {
    if (pos + 1 > end) fail('truncated', at)
    v = src[pos]
    pos += 1
    if (v < 24) fail('not in shortest form', at)
  } else if (info === 25) {
    if (pos + 2 > end) fail('truncated', at)
    v = (src[pos] << 8) | src[pos + 1]
    pos += 2
    if (v < 0x100) fail('not in shortest form', at)
  } else if (info === 26) {
    if (pos + 4 > end) fail('truncated', at)
    v = ((src[pos] << 24) | (src[pos + 1] << 16) | (src[pos + 2] << 8) | src[pos + 3]) >>> 0
    pos += 4
    if (v < 0x10000) fail('not in shortest form', at)
  } else if (info === 27) {
    if (pos + 8 > end) fail('truncated', at)
    const hi = ((src[pos] << 24) | (src[pos + 1] << 16) | (src[pos + 2] << 8) | src[pos + 3]) >>> 0
    const lo = ((src[pos + 4] << 24) | (src[pos + 5] << 16) | (src[pos + 6] << 8) | src[pos + 7]) >>> 0
    pos += 8
    if (hi > 0x1fffff) fail('an integer beyond 2^53-1', at)
    v = hi * 4294967296 + lo
    if (v < 4294967296) fail('not in shortest form', at)
  } else {
    fail('reserved or indefinite', at)
  }
  return v
}

/**
 * The argument of a head of major type `major`.
 *
 * @param {number} major
 * @returns {number}
 */
function head (major) {
  if (pos >= end) fail('truncated', pos)
  const at = pos
  const b = src[pos++]
  if (b >> 5 !== major) fail(`not major type ${major}`, at)
  return argument(b & 31, at)
}

/**
 * Whether the key at pos is the one-letter key `c` (then read past).
 *
 * @param {number} c
 * @returns {boolean}
 */
function key1 (c) {
  if (pos + 2 > end || src[pos] !== 0x61 || src[pos + 1] !== c) return false
  pos += 2
  return true
}

/** @returns {unknown} */
function link () {
  if (pos + 2 > end || src[pos] !== 0xd8 || src[pos + 1] !== 42) fail('not a link', pos)
  pos += 2
  const n = head(2)
  if (n > end - pos) fail('truncated', pos)
  const start = pos
  pos += n
  return readCid(src, start, pos)
}

/** @returns {unknown} */
function nullableLink () {
  if (pos < end && src[pos] === 0xf6) {
    pos++
    return null
  }
  return link()
}

/** @returns {{ k: Uint8Array, p: number, t: unknown, v: unknown }} */
function treeEntry () {
  if (head(5) !== 4) fail('not the 4 fields of TreeEntry', pos)
  if (!key1(0x6b)) fail('no key "k"', pos)
  const n = head(2)
  if (n > end - pos) fail('truncated', pos)
  const k = src.slice(pos, pos + n)
  pos += n
  if (!key1(0x70)) fail('no key "p"', pos)
  if (pos >= end) fail('truncated', pos)
  const at = pos
  const b = src[pos++]
  if (b >> 5 > 1) fail('not an integer', at)
  const arg = argument(b & 31, at)
  if (b >> 5 === 1 && arg >= Number.MAX_SAFE_INTEGER) fail('an integer beyond -(2^53)+1', at)
  const p = b >> 5 === 0 ? arg : -1 - arg
  if (!key1(0x74)) fail('no key "t"', pos)
  const t = nullableLink()
  if (!key1(0x76)) fail('no key "v"', pos)
  const v = link()
  return { k, p, t, v }
}

/**
 * @param {Uint8Array} bytes
 * @returns {{ e: unknown[], l: unknown }}
 */
function readMSTNode (bytes) {
  src = bytes
  pos = 0
  end = bytes.length
  if (head(5) !== 2) fail('not the 2 fields of MSTNode', 0)
  if (!key1(0x65)) fail('no key "e"', pos)
  const n = head(4)
  if (n > end - pos) fail('truncated', pos)
  const e = new Array(n)
  for (let i = 0; i < n; i++) e[i] = treeEntry()
  if (!key1(0x6c)) fail('no key "l"', pos)
  const l = nullableLink()
  if (pos !== end) fail('bytes after the block', pos)
  return { e, l }
}

const [corpus] = await loadCorpora({ quick, filter: (n) => n === 'atproto-mst' })
const entry = SCHEMA_CORPORA['atproto-mst']
const typed = compile(fromDSL(entry.dsl), entry.root)
const aot = entry.readers.compileTyped(entry.root)
for (let i = 0; i < corpus.blocks.length; i++) {
  const diff = dataModelDiff(readMSTNode(corpus.blocks[i]), typed.decode(corpus.blocks[i]))
  if (diff !== null) throw new Error(`atproto-mst #${i}: the floor's value differs from typed decode's: ${diff}`)
}
const cells = [
  { name: 'floor', fn: (/** @type {Uint8Array} */ b) => readMSTNode(b), items: corpus.blocks },
  { name: 'ahead of time', fn: (/** @type {Uint8Array} */ b) => aot.decode(b), items: corpus.blocks },
  { name: 'typed', fn: (/** @type {Uint8Array} */ b) => typed.decode(b), items: corpus.blocks },
  { name: 'ours', fn: (/** @type {Uint8Array} */ b) => decode(b), items: corpus.blocks }
]
const rates = runInterleaved(cells, { ...cfg, chunk: corpus.chunk })
console.log(`atproto-mst required-work floor (${quick ? 'quick' : 'full'} run; median of ${cfg.rounds} rounds; ${process.release.name} ${process.version})`)
console.log('| floor / ours decode | ahead of time / ours decode | typed / ours decode | typed / floor |')
console.log('| ---: | ---: | ---: | ---: |')
const fmt = (/** @type {number} */ x) => `${x.toFixed(2)}x`
console.log(`| ${fmt(medianRatio(rates[0], rates[3]))} | ${fmt(medianRatio(rates[1], rates[3]))} | ${fmt(medianRatio(rates[2], rates[3]))} | ${fmt(medianRatio(rates[2], rates[0]))} |`)
