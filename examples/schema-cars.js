#!/usr/bin/env node
// Typed codecs on real data: every Filecoin block header of the CARs the tests use, and
// every commit and MST node of the AT Protocol repo CARs, read through dag-cbor-fast/schema and
// written back byte for byte.
//   node examples/schema-cars.js
// A block is taken to be a header, commit or MST node by its generic shape (a list of 16 items with
// links where a header's Parents and state roots are; a map with did, sig, data and version; a map
// of exactly e and l); each must then be read by its typed codec, or the example fails.
import { readFileSync } from 'node:fs'
import { CarReader } from '@ipld/car'
import { fromDSL } from '@ipld/schema/from-dsl.js'
import { decode } from 'dag-cbor-fast'
import { compile } from 'dag-cbor-fast/schema'
import { filecoinSchema } from './schemas/filecoin.js'
import { atprotoSchema } from './schemas/atproto.js'

const BlockHeader = compile(filecoinSchema, 'BlockHeader', { fromDSL })
const atproto = fromDSL(atprotoSchema)
const Commit = compile(atproto, 'Commit')
const MSTNode = compile(atproto, 'MSTNode')

/**
 * @param {string} file - relative to the repository
 * @param {(value: any) => ReturnType<typeof compile> | null} pick - the typed codec for a block of this generic value, or null
 */
async function readCar (file, pick) {
  const reader = await CarReader.fromBytes(readFileSync(new URL(`../${file}`, import.meta.url)))
  /** @type {Record<string, number>} */
  const read = {}
  for await (const { cid, bytes } of reader.blocks()) {
    if (cid.code !== 0x71) continue
    let generic
    try { generic = decode(bytes) } catch { continue } // not strict DAG-CBOR: not ours to type
    const codec = pick(generic)
    if (codec === null) continue
    const value = codec.decode(bytes) // throws with the rule, offset and type path if it does not fit
    const again = codec.encode(value)
    if (again.length !== bytes.length || again.some((b, i) => b !== bytes[i])) throw new Error(`${file}: ${cid}: typed encode does not write the block back`)
    read[codec.name] = (read[codec.name] ?? 0) + 1
    if (read[codec.name] === 1) console.log(`${file}: first ${codec.name} (${cid}):`, summary(value))
  }
  console.log(`${file}: read and written back ${Object.entries(read).map(([k, n]) => `${n} ${k}`).join(', ') || 'nothing'}`)
  return read
}

/** @param {any} value */
function summary (value) {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v instanceof Uint8Array ? `<${v.length} bytes>` : Array.isArray(v) ? `[${v.length} items]` : v !== null && typeof v === 'object' && v.asCID !== v ? '{...}' : String(v)]))
}

const isCid = (/** @type {any} */ x) => x !== null && typeof x === 'object' && x.asCID === x
// 16 items with Parents (a list of links) and the three state links where a header has them
const isHeader = (/** @type {any} */ v) => Array.isArray(v) && v.length === 16 && Array.isArray(v[5]) && v[5].every(isCid) && isCid(v[8]) && isCid(v[9]) && isCid(v[10]) ? BlockHeader : null
const isRepoBlock = (/** @type {any} */ v) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null
  const keys = Object.keys(v).sort().join(',')
  if (keys === 'e,l') return MSTNode
  return 'did' in v && 'sig' in v && 'data' in v && 'version' in v ? Commit : null
}

const headers = (await readCar('test/fixtures/cars/filecoin-calibnet-genesis.car', isHeader)).BlockHeader ?? 0
await readCar('test/fixtures/cars/filecoin-sample-v1.car', isHeader)
await readCar('car/test/fixtures/genesis-slice-v2.car', isHeader)
const repo = await readCar('car/test/fixtures/atproto/repo-small-v2.car', isRepoBlock)
await readCar('car/test/fixtures/atproto/repo-slice-v2.car', isRepoBlock)
if (headers === 0 || !repo.Commit || !repo.MSTNode) throw new Error('expected block headers, a commit and MST nodes')
