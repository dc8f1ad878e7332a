// Bytes out: CBOR heads, floats, strings, byte strings and CIDs (tag 42 over a byte string)
// written into chunked output.
// Writes go into one reusable scratch buffer; when it fills, the written range becomes a
// chunk and a bigger buffer takes over. Large byte strings are referenced as chunks of
// their own, so a 1 MiB payload is copied once (into the result), not twice. `finish`
// copies everything into one exact-size result that shares no memory with the scratch
// buffer, so results never pin it. State is module-level (one encode runs at a time;
// `save`/`restore` cover an encode started from inside another, e.g. by a getter).

import { writeUtf8 } from './utf8.js'
import { CID_TAG } from './cid-encode.js'
import { COPY_BY_SET, copyBySet } from './copy-bytes.js'
import { resultMemory } from '#result-memory'

const SCRATCH_SIZE = 64 * 1024
/** A buffer grown for a large value is kept as the scratch buffer up to this size, so that
 * encoding values of that size again allocates nothing but the result. */
const MAX_SCRATCH = 1024 * 1024
const MAX_CHUNK = 16 * 1024 * 1024
/** Byte strings at least this long are referenced, not copied, until `finish`. */
const LARGE_BYTES = 16 * 1024
const TWO_32 = 4294967296

/** @type {Uint8Array} */
let scratch = new Uint8Array(SCRATCH_SIZE)
/** @type {Uint8Array} the buffer being written */
let buf = scratch
let view = new DataView(buf.buffer)
/** write position in buf */
let pos = 0
/** start in buf of the bytes not yet pushed as a chunk */
let start = 0
/** @type {Uint8Array[]} */
let chunks = []
/** total length of chunks */
let chunked = 0

/**
 * Make room for `n` contiguous bytes at pos.
 *
 * @param {number} n
 */
function reserve (n) {
  if (pos + n > buf.length) {
    pushPending()
    buf = new Uint8Array(Math.max(n, Math.min(buf.length * 2, MAX_CHUNK)))
    view = new DataView(buf.buffer)
    pos = start = 0
  }
}

function pushPending () {
  if (pos > start) {
    chunks.push(buf.subarray(start, pos))
    chunked += pos - start
    start = pos
  }
}

/**
 * @param {number} byte
 */
export function writeByte (byte) {
  reserve(1)
  buf[pos++] = byte
}

/**
 * A head: major type (already shifted into the top 3 bits) and argument n, shortest form.
 *
 * @param {number} major
 * @param {number} n - 0 <= n <= 2^53-1
 */
export function writeHead (major, n) {
  reserve(9)
  if (n < 24) {
    buf[pos++] = major | n
  } else if (n < 0x100) {
    buf[pos++] = major | 24
    buf[pos++] = n
  } else if (n < 0x10000) {
    buf[pos++] = major | 25
    view.setUint16(pos, n)
    pos += 2
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
 * A head with a 64-bit argument beyond 2^53-1.
 *
 * @param {number} major
 * @param {bigint} n
 */
export function writeHead64 (major, n) {
  reserve(9)
  buf[pos++] = major | 27
  view.setBigUint64(pos, n)
  pos += 8
}

/**
 * @param {number} value
 */
export function writeFloat (value) {
  reserve(9)
  buf[pos++] = 0xfb
  view.setFloat64(pos, value)
  pos += 8
}

/**
 * Size of the head for an argument n.
 *
 * @param {number} n
 * @returns {number}
 */
function headSize (n) {
  return n < 24 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : n < TWO_32 ? 5 : 9
}

/**
 * A text string. Returns false (writing nothing) when `s` has a lone surrogate that has no
 * UTF-8 form (with `escaped`, U+DC80..U+DCFF are written as the raw bytes they stand for).
 *
 * @param {string} s
 * @param {boolean} escaped
 * @returns {boolean}
 */
export function writeString (s, escaped) {
  const n = s.length
  // short ASCII: the length is known before scanning, so write as we check
  if (n < 24 && writeAsciiString(s)) return true
  // one pass: write the UTF-8 after a head sized for the ASCII case, and move it only when
  // the byte length needs a longer head (non-ASCII text crossing 24, 256 or 65536 bytes)
  const guess = headSize(n)
  reserve(9 + n * 3)
  const stop = writeUtf8(s, buf, pos + guess, escaped)
  if (stop < 0) return false
  const length = stop - pos - guess
  const head = headSize(length)
  if (head !== guess) buf.copyWithin(pos + head, pos + guess, stop)
  const at = pos
  writeHead(0x60, length)
  pos = at + head + length
  return true
}

/**
 * A text string that is all ASCII. Returns false, writing nothing, when it is not.
 *
 * @param {string} s
 * @returns {boolean}
 */
export function writeAsciiString (s) {
  const n = s.length
  reserve(9 + n)
  let at = pos
  // the head written here, not by writeHead: this is the path of every short string and every
  // key of a large map, where writeHead's second reserve and its cases for arguments of 2^32 and
  // up measured slower (bench/README.md, "writeString's short ASCII path")
  if (n < 24) {
    buf[at++] = 0x60 | n
  } else if (n < 0x100) {
    buf[at++] = 0x78
    buf[at++] = n
  } else if (n < 0x10000) {
    buf[at++] = 0x79
    buf[at++] = n >> 8
    buf[at++] = n & 0xff
  } else {
    // a string's length is below 2^32 in every engine
    buf[at++] = 0x7a
    view.setUint32(at, n)
    at += 4
  }
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x80) return false
    buf[at++] = c
  }
  pos = at
  return true
}

/**
 * A byte string: its head, then (when `prefix` is 1) the byte `before` as the first byte of
 * its content, then `bytes`. For a CID the prefix is the 0x00 multibase-identity byte. A
 * small one is written under a single reservation; a large one is referenced, not copied,
 * until `finish`.
 *
 * @param {Uint8Array} bytes
 * @param {number} prefix - 0 or 1
 * @param {number} before - the prefix byte
 */
function byteString (bytes, prefix, before) {
  const n = bytes.length
  const length = n + prefix
  if (n >= LARGE_BYTES) {
    writeHead(0x40, length)
    if (prefix !== 0) writeByte(before)
    pushPending()
    chunks.push(bytes)
    chunked += n
    return
  }
  // the head by hand rather than by writeHead, under the one reservation: through writeHead
  // and a separate copy (three reservations for a CID), sample-v1 encode measured 0.91-0.95x
  reserve(4 + length)
  if (length < 24) {
    buf[pos++] = 0x40 | length
  } else if (length < 0x100) {
    buf[pos++] = 0x58
    buf[pos++] = length
  } else {
    buf[pos++] = 0x59
    buf[pos++] = length >> 8
    buf[pos++] = length & 0xff
  }
  if (prefix !== 0) buf[pos++] = before
  // a JS loop beats set() below ~12 bytes (measured 10-22 ns vs ~30 ns at 2-8 bytes; at 16
  // bytes 41 vs 31 ns, at 38 bytes 67 vs 17 ns)
  if (n < 12) {
    for (let i = 0; i < n; i++) buf[pos++] = bytes[i]
  } else {
    buf.set(bytes, pos)
    pos += n
  }
}

/**
 * A byte string.
 *
 * @param {Uint8Array} bytes
 */
export function writeByteString (bytes) {
  byteString(bytes, 0, 0)
}

/**
 * A CID: tag 42 over a byte string of 0x00 (the historical multibase-identity prefix) and
 * the CID's binary form.
 *
 * @param {Uint8Array} cid
 */
export function writeCid (cid) {
  reserve(2)
  buf[pos++] = 0xd8
  buf[pos++] = CID_TAG
  byteString(cid, 1, 0)
}

/**
 * Bytes made ahead of time, copied as they are (the typed encoder's struct keys, each with its head).
 *
 * @param {Uint8Array} bytes
 */
export function writeBlock (bytes) {
  const n = bytes.length
  reserve(n)
  // in locals: the module's buf and pos would be loaded and stored at every byte
  const b = buf
  const at = pos
  for (let i = 0; i < n; i++) b[at + i] = bytes[i]
  pos = at + n
}

/**
 * Leave one byte for a head whose argument is known only later (a struct's count of written
 * fields): the caller fills `held()[at]`, which stays the same memory if the buffer fills meanwhile
 * (a full buffer is pushed as a view of itself, not copied).
 *
 * @returns {number} at
 */
export function holdByte () {
  reserve(1)
  return pos++
}

/** @returns {Uint8Array} the buffer being written */
export function held () {
  return buf
}

/**
 * A CID (as writeCid) under one reservation, its bytes straight after their head: the typed
 * encoder's links, which are many in the blocks it writes (writeCid, for generic encode, reserves
 * for the tag and then for the byte string).
 *
 * @param {Uint8Array} cid
 */
export function writeLinkBytes (cid) {
  const n = cid.length
  if (n >= LARGE_BYTES) return writeCid(cid)
  reserve(n + 6)
  const b = buf
  let at = pos
  b[at++] = 0xd8
  b[at++] = CID_TAG
  const length = n + 1
  if (length < 24) {
    b[at++] = 0x40 | length
  } else if (length < 0x100) {
    b[at++] = 0x58
    b[at++] = length
  } else {
    b[at++] = 0x59
    b[at++] = length >> 8
    b[at++] = length & 0xff
  }
  b[at++] = 0
  b.set(cid, at)
  pos = at + n
}

/**
 * A byte string (as writeByteString), the typed encoder's: its own function, so that what the
 * engine learns of it is not mixed with generic encode's byte strings and CIDs.
 *
 * @param {Uint8Array} bytes
 */
export function writeBytes (bytes) {
  const n = bytes.length
  if (n >= LARGE_BYTES) return byteString(bytes, 0, 0)
  reserve(n + 3)
  const b = buf
  let at = pos
  if (n < 24) {
    b[at++] = 0x40 | n
  } else if (n < 0x100) {
    b[at++] = 0x58
    b[at++] = n
  } else {
    b[at++] = 0x59
    b[at++] = n >> 8
    b[at++] = n & 0xff
  }
  // a loop beats set() for a few bytes (see byteString)
  if (n < 12) {
    for (let i = 0; i < n; i++) b[at + i] = bytes[i]
  } else {
    b.set(bytes, at)
  }
  pos = at + n
}

/** @returns {number} bytes written so far */
export function written () {
  return chunked + pos - start
}

/**
 * Copy everything written to the start of `target`.
 *
 * @param {Uint8Array} target
 * @returns {Uint8Array} target
 */
function copyTo (target) {
  let at = 0
  for (const chunk of chunks) {
    target.set(chunk, at)
    at += chunk.length
  }
  target.set(buf.subarray(start, pos), at)
  return target
}

/**
 * The bytes written, as one new exact-size Uint8Array (or copied into `target`). A result made of
 * chunks (a large byte string is one) takes memory that is not zero-filled where the runtime has
 * such (lib/result-memory-node.js): every byte of it is written here.
 *
 * @param {Uint8Array} [target]
 * @returns {Uint8Array}
 */
export function finish (target) {
  if (target !== undefined) return copyTo(target)
  if (chunks.length !== 0) return copyTo(resultMemory(written()))
  return COPY_BY_SET ? copyBySet(buf, start, pos) : buf.slice(start, pos)
}

/** Forget what was written; the scratch buffer is reused. */
export function reset () {
  if (buf !== scratch) {
    if (buf.length > scratch.length && buf.length <= MAX_SCRATCH) scratch = buf
    buf = scratch
    view = new DataView(buf.buffer)
  }
  pos = start = chunked = 0
  if (chunks.length !== 0) chunks = []
}

/** whether an encode is writing, so that one started meanwhile (by a getter) saves its state */
let writing = false

/**
 * Start an encode's writing. Every encoder (the generic one, the typed ones) starts and ends
 * through here, so that one started from inside another, whichever, gets a fresh writer.
 *
 * @returns {unknown[] | null} null, or the state of the encode already writing, for `end`
 */
export function begin () {
  if (!writing) {
    writing = true
    return null
  }
  return save()
}

/**
 * End an encode's writing: forget what it wrote, and put back the state of the encode it ran inside.
 *
 * @param {unknown[] | null} outer - from `begin`
 */
export function end (outer) {
  reset()
  if (outer === null) writing = false
  else restore(outer)
}

/**
 * The writer's state, so that a nested encode can use a fresh one and put this one back.
 *
 * @returns {unknown[]}
 */
function save () {
  const state = [scratch, buf, view, pos, start, chunks, chunked]
  scratch = buf = new Uint8Array(1024)
  view = new DataView(buf.buffer)
  pos = start = chunked = 0
  chunks = []
  return state
}

/**
 * @param {any[]} state - from `save`
 */
function restore (state) {
  [scratch, buf, view, pos, start, chunks, chunked] = state
}
