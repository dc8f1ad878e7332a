// The embedded default input: sample.car beside this file, 332 blocks of real shapes (atproto
// records under an MST-like chain, Filecoin-like headers and a HAMT under blake2b-256, raw blobs,
// one identity-hashed block) with planted blocks the tool must report. scripts/sample-car.js builds
// it from those shapes; the file is committed so that a run reads it rather than hashing and
// encoding it anew, and test/sample.spec.js holds it to the generator's output byte for byte.
import fs from 'node:fs'

/**
 * @typedef {object} SampleExpectation
 * @property {{ cid: string, kind: string }[]} problems the planted problems, which the run must report
 * @property {string[]} integralFloats blocks holding float64 integers (canonical; reported, not problems)
 */

/** @type {SampleExpectation} */
export const expected = {
  problems: [
    { cid: 'bafyreigldu6rq2rpih7zrvro6iv3wayvxwvp5o6kqhlidtxvtuakbpjcsm', kind: 'non-canonical' }, // a post record, keys in insertion order
    { cid: 'bafyreigws52ssuooruerhgmwd5vlbzycjmrlkrftnbifgtjnhmjxdlmia4', kind: 'non-canonical' } // a tuple with 42 as a 32-bit int
  ],
  integralFloats: ['bafyreibnqw6fj3prrjjr23iof2tiuhyohblw2tbnmv2pulqgnfoev5tie4'] // 1.0 and 2.0 as float64, as Go writes them
}

/** the number of blocks in sample.car */
export const SAMPLE_BLOCKS = 332

/**
 * The sample's bytes and what a check of them must report.
 *
 * @returns {{ bytes: Uint8Array, expected: SampleExpectation, blocks: number }}
 */
export function sampleCar () {
  return { bytes: fs.readFileSync(new URL('./sample.car', import.meta.url)), expected, blocks: SAMPLE_BLOCKS }
}
