// Mutations of valid DAG-CBOR blocks: byte-level (bit flips, truncation, insertion, deletion, splices)
// and structure-aware ones driven by a walk of the block (length-header changes, item replacement,
// deletion/duplication/swap with the parent's count fixed up, UTF-8 and float hazards).
import { head, concat, fromHex, walk } from './cbor.js'

/** Hand-picked items that sit on the edge of DAG-CBOR's rules. */
export const INTERESTING = [
  // simple values, reserved and break
  'f4', 'f5', 'f6', 'f7', 'f0', 'f813', 'f818', 'f820', 'f8ff', 'f814', 'fc', 'fd', 'fe', 'ff', '1c', '3d', '5e', '7f', '9f', 'bf', 'df',
  // floats: half/single, NaN, infinities, -0, integral float64, limits, 2^53, 2^64
  'f90000', 'f98000', 'f93c00', 'f97c00', 'f97e00', 'fa3f800000', 'fa7fc00000', 'fa47c35000',
  'fb0000000000000000', 'fb8000000000000000', 'fb3ff0000000000000', 'fb3ff8000000000000', 'fbc010000000000000',
  'fb7ff8000000000000', 'fb7ff0000000000000', 'fbfff0000000000000', 'fb7fefffffffffffff', 'fb0000000000000001',
  'fb4340000000000000', 'fb43f0000000000000', 'fbc3e0000000000000', 'fb4330000000000000', 'fbc340000000000001',
  // ints at the edges, and non-shortest forms
  '17', '1818', '1b001fffffffffffff', '1b0020000000000000', '1bffffffffffffffff', '3b001fffffffffffff', '3b0020000000000000',
  '3bffffffffffffffff', '3bfffffffffffffffe', '1817', '1900ff', '1a0000ffff', '1b00000000ffffffff', '3817', '20',
  // tags: CID tag with good and bad contents, other tags, bignums, nested tag
  'd82a58250001711220e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'd82a5825000171122000000000000000000000000000000000000000000000000000000000000000',
  'd82a582501017112200000000000000000000000000000000000000000000000000000000000000000',
  'd82a5822001220e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'd82a4100', 'd82a40', 'd82a4101', 'd82a6100', 'd82a00', 'd82af6', 'd82ad82a4100', 'd9002a4100', 'c06000', 'c249010000000000000000',
  'c100', 'd8ff00', 'dbffffffffffffffff00',
  // strings: BOM, invalid UTF-8, overlong, surrogates, beyond U+10FFFF, noncharacters, NUL
  '60', '6100', '6180', '62c3a9', '63efbbbf', '64efbbbf61', '62c080', '62c1bf', '63eda080', '63edbfbf', '64f4908080', '63efbfbf',
  '62c3', '63e282', '65f09f9880ff', '7800', '790000', '7f6161ff', '7fff', '40', '5f4101ff', '4100', '5800',
  // containers: empty, indefinite, non-string keys, duplicates, unsorted, length-first order
  '80', 'a0', '9fff', 'bfff', '8100', 'a10000', 'a14000', 'a1f600', 'a16000', 'a1616100',
  'a2616100616100', 'a2616200616100', 'a26261610061620' + '0', 'a261620062616100',
  '9800', 'b800', '81818181818180', 'a1616181a16161a0'
].map(fromHex)

// interesting argument values for length-header changes
const ARGS = [0, 1, 2, 23, 24, 255, 256, 65535, 65536, 0xffffffff, 0x100000000, 2 ** 53 - 1, 2 ** 53, 0xffffffffffffffffn]

// UTF-8 hazards for text-string content edits
const UTF8_HAZARDS = ['80', 'bf', 'c080', 'c1bf', 'c3', 'e282', 'eda080', 'edbfbf', 'f4908080', 'f8888080', 'ff', 'fe', 'efbbbf', 'efbfbe', 'efbfbf', '00', 'c3a9', 'f09f9880'].map(fromHex)

/** @typedef {import('./prng.js').Rng} Rng */

/** @param {Uint8Array} b @param {number} at @param {number} len @param {ArrayLike<number>} ins */
function replaceRange (b, at, len, ins) {
  return concat(b.subarray(0, at), /** @type {any} */ (ins), b.subarray(at + len))
}

// ---- byte-level mutators ----

/** @param {Rng} r @param {Uint8Array} b */
function bitflip (r, b) {
  if (!b.length) return b
  const out = b.slice()
  const n = 1 + r.size(7)
  for (let i = 0; i < n; i++) out[r.int(out.length)] ^= 1 << r.int(8)
  return out
}

/** @param {Rng} r @param {Uint8Array} b */
function setByte (r, b) {
  if (!b.length) return b
  const out = b.slice()
  const at = r.int(out.length)
  out[at] = r.chance(0.5) ? r.pick([0x00, 0xff, 0x7f, 0x80, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1f, 0xf4, 0xf6, 0xf7, 0xf9, 0xfa, 0xfb, 0x9f, 0xbf, 0x5f, 0x7f, 0xd8, 0x2a]) : r.u32() & 0xff
  return out
}

/** @param {Rng} r @param {Uint8Array} b */
function truncate (r, b) {
  return b.subarray(0, r.int(b.length + 1))
}

/** @param {Rng} r @param {Uint8Array} b */
function insertBytes (r, b) {
  const ins = r.chance(0.5) ? r.pick(INTERESTING) : r.bytes(1 + r.size(15))
  return replaceRange(b, r.int(b.length + 1), 0, ins)
}

/** @param {Rng} r @param {Uint8Array} b */
function deleteBytes (r, b) {
  if (!b.length) return b
  const at = r.int(b.length)
  return replaceRange(b, at, 1 + r.int(Math.min(16, b.length - at)), [])
}

/** @param {Rng} r @param {Uint8Array} b @param {Uint8Array} other */
function splice (r, b, other) {
  const cut = r.int(b.length + 1)
  const from = r.int(other.length + 1)
  return r.chance(0.5)
    ? concat(b.subarray(0, cut), other.subarray(from))
    : replaceRange(b, cut, r.int(b.length - cut + 1), other.subarray(from, from + r.size(64)))
}

/** @param {Rng} r @param {Uint8Array} b */
function appendTrailing (r, b) {
  return concat(b, r.chance(0.5) ? r.pick(INTERESTING) : r.bytes(1 + r.size(4)))
}

// ---- structure-aware mutators (need a walk; return null when they do not apply) ----

/** rewrite one item's head with a new argument or a non-shortest / indefinite form */
function lengthHeader (r, b, items) {
  const it = r.pick(items)
  if (it.major === 7) return null
  let arg = it.arg
  let width = /** @type {0|1|2|4|8} */ (0)
  const k = r.int(5)
  if (k === 0) arg = r.pick(ARGS)
  else if (k === 1) arg = Math.max(0, it.arg + r.pick([-2, -1, 1, 2]))
  else if (k === 2) width = r.pick([1, 2, 4, 8]) // same value, possibly non-shortest
  else if (k === 3 && it.major >= 2 && it.major <= 5) {
    // indefinite length: arrays/maps get a break at the end; strings become a single chunk
    if (it.major >= 4) return concat(b.subarray(0, it.start), [(it.major << 5) | 31], b.subarray(it.start + it.hdrLen, it.end), [0xff], b.subarray(it.end))
    return concat(b.subarray(0, it.start), [(it.major << 5) | 31], b.subarray(it.start, it.end), [0xff], b.subarray(it.end))
  } else arg = r.int(2 ** 32)
  if (typeof arg === 'number' && width && arg >= 2 ** (8 * width)) width = 0
  return replaceRange(b, it.start, it.hdrLen, head(it.major, arg, width))
}

/** replace an item with an interesting item or an item cut from another block */
function replaceItem (r, b, items, otherItems, other) {
  const it = r.pick(items)
  let ins
  if (otherItems && r.chance(0.5)) {
    const o = r.pick(otherItems)
    ins = other.subarray(o.start, o.end)
  } else ins = r.pick(INTERESTING)
  return replaceRange(b, it.start, it.end - it.start, ins)
}

/** set a container's count, keeping the rest */
function withCount (b, parent, count) {
  return replaceRange(b, parent.start, parent.hdrLen, head(parent.major, count))
}

/** the child span of `it` within its parent: a whole key/value pair for maps */
function entrySpan (items, it) {
  const p = items[it.parent]
  if (p.major !== 5) return [it.start, it.end]
  const pos = p.children.indexOf(it.index)
  const k = items[p.children[pos - (pos % 2)]]
  const v = items[p.children[pos - (pos % 2) + 1]]
  return [k.start, v.end]
}

/** delete, duplicate or swap children of an array or map, fixing the parent's count (mostly) */
function structural (r, b, items) {
  const kids = items.filter((i) => i.parent >= 0 && (items[i.parent].major === 4 || items[i.parent].major === 5))
  if (!kids.length) return null
  const it = r.pick(kids)
  const p = items[it.parent]
  const [s, e] = entrySpan(items, it)
  const fix = r.chance(0.9)
  const op = r.int(3)
  // the head rewrite comes first in the bytes, so apply the body edit and then the head
  if (op === 0) { // delete
    const body = replaceRange(b, s, e - s, [])
    return fix ? withCount(body, p, p.arg - 1) : body
  }
  if (op === 1) { // duplicate
    const body = replaceRange(b, e, 0, b.slice(s, e))
    return fix ? withCount(body, p, p.arg + 1) : body
  }
  // swap with another sibling entry
  const sib = items[r.pick(p.children)]
  const [s2, e2] = entrySpan(items, sib)
  if (s2 === s) return null
  const [a0, a1, b0, b1] = s < s2 ? [s, e, s2, e2] : [s2, e2, s, e]
  return concat(b.subarray(0, a0), b.subarray(b0, b1), b.subarray(a1, b0), b.subarray(a0, a1), b.subarray(b1))
}

/** wrap an item in a one-element array or a tag, or in ~1000 arrays (around the default depth limit) */
function wrap (r, b, items) {
  const it = r.pick(items)
  const pre = r.chance(0.1) ? new Uint8Array(r.range(990, 1010)).fill(0x81) : r.pick([[0x81], [0xd8, 0x2a], [0xc0], [0x81, 0x81, 0x81, 0x81]])
  return replaceRange(b, it.start, 0, pre)
}

/** put a UTF-8 hazard into a text string and fix its length */
function utf8Hazard (r, b, items) {
  const strs = items.filter((i) => i.major === 3)
  if (!strs.length) return null
  const it = r.pick(strs)
  const content = b.subarray(it.start + it.hdrLen, it.end)
  const hz = r.pick(UTF8_HAZARDS)
  const at = r.chance(0.3) ? 0 : r.int(content.length + 1)
  const drop = r.chance(0.3) ? Math.min(hz.length, content.length - at) : 0
  const next = replaceRange(content, at, drop, hz)
  return replaceRange(b, it.start, it.end - it.start, concat(head(3, next.length), next))
}

const BYTE_MUTATORS = [bitflip, setByte, truncate, insertBytes, deleteBytes, appendTrailing]
const STRUCT_MUTATORS = [lengthHeader, replaceItem, structural, structural, wrap, utf8Hazard]

/**
 * Apply 1..3 mutations to `seed`, using `other` (another corpus block) for splices.
 * @param {Rng} r
 * @param {{ bytes: Uint8Array, items: Item[]|null }} seed
 * @param {{ bytes: Uint8Array, items: Item[]|null }} other
 * @returns {{ bytes: Uint8Array, ops: string[] }}
 */
export function mutate (r, seed, other) {
  let b = seed.bytes
  let items = seed.items
  const ops = []
  const n = 1 + (r.chance(0.3) ? r.int(3) : 0)
  for (let i = 0; i < n; i++) {
    if (i > 0) items = b.length <= 4096 ? walk(b) : null
    let out = null
    const k = r.int(10)
    if (items && items.length && k < 6) {
      const m = r.pick(STRUCT_MUTATORS)
      out = m(r, b, items, other.items, other.bytes)
      if (out) ops.push(m.name)
    }
    if (!out && k === 6) {
      out = splice(r, b, other.bytes)
      ops.push('splice')
    }
    if (!out) {
      const m = r.pick(BYTE_MUTATORS)
      out = m(r, b)
      ops.push(m.name)
    }
    b = out
  }
  return { bytes: b, ops }
}
