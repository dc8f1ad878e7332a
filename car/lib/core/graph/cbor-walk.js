// A small byte-level CBOR walker for the two questions the tool answers without decoding to values:
// where are the links (tag 42 byte strings), so --canonicalize can splice new CIDs into a parent's
// bytes; and which float64 items hold integers (and at which value path), so a block that is
// canonical DAG-CBOR but that JavaScript re-encodes differently can be explained.
// Iterative (an explicit stack, no recursion), so deep nesting cannot overflow the call stack.
// Accepts any well-formed CBOR, definite or indefinite, so it also walks relaxed (non-canonical) blocks.
// A head's argument is read by the codec's head reader (dag-cbor-fast/head), relaxed: the walks
// check bounds, reserved values and indefinite lengths first, and refuse in their own words, so it
// never throws here. An argument above 2^53-1 (-1 from it) is taken as Infinity: more than any
// input holds, so such a length or count fails as one past the end would.

import { readArgument } from 'dag-cbor-fast/head'

export class CborWalkError extends Error {}

/**
 * @typedef {object} Visitor
 * @property {(headStart: number, contentStart: number, contentEnd: number) => void} [link]
 *   a tag 42 byte string: where its head starts, and its content (0x00 prefix + CID bytes)
 * @property {(at: number, value: number, path: () => string) => void} [float64]
 *   a float64 item (0xfb) at byte `at`; `path()` builds its value path, JSON-pointer style
 * @property {(at: number) => void} [undefined] the simple value undefined (0xf7) at byte `at`
 */

const textDecoder = new TextDecoder()

// long: one loop whose head reading, item dispatch and container stack share their locals (pos,
// tag, the stacks); split up, they would share them through an object every item goes through
/**
 * Walk the single CBOR data item that `bytes` must hold, calling the visitor's hooks.
 *
 * @param {Uint8Array} bytes
 * @param {Visitor} visit
 */
export function walkCbor (bytes, visit) {
  const end = bytes.length
  let pos = 0
  // Open containers, innermost last. left: items still to read (-1 while indefinite);
  // seen: items read so far (array index, or 2 x pair index in a map); key: the current map key.
  /** @type {number[]} */ const left = []
  /** @type {number[]} */ const seen = []
  /** @type {boolean[]} */ const isMap = []
  /** @type {string[]} */ const key = []
  let tag = -1 // tag number that applies to the next item

  const path = () => {
    let p = ''
    for (let i = 0; i < left.length; i++) {
      const segment = isMap[i] ? key[i] : String(seen[i])
      p += '/' + segment.replace(/~/g, '~0').replace(/\//g, '~1')
    }
    return p || '/'
  }
  /** @param {number} n */
  const need = (n) => { if (pos + n > end) throw new CborWalkError(`truncated at byte ${pos}`) }
  /** An item is complete: count it in its container, closing every container it completes. */
  const itemDone = () => {
    while (left.length) {
      const top = left.length - 1
      seen[top]++
      if (left[top] < 0) return false // indefinite: closed by a break
      if (--left[top] > 0) return false
      left.pop(); seen.pop(); isMap.pop(); key.pop()
    }
    return true // the top-level item is complete
  }
  /** @param {number} count @param {boolean} map */
  const open = (count, map) => {
    if (count === 0) return itemDone()
    left.push(map ? 2 * count : count); seen.push(0); isMap.push(map); key.push('')
    return false
  }

  for (;;) {
    need(1)
    const at = pos
    const initial = bytes[pos++]
    const major = initial >> 5
    const info = initial & 31
    const tagged = tag
    tag = -1
    if (initial === 0xff) { // break: closes the innermost indefinite container
      const top = left.length - 1
      if (top < 0 || left[top] >= 0 || tagged >= 0) throw new CborWalkError(`unexpected break at byte ${at}`)
      left.pop(); seen.pop(); isMap.pop(); key.pop()
      if (itemDone()) break
      continue
    }
    let arg = info
    if (info === 31) {
      if (major < 2 || major > 5) throw new CborWalkError(`indefinite length not allowed for major type ${major} at byte ${at}`)
      arg = -1
    } else if (info >= 24) {
      if (info > 27) throw new CborWalkError(`reserved additional information ${info} at byte ${at}`)
      const size = 1 << (info - 24)
      need(size)
      if (major === 7) { // simple value or float: the argument is the value itself
        if (info === 27 && visit.float64) {
          const view = new DataView(bytes.buffer, bytes.byteOffset + pos, 8)
          visit.float64(at, view.getFloat64(0), path)
        }
        pos += size
        if (itemDone()) break
        continue
      }
      arg = readArgument(bytes, pos, end, info, at, true)
      if (arg < 0) arg = Infinity
      pos += size
    }
    let complete = false
    switch (major) {
      case 0: case 1: case 7:
        if (initial === 0xf7 && visit.undefined) visit.undefined(at)
        complete = itemDone()
        break
      case 2: case 3:
        if (arg < 0) { complete = open(-1, false); break } // chunks follow, closed by a break
        need(arg)
        if (major === 2 && tagged === 42 && visit.link) visit.link(at, pos, pos + arg)
        if (major === 3 && left.length && isMap[left.length - 1] && seen[left.length - 1] % 2 === 0) {
          key[left.length - 1] = textDecoder.decode(bytes.subarray(pos, pos + arg))
        } else if (left.length && isMap[left.length - 1] && seen[left.length - 1] % 2 === 0) {
          key[left.length - 1] = '?' // a non-text key (not DAG-CBOR, but walkable)
        }
        pos += arg
        complete = itemDone()
        break
      case 4: case 5:
        if (left.length && isMap[left.length - 1] && seen[left.length - 1] % 2 === 0) key[left.length - 1] = '?'
        if (arg < 0) { left.push(-1); seen.push(0); isMap.push(major === 5); key.push('') } else complete = open(arg, major === 5)
        break
      case 6:
        tag = arg // the tagged item follows
        break
    }
    if (complete) break
  }
  if (pos !== end) throw new CborWalkError(`${end - pos} trailing bytes after the value at byte ${pos}`)
}

/**
 * Where a block links: for each tag 42 byte string, [head start, content start, content end].
 * Empty when the bytes are not walkable CBOR (such a block is reported invalid elsewhere).
 *
 * @param {Uint8Array} bytes
 * @returns {[number, number, number][]}
 */
export function linkSpans (bytes) {
  /** @type {[number, number, number][]} */
  const spans = []
  try {
    walkCbor(bytes, { link: (head, start, end) => { if (end > start && bytes[start] === 0) spans.push([head, start, end]) } })
  } catch {
    return []
  }
  return spans
}

// items still to read in each open container (-1: indefinite); reused across calls
const open = /** @type {number[]} */ ([])

/**
 * The lean walk for --canonicalize's discovery passes, which look at every block with a tag 42 in
 * it: no paths, no closures, no allocation. Calls `link(contentStart, contentEnd)` for each tag 42
 * byte string, within bytes[from, to), until it returns true.
 * Returns true when `link` did; false at the end of the value, or where the bytes stop being CBOR.
 *
 * @param {Uint8Array} bytes
 * @param {number} from
 * @param {number} to
 * @param {(contentStart: number, contentEnd: number) => boolean | void} link return true to stop
 */
export function scanLinks (bytes, from, to, link) {
  open.length = 0
  let pos = from
  let tagged = false
  for (;;) {
    if (pos >= to) return false
    const initial = bytes[pos++]
    const major = initial >> 5
    const info = initial & 31
    const wasTagged = tagged
    tagged = false
    let done = true // the item is complete (not a container left open)
    if (initial === 0xff) {
      if (open.length === 0 || open[open.length - 1] >= 0) return false
      open.pop()
    } else {
      let arg = info
      if (info === 31) {
        if (major < 2 || major > 5) return false
        open.push(-1)
        done = false
      } else {
        if (info >= 24) {
          if (info > 27) return false
          const size = 1 << (info - 24)
          if (pos + size > to) return false
          arg = major === 7 ? 0 : readArgument(bytes, pos, to, info, pos - 1, true)
          if (arg < 0) arg = Infinity
          pos += size
        }
        if (major === 2 || major === 3) {
          if (pos + arg > to) return false
          if (wasTagged && major === 2 && arg > 1 && bytes[pos] === 0 && link(pos, pos + arg)) return true
          pos += arg
        } else if (major === 4 || major === 5) {
          if (arg > 0) { open.push(major === 5 ? 2 * arg : arg); done = false }
        } else if (major === 6) {
          tagged = arg === 42
          done = false
        }
      }
    }
    if (!done) continue
    // count the completed item in its containers, closing those it completes
    for (;;) {
      if (open.length === 0) return false
      const top = open.length - 1
      if (open[top] < 0) break
      if (--open[top] > 0) break
      open.pop()
    }
  }
}
