// Check a repo CAR from its commit down: the commit (and its signature, given a key), the MST, and
// (unless only listing) every record. Faults go to `onFault` as they are found, records to
// `onRecord` in MST order; the result is a summary of what was checked and what was missing.
import * as codec from 'dag-cbor-fast'
import { verifyBlock, hashName } from '../hash.js'
import { describeError } from '../classify.js'
import { parseCommit } from './commit.js'
import { unblessed } from './blessed-cids.js'
import { walkMst } from './mst-walk.js'
import { dataModelFaults } from './data-model.js'
import { blockKey } from './repo-blocks.js'
import { lexiconChecker } from './lexicon-check.js'
import { nonMinimalVarints } from '../car-checks.js'

const DAG_CBOR = 0x71
/** Faults kept in the summary; more are counted (by rule) but not kept. */
export const MAX_KEPT_FAULTS = 1000
/** Rules that say a block is absent rather than wrong: a CAR with only these is incomplete. */
const MISSING_RULES = new Set(['commit-missing', 'mst-node-missing', 'record-missing'])

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {import('./mst-walk.js').Fault} Fault
 * @typedef {import('./mst-walk.js').Entry} Entry
 * @typedef {object} RepoSummary
 * @property {string} input
 * @property {{ version: number, blocks: number, distinct: number, roots: string[] }} car
 * @property {{ cid: string, version: number | null, did: string | null, rev: string | null, data: string | null, prev: string | null } | null} commit
 * @property {{ checked: false } | { checked: true, valid: boolean, key: string, did: string | null }} signature
 * @property {{ nodes: number, height: number | null, empty: boolean }} mst
 * @property {{ count: number, checked: boolean, byCollection: Record<string, number>, invalidPaths: number }} records
 * @property {{ nodes: { cid: string, from: string | null, range: string }[], records: { key: string, cid: string, node: string }[], commit: string | null }} missing
 * @property {number | null} unreached distinct blocks the walk did not reach (null when records were not read)
 * @property {Fault[]} faults the first MAX_KEPT_FAULTS
 * @property {number} faultCount
 * @property {Record<string, number>} faultsByRule
 * @property {'ok' | 'incomplete' | 'faults'} result
 * @property {import('./lexicon-check.js').LexiconSummary} [lexicons] the check against the Lexicons given (only when given)
 */

/**
 * @param {import('./repo-blocks.js').BlockStore} store
 * @param {object} options
 * @param {string} options.input the input's name, for the summary
 * @param {boolean} options.records read and check every record (verify, export), or the MST only (ls)
 * @param {{ key: import('./did-key.js').PublicKey, did: string | null } | null} options.key the signing key, and the DID its document named
 * @param {(fault: Fault) => void} [options.onFault]
 * @param {(entry: Entry, record: { value: unknown, ok: boolean } | null) => void | Promise<void>} [options.onRecord] record: null when not read
 * @param {import('dag-cbor-fast/lexicon').Lexicons} [options.lexicons] compiled Lexicon documents: each record whose
 *   collection they define is checked against its record type
 * @returns {Promise<RepoSummary>}
 */
export async function checkRepo (store, { input, records, key, onFault, onRecord, lexicons }) {
  /** @type {RepoSummary} */
  const summary = {
    input,
    car: { version: store.carVersion, blocks: store.blocks, distinct: store.distinct, roots: store.roots.map(String) },
    commit: null,
    signature: { checked: false },
    mst: { nodes: 0, height: null, empty: false },
    records: { count: 0, checked: records, byCollection: {}, invalidPaths: 0 },
    missing: { nodes: [], records: [], commit: null },
    unreached: null,
    faults: [],
    faultCount: 0,
    faultsByRule: {},
    result: 'ok'
  }
  const lexicon = lexicons && records ? lexiconChecker(lexicons) : null
  if (lexicon) summary.lexicons = lexicon.summary
  /** @param {Fault} f */
  const report = (f) => {
    summary.faultCount++
    summary.faultsByRule[f.rule] = (summary.faultsByRule[f.rule] ?? 0) + 1
    if (summary.faults.length < MAX_KEPT_FAULTS) summary.faults.push(f)
    onFault?.(f)
  }
  const finish = () => {
    if (summary.faultCount > 0) summary.result = Object.keys(summary.faultsByRule).every((r) => MISSING_RULES.has(r)) ? 'incomplete' : 'faults'
    return summary
  }
  /** @type {Set<string>} */
  const reached = new Set()

  reportLongVarints(store, summary, report) // the CAR's framing first, as verify reports it
  if (store.roots.length === 0) {
    report({ rule: 'car-root', node: null, key: null, message: 'the CAR header names no root; a repo CAR\'s first root is its commit' })
    return finish()
  }
  const commitCid = store.roots[0]
  const commitId = commitCid.toString()
  reached.add(blockKey(commitCid))
  /** @param {string} rule @param {string} message */
  const commitFault = (rule, message) => report({ rule, node: commitId, key: null, message })
  const why = unblessed(commitCid)
  if (why) commitFault('commit-cid', `the commit's CID ${why}`)
  const bytes = await store.get(commitCid)
  if (!bytes) {
    summary.missing.commit = commitId
    commitFault('commit-missing', 'the commit block (the CAR\'s first root) is not in the CAR')
    return finish()
  }
  const hash = verifyBlock(commitCid, bytes)
  if (hash !== 'ok') {
    commitFault('block-hash', hash === 'mismatch' ? 'the commit block\'s bytes do not hash to its CID' : `the commit's hash function (${hashName(commitCid.multihash.code)}) is not one this tool can check`)
    return finish()
  }
  let value
  try {
    value = codec.decode(bytes)
  } catch (err) {
    commitFault('commit-dag-cbor', `the commit is not strict DAG-CBOR: ${describeError(err)}`)
    return finish()
  }
  const commit = parseCommit(value)
  summary.commit = { cid: commitId, version: commit.version, did: commit.did, rev: commit.rev, data: commit.data?.toString() ?? null, prev: commit.prev?.toString() ?? null }
  for (const f of commit.faults) commitFault(f.rule, f.message)

  if (key) {
    // loaded only when a key is given: the curve library's set-up is a few ms of every start
    const { signatureProblem } = await import('./signature.js')
    const problem = commit.sig && commit.unsigned ? signatureProblem(commit.unsigned, commit.sig, key.key) : 'the commit has no usable sig'
    summary.signature = { checked: true, valid: problem === null, key: key.key.text, did: key.did }
    if (problem) commitFault('commit-signature', problem)
    if (key.did && commit.did && key.did !== commit.did) commitFault('commit-did-mismatch', `the commit is for ${commit.did}, but the DID document is for ${key.did}`)
  }

  if (commit.data) {
    /** @type {import('./mst-walk.js').WalkStats} */
    const stats = { nodes: 0, height: null, empty: false, missingNodes: [], reached }
    for await (const entry of walkMst(store, commit.data, report, stats)) {
      summary.records.count++
      if (entry.collection === null) summary.records.invalidPaths++
      else summary.records.byCollection[entry.collection] = (summary.records.byCollection[entry.collection] ?? 0) + 1
      const record = records ? await checkRecord(store, entry, report, summary, reached, lexicon) : null
      await onRecord?.(entry, record)
    }
    summary.mst = { nodes: stats.nodes, height: stats.height, empty: stats.empty }
    summary.missing.nodes = stats.missingNodes
  }
  if (records) {
    let unreached = 0
    for (const key of store.keys()) if (!reached.has(key)) unreached++
    summary.unreached = unreached
  }
  return finish()
}

/**
 * The CAR's length varints written longer than their shortest form: verify's problems of kind
 * varint (check/car-checks.js), as car-varint faults at the same byte offsets; those past the few
 * the reader keeps are counted, as verify counts them.
 *
 * @param {import('./repo-blocks.js').BlockStore} store
 * @param {RepoSummary} summary
 * @param {(f: Fault) => void} report
 */
function reportLongVarints (store, summary, report) {
  const varints = nonMinimalVarints(store)
  for (const { at, message } of varints.problems) report({ rule: 'car-varint', node: null, key: null, at, message })
  const unlisted = varints.count - varints.problems.length
  if (unlisted > 0) {
    summary.faultCount += unlisted
    summary.faultsByRule['car-varint'] += unlisted
  }
}

/**
 * Read and check one record: present, hash-verified, DAG-CBOR, strict, inside the data model;
 * and, with Lexicons given, against its collection's record type.
 *
 * @param {import('./repo-blocks.js').BlockStore} store
 * @param {Entry} entry
 * @param {(f: Fault) => void} report
 * @param {RepoSummary} summary
 * @param {Set<string>} reached
 * @param {import('./lexicon-check.js').LexiconChecker | null} lexicon
 * @returns {Promise<{ value: unknown, ok: boolean }>}
 */
async function checkRecord (store, entry, report, summary, reached, lexicon) {
  const id = entry.value.toString()
  const before = summary.faultCount
  /** @param {string} rule @param {string} message */
  const fault = (rule, message) => report({ rule, node: entry.node, key: entry.path, message: `record ${id}: ${message}` })
  const read = await readRecord(store, entry, fault, summary, reached)
  const broken = lexicon?.check(entry.collection, read ? read.bytes : null)
  if (broken) {
    const { rule, path, offset, message } = broken
    report({ rule: 'record-lexicon', node: entry.node, key: entry.path, message: `record ${id}: ${message}`, lexicon: { rule, path, offset } })
  }
  if (!read) return { value: undefined, ok: false }
  return { value: read.value, ok: summary.faultCount === before && entry.collection !== null }
}

/**
 * The record's bytes and value, once present, hash-verified, DAG-CBOR and strict (null if not);
 * the data model's faults reported.
 *
 * @param {import('./repo-blocks.js').BlockStore} store
 * @param {Entry} entry
 * @param {(rule: string, message: string) => void} fault
 * @param {RepoSummary} summary
 * @param {Set<string>} reached
 * @returns {Promise<{ value: unknown, bytes: Uint8Array } | null>}
 */
async function readRecord (store, entry, fault, summary, reached) {
  const id = entry.value.toString()
  reached.add(blockKey(entry.value))
  const bytes = await store.get(entry.value)
  if (!bytes) {
    summary.missing.records.push({ key: entry.path, cid: id, node: entry.node })
    fault('record-missing', 'not in the CAR')
    return null
  }
  const hash = verifyBlock(entry.value, bytes)
  if (hash !== 'ok') {
    fault('block-hash', hash === 'mismatch' ? 'its bytes do not hash to its CID' : `its hash function (${hashName(entry.value.multihash.code)}) is not one this tool can check`)
    return null
  }
  if (entry.value.code !== DAG_CBOR) {
    fault('record-codec', `its CID has codec 0x${entry.value.code.toString(16)}; records are DAG-CBOR (0x71)`)
    return null
  }
  let value
  try {
    value = codec.decode(bytes)
  } catch (err) {
    fault('record-dag-cbor', `not strict DAG-CBOR: ${describeError(err)}`)
    return null
  }
  for (const f of dataModelFaults(value, bytes)) fault(f.rule, `at ${f.path}: ${f.message}`)
  return { value, bytes }
}
