// Readers for the test data in test/fixtures/ (copied from the project's shared data; each file's
// source and licence are in test/fixtures/README.md). A missing file throws, so tests that need it
// fail loudly instead of skipping.
import fs from 'node:fs'
import { CarReader } from '@ipld/car'

const fixturesUrl = new URL('../fixtures/', import.meta.url)

/**
 * @param {string} relative - path under test/fixtures/
 * @returns {URL}
 */
export function fixturePath (relative) {
  const url = new URL(relative, fixturesUrl)
  if (!fs.existsSync(url)) {
    throw new Error(`test data missing: ${url.pathname} (see test/fixtures/README.md)`)
  }
  return url
}

/**
 * @typedef {{ name: string, cidString: string, cbor: Uint8Array, json: Uint8Array | null }} Fixture
 */

/**
 * The positive codec-fixtures: one .dag-cbor per directory (named by its CID) and its
 * .dag-json twin where the suite has one. Sorted by directory name.
 *
 * @returns {Fixture[]}
 */
export function loadFixtures () {
  const root = fixturePath('codec-fixtures/')
  return fs.readdirSync(root).sort().map((name) => {
    const dir = new URL(`${encodeURIComponent(name)}/`, root)
    const files = fs.readdirSync(dir)
    const cborFiles = files.filter((f) => f.endsWith('.dag-cbor'))
    const jsonFiles = files.filter((f) => f.endsWith('.dag-json'))
    if (cborFiles.length !== 1 || jsonFiles.length > 1) throw new Error(`unexpected fixture layout in ${name}: ${files}`)
    return {
      name,
      cidString: cborFiles[0].slice(0, -'.dag-cbor'.length),
      cbor: new Uint8Array(fs.readFileSync(new URL(cborFiles[0], dir))),
      json: jsonFiles.length ? new Uint8Array(fs.readFileSync(new URL(jsonFiles[0], dir))) : null
    }
  })
}

/**
 * The negative DAG-CBOR decode fixtures, flattened: each file holds an array of cases.
 *
 * @returns {Array<{ file: string, name: string, hex: string, error: string }>}
 */
export function loadNegativeFixtures () {
  const root = fixturePath('codec-fixtures-negative/dag-cbor/decode/')
  const cases = []
  for (const file of fs.readdirSync(root).filter((f) => f.endsWith('.json')).sort()) {
    for (const entry of JSON.parse(fs.readFileSync(new URL(file, root), 'utf8'))) cases.push({ file, ...entry })
  }
  return cases
}

/**
 * @typedef {{ cid: import('multiformats/cid').CID, bytes: Uint8Array }} Block
 */

/**
 * Every block of a CAR in test/fixtures/cars/, in file order.
 *
 * @param {string} file
 * @returns {Promise<Block[]>}
 */
export async function loadCar (file) {
  const reader = await CarReader.fromBytes(new Uint8Array(fs.readFileSync(fixturePath(`cars/${file}`))))
  /** @type {Block[]} */
  const blocks = []
  for await (const { cid, bytes } of reader.blocks()) blocks.push({ cid, bytes })
  return blocks
}
