// What the runtime tests compare between runtimes: each function runs one part of the CAR core's
// API on a CAR's bytes and returns plain JSON. The runner (run.js) calls them in Node to make the
// expected answers; core.test.js calls the same functions in Deno and Bun and compares. Platform-
// neutral, like the core: no node: imports here.

/**
 * The summary fields that depend on the run, not on the CAR: the input's name, the time taken and
 * the throughput, and the number of worker threads.
 */
export const RUN_DEPENDENT = Object.freeze(['input', 'seconds', 'mbPerSec', 'workers'])

/** An odd chunk size, so that sections, CIDs and varints straddle the chunks a stream delivers */
const CHUNK = 1021

/**
 * @typedef {typeof import('../../lib/core/index.js')} Core
 * @typedef {{ didKey?: string }} RepoOptions
 */

/**
 * A ReadableStream of `bytes` in chunks of `size` bytes (each chunk its own copy, as a network or
 * file stream hands them over).
 *
 * @param {Uint8Array} bytes
 * @param {number} [size]
 * @returns {ReadableStream<Uint8Array>}
 */
export function streamOf (bytes, size = CHUNK) {
  let at = 0
  return new ReadableStream({
    pull (controller) {
      if (at >= bytes.length) return controller.close()
      controller.enqueue(bytes.slice(at, at + size))
      at += size
    }
  })
}

/**
 * A summary without its run-dependent fields, as JSON (CIDs as their strings).
 *
 * @param {object} summary
 * @returns {Record<string, unknown>}
 */
export function comparable (summary) {
  const copy = JSON.parse(JSON.stringify(summary))
  for (const key of RUN_DEPENDENT) delete copy[key]
  return copy
}

/**
 * @param {unknown} e
 * @returns {Record<string, unknown>} an error as JSON: its class, message and the CAR error's fields
 */
function errorJson (e) {
  const error = /** @type {any} */ (e)
  return { name: error?.name, message: String(error?.message ?? error), kind: error?.kind ?? null, offset: error?.offset ?? null, cid: error?.cid ? String(error.cid) : null }
}

/**
 * The parts compared, each a function of the core and the CAR's bytes.
 *
 * @type {Record<string, (core: Core, bytes: Uint8Array, options: { repo?: RepoOptions }) => Promise<unknown>>}
 */
export const PARTS = {
  /** verifyCar on a ReadableStream in odd-sized chunks */
  async summary (core, bytes) {
    return comparable(await core.verifyCar(streamOf(bytes)))
  },
  /** verifyCar on a Blob (read by position where the core wants to) */
  async summaryFromBlob (core, bytes) {
    return comparable(await core.verifyCar(new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (bytes)])))
  },
  /** CarBlockIterator, hashes verified and DAG-CBOR validated: every block's CID, offset, size and status, or where it stopped */
  async blocks (core, bytes) {
    /** @type {unknown[]} */
    const blocks = []
    /** @type {Record<string, unknown>} */
    const result = { blocks }
    try {
      const iterator = await core.CarBlockIterator.fromIterable(streamOf(bytes), { validate: true })
      result.version = iterator.version
      result.roots = (await iterator.getRoots()).map(String)
      for await (const block of iterator) {
        const b = /** @type {any} */ (block)
        blocks.push([String(b.cid), b.offset, b.bytes.length, b.status ?? null, b.problem?.rule ?? null])
      }
    } catch (e) {
      result.error = errorJson(e)
    }
    result.count = blocks.length
    return result
  },
  /** blockToJson on the first three blocks and the first non-canonical DAG-CBOR block, if any */
  async json (core, bytes) {
    /** @type {unknown[]} */
    const views = []
    let nonCanonical = false
    try {
      const iterator = await core.CarBlockIterator.fromBytes(bytes, { validate: true })
      for await (const block of iterator) {
        const b = /** @type {any} */ (block)
        const first = views.length < 3
        const wanted = first || (!nonCanonical && b.status === 'non-canonical')
        if (!wanted) continue
        if (b.status === 'non-canonical') nonCanonical = true
        views.push({ cid: String(b.cid), status: b.status ?? null, ...core.blockToJson(b.cid, b.bytes) })
        if (views.length >= 3 && nonCanonical) break
      }
    } catch (e) {
      views.push({ error: errorJson(e) })
    }
    return views
  },
  /** checkRepo (AT Protocol repos only), with the did:key the runner gives for a signed repo */
  async repo (core, bytes, { repo = {} }) {
    return comparable(await core.checkRepo(streamOf(bytes), repo))
  }
}
