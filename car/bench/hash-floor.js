// The floor under any iterator that hashes every block of a CAR on this machine: the blocks' bytes
// read by position in batches of about 1 MiB and each block hashed (node:crypto's sha2-256, as the
// Node entry hashes), on THREADS threads (this one and THREADS - 1 workers) that take the next
// batch from one shared counter, so neither waits while the other has work. Nothing else: no
// section parsing (the blocks' places come from a layout file written before the run), no CIDs,
// no copies, no order, no comparison with the CIDs' digests. An iterator that also does those
// takes longer; bench/car-tool.js prints this row beside @ipld/car's to show how far 2x can go.
//
// With `copy`, each block is also copied into an array of its own (the default iterator's owned
// bytes), in the thread that hashed it, and dropped: still less than an iterator does, which must
// hand the copies to the caller's thread.
//
// Usage: node bench/hash-floor.js CAR LAYOUT [THREADS] [copy]
// LAYOUT: what writeLayout wrote, each block's [start, end) in the file as two little-endian
// uint32 (CARs under 4 GiB).
import fs from 'node:fs'
import crypto from 'node:crypto'
import { Worker, isMainThread, workerData } from 'node:worker_threads'

const BATCH_BYTES = 1 << 20

/**
 * Each block's place in `file`, for the floor row: [start, end) of its bytes.
 *
 * @param {AsyncIterable<{ offset: number, bytes: Uint8Array, cid: { bytes: Uint8Array } }>} blocks
 *   the CAR's blocks, each with its section's offset
 * @param {string} layout the file to write
 */
export async function writeLayout (blocks, layout) {
  /** @type {number[]} */
  const places = []
  for await (const { offset, bytes, cid } of blocks) {
    const sectionLength = cid.bytes.length + bytes.length
    let varintLength = 1
    for (let n = sectionLength; n >= 0x80; n = Math.floor(n / 0x80)) varintLength++
    const start = offset + varintLength + cid.bytes.length
    places.push(start, start + bytes.length)
  }
  if (places.length && places[places.length - 1] >= 2 ** 32) throw new Error('the layout holds offsets under 4 GiB only')
  fs.writeFileSync(layout, new Uint32Array(places))
}

/**
 * The batches: each a run of whole blocks whose bytes (and what lies between them) span at most
 * BATCH_BYTES, or one larger block alone. Returns the index of each batch's first block, and the
 * block count at the end.
 *
 * @param {Uint32Array} places
 */
function batchStarts (places) {
  const starts = [0]
  const blocks = places.length / 2
  let first = 0
  for (let i = 1; i < blocks; i++) {
    if (places[2 * i + 1] - places[2 * first] > BATCH_BYTES) {
      starts.push(i)
      first = i
    }
  }
  starts.push(blocks)
  return Uint32Array.from(starts)
}

/**
 * Take batches from the shared counter and hash their blocks until none is left.
 *
 * @param {string} file
 * @param {Uint32Array} places
 * @param {Uint32Array} starts
 * @param {Int32Array} next the shared counter: the next batch to take
 * @param {boolean} copy each block also copied into an array of its own
 * @returns {number} a value of the digests, so that the hashing cannot be left out
 */
function hashBatches (file, places, starts, next, copy) {
  const fd = fs.openSync(file, 'r')
  let buffer = Buffer.allocUnsafeSlow(BATCH_BYTES)
  let sum = 0
  try {
    for (let b = Atomics.add(next, 0, 1); b < starts.length - 1; b = Atomics.add(next, 0, 1)) {
      const first = starts[b]
      const end = starts[b + 1]
      const from = places[2 * first]
      const length = places[2 * end - 1] - from
      if (length > buffer.length) buffer = Buffer.allocUnsafeSlow(length)
      for (let got = 0; got < length;) {
        const n = fs.readSync(fd, buffer, got, length - got, from + got)
        if (n === 0) throw new Error(`${file} ends before byte ${from + length}`)
        got += n
      }
      for (let i = first; i < end; i++) {
        const block = buffer.subarray(places[2 * i] - from, places[2 * i + 1] - from)
        sum += crypto.hash('sha256', block, 'binary').charCodeAt(0)
        if (copy) {
          const own = new Uint8Array(Buffer.allocUnsafeSlow(block.length).buffer)
          own.set(block)
          sum += own.length
        }
      }
    }
  } finally {
    fs.closeSync(fd)
  }
  return sum
}

if (isMainThread && process.argv[1] && new URL(import.meta.url).pathname === fs.realpathSync(process.argv[1])) {
  const [file, layout, threadsText = '2', copyText] = process.argv.slice(2)
  const threads = Number(threadsText)
  const copy = copyText === 'copy'
  const raw = fs.readFileSync(layout)
  const places = new Uint32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4)
  const starts = batchStarts(places)
  const next = new Int32Array(new SharedArrayBuffer(4))
  const workers = Array.from({ length: threads - 1 }, () => new Worker(new URL(import.meta.url), { workerData: { file, places, starts, next, copy } }))
  const done = workers.map((w) => new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject) }))
  let sum = hashBatches(file, places, starts, next, copy)
  for (const s of await Promise.all(done)) sum += /** @type {number} */ (s)
  const u = process.resourceUsage()
  console.log(JSON.stringify({ sum, cpu: (u.userCPUTime + u.systemCPUTime) / 1e6, rss: u.maxRSS * 1024 }))
  process.exit(0)
} else if (!isMainThread) {
  const { parentPort } = await import('node:worker_threads')
  parentPort?.postMessage(hashBatches(workerData.file, workerData.places, workerData.starts, workerData.next, workerData.copy))
}
