// canonicalizeCar: verify with the output the CLI's `verify --out X --canonicalize` writes, held in
// memory. A file apart from verify-car.js, so that a plain verify loads neither the in-memory output
// nor the encoder its frames use.
import { openSource } from '../read/source.js'
import { memoryTarget } from '../write/memory-target.js'
import { ToolError } from '../base/errors.js'
import { checkVerifyOptions, runVerify } from './verify-car.js'

/**
 * @typedef {import('../read/source.js').CarInput} CarInput
 * @typedef {import('./verify-car.js').VerifyOptions} VerifyOptions
 * @typedef {import('../report/summary.js').Summary} Summary
 */

/**
 * The same bytes the CLI's `verify --out X --canonicalize` writes: non-canonical DAG-CBOR blocks in
 * canonical form, the blocks linking to them (and the roots) relinked up the DAG. The output is
 * held in memory until the run has checked it all; `out` gives it then (or rejects as `summary` does).
 *
 * @param {CarInput} input a Blob, File, Uint8Array or ArrayBuffer (read more than once)
 * @param {Omit<VerifyOptions, 'onBlock'> & { outName?: string }} [options]
 * @returns {{ out: AsyncIterable<Uint8Array>, summary: Promise<Summary> }}
 */
export function canonicalizeCar (input, options = {}) {
  checkVerifyOptions('canonicalizeCar', options)
  const source = openSource(input, { name: options.name })
  if (!source.seekable) throw new TypeError('canonicalizeCar needs an input it can read more than once: a Blob, a File or bytes')
  const target = memoryTarget(options.outName ?? 'canonicalized.car')
  const { onBlock, ...rest } = /** @type {VerifyOptions} */ (options)
  const summary = runVerify(source, rest, { output: target, canonicalize: true })
  summary.catch(() => {}) // handled by whoever awaits summary or reads out
  return {
    summary,
    out: (async function * () {
      const s = await summary
      if (s.output?.written === false) throw new ToolError(`nothing was written: the run did not pass (result ${s.result}; the summary lists its problems)`)
      yield * target.chunks()
    })()
  }
}
