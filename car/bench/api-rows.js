// One row of bench/api.js, in its own process: @ipld/car's reading API, or this package's drop-in
// for it, over one CAR file; prints the work's wall time and the process's peak RSS as one JSON line.
//
// Usage: node bench/api-rows.js ROW FILE
//   {ipld,ipld-hash,ours}-reader    CarReader.fromBytes(the file's bytes), then get() of every CID
//   {ipld,ipld-hash,ours}-indexed   CarIndexedReader.fromFile(FILE), then get() of every CID
//   {ipld,ours}-indexer             CarIndexer.fromIterable(a read stream of FILE), every entry
// ipld-hash rows hash each block got with the multiformats hasher its CID names (what scripts do
// today); ours check every block against its CID themselves.
import fs from 'node:fs'

const [row, file] = process.argv.slice(2)
const [lib, kind] = row.startsWith('ipld-hash-') ? ['ipld-hash', row.slice(10)] : row.split('-')
const ours = lib === 'ours'
const api = ours ? await import('dag-cbor-car') : null

/** The CIDs in the CAR, in order (read before the clock starts). */
async function cidsOf () {
  const { CarCIDIterator } = await import('@ipld/car/iterator')
  const cids = []
  for await (const cid of await CarCIDIterator.fromIterable(fs.createReadStream(file, { highWaterMark: 1 << 20 }))) cids.push(cid)
  return cids
}

/** @type {(cid: any, bytes: Uint8Array) => Promise<boolean>} */
let check = async () => true
if (lib === 'ipld-hash') {
  const { equals } = await import('multiformats/bytes')
  const { sha256 } = await import('multiformats/hashes/sha2')
  const { blake2b256 } = await import('@multiformats/blake2/blake2b')
  const { identity } = await import('multiformats/hashes/identity')
  const hashers = new Map([[sha256.code, sha256], [blake2b256.code, blake2b256], [identity.code, identity]])
  check = async (cid, bytes) => {
    const hasher = /** @type {any} */ (hashers.get(cid.multihash.code))
    return equals((await hasher.digest(bytes)).digest, cid.multihash.digest)
  }
}

let count = 0
let bad = 0
const cids = kind === 'indexer' ? [] : await cidsOf()
const start = performance.now()
if (kind === 'reader') {
  const { CarReader } = ours ? /** @type {any} */ (api) : await import('@ipld/car/reader')
  const reader = await CarReader.fromBytes(fs.readFileSync(file))
  for (const cid of cids) {
    const block = await reader.get(cid)
    if (!block || !(await check(cid, block.bytes))) bad++
    count++
  }
} else if (kind === 'indexed') {
  const { CarIndexedReader } = ours ? /** @type {any} */ (api) : await import('@ipld/car/indexed-reader')
  const reader = await CarIndexedReader.fromFile(file)
  for (const cid of cids) {
    const block = await reader.get(cid)
    if (!block || !(await check(cid, block.bytes))) bad++
    count++
  }
  await reader.close()
} else if (kind === 'indexer') {
  const { CarIndexer } = ours ? /** @type {any} */ (api) : await import('@ipld/car/indexer')
  const indexer = await CarIndexer.fromIterable(fs.createReadStream(file, { highWaterMark: 1 << 20 }))
  for await (const entry of indexer) count += entry.blockLength > 0 ? 1 : 0
} else {
  throw new Error(`unknown row ${row}`)
}
const seconds = (performance.now() - start) / 1000
if (bad) throw new Error(`${bad} blocks missing or not hashing to their CIDs`)
if (count === 0) throw new Error('no blocks')
console.log(JSON.stringify({ seconds, blocks: count, rss: process.resourceUsage().maxRSS * 1024 }))
process.exit(0)
