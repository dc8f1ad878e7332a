// The page's Web Worker: runs the core's checks on the File the page hands over, streaming it in
// bounded memory (the File is read slice by slice, never whole), and answers the page's requests.
// Messages in: { type: 'verify', file, relaxed, partial } | { type: 'block', id, offset }
//   | { type: 'repo', id, key } | { type: 'canonicalize', id }
// Messages out: 'progress', 'blocks' (a BlockBatch, transferred), 'summary', 'reach', 'error',
// and one 'reply' per request ({ id, ok, value | error }).
import { verifyCar, readBlockAt, blockToJson, checkRepo, canonicalizeCar } from '../lib/core/index.js'
import { CID } from 'multiformats/cid'
import { decode } from 'dag-cbor-fast'
import { DagIndex } from '../lib/core/graph/dag-index.js'
import { grow } from '../lib/core/graph/cid-table.js'
import { BatchBuilder, statusCode } from './block-table.js'
import { problemsFound } from '../lib/core/report/summary.js'

const BATCH = 16384
const PROGRESS_MS = 100
/** records listed to the page (all are checked) */
const MAX_RECORDS = 100_000

/** @type {File | null} the File being looked at (a reference: the worker reads it by slices) */
let file = null
/** @type {{ relaxed: boolean, partial: boolean }} */
let options = { relaxed: false, partial: false }

/** @param {any} message @param {Transferable[]} [transfer] */
function post (message, transfer) {
  /** @type {any} */ (self).postMessage(message, transfer ?? [])
}

/** @param {unknown} err */
function messageOf (err) {
  return err instanceof Error ? err.message : String(err)
}

/**
 * Runs the checks, and indexes every block's links as it goes (DagIndex: typed arrays, no object
 * per block), for reachability from the roots once the summary is in.
 *
 * @param {File} input
 */
async function verify (input) {
  const started = performance.now()
  const batch = new BatchBuilder(BATCH)
  const index = new DagIndex()
  /** per block: its DagIndex id (a duplicate: the first copy's) */
  let ids = new Int32Array(1024)
  let lastPost = 0
  let blocks = 0
  let bytes = 0
  const flush = () => {
    if (batch.count === 0) return
    const { batch: b, transfer } = batch.take()
    post({ type: 'blocks', batch: b }, transfer)
  }
  const progress = (/** @type {boolean} */ force) => {
    const now = performance.now()
    if (!force && now - lastPost < PROGRESS_MS) return
    lastPost = now
    flush()
    const seconds = (now - started) / 1000
    post({ type: 'progress', blocks, bytes, total: input.size, seconds })
  }
  const summary = await verifyCar(input.stream(), {
    name: input.name,
    relaxed: options.relaxed,
    partial: options.partial,
    onProgress (/** @type {number} */ b, /** @type {number} */ n) {
      blocks = b
      bytes = n
      progress(false)
    },
    onBlock (/** @type {import('../lib/core/index.js').BlockInfo} */ info) {
      const cid = info.cidBytes
      batch.add(info.offset, info.length, info.codec, info.hash, statusCode(info.status), cid)
      if (batch.full) flush()
      let id = index.addBlock(cid, info.offset, info.length, info.codec, info.bytes)
      if (id < 0) id = index.cids.find(cid, 0, cid.length)
      if (info.index >= ids.length) ids = grow(ids, info.index + 1)
      ids[info.index] = id
    }
  })
  bytes = input.size
  progress(true)
  const seconds = (performance.now() - started) / 1000
  post({ type: 'summary', summary, seconds, mbPerSec: input.size / 1e6 / seconds, offersCopy: offersCopy(summary) })
  reach(index, ids.subarray(0, summary.blocks), summary.roots)
}

/**
 * Whether `verify --out --canonicalize` writes a copy, and one that differs from the file: the run
 * read the CAR to its end, its only problems are non-canonical DAG-CBOR blocks (as resultOf's
 * 'fixed' asks; a hash mismatch, an invalid block or a missing root fails it), there is at least
 * one, and each has a canonical form (the summary's noCanonicalForm, which the CLI's FAIL line also
 * reads: text that is not valid UTF-8 has none). Their parents are relinked: a parent that cannot
 * be (its hash mismatched or unknown) is a problem the first condition excludes.
 *
 * @param {import('../lib/core/index.js').Summary} s
 */
function offersCopy (s) {
  const d = s.dagCbor
  const failing = d.nonCanonical - (s.relaxed ? d.lossless : 0) // the ones --relaxed does not accept
  return !s.error && d.nonCanonical > 0 && d.noCanonicalForm === 0 && problemsFound(s) === failing
}

/**
 * Reachability from the roots over the links indexed during the check, counted as `inspect` counts
 * it: distinct blocks (a CID held twice is one block, and one duplicate), and link targets the CAR
 * does not hold (links, and distinct blocks). Per block, whether it is reached, for the list.
 *
 * @param {DagIndex} index
 * @param {Int32Array} ids per block, its DagIndex id
 * @param {string[]} roots
 */
function reach (index, ids, roots) {
  // the CIDs of blocks and link targets; a root that is neither is added after (the summary's missingRoots)
  const linked = index.size
  const rootIds = roots.map((r) => { const bytes = CID.parse(r).bytes; return index.cids.add(bytes, 0, bytes.length) })
  const seen = index.reach(rootIds)
  const reached = new Uint8Array(ids.length)
  for (let i = 0; i < ids.length; i++) reached[i] = seen[ids[i]]
  let reachable = 0
  let missingBlocks = 0
  let missingReached = 0
  /** @type {string[]} */
  const examples = []
  for (let id = 0; id < linked; id++) {
    if (index.has(id)) {
      reachable += seen[id]
      continue
    }
    missingBlocks++
    if (seen[id]) missingReached++
    if (examples.length < 20) examples.push(cidText(index.cids.bytesOf(id)))
  }
  let missingLinks = 0
  for (let e = 0; e < index.edgeTotal; e++) if (!index.has(index.edges[e])) missingLinks++
  post({
    type: 'reach',
    reached,
    blocks: index.blocks,
    duplicates: index.duplicates,
    reachable,
    orphans: index.blocks - reachable,
    missingLinks,
    missingBlocks,
    missingReachable: missingReached,
    missingExamples: examples,
    linksNotRead: index.linksNotRead
  }, [reached.buffer])
}

/** @param {Uint8Array} bytes */
function cidText (bytes) {
  return CID.decode(bytes.slice()).toString()
}

/**
 * Does the block at `offset` look like an AT Protocol commit (a DAG-CBOR map with did, version
 * and data)? The repo check itself says whether it is a good one.
 *
 * @param {number} offset the root's section offset; -1: the root is not in the CAR
 */
async function rootIsCommit (offset) {
  if (!file || !(offset >= 0)) return false
  const block = await readBlockAt(file, offset)
  if (block.cid.code !== 0x71) return false
  let value
  try {
    value = decode(block.bytes, { relaxed: true })
  } catch {
    return false
  }
  return value !== null && typeof value === 'object' && typeof value.did === 'string' &&
    typeof value.version === 'number' && CID.asCID(value.data) !== null
}

/** @param {any} message */
async function answer (message) {
  if (!file) throw new Error('no file is loaded')
  switch (message.type) {
    case 'block': {
      const block = await readBlockAt(file, message.offset)
      const view = blockToJson(block.cid, block.bytes, { relaxed: true })
      return { cid: block.cid.toString(), offset: block.offset, size: block.bytes.length, ...view }
    }
    case 'repo': {
      // checkRepo reads the whole CAR into memory: only for a CAR whose root is a commit
      if (!(await rootIsCommit(message.rootOffset))) return { report: null, records: [] }
      const key = typeof message.key === 'string' ? message.key.trim() : ''
      /** @type {{ didKey?: string, didDocument?: object }} */
      const keyOptions = {}
      if (key.startsWith('{')) {
        try {
          keyOptions.didDocument = JSON.parse(key)
        } catch (err) {
          throw new Error(`the DID document is not JSON: ${messageOf(err)}`)
        }
      } else if (key) {
        keyOptions.didKey = key
      }
      /** @type {{ path: string, collection: string, rkey: string, cid: string }[]} */
      const records = []
      const report = await checkRepo(file, {
        ...keyOptions,
        onRecord (/** @type {any} */ entry) {
          if (records.length < MAX_RECORDS) records.push({ path: entry.path, collection: entry.collection, rkey: entry.rkey, cid: String(entry.value) })
        }
      })
      return { report, records }
    }
    case 'canonicalize': {
      const { out, summary } = canonicalizeCar(file, { relaxed: options.relaxed, partial: options.partial })
      // gathered into Blobs every few megabytes: the browser keeps Blob data out of the JS heap
      // (and large Blobs on disk), so the copy is not held as chunks here
      /** @type {Blob[]} */
      const blobs = []
      /** @type {Uint8Array[]} */
      let parts = []
      let held = 0
      for await (const chunk of out) {
        parts.push(chunk.slice())
        held += chunk.length
        if (held >= 8 * 1024 * 1024) {
          blobs.push(new Blob(/** @type {BlobPart[]} */ (parts)))
          parts = []
          held = 0
        }
      }
      blobs.push(new Blob(/** @type {BlobPart[]} */ (parts)))
      const blob = new Blob(blobs, { type: 'application/vnd.ipld.car' })
      return { blob, summary: await summary }
    }
    default:
      throw new Error(`unknown request ${JSON.stringify(message.type)}`)
  }
}

self.onmessage = async (event) => {
  const message = event.data
  if (message.type === 'verify') {
    file = message.file
    options = { relaxed: Boolean(message.relaxed), partial: Boolean(message.partial) }
    try {
      await verify(/** @type {File} */ (file))
    } catch (err) {
      // a CAR that cannot be read to its end: the summary of what was read, with the error and its
      // offset; a file whose header could not be read (not a CAR) gets the error alone, not the
      // summary of an empty run
      const summary = /** @type {any} */ (err)?.summary
      if (summary && summary.version > 0) post({ type: 'summary', summary, seconds: summary.seconds, mbPerSec: summary.mbPerSec })
      post({ type: 'error', message: messageOf(err) })
    }
    return
  }
  try {
    post({ type: 'reply', id: message.id, ok: true, value: await answer(message) })
  } catch (err) {
    post({ type: 'reply', id: message.id, ok: false, error: messageOf(err) })
  }
}
