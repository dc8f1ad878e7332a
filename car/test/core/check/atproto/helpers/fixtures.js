// Paths to the AT Protocol test data (car/test/fixtures/atproto/, sources in car/test/fixtures/README.md)
// and a way to run the checker on CAR bytes held in memory.
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { bytesSource } from '../../../../../lib/node/input-source.js'
import { readBlocks } from '../../../../../lib/core/check/atproto/repo-blocks.js'
import { checkRepo } from '../../../../../lib/core/check/atproto/repo-walk.js'
import { parseDidKey } from '../../../../../lib/core/check/atproto/did-key.js'

/** @param {string} name */
export const fixture = (name) => fileURLToPath(new URL(`../../../../fixtures/atproto/${name}`, import.meta.url))

/** @param {string} name */
export const fixtureJson = (name) => JSON.parse(fs.readFileSync(fixture(name), 'utf8'))

/** Non-empty lines that are not comments. @param {string} name */
export const fixtureLines = (name) => fs.readFileSync(fixture(name), 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'))

/**
 * @param {Uint8Array} car
 * @param {{ did?: string, records?: boolean, lexicons?: import('dag-cbor-fast/lexicon').Lexicons }} [options] did: a did:key to check the
 *   signature with; lexicons: compiled documents to check the records against
 */
export async function check (car, { did, records = true, lexicons } = {}) {
  const store = await readBlocks(bytesSource('test.car', car))
  /** @type {import('../../../../../lib/core/check/atproto/mst-walk.js').Entry[]} */
  const entries = []
  const summary = await checkRepo(store, {
    input: 'test.car',
    records,
    key: did ? { key: parseDidKey(did), did: null } : null,
    lexicons,
    onRecord: (entry) => { entries.push(entry) }
  })
  return { summary, entries, rules: summary.faults.map((f) => f.rule) }
}
