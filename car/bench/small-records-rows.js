// One row of bench/small-records.js, in its own process: the CAR is read into memory and the row's
// modules imported before the clock starts; then one pass over every block, timed; printed as one
// JSON line (milliseconds of wall and of CPU time, blocks, a checksum of what was handed out, peak RSS).
//
// Usage: node bench/small-records-rows.js ROW FILE
//   atcute-view          @atcute/car fromUint8Array: zero-copy views, CIDs as @atcute/cid objects, no hash checked
//   atcute-createhash    the same, each block hashed with node:crypto's createHash('sha256') and compared with its CID
//   floor                @atcute/car's section walk and crypto.hash('sha256', bytes, 'binary') of each block, nothing else
//   ipld-buffer-reader   @ipld/car CarBufferReader.fromBytes + blocks() (no hash checked)
//   ipld-iterator        @ipld/car CarBlockIterator.fromBytes (no hash checked)
//   buffer-reader        ours: CarBufferReader.fromBytes + blocks()
//   reader               ours: CarReader.fromBytes + blocks()
//   iterator             ours: CarBlockIterator.fromBytes
//   iterator-2           the same, workers: 2
//   verify               ours: verifyCar on the bytes (one thread)
//   verify-2             the same, workers: 2
//   iterator-views       ours: CarBlockIterator.fromBytes, verifyHashes: false, viewBytes: true
import fs from 'node:fs'

const [row, file] = process.argv.slice(2)
const bytes = new Uint8Array(fs.readFileSync(file))

/** @type {() => Promise<{ blocks: number, sum: number }>} one pass over every block */
let pass
if (row === 'atcute-view' || row === 'atcute-createhash' || row === 'floor') {
  const { fromUint8Array } = await import('@atcute/car')
  const crypto = await import('node:crypto')
  pass = async () => {
    let blocks = 0
    let sum = 0
    for (const entry of fromUint8Array(bytes)) {
      blocks++
      if (row === 'atcute-view') {
        sum += entry.bytes.length + entry.cid.digest.contents[0]
      } else if (row === 'floor') {
        // the digest as a latin1 string: the fastest form crypto.hash gives it in (no Buffer per block)
        sum += crypto.hash('sha256', entry.bytes, 'binary').charCodeAt(0)
      } else {
        // what a script checking its blocks writes: the digest compared with the CID's
        const digest = crypto.createHash('sha256').update(entry.bytes).digest()
        if (!digest.equals(entry.cid.digest.contents)) throw new Error(`block ${blocks} does not hash to its CID`)
        sum += digest[0]
      }
    }
    return { blocks, sum }
  }
} else if (row === 'ipld-buffer-reader') {
  const { CarBufferReader } = await import('@ipld/car/buffer-reader')
  pass = async () => {
    let blocks = 0
    let sum = 0
    for (const block of CarBufferReader.fromBytes(bytes).blocks()) { blocks++; sum += block.bytes.length + block.cid.multihash.digest[0] }
    return { blocks, sum }
  }
} else if (row === 'ipld-iterator') {
  const { CarBlockIterator } = await import('@ipld/car/iterator')
  pass = async () => {
    let blocks = 0
    let sum = 0
    for await (const block of await CarBlockIterator.fromBytes(bytes)) { blocks++; sum += block.bytes.length + block.cid.multihash.digest[0] }
    return { blocks, sum }
  }
} else {
  const library = await import('dag-cbor-car')
  /** @param {Iterable<any> | AsyncIterable<any>} blocksOf */
  const count = async (blocksOf) => {
    let blocks = 0
    let sum = 0
    for await (const block of blocksOf) { blocks++; sum += block.bytes.length + block.cid.multihash.digest[0] }
    return { blocks, sum }
  }
  if (row === 'buffer-reader') {
    pass = async () => {
      let blocks = 0
      let sum = 0
      for (const block of library.CarBufferReader.fromBytes(bytes).blocks()) { blocks++; sum += block.bytes.length + block.cid.multihash.digest[0] }
      return { blocks, sum }
    }
  } else if (row === 'reader') {
    pass = async () => count((await library.CarReader.fromBytes(bytes)).blocks())
  } else if (row === 'iterator' || row === 'iterator-2') {
    pass = async () => count(await library.CarBlockIterator.fromBytes(bytes, row === 'iterator-2' ? { workers: 2 } : {}))
  } else if (row === 'iterator-views') {
    pass = async () => count(await library.CarBlockIterator.fromBytes(bytes, { verifyHashes: false, viewBytes: true }))
  } else if (row === 'verify' || row === 'verify-2') {
    pass = async () => {
      const summary = await library.verifyCar(bytes, row === 'verify-2' ? { workers: 2 } : {})
      if (summary.result !== 'ok') throw new Error(`the bench CAR did not pass: ${summary.result}`)
      return { blocks: summary.blocks, sum: 0 }
    }
  } else {
    throw new Error(`unknown row ${row}`)
  }
}

const start = performance.now()
const cpuStart = process.cpuUsage()
const { blocks, sum } = await pass()
const ms = performance.now() - start
const cpu = process.cpuUsage(cpuStart)
if (blocks === 0) throw new Error('no blocks')
// cpuMs: the pass's CPU time, all threads (less swayed than the wall time by other processes' load)
console.log(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, blocks, sum, rss: process.resourceUsage().maxRSS * 1024 }))
process.exit(0)
