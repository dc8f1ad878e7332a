// Stage 6: writing a CARv1 (the bytes of a header and of a section are frames.js's, re-exported
// here; CarWriter is api/car-writer.js's, CarBufferWriter api/car-buffer-writer.js's): memoryTarget is the pipeline's output (the one
// canonicalizeCar writes into) where there is no file to write atomically: the bytes in memory,
// handed out once the run has checked everything (a canonicalizing run may write its output again
// after its relinking passes, so nothing is final before the end).
import { headerBytes, concat } from './frames.js'
import { varintBytes } from '../base/varint.js'

export { headerBytes, sectionBytes, concat } from './frames.js'
export { varintBytes } from '../base/varint.js'

/** The size of memoryTarget's chunks. */
const HIGH_WATER = 1 << 20

/**
 * An output target of the pipeline (run/pipeline.js) that keeps the CAR's bytes in memory, in
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
