// Readers for the read-only data in ../shared (beside the repo). Never copied into the repo;
// a missing file throws, so tests that need it fail loudly instead of skipping.
import fs from 'node:fs'
import { CarReader } from '@ipld/car'

const sharedUrl = new URL('../../../shared/', import.meta.url)

/**
 * @param {string} relative - path under ../shared
 * @returns {URL}
 */
export function sharedPath (relative) {
  const url = new URL(relative, sharedUrl)
  if (!fs.existsSync(url)) {
    throw new Error(`shared test data missing: ${url.pathname} (expected ../shared beside the repo; see ../shared/README.md)`)
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
  const root = sharedPath('fixtures/codec-fixtures/')
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
  const root = sharedPath('fixtures/codec-fixtures-negative/dag-cbor/decode/')
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
 * Every block of a CAR in ../shared/data, in file order.
 *
 * @param {string} file
 * @returns {Promise<Block[]>}
 */
export async function loadCar (file) {
  const reader = await CarReader.fromBytes(new Uint8Array(fs.readFileSync(sharedPath(`data/${file}`))))
  /** @type {Block[]} */
  const blocks = []
  for await (const { cid, bytes } of reader.blocks()) blocks.push({ cid, bytes })
  return blocks
}
