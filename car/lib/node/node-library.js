// dag-cbor-car's library API in Node (the package's "node" export): the platform-neutral core
// (../core/index.js), with node:crypto's sha2-256 installed, file paths (and file: URLs) accepted
// as input, read by position, and verifyCar's `workers` (worker threads, as the CLI runs them).
import './writer-file-descriptors.js'
import { openSource } from '../core/read/source.js'
import * as core from '../core/index.js'
import { openInput } from './input-source.js'
import { defaultCodecUrl, maxWorkers } from './run.js'
import { verifyStages } from '#verify-stages'

export { CarWriter, CarBufferWriter, CarBlockError, CarReadError, InputFailedError, blockToJson, hashBackends, installHashers, contentType } from '../core/index.js'
export { CarReader, CarBufferReader, CarIndexer, CarCIDIterator } from './readers.js'
export { CarIndexedReader } from './car-indexed-reader.js'
export { CarBlockIterator } from './block-iterator.js'

/**
 * @typedef {import('../core/index.js').CarInput | string | URL} NodeCarInput a CarInput, or a file path or file: URL
 * @typedef {import('../core/index.js').IteratorOptions} IteratorOptions
 * @typedef {import('../core/index.js').VerifyOptions} VerifyOptions
 * @typedef {import('../core/index.js').Summary} Summary
 * @typedef {import('../core/index.js').BlockInfo} BlockInfo
 * @typedef {import('../core/index.js').CheckedBlock} CheckedBlock
 */

/**
 * @param {NodeCarInput} input
 * @returns {Promise<import('../core/read/source.js').Source>}
 */
async function open (input) {
  if (typeof input === 'string') return openInput(input)
  if (input instanceof URL) {
    if (input.protocol !== 'file:') throw new TypeError(`only file: URLs are read, not ${input.protocol}`)
    const { fileURLToPath } = await import('node:url')
    return openInput(fileURLToPath(input))
  }
  return openSource(input)
}

/**
 * The core's verifyCar, plus `workers`: threads checking blocks (default 1: this thread; N: this
 * thread and N - 1 worker threads, as the CLI's --workers N).
 *
 * @param {NodeCarInput} input
 * @param {VerifyOptions & { workers?: number }} [options]
 * @returns {Promise<Summary>}
 */
export async function verifyCar (input, options = {}) {
  verifyStages().checkVerifyOptions('verifyCar', options) // before the input is opened
  const { workers = 1 } = options
  if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be a whole number of at least 1, got ${workers}`)
  const threads = Math.min(workers, maxWorkers())
  const source = await open(input)
  if (options.name) source.name = options.name
  return core.runVerify(source, options, {
    workers: threads,
    workerPool: async (n) => (await import('./workers.js')).workerPool(n, defaultCodecUrl(), { canonicalize: false })
  })
}

/**
 * @param {NodeCarInput} input
 * @param {number} offset
 * @param {{ maxBlockSize?: number }} [options]
 */
export async function readBlockAt (input, offset, options) {
  const source = await open(input)
  try {
    return await core.readBlockAt(source, offset, options)
  } finally {
    await source.close()
  }
}

/**
 * @param {NodeCarInput} input
 * @param {Parameters<typeof core.canonicalizeCar>[1]} [options]
 * @returns {{ out: AsyncIterable<Uint8Array>, summary: Promise<Summary> }}
 */
export function canonicalizeCar (input, options = {}) {
  verifyStages().checkVerifyOptions('canonicalizeCar', options) // before the file is opened
  if (typeof input !== 'string' && !(input instanceof URL)) return core.canonicalizeCar(input, options)
  const opened = open(input)
  const run = opened.then((source) => core.canonicalizeCar(source, options))
  const summary = run.then((r) => r.summary) // the run closes the file
  summary.catch(() => {})
  return {
    summary,
    out: (async function * () { yield * (await run).out })()
  }
}

/**
 * @param {NodeCarInput} input
 * @param {Parameters<typeof core.checkRepo>[1]} [options]
 */
export async function checkRepo (input, options) {
  return core.checkRepo(await open(input), options)
}
