// Stage 6: writing a CARv1: the bytes of a header and of a section (CarWriter, in writer.js, and
// CarBufferWriter, in buffer-writer.js, write them); memoryTarget is the pipeline's output (the one
// canonicalizeCar writes into) where there is no file to write atomically: the bytes in memory,
// handed out once the run has checked everything (a canonicalizing run may write its output again
// after its relinking passes, so nothing is final before the end).
import { encode } from 'dag-cbor-fast'

/** @typedef {import('multiformats').CID} CID */

/** The size of memoryTarget's chunks. */
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
