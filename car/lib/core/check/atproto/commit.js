// The repo's root: a signed commit (atproto.com/specs/repository, "Commit Objects"). Version 3:
// did, version, data, rev (a TID), prev (present, nullable), sig. Version 2, the legacy form still
// found in old exports, has the same fields with rev optional and prev optional.
import * as codec from 'dag-cbor-fast'
import { asCid, unblessed } from './blessed-cids.js'
import { isDid, isTid, printable } from './syntax.js'

/**
 * @typedef {import('multiformats/cid').CID} CID
 * @typedef {{ rule: string, message: string }} CommitFault
 * @typedef {object} Commit
 * @property {number | null} version 2 or 3; null when the commit has another version or none
 * @property {string | null} did
 * @property {CID | null} data the MST root
 * @property {string | null} rev
 * @property {CID | null} prev
 * @property {Uint8Array | null} sig
 * @property {Uint8Array | null} unsigned the unsigned commit's DAG-CBOR bytes (what the signature covers)
 * @property {CommitFault[]} faults
 */

/**
 * Check a decoded commit's fields.
 *
 * @param {unknown} value the strictly decoded root block
 * @returns {Commit}
 */
export function parseCommit (value) {
  /** @type {Commit} */
  const commit = { version: null, did: null, data: null, rev: null, prev: null, sig: null, unsigned: null, faults: [] }
  /** @param {string} rule @param {string} message */
  const fault = (rule, message) => { commit.faults.push({ rule, message }) }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Uint8Array || asCid(value)) {
    fault('commit-schema', 'the root block is not a map, so not a commit')
    return commit
  }
  const c = /** @type {Record<string, unknown>} */ (value)
  if (c.version === 2 || c.version === 3) commit.version = c.version
  else fault('commit-version', `version is ${describe(c.version)}; repo commits are version 3 (or the legacy 2)`)
  const v3 = commit.version !== 2

  if (typeof c.did === 'string' && isDid(c.did)) commit.did = c.did
  else fault('commit-did', `did is ${describe(c.did)}, not a valid DID`)

  const data = asCid(c.data)
  if (!data) fault('commit-schema', `data is ${describe(c.data)}, not a link to the MST root`)
  else {
    const why = unblessed(data)
    if (why) fault('commit-cid', `data link ${data} ${why}`)
    commit.data = data
  }

  if (typeof c.rev === 'string' && isTid(c.rev)) commit.rev = c.rev
  else if (c.rev !== undefined || v3) fault('commit-rev', `rev is ${describe(c.rev)}, not a TID`)

  if (!('prev' in c)) {
    if (v3) fault('commit-schema', 'prev is missing; version 3 commits must hold it (null when unused)')
  } else if (c.prev !== null) {
    const prev = asCid(c.prev)
    if (!prev) fault('commit-schema', `prev is ${describe(c.prev)}, not null or a link`)
    else {
      const why = unblessed(prev)
      if (why) fault('commit-cid', `prev link ${prev} ${why}`)
      commit.prev = prev
    }
  }

  if (c.sig instanceof Uint8Array) {
    commit.sig = c.sig
    if (c.sig.length !== 64) fault('commit-sig', `sig is ${c.sig.length} bytes; K-256 and P-256 signatures are 64 bytes (compact r, s)`)
    const { sig, ...unsigned } = c
    commit.unsigned = codec.encode(unsigned)
  } else {
    fault('commit-sig', `sig is ${describe(c.sig)}, not bytes`)
  }
  return commit
}

/** @param {unknown} v */
function describe (v) {
  if (v === undefined) return 'missing'
  if (v === null) return 'null'
  if (typeof v === 'string') return `"${printable(v.length > 80 ? v.slice(0, 80) + '...' : v)}"`
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v)
  if (v instanceof Uint8Array) return `${v.length} bytes`
  if (asCid(v)) return `a link (${v})`
  return Array.isArray(v) ? 'a list' : 'a map'
}
