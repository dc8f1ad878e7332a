// Chunked output for the encoder. Writes go into one reusable scratch buffer; when it
// fills, the written range becomes a chunk and a bigger buffer takes over. Large byte
// strings are referenced as chunks of their own, so a 1 MiB payload is copied once (into
// the result), not twice. `finish` copies everything into one exact-size result that
// shares no memory with the scratch buffer (so results never pin it).

import { DagCborEncodeError } from './errors.js'

const SCRATCH_SIZE = 64 * 1024
const MAX_CHUNK = 16 * 1024 * 1024
/** Byte strings at least this long are referenced, not copied, until `finish`. */
export const LARGE_BYTES = 16 * 1024

export class Writer {
  constructor () {
    /** @type {Uint8Array} */
    this.scratch = new Uint8Array(SCRATCH_SIZE)
    /** current buffer being written
     * @type {Uint8Array} */
    this.buf = this.scratch
    /** write position in buf */
    this.pos = 0
    /** start in buf of the bytes not yet pushed as a chunk */
    this.start = 0
    /** @type {Uint8Array[]} */
    this.chunks = []
    /** total length of chunks */
    this.chunked = 0
  }

  /**
   * Make room for `n` contiguous bytes at `pos`. Callers check `pos + n > buf.length`
   * inline first; this is the slow path.
   *
   * @param {number} n
   */
  grow (n) {
    this.pushPending()
    let size = this.buf.length * 2
    if (size > MAX_CHUNK) size = MAX_CHUNK
    if (size < n) size = n
    this.buf = new Uint8Array(size)
    this.pos = 0
    this.start = 0
  }

  pushPending () {
    if (this.pos > this.start) {
      this.chunks.push(this.buf.subarray(this.start, this.pos))
      this.chunked += this.pos - this.start
      this.start = this.pos
    }
  }

  /**
   * Append bytes, by reference when large (they are copied once, in `finish`).
   *
   * @param {Uint8Array} bytes
   */
  bytes (bytes) {
    const n = bytes.length
    if (n >= LARGE_BYTES) {
      this.pushPending()
      this.chunks.push(bytes)
      this.chunked += n
      return
    }
    if (this.pos + n > this.buf.length) this.grow(n)
    if (n < 32) {
      const buf = this.buf
      let pos = this.pos
      for (let i = 0; i < n; i++) buf[pos++] = bytes[i]
      this.pos = pos
    } else {
      this.buf.set(bytes, this.pos)
      this.pos += n
    }
  }

  /** @returns {number} bytes written so far */
  length () {
    return this.chunked + this.pos - this.start
  }

  /**
   * The encoded bytes as one new Uint8Array; resets the writer.
   *
   * @returns {Uint8Array}
   */
  finish () {
    const out = this.chunks.length === 0
      ? this.buf.slice(this.start, this.pos)
      : this.copyTo(new Uint8Array(this.length()))
    this.reset()
    return out
  }

  /**
   * Copy the encoded bytes to the start of `target` (encodeInto); resets the writer.
   *
   * @param {Uint8Array} target
   * @returns {number} bytes written
   */
  finishInto (target) {
    const length = this.length()
    if (length > target.length) {
      this.reset()
      throw new DagCborEncodeError('target-size', `encodeInto: the value needs ${length} bytes, the target has ${target.length}`).finish()
    }
    this.copyTo(target)
    this.reset()
    return length
  }

  /**
   * @param {Uint8Array} target
   * @returns {Uint8Array} target
   */
  copyTo (target) {
    let at = 0
    for (const chunk of this.chunks) {
      target.set(chunk, at)
      at += chunk.length
    }
    target.set(this.buf.subarray(this.start, this.pos), at)
    return target
  }

  reset () {
    this.buf = this.scratch
    this.pos = 0
    this.start = 0
    this.chunks.length = 0
    this.chunked = 0
  }
}
