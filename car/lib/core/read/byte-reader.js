// A position-keeping byte reader over a stream of chunks: what the CAR reader reads its header and
// its sections through when it reads a stream (or a file, front to back).

/**
 * A watched input's method (open-car.js): the byte reader calls it with the error of a read it waited
 * on, so that a read ahead that failed and was never waited on (the reading stopped before it, on
 * a fault of the CAR) is not taken for why the reading stopped.
 */
export const FAILURE_TAKEN = Symbol('the reader waited on this failed read')

/** Thrown by ByteReader when the input ends before the bytes asked for. */
export class EndOfInput extends Error {
  /** @param {number} at */
  constructor (at) {
    super(`the input ends at byte ${at}`)
    this.at = at
  }
}

/**
 * A position-keeping byte reader over a stream of chunks (the BytesReader interface of @ipld/car,
 * whose readers it replaces here). Holds the current chunk and, while a request spans chunks, the
 * request's bytes.
 */
export class ByteReader {
  /**
   * @param {AsyncIterable<Uint8Array>} chunks
   * @param {boolean} readAhead ask for the next chunk as soon as one arrives, so reading overlaps
   *   the work on it: only for a regular file, whose reads always end (a pipe's might wait on its writer)
   */
  constructor (chunks, readAhead) {
    this.iterator = chunks[Symbol.asyncIterator]()
    this.readAhead = readAhead
    /** @type {Promise<IteratorResult<Uint8Array>> | null} the chunk asked for ahead */
    this.ahead = null
    /** @type {Uint8Array | null} what follows `buf` in the input, from a chunk a request took part of */
    this.rest = null
    /** @type {Uint8Array} */
    this.buf = new Uint8Array(0)
    this.off = 0
    this.pos = 0
    this.eof = false
    /** @type {number | undefined} where the readable data ends, when known */
    this.end = undefined
  }

  /**
   * Make at least n bytes available from pos, if the input has them. A request that spans chunks
   * gets a buffer of exactly n bytes: the rest of the last chunk is kept aside (`rest`), to be the
   * next buffer as it is, rather than copied along with the request.
   *
   * @param {number} n
   */
  async fill (n) {
    let have = this.buf.length - this.off
    if (have >= n || (this.eof && this.rest === null)) return
    const parts = have ? [this.buf.subarray(this.off)] : []
    while (have < n) {
      let chunk = this.rest
      this.rest = null
      if (chunk === null) {
        if (this.eof) break
        let next
        try {
          next = await (this.ahead ?? this.iterator.next())
        } catch (err) {
          const taken = /** @type {any} */ (this.iterator)[FAILURE_TAKEN]
          if (taken) taken(err)
          this.ahead = null
          throw err
        }
        this.ahead = null
        if (next.done) { this.eof = true; break }
        if (this.readAhead) {
          this.ahead = this.iterator.next()
          this.ahead.catch(() => {}) // its error, if any, is thrown where it is awaited
        }
        chunk = next.value
      }
      if (chunk.length === 0) continue
      parts.push(chunk)
      have += chunk.length
    }
    if (parts.length === 1) this.buf = parts[0]
    else {
      if (have > n && parts.length > 1) {
        const last = parts[parts.length - 1]
        const keep = last.length - (have - n)
        this.rest = last.subarray(keep)
        parts[parts.length - 1] = last.subarray(0, keep)
        have = n
      }
      this.buf = new Uint8Array(have)
      let at = 0
      for (const p of parts) { this.buf.set(p, at); at += p.length }
    }
    this.off = 0
  }

  /** bytes available now, not past `end` */
  available () {
    const inBuffer = this.buf.length - this.off
    return this.end === undefined ? inBuffer : Math.min(inBuffer, this.end - this.pos)
  }

  /** @param {number} n */
  async upTo (n) {
    await this.fill(n)
    return this.buf.subarray(this.off, this.off + Math.min(n, this.available()))
  }

  /** @param {number} n @param {boolean} [seek] */
  async exactly (n, seek = false) {
    await this.fill(n)
    if (this.available() < n) throw new EndOfInput(this.pos + this.available())
    const out = this.buf.subarray(this.off, this.off + n)
    if (seek) this.seek(n)
    return out
  }

  /**
   * Peek the varint at pos, asking the stream for more only while it is incomplete (a pipe left
   * open after a short claim must not make us wait for bytes the varint does not need).
   *
   * @returns {Promise<{ value: number, size: number } | 'end' | 'malformed'>}
   */
  async peekVarint () {
    for (let want = 1; ; want++) {
      await this.fill(want)
      const have = this.available()
      if (have === 0) return 'end'
      const bytes = this.buf.subarray(this.off, this.off + Math.min(have, 9))
      const varint = readVarint(bytes)
      if (varint) return varint
      if (have < want || bytes.length === 9 || bytes.some((b) => b < 0x80)) return 'malformed'
      want = have
    }
  }

  /** @param {number} n bytes already made available */
  seek (n) {
    this.off += n
    this.pos += n
  }

  /** @param {number} n discard n bytes, reading through the stream */
  async skip (n) {
    while (n > 0) {
      await this.fill(1)
      const k = Math.min(this.buf.length - this.off, n)
      if (k === 0) throw new EndOfInput(this.pos)
      this.seek(k)
      n -= k
    }
  }

  /** Ends the underlying stream (a pipe we stop reading early, e.g. after a CARv2 payload). */
  async stop () {
    await this.iterator.return?.()
  }
}

/**
 * An unsigned LEB128 varint as CAR uses it (at most 9 bytes, a safe integer).
 *
 * @param {Uint8Array} bytes
 * @returns {{ value: number, size: number } | null} null when malformed or cut short
 */
export function readVarint (bytes) {
  let value = 0
  for (let i = 0; i < bytes.length && i < 9; i++) {
    value += (bytes[i] & 0x7f) * 2 ** (7 * i)
    if (bytes[i] < 0x80) return Number.isSafeInteger(value) ? { value, size: i + 1 } : null
  }
  return null
}
