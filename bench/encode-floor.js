// The encode floor: what writing a value's canonical bytes costs when nothing is checked.
// It walks the value with the same type tests as our encoder, enumerates every map with
// Object.keys and puts the keys in canonical order with our encoder's own key-order.js (an
// encoder cannot know the order without looking; canonicalOrder caches the order of repeated
// shapes; a large map's keys are ordered as if ASCII and put right from the first key that is
// not, found as it is written), writes heads with no room checks into one preallocated buffer, strings through
// lib/utf8.js (our encoder's own text path), byte strings and CIDs by the same copies our
// writer makes (a loop under 12 bytes, set() above, large ones referenced until the end), and
// returns a result made as `encode` makes it (owned, exact size). What it skips: every check our encoder
// makes (circular references, depth, NaN and Infinity, lone surrogates, the CID signal) and
// the writer's room checks. So the floor is optimistic: where its ratio to @ipld/dag-cbor is
// under 3x, no encoder writing the same bytes with these primitives (an owned result,
// Object.keys, our key sort, TextEncoder) reaches 3x on that corpus.
import { writeUtf8 } from '../lib/utf8.js'
import { canonicalOrder, orderAsIfAscii, orderRest, MANY_KEYS } from '../lib/key-order.js'

/** byte strings at least this long are referenced until the result is made (as lib/writer.js) */
const LARGE_BYTES = 16 * 1024
const TWO_32 = 4294967296

let buf = new Uint8Array(1 << 20)
let view = new DataView(buf.buffer)
let pos = 0
/** @type {Array<Uint8Array|number>} large byte strings and the positions they go after */
let large = []

/**
 * @param {number} major
 * @param {number} n
 */
function head (major, n) {
  if (n < 24) {
    buf[pos++] = major | n
  } else if (n < 0x100) {
    buf[pos++] = major | 24
    buf[pos++] = n
  } else if (n < 0x10000) {
    buf[pos++] = major | 25
    buf[pos++] = n >> 8
    buf[pos++] = n & 0xff
  } else if (n < TWO_32) {
    buf[pos++] = major | 26
    view.setUint32(pos, n)
    pos += 4
  } else {
    buf[pos++] = major | 27
    view.setUint32(pos, Math.floor(n / TWO_32))
    view.setUint32(pos + 4, n >>> 0)
    pos += 8
  }
}

/**
 * Size of a head for an argument below 2^32.
 *
 * @param {number} n
 * @returns {number}
 */
function headSize (n) {
  return n < 24 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : 5
}

/**
 * @param {Uint8Array} bytes
 * @param {number} prefix - 1 for a CID's 0x00 byte
 */
function byteString (bytes, prefix) {
  const n = bytes.length
  head(0x40, n + prefix)
  if (prefix !== 0) buf[pos++] = 0
  if (n < 12) {
    for (let i = 0; i < n; i++) buf[pos++] = bytes[i]
  } else if (n < LARGE_BYTES) {
    buf.set(bytes, pos)
    pos += n
  } else {
    large.push(pos, bytes)
  }
}

/**
 * lib/writer.js's writeString without its room checks, on purpose: the floor must not pay
 * for them (its buffer is sized beforehand by sizeFor).
 *
 * @param {string} s
 */
function text (s) {
  const n = s.length
  if (n < 24) {
    let at = pos + 1
    let i = 0
    for (; i < n; i++) {
      const c = s.charCodeAt(i)
      if (c >= 0x80) break
      buf[at++] = c
    }
    if (i === n) {
      buf[pos] = 0x60 | n
      pos = at
      return
    }
  }
  const guess = headSize(n)
  const stop = writeUtf8(s, buf, pos + guess, false)
  const length = stop - pos - guess
  const size = headSize(length)
  if (size !== guess) buf.copyWithin(pos + size, pos + guess, stop)
  head(0x60, length)
  pos += length
}

/**
 * @param {any} v
 */
function write (v) {
  switch (typeof v) {
    case 'string':
      return text(v)
    case 'number':
      if (!Number.isInteger(v)) {
        buf[pos++] = 0xfb
        view.setFloat64(pos, v)
        pos += 8
      } else if (v >= 0) head(0, v)
      else head(0x20, -1 - v)
      return
    case 'boolean':
      buf[pos++] = v ? 0xf5 : 0xf4
      return
    case 'bigint': {
      const negative = v < 0n
      buf[pos++] = (negative ? 0x20 : 0) | 27
      view.setBigUint64(pos, negative ? -1n - v : v)
      pos += 8
      return
    }
    case 'object':
      if (v === null) {
        buf[pos++] = 0xf6
        return
      }
      if (v instanceof Uint8Array) return byteString(v, 0)
      if (Array.isArray(v)) {
        head(0x80, v.length)
        for (let i = 0; i < v.length; i++) write(v[i])
        return
      }
      if (Object.getPrototypeOf(v) === Object.prototype) {
        let keys = Object.keys(v)
        // many keys: ordered as if ASCII, the first key that is not found as it is written, as
        // our encoder does (lib/encode.js), so the floor reads no key more often than it does
        const asIfAscii = keys.length > MANY_KEYS
        if (asIfAscii) orderAsIfAscii(keys, null)
        else if (keys.length > 1) keys = canonicalOrder(keys, false)
        head(0xa0, keys.length)
        let ascii = asIfAscii
        for (let i = 0; i < keys.length; i++) {
          const at = pos
          text(keys[i])
          if (ascii && pos - at !== headSize(keys[i].length) + keys[i].length) {
            ascii = false
            pos = at
            orderRest(keys, i)
            text(keys[i])
          }
          write(v[keys[i]])
        }
        return
      }
      buf[pos++] = 0xd8
      buf[pos++] = 42
      return byteString(v['/'], 1)
  }
}

/**
 * Write a value and return its bytes as a new exact-size Uint8Array.
 *
 * @param {unknown} value
 * @returns {Uint8Array}
 */
export function writeFloor (value) {
  pos = 0
  write(value)
  if (large.length === 0) {
    // the result as our writer makes it: owned, exact size
    return buf.slice(0, pos)
  }
  let length = pos
  for (let i = 1; i < large.length; i += 2) length += /** @type {Uint8Array} */ (large[i]).length
  const result = new Uint8Array(length)
  let from = 0
  let at = 0
  for (let i = 0; i < large.length; i += 2) {
    const before = /** @type {number} */ (large[i])
    const bytes = /** @type {Uint8Array} */ (large[i + 1])
    result.set(buf.subarray(from, before), at)
    at += before - from
    result.set(bytes, at)
    at += bytes.length
    from = before
  }
  result.set(buf.subarray(from, pos), at)
  large = []
  return result
}

/**
 * Make the buffer big enough for the largest of these values (untimed), so that the timed
 * writes never check for room.
 *
 * @param {unknown[]} values
 * @param {(value: unknown) => number} encodedLength
 */
export function sizeFor (values, encodedLength) {
  const most = Math.max(...values.map(encodedLength))
  if (most > buf.length) {
    buf = new Uint8Array(most)
    view = new DataView(buf.buffer)
  }
}
