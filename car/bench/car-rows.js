// One measured row of bench/car-tool.js's throughput table, in its own process: the work, then
// this process's CPU time (user + system, all threads) and peak RSS as one JSON line. Each row
// imports only what it uses, as a script doing that work would (these rows are compared with one
// another, so none carries the start-up of modules another one needs).
//
// Usage: node bench/car-rows.js ROW FILE [WORKERS]
//   ours                 the tool's run (lib/node/run.js roundTrip), verify without output, WORKERS threads
//   library-verify       the package's verifyCar on the file's path (one thread)
//   library-iterate      the package's CarBlockIterator, hashes verified, WORKERS threads (default 1)
// The library rows import 'dag-cbor-car' as a script does: from the packed package installed in
// the project DAG_CBOR_CAR_FROM names (as car-tool.js runs them), or else from this checkout; both
// run the library's source modules.
//   ipld-verify          @ipld/car's CarBlockIterator, each block hashed with the multiformats hasher its CID names
//   iterate              @ipld/car's CarBlockIterator alone (the JS floor)
//   iterate-hash         the same, each block hashed as the tool hashes (node:crypto)
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const [row, file, workersText] = process.argv.slice(2)
const workers = workersText === undefined ? undefined : Number(workersText)
const from = process.env.DAG_CBOR_CAR_FROM
/** @returns {Promise<typeof import('../lib/node/node-library.js')>} the package as a script in that project (or this checkout) imports it */
const library = () => import(from ? pathToFileURL(createRequire(path.join(from, 'script.js')).resolve('dag-cbor-car')).href : 'dag-cbor-car')

if (row === 'ours') {
  const { roundTrip } = await import('../lib/node/run.js')
  const { openInput } = await import('../lib/node/input-source.js')
  const source = await openInput(file)
  const s = await roundTrip({ source, workers })
  await source.close()
  if (s.result !== 'ok') throw new Error(`the bench CAR did not pass: ${s.result}`)
} else if (row === 'library-verify') {
  // the library's verifyCar, as a script calls it: the file's path, one thread
  const { verifyCar } = await library()
  const s = await verifyCar(file)
  if (s.result !== 'ok') throw new Error(`the bench CAR did not pass: ${s.result}`)
} else if (row === 'library-iterate') {
  // the library's CarBlockIterator (hashes verified) as a script uses it: the file's path
  const { CarBlockIterator } = await library()
  let blocks = 0
  for await (const block of await CarBlockIterator.fromIterable(file, { workers })) blocks += block.offset >= 0 ? 1 : 0
  if (blocks === 0) throw new Error('no blocks')
} else if (row === 'ipld-verify') {
  // what scripts do today: @ipld/car's CarBlockIterator over a read stream, and each block hashed
  // with the multiformats hasher its CID names (sha2-256 from multiformats, blake2b-256 from
  // @multiformats/blake2) and compared with multiformats' equals
  const { CarBlockIterator } = await import('@ipld/car/iterator')
  const { equals } = await import('multiformats/bytes')
  const { sha256 } = await import('multiformats/hashes/sha2')
  const { blake2b256 } = await import('@multiformats/blake2/blake2b')
  const { identity } = await import('multiformats/hashes/identity')
  /** @type {Map<number, { digest: (bytes: Uint8Array) => any }>} */
  const hashers = new Map([[sha256.code, sha256], [blake2b256.code, blake2b256], [identity.code, identity]])
  const iterator = await CarBlockIterator.fromIterable(fs.createReadStream(file, { highWaterMark: 1 << 20 }))
  let bad = 0
  for await (const { cid, bytes } of iterator) {
    const hasher = hashers.get(cid.multihash.code)
    if (!hasher) throw new Error(`no hasher for ${cid}`)
    const digest = await hasher.digest(bytes)
    if (!equals(digest.digest, cid.multihash.digest)) bad++
  }
  if (bad) throw new Error(`${bad} blocks did not hash to their CIDs`)
} else if (row === 'iterate' || row === 'iterate-hash') {
  const { CarBlockIterator } = await import('@ipld/car/iterator')
  const { verifyBlock, loadHasher } = await import('../lib/core/check/hash.js')
  const hashing = row === 'iterate-hash'
  // the hashers load on demand in the tool (on-demand.js); blake2b-256 here, before the loop
  if (hashing) await loadHasher(0xb220)
  const iterator = await CarBlockIterator.fromIterable(fs.createReadStream(file, { highWaterMark: 1 << 20 }))
  let bad = 0
  for await (const { cid, bytes } of iterator) if (hashing && verifyBlock(cid, bytes) !== 'ok') bad++
  if (bad) throw new Error(`${bad} blocks did not hash to their CIDs`)
} else {
  throw new Error(`unknown row ${row}`)
}
const u = process.resourceUsage()
console.log(JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, rss: u.maxRSS * 1024 }))
process.exit(0)
