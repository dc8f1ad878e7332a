// Stage 6: writing a CARv1. CarWriter has @ipld/car's shape (create(roots) -> { writer, out }),
// so a script switches by changing its import; memoryTarget is the pipeline's output (the one
// canonicalizeCar writes into) where there is no file to write atomically: the bytes in memory,
// handed out once the run has checked everything (a canonicalizing run may write its output again
// after its relinking passes, so nothing is final before the end).
import { encode } from 'dag-cbor-fast'

/** @typedef {import('multiformats').CID} CID */

/** How many bytes a writer holds for its reader before put() waits for them to be read. */
const HIGH_WATER = 1 << 20

/** @param {number} n @returns {Uint8Array} n as an unsigned LEB128 varint */
export function varintBytes (n) {
  const out = []
  while (n >= 0x80) { out.push((n % 0x80) | 0x80); n = Math.floor(n / 0x80) }
  out.push(n)
  return Uint8Array.from(out)
}

/**
 * A CARv1 header: its length varint and the DAG-CBOR { roots, version: 1 }.
 *
 * @param {CID[]} roots
 */
export function headerBytes (roots) {
  const header = encode({ roots, version: 1 })
  const length = varintBytes(header.length)
  const out = new Uint8Array(length.length + header.length)
  out.set(length)
  out.set(header, length.length)
  return out
}

/**
 * One section: length varint, CID, block.
 *
 * @param {CID} cid
 * @param {Uint8Array} bytes
 */
export function sectionBytes (cid, bytes) {
  const length = varintBytes(cid.bytes.length + bytes.length)
  const out = new Uint8Array(length.length + cid.bytes.length + bytes.length)
  out.set(length)
  out.set(cid.bytes, length.length)
  out.set(bytes, length.length + cid.bytes.length)
  return out
}

/**
 * Writes a CARv1 as an async iterable of chunks, as @ipld/car's CarWriter does: `put` blocks while
 * the reader of `out` is more than about 1 MiB behind, so a writer never runs far ahead of it.
 */
export class CarWriter {
  /**
   * @param {CID[] | CID} [roots]
   * @returns {{ writer: CarWriter, out: AsyncIterable<Uint8Array> }}
   */
  static create (roots = []) {
    const writer = new CarWriter(Array.isArray(roots) ? roots : [roots])
    return { writer, out: writer.out() }
  }

  /** @param {CID[]} roots */
  constructor (roots) {
    /** @type {Uint8Array[]} */
    this.queue = [headerBytes(roots)]
    this.queued = this.queue[0].length
    this.closed = false
    /** @type {(() => void) | null} the reader, waiting for a chunk */
    this.wakeReader = null
    /** @type {(() => void) | null} a put, waiting for the reader */
    this.wakeWriter = null
    this.reading = false
  }

  /**
   * @param {{ cid: CID, bytes: Uint8Array }} block
   * @returns {Promise<void>}
   */
  async put ({ cid, bytes }) {
    if (this.closed) throw new Error('CarWriter: put() after close()')
    if (!cid || typeof cid !== 'object' || !(cid.bytes instanceof Uint8Array)) throw new TypeError('CarWriter: put() needs { cid, bytes } with a CID')
    if (!(bytes instanceof Uint8Array)) throw new TypeError('CarWriter: put() needs { cid, bytes } with bytes as a Uint8Array')
    const section = sectionBytes(cid, bytes)
    this.queue.push(section)
    this.queued += section.length
    this.wake()
    while (this.queued > HIGH_WATER && !this.closed) await new Promise((resolve) => { this.wakeWriter = () => resolve(undefined) })
  }

  /** No more blocks: `out` ends once what is queued is read. */
  async close () {
    if (this.closed) throw new Error('CarWriter: close() called twice')
    this.closed = true
    this.wake()
  }

  /** @private */
  wake () {
    const reader = this.wakeReader
    this.wakeReader = null
    reader?.()
  }

  /**
   * @private
   * @returns {AsyncGenerator<Uint8Array>}
   */
  async * out () {
    if (this.reading) throw new Error('CarWriter: out can be read only once')
    this.reading = true
    for (;;) {
      const chunk = this.queue.shift()
      if (chunk !== undefined) {
        this.queued -= chunk.length
        if (this.queued <= HIGH_WATER) {
          const writer = this.wakeWriter
          this.wakeWriter = null
          writer?.()
        }
        yield chunk
        continue
      }
      if (this.closed) return
      await new Promise((resolve) => { this.wakeReader = () => resolve(undefined) })
    }
  }
}

/**
 * An output target of the pipeline (core/pipeline.js) that keeps the CAR's bytes in memory, in
 * chunks of about 1 MiB: `chunks()` gives those of the output the run committed.
 *
 * @param {string} name what the summary calls it
 */
export function memoryTarget (name) {
  /** @type {Uint8Array[] | null} */
  let committed = null
  /** @type {import('../run/pipeline.js').OutputTarget & { chunks: () => Uint8Array[] }} */
  const target = {
    name,
    async open (roots) {
      /** @type {Uint8Array[]} */
      const chunks = []
      let staging = new Uint8Array(HIGH_WATER)
      let used = 0
      const flush = () => {
        if (used) chunks.push(staging.slice(0, used))
        used = 0
      }
      /** @param {Uint8Array} bytes */
      const add = (bytes) => {
        if (bytes.length > staging.length - used) {
          flush()
          if (bytes.length > staging.length) { chunks.push(bytes.slice()); return }
        }
        staging.set(bytes, used)
        used += bytes.length
      }
      add(headerBytes(roots))
      return {
        put: async (cid, bytes) => {
          add(varintBytes(cid.bytes.length + bytes.length))
          add(cid.bytes)
          add(bytes)
        },
        finish: async () => {
          flush()
          staging = new Uint8Array(0)
        },
        reopen: async () => {
          const { bytesSource } = await import('../read/source.js')
          return bytesSource(name, concat(chunks))
        },
        commit: async () => { committed = chunks },
        abort: async () => { chunks.length = 0 }
      }
    },
    chunks: () => committed ?? []
  }
  return target
}

/** @param {Uint8Array[]} chunks */
export function concat (chunks) {
  let length = 0
  for (const c of chunks) length += c.length
  const out = new Uint8Array(length)
  let at = 0
  for (const c of chunks) { out.set(c, at); at += c.length }
  return out
}
