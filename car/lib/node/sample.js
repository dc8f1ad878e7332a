// The embedded default input: sample.car beside this file, 332 blocks of real shapes (atproto
// records under an MST-like chain, Filecoin-like headers and a HAMT under blake2b-256, raw blobs,
// one identity-hashed block) with planted blocks the tool must report, which sample.json names.
// scripts/sample-car.js builds both from those shapes (committed; test/node/sample.spec.js holds them current),
// so that a run reads them rather than hashing and encoding the sample anew.
import fs from 'node:fs'

/**
 * @typedef {object} SampleExpectation
 * @property {{ cid: string, kind: string }[]} problems the planted problems, which the run must report
 * @property {string[]} integralFloats blocks holding float64 integers (canonical; reported, not problems)
 * @property {string} [why] why the sample runs (set by the command, not read from sample.json)
 */

/**
 * The sample's bytes and what a check of them must report.
 *
 * @returns {{ bytes: Uint8Array, expected: SampleExpectation, blocks: number }}
 */
export function sampleCar () {
  const { blocks, expected } = JSON.parse(fs.readFileSync(new URL('./sample.json', import.meta.url), 'utf8'))
  return { bytes: fs.readFileSync(new URL('./sample.car', import.meta.url)), expected, blocks }
}
