// The decode floor: what building a block's decoded value costs when nothing is parsed or
// checked. Each block is first read into a tape (a flat list of what to build and where its
// bytes are); timing then only replays the tape, making what a copying DAG-CBOR decoder must
// make: every map (properties stored one by one), array, byte-string copy, text string (by
// lib/utf8.js, our decoder's own text path) and CID (by lib/cid-decode.js, within the memory
// target). A map key is made from its bytes where the corpus holds it for the first time and
// is ready-made after that, as from an unbounded key cache over one pass of the corpus.
// Numbers, booleans and null are ready-made. So the floor is optimistic: where its ratio to
// @ipld/dag-cbor is under 3x, no decoder giving the same output with these primitives
// (owned byte copies, TextDecoder, lazy-multihash CIDs) reaches 3x on that corpus.
import { readUtf8 } from '../lib/utf8.js'
import { readCid } from '../lib/cid-decode.js'
import { toByteView } from '../lib/byte-view.js'
// the decoder's own map constructor (see lib/decode.js for why not `{}`), the size above which
// it uses `{}` after all, and its half-float reader
import { LARGE_MAP, readHalf } from '../lib/decode.js'
import { PlainObject } from '../lib/maps.js'

// the tape's ops; a text string's, byte string's and CID's are exported (bench/schema-floor.js finds leaves by them)
const MAP = 0
const ARRAY = 1
const KEY = 2
const NEW_KEY = 7
export const TEXT = 3
export const BYTES = 4
export const LINK = 5
const CONST = 6

/**
 * @typedef {{ src: Uint8Array, ops: Int32Array, consts: unknown[], keys: string[] }} Tape
 */

/**
 * Read a corpus's blocks into tapes, one per block.
 *
 * @param {Uint8Array[]} blocks
 * @returns {Tape[]}
 */
export function tapesOf (blocks) {
  /** @type {Set<string>} */
  const seen = new Set()
  return blocks.map((block) => tapeOf(block, seen))
}

/**
 * Read one DAG-CBOR block into a tape (no checks: the block is known to decode). A map key
 * already in `seen` is taken ready-made when the tape is replayed, as from an unbounded key
 * cache; a key seen for the first time in the corpus is made from its bytes on every replay
 * (a bench that repeats a corpus must not let a key cache treat it as seen).
 *
 * @param {Uint8Array} block
 * @param {Set<string>} seen
 * @returns {Tape}
 */
function tapeOf (block, seen) {
  const src = toByteView(block)
  /** @type {number[]} */
  const ops = []
  /** @type {unknown[]} */
  const consts = []
  /** @type {string[]} */
  const keys = []
  let p = 0
  /** @param {number} info @returns {number|bigint} */
  const arg = (info) => {
    if (info < 24) return info
    const size = 1 << (info - 24)
    let v = 0n
    for (let i = 0; i < size; i++) v = (v << 8n) | BigInt(src[p + i])
    p += size
    return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v
  }
  /** @param {unknown} value */
  const constant = (value) => { consts.push(value); ops.push(CONST, consts.length - 1, 0) }
  /** @param {boolean} isKey */
  const item = (isKey) => {
    const initial = src[p++]
    const major = initial >> 5
    const info = initial & 31
    if (major === 0) return constant(arg(info))
    if (major === 1) {
      const n = arg(info)
      return constant(typeof n === 'bigint' || n >= Number.MAX_SAFE_INTEGER ? -1n - BigInt(n) : -1 - n)
    }
    if (major === 2 || major === 3) {
      const n = Number(arg(info))
      const start = p
      p += n
      if (isKey) {
        const key = /** @type {string} */ (readUtf8(src, start, p, true))
        keys.push(key)
        ops.push(seen.has(key) ? KEY : NEW_KEY, start, p)
        seen.add(key)
      } else ops.push(major === 2 ? BYTES : TEXT, start, p)
      return
    }
    if (major === 4 || major === 5) {
      const n = Number(arg(info))
      ops.push(major === 4 ? ARRAY : MAP, n, 0)
      for (let i = 0; i < n; i++) {
        if (major === 5) item(true)
        item(false)
      }
      return
    }
    if (major === 6) {
      arg(info) // tag 42
      const n = Number(arg(src[p++] & 31))
      ops.push(LINK, p, p + n)
      p += n
      return
    }
    if (info >= 25 && info <= 27) {
      const size = 1 << (info - 24)
      const view = new DataView(src.buffer, src.byteOffset + p, size)
      p += size
      return constant(size === 8 ? view.getFloat64(0) : size === 4 ? view.getFloat32(0) : readHalf(view.getUint16(0)))
    }
    constant(info === 20 ? false : info === 21 ? true : null)
  }
  item(false)
  return { src, ops: Int32Array.from(ops), consts, keys }
}

let ops = new Int32Array(0)
/** @type {unknown[]} */
let consts = []
/** @type {string[]} */
let keys = []
let src = new Uint8Array(0)
let k = 0
let kk = 0

/** @returns {unknown} */
function build () {
  const op = ops[k]
  const a = ops[k + 1]
  const b = ops[k + 2]
  k += 3
  switch (op) {
    case MAP: {
      // as decode makes them: a large map starts as `{}`
      const map = a > LARGE_MAP ? {} : new PlainObject()
      for (let i = 0; i < a; i++) {
        const key = ops[k] === KEY ? keys[kk] : /** @type {string} */ (readUtf8(src, ops[k + 1], ops[k + 2], true))
        kk++
        k += 3
        map[key] = build()
      }
      return map
    }
    case ARRAY: {
      const array = new Array(a)
      for (let i = 0; i < a; i++) array[i] = build()
      return array
    }
    case TEXT: return readUtf8(src, a, b, true)
    case BYTES: {
      // copied as our decoder copies: an owned, exact-size slice
      return src.slice(a, b)
    }
    case LINK: return readCid(src, a, b)
    default: return consts[a]
  }
}

/**
 * Build the value a tape describes.
 *
 * @param {Tape} tape
 * @returns {unknown}
 */
export function buildFromTape (tape) {
  ops = tape.ops
  consts = tape.consts
  keys = tape.keys
  src = tape.src
  k = 0
  kk = 0
  return build()
}
