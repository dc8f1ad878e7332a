// Small CBOR helpers for building and taking apart fuzz inputs. Independent of the codec under test.

/**
 * Encode a CBOR head. width: 0 = shortest, else force 1/2/4/8 argument bytes (non-shortest forms).
 * @param {number} major 0..7
 * @param {number|bigint} arg
 * @param {0|1|2|4|8} [width]
 * @returns {number[]}
 */
export function head (major, arg, width = 0) {
  const m = major << 5
  const n = BigInt(arg)
  if (width === 0) width = n < 24n ? 0 : n < 0x100n ? 1 : n < 0x10000n ? 2 : n < 0x100000000n ? 4 : 8
  if (width === 0) return [m | Number(n)]
  const ai = { 1: 24, 2: 25, 4: 26, 8: 27 }[width]
  const out = [m | ai]
  for (let i = width - 1; i >= 0; i--) out.push(Number((n >> BigInt(i * 8)) & 0xffn))
  return out
}

const utf8 = new TextEncoder()

/** a CBOR text string item holding `s` @param {string} s */
export function text (s) {
  const b = utf8.encode(s)
  return concat(head(3, b.length), b)
}

/** @param {...(ArrayLike<number>)} parts */
export function concat (...parts) {
  return concatAll(parts)
}

/** concat for long part lists (spreading 100k arguments overflows the stack) @param {ArrayLike<number>[]} parts */
export function concatAll (parts) {
  let len = 0
  for (const p of parts) len += p.length
  const out = new Uint8Array(len)
  let o = 0
  for (const p of parts) { out.set(p, o); o += p.length }
  return out
}

/** @param {string} hex */
export function fromHex (hex) {
  const clean = hex.replace(/\s+/g, '')
  const out = new Uint8Array(clean.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16)
  return out
}

/** @param {Uint8Array} b */
export function toHex (b) {
  let s = ''
  for (let i = 0; i < b.length; i++) s += (b[i] < 16 ? '0' : '') + b[i].toString(16)
  return s
}

/**
 * @typedef {{ start: number, hdrLen: number, end: number, major: number, ai: number, arg: number,
 *   parent: number, index: number, children: number[] }} Item
 */

/**
 * Walk well-formed, definite-length CBOR and list every data item with its byte span.
 * Returns null for anything it cannot walk (indefinite lengths, truncation, trailing bytes,
 * too many items) — callers then fall back to byte-level mutations.
 * @param {Uint8Array} bytes
 * @param {number} [maxItems]
 * @returns {Item[]|null}
 */
export function walk (bytes, maxItems = 20000) {
  /** @type {Item[]} */
  const items = []
  /** @type {{ item: number, left: number }[]} */
  const stack = []
  let pos = 0
  const root = -1
  do {
    if (pos >= bytes.length || items.length >= maxItems) return null
    const ib = bytes[pos]
    const major = ib >> 5
    const ai = ib & 31
    let arg = ai
    let hdrLen = 1
    if (ai >= 24) {
      if (ai > 27) return null
      const w = 1 << (ai - 24)
      if (pos + 1 + w > bytes.length) return null
      arg = 0
      for (let i = 0; i < w; i++) arg = arg * 256 + bytes[pos + 1 + i]
      hdrLen += w
    }
    const parent = stack.length ? stack[stack.length - 1].item : root
    const idx = items.length
    /** @type {Item} */
    const item = { start: pos, hdrLen, end: -1, major, ai, arg, parent, index: idx, children: [] }
    items.push(item)
    if (parent !== root) items[parent].children.push(idx)
    pos += hdrLen
    let kids = 0
    if (major === 2 || major === 3) {
      if (pos + arg > bytes.length) return null
      pos += arg
    } else if (major === 4) kids = arg
    else if (major === 5) kids = arg * 2
    else if (major === 6) kids = 1
    if (kids > bytes.length) return null
    if (kids > 0) {
      stack.push({ item: idx, left: kids })
      continue
    }
    item.end = pos
    // close finished containers
    while (stack.length) {
      const top = stack[stack.length - 1]
      if (--top.left > 0) break
      stack.pop()
      items[top.item].end = pos
    }
  } while (stack.length)
  return pos === bytes.length ? items : null
}
