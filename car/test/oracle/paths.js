// Every read path of dag-cbor-car, used as a user would (import from 'dag-cbor-car'), each giving one
// normalized outcome so outcomes compare; and the independent answers: @ipld/car's readers with
// multiformats' hashers, and an independent re-hash of every section.
//
// The paths check different things. CHECKS (below) is the one table of what each claims to check:
//   framing  the CAR's header and sections parse (every length claim, every CID), to the end
//   hashes   every block's bytes hash to its CID (a hash function not computed is an error too)
//   full     verifyCar's checks beyond those: DAG-CBOR strictness, other codecs, roots, the CARv2
//            header and index (the summary's `result`)
//   problems the kinds of verify's problems named in `reports`: with --strict, exit 1 on any of
//            them; those it prints, in verify's order with its kinds and byte offsets
// A path's outcome is compared only on what it checks (compare.js).
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as ipld from '@ipld/car'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import { sha256 } from 'multiformats/hashes/sha2'
import {
  CarReader, CarBufferReader, CarBlockIterator, CarCIDIterator, CarIndexer, CarIndexedReader, verifyCar
} from 'dag-cbor-car'
import { verifyCar as coreVerifyCar } from 'dag-cbor-car/core'

const BIN = fileURLToPath(new URL('../../bin/dag-cbor-car.js', import.meta.url))

/** verify's problems about one block (summary.js's addBlock) */
export const BLOCK_KINDS = ['hash-mismatch', 'unverified', 'invalid', 'unknown-codec', 'non-canonical']

/**
 * What each path checks and what it hands out ('blocks': CID, offset and bytes; 'sections': CID
 * and offset; 'cids': CIDs only). The comparison consults this table and nothing else.
 *
 * @type {Record<string, { checks: ('framing' | 'hashes' | 'full' | 'problems')[], gives: 'blocks' | 'statuses' | 'sections' | 'cids' | 'none', eager: boolean, reports?: string[] }>}
 *   gives 'statuses': every block, each with its hash status (verifyCar's onBlock: blocks whose hash
 *   is wrong too); eager: it may report a framing error ahead of a wrong hash before it (it reads
 *   every section before it hands out a block, or it drops what it found when reading fails);
 *   reports: the kinds of verify's problems the path reports (checks 'problems': compare.js rule 6)
 */
export const CHECKS = {
  CarReader: { checks: ['framing', 'hashes'], gives: 'blocks', eager: true },
  CarBufferReader: { checks: ['framing', 'hashes'], gives: 'blocks', eager: false },
  'CarBlockIterator(bytes)': { checks: ['framing', 'hashes'], gives: 'blocks', eager: false },
  'CarBlockIterator(chunks)': { checks: ['framing', 'hashes'], gives: 'blocks', eager: false },
  'CarBlockIterator(workers)': { checks: ['framing', 'hashes'], gives: 'blocks', eager: false },
  // @ipld/car's CarCIDIterator checks no hash; this one checks each block's (docs/oracle.md)
  CarCIDIterator: { checks: ['framing', 'hashes'], gives: 'cids', eager: false },
  CarIndexer: { checks: ['framing'], gives: 'sections', eager: false },
  CarIndexedReader: { checks: ['framing', 'hashes'], gives: 'blocks', eager: true },
  // verifyCar rejects an unreadable CAR with a CarReadError (the wrong hashes before it are not in it)
  verifyCar: { checks: ['framing', 'hashes', 'full'], gives: 'statuses', eager: true },
  // the web page's check: the core's verifyCar over a File's stream (no size known), with onBlock
  'verifyCar(page)': { checks: ['framing', 'hashes', 'full'], gives: 'statuses', eager: true },
  command: { checks: ['framing', 'hashes', 'full'], gives: 'none', eager: false },
  // the commands that report while they list (README, Exit status): each reads the whole CAR (a
  // read error: exit 2 with verify's message) and, with --strict, exits 1 on the problems of
  // verify's that `reports` names; those it prints come in verify's order, one per block
  'ls --strict': { checks: ['framing', 'problems'], gives: 'sections', eager: false, reports: [...BLOCK_KINDS, 'varint', 'no-roots', 'missing-root'] },
  'export --strict': { checks: ['framing', 'problems'], gives: 'cids', eager: false, reports: [...BLOCK_KINDS, 'varint', 'no-roots', 'missing-root'] },
  // "its problems are those verify finds, except the CARv2 index check"
  'inspect --strict': { checks: ['framing', 'problems'], gives: 'none', eager: false, reports: [...BLOCK_KINDS, 'varint', 'no-roots', 'missing-root', 'car-v2'] }
}

/** The paths that run the command, a process per input (run.js runs them on a subset) */
export const COMMAND_PATHS = new Set(['command', 'ls --strict', 'export --strict', 'inspect --strict'])

/**
 * @typedef {{ cid: string, offset?: number, hash?: 'ok' | 'mismatch' | 'unverified', status?: string }} OutBlock
 *   hash: the independent re-hash of the bytes the path handed out; status: verifyCar's for it
 * @typedef {{
 *   verdict: 'ok' | 'error', errorKind?: 'read' | 'hash-mismatch' | 'unverified' | string,
 *   errorOffset?: number, message?: string, blocks: OutBlock[], roots?: string[],
 *   full?: 'ok' | 'fail' | 'incomplete', summary?: any, reported?: Reported
 * }} Outcome
 * @typedef {{
 *   code: number | null, problems: { kind: string, at?: number }[], complete: boolean, blockCount?: number
 * }} Reported
 *   what a listing command said: its exit status; the problems it printed, in order (kind 'block':
 *   one about a block whose kind it does not print; at: where it prints no offset, none); complete:
 *   it printed every problem it found
 */

/** multiformats' hashers: the independent re-hash */
const HASHERS = /** @type {Record<number, { digest: (b: Uint8Array) => any }>} */ ({ [sha256.code]: sha256, [blake2b256.code]: blake2b256 })

/**
 * Whether bytes hash to the CID, by multiformats' hashers (identity: the digest is the bytes; a
 * digest shorter than the function's output is its prefix, as a truncated multihash says).
 *
 * @param {import('multiformats').CID} cid @param {Uint8Array} bytes
 * @returns {Promise<'ok' | 'mismatch' | 'unverified'>}
 */
export async function rehash (cid, bytes) {
  const { code, digest } = cid.multihash
  if (code === 0x00) return equal(digest, bytes) ? 'ok' : 'mismatch'
  const hasher = HASHERS[code]
  if (!hasher) return 'unverified'
  const full = (await hasher.digest(bytes)).digest
  return digest.length > 0 && digest.length <= full.length && equal(full.subarray(0, digest.length), digest) ? 'ok' : 'mismatch'
}

/** @param {Uint8Array} a @param {Uint8Array} b */
function equal (a, b) {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** @param {any} err @returns {Pick<Outcome, 'errorKind' | 'errorOffset' | 'message'>} */
function describeError (err) {
  if (err?.name === 'CarBlockError') return { errorKind: err.kind, errorOffset: err.offset, message: err.message }
  if (err?.name === 'CarReadError') return { errorKind: 'read', errorOffset: err.offset, message: err.message }
  return { errorKind: `other:${err?.name ?? typeof err}`, message: String(err?.message ?? err) }
}

/** @param {() => Promise<void>} body @param {OutBlock[]} blocks @param {{ roots?: string[] }} seen @returns {Promise<Outcome>} */
async function outcome (body, blocks, seen) {
  try {
    await body()
    return { verdict: 'ok', blocks, roots: seen.roots }
  } catch (err) {
    return { verdict: 'error', ...describeError(err), blocks, roots: seen.roots }
  }
}

/** @param {{ cid: any, bytes: Uint8Array, offset?: number, status?: string }} b @returns {Promise<OutBlock>} */
async function handedOut (b) {
  return { cid: String(b.cid), offset: b.offset, hash: await rehash(b.cid, b.bytes), status: b.status }
}

/** @param {Uint8Array} bytes @param {number} seed chunk sizes from it @returns {AsyncIterable<Uint8Array>} */
async function * chunks (bytes, seed) {
  let size = (seed % 13) + 1
  for (let i = 0; i < bytes.length; i += size, size = (size * 7 + 3) % 97 + 1) yield bytes.slice(i, i + size)
}

/**
 * The read paths, by name. Each takes the CAR's bytes and a file holding them (for the paths that
 * read a file) and resolves to its outcome; none throws.
 *
 * @type {Record<string, (bytes: Uint8Array, file: string) => Promise<Outcome>>}
 */
export const PATHS = {
  async CarReader (bytes) {
    /** @type {OutBlock[]} */ const blocks = []
    /** @type {{ roots?: string[] }} */ const seen = {}
    return outcome(async () => {
      const reader = await CarReader.fromBytes(bytes)
      seen.roots = (await reader.getRoots()).map(String)
      for await (const b of reader.blocks()) blocks.push(await handedOut(b))
    }, blocks, seen)
  },
  async CarBufferReader (bytes) {
    /** @type {OutBlock[]} */ const blocks = []
    /** @type {{ roots?: string[] }} */ const seen = {}
    return outcome(async () => {
      const reader = CarBufferReader.fromBytes(bytes)
      seen.roots = reader.getRoots().map(String)
      for (const b of reader.blocks()) blocks.push(await handedOut(b))
    }, blocks, seen)
  },
  async 'CarBlockIterator(bytes)' (bytes) {
    /** @type {OutBlock[]} */ const blocks = []
    /** @type {{ roots?: string[] }} */ const seen = {}
    return outcome(async () => {
      const it = await CarBlockIterator.fromBytes(bytes)
      seen.roots = (await it.getRoots()).map(String)
      for await (const b of it) blocks.push(await handedOut(b))
    }, blocks, seen)
  },
  async 'CarBlockIterator(chunks)' (bytes) {
    /** @type {OutBlock[]} */ const blocks = []
    /** @type {{ roots?: string[] }} */ const seen = {}
    return outcome(async () => {
      const it = await CarBlockIterator.fromIterable(chunks(bytes, bytes.length))
      seen.roots = (await it.getRoots()).map(String)
      for await (const b of it) blocks.push(await handedOut(b))
    }, blocks, seen)
  },
  async 'CarBlockIterator(workers)' (bytes, file) {
    /** @type {OutBlock[]} */ const blocks = []
    /** @type {{ roots?: string[] }} */ const seen = {}
    return outcome(async () => {
      const it = await CarBlockIterator.fromIterable(file, { workers: 2 })
      seen.roots = (await it.getRoots()).map(String)
      for await (const b of it) blocks.push(await handedOut(b))
    }, blocks, seen)
  },
  async CarCIDIterator (bytes) {
    /** @type {OutBlock[]} */ const blocks = []
    /** @type {{ roots?: string[] }} */ const seen = {}
    return outcome(async () => {
      const it = await CarCIDIterator.fromBytes(bytes)
      seen.roots = (await it.getRoots()).map(String)
      for await (const cid of it) blocks.push({ cid: String(cid) })
    }, blocks, seen)
  },
  async CarIndexer (bytes) {
    /** @type {OutBlock[]} */ const blocks = []
    /** @type {{ roots?: string[] }} */ const seen = {}
    return outcome(async () => {
      const it = await CarIndexer.fromBytes(bytes)
      seen.roots = (await it.getRoots()).map(String)
      // hash: the oracle's own re-hash of the bytes where the indexer says the block lies (CarIndexer checks none)
      for await (const e of it) blocks.push({ cid: String(e.cid), offset: e.offset, hash: await rehash(e.cid, bytes.subarray(e.blockOffset, e.blockOffset + e.blockLength)) })
    }, blocks, seen)
  },
  async CarIndexedReader (bytes, file) {
    /** @type {OutBlock[]} */ const blocks = []
    /** @type {{ roots?: string[] }} */ const seen = {}
    return outcome(async () => {
      const reader = await CarIndexedReader.fromFile(file)
      /** @type {any} */ let first
      try {
        seen.roots = (await reader.getRoots()).map(String)
        for await (const b of reader.blocks()) { first ??= b.cid; blocks.push(await handedOut(b)) }
      } finally {
        await reader.close()
      }
      // a closed reader refuses (its file may be another's by now), rather than read a closed descriptor
      if (first) {
        const served = await reader.get(first).then(() => true, () => false)
        if (served) throw Object.assign(new Error(`CarIndexedReader.get() served ${first} after close()`), { name: 'ServedAfterClose' })
      }
    }, blocks, seen)
  },
  async verifyCar (bytes) {
    /** @type {{ cid: any, bytes: Uint8Array, offset: number, status: string }[]} */ const copied = []
    try {
      const summary = await verifyCar(bytes, {
        onBlock: (info) => { copied.push({ cid: info.cid, bytes: info.bytes.slice(), offset: info.offset, status: info.status }) }
      })
      const blocks = await Promise.all(copied.map(handedOut))
      return fromSummary(summary, blocks)
    } catch (err) {
      // an unreadable CAR: verifyCar rejects with a CarReadError
      return { verdict: 'error', ...describeError(err), blocks: await Promise.all(copied.map(handedOut)) }
    }
  },
  async 'verifyCar(page)' (bytes) {
    /** @type {{ cid: any, bytes: Uint8Array, offset: number, status: string }[]} */ const copied = []
    try {
      const summary = await coreVerifyCar(new Blob([bytes]).stream(), {
        onBlock: (info) => { copied.push({ cid: info.cid, bytes: info.bytes.slice(), offset: info.offset, status: info.status }) }
      })
      return fromSummary(summary, await Promise.all(copied.map(handedOut)))
    } catch (err) {
      return { verdict: 'error', ...describeError(err), blocks: await Promise.all(copied.map(handedOut)) }
    }
  },
  async command (bytes, file) {
    const { code, stdout, stderr } = await run(process.execPath, [BIN, 'verify', '--json', '--workers', '1', file])
    let summary
    try {
      summary = JSON.parse(stdout)
    } catch {
      return { verdict: 'error', errorKind: `exit ${code}, no JSON`, message: stderr.trim().split('\n').slice(-3).join(' | '), blocks: [] }
    }
    const want = { ok: 0, fail: 1, incomplete: 2 }[/** @type {'ok'} */ (summary.result)]
    if (code !== want) return { verdict: 'error', errorKind: `exit ${code} for result ${summary.result}`, blocks: [] }
    return fromSummary(summary, [])
  },
  async 'ls --strict' (bytes, file) {
    const ran = await run(process.execPath, [BIN, 'ls', '--strict', '--json', file])
    return commandOutcome(ran, () => {
      const lines = ran.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l))
      /** @type {{ kind: string, at?: number }[]} */ const problems = []
      for (const e of lines) {
        if (!e.problem) continue
        const kind = { mismatch: 'hash-mismatch', unverified: 'unverified' }[/** @type {'mismatch'} */ (e.hash)] ?? (e.dagCbor === 'non-canonical' || e.dagCbor === 'invalid' ? e.dagCbor : 'block')
        problems.push({ kind, at: e.offset })
      }
      problems.push(...framingProblems(ran.stderr))
      return { verdict: 'ok', blocks: lines.map((e) => ({ cid: e.cid, offset: e.offset })), reported: { code: ran.code, problems, complete: true } }
    })
  },
  async 'export --strict' (bytes, file) {
    const ran = await run(process.execPath, [BIN, 'export', '--strict', file])
    return commandOutcome(ran, () => {
      const [header, ...lines] = ran.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l))
      /** @type {{ kind: string, at?: number }[]} */ const problems = []
      let complete = true
      for (const line of ran.stderr.split('\n')) {
        const block = /^dag-cbor-car: export of .*?: \S+ at byte offset (\d+): (.*)$/.exec(line)
        if (block) problems.push({ kind: block[2].startsWith('bytes do not hash') ? 'hash-mismatch' : 'block', at: Number(block[1]) })
        if (/: \d+ problems in all /.test(line)) complete = false
      }
      problems.push(...framingProblems(ran.stderr))
      return { verdict: 'ok', blocks: lines.map((e) => ({ cid: e.cid })), roots: header.roots.map((/** @type {any} */ r) => r['/']), reported: { code: ran.code, problems, complete } }
    })
  },
  async 'inspect --strict' (bytes, file) {
    const ran = await run(process.execPath, [BIN, 'inspect', '--strict', '--json', file])
    return commandOutcome(ran, () => {
      const report = JSON.parse(ran.stdout)
      const problems = report.problems.map((/** @type {any} */ p) => ({ kind: p.kind, at: p.offset }))
      return { verdict: 'ok', blocks: [], roots: report.roots.map((/** @type {any} */ r) => r.cid), reported: { code: ran.code, problems, complete: report.problems.length === report.problemCount, blockCount: report.blocks } }
    })
  }
}

/** a problem about a length varint, as verify, ls and export say it */
const VARINT = /^(?:dag-cbor-car: (?:export of .*?: )?)?the (?:header|section) at byte offset (\d+) has a length varint/
/** ls's and export's lines about the roots */
const NO_ROOTS = /the CAR header lists no roots/
const MISSING_ROOT = /^dag-cbor-car: (?:export of .*?: )?root \S+ is listed in the CAR header but not present/

/** @param {string} stderr the lines the command wrote on stderr about the data (varints and roots) */
function framingProblems (stderr) {
  /** @type {{ kind: string, at?: number }[]} */ const problems = []
  for (const line of stderr.split('\n')) {
    const varint = VARINT.exec(line)
    if (varint) problems.push({ kind: 'varint', at: Number(varint[1]) })
    else if (NO_ROOTS.test(line)) problems.push({ kind: 'no-roots' })
    else if (MISSING_ROOT.test(line)) problems.push({ kind: 'missing-root' })
  }
  return problems
}

/**
 * A listing command's outcome: exit 2 is a read error (its message on stderr); otherwise what it
 * read (`readable` parses its output) and what it reported.
 *
 * @param {{ code: number | null, stderr: string }} ran @param {() => Outcome} readable
 * @returns {Outcome}
 */
function commandOutcome ({ code, stderr }, readable) {
  if (code === 2) return { verdict: 'error', errorKind: 'read', message: stderr.trim(), blocks: [], reported: { code, problems: [], complete: true } }
  try {
    return readable()
  } catch (err) {
    return { verdict: 'error', errorKind: `exit ${code}, output not understood (${/** @type {any} */ (err)?.message})`, message: stderr.trim(), blocks: [], reported: { code, problems: [], complete: false } }
  }
}

/**
 * A verify summary as an outcome: `verdict` is the framing and hash checks' (as the readers'), `full` the result.
 *
 * @param {any} summary @param {OutBlock[]} blocks
 * @returns {Outcome}
 */
function fromSummary (summary, blocks) {
  /** @type {Outcome} */
  const out = { verdict: 'ok', blocks, roots: summary.error ? undefined : summary.roots, full: summary.result, summary }
  // the first problem in CAR order that the readers would stop at: a wrong hash, or where reading failed
  const hashProblem = summary.problems.find((/** @type {any} */ p) => p.kind === 'hash-mismatch' || p.kind === 'unverified')
  if (hashProblem && (!summary.error || hashProblem.at < summary.error.offset)) Object.assign(out, { verdict: 'error', errorKind: hashProblem.kind, errorOffset: hashProblem.at, message: hashProblem.message })
  else if (summary.error) Object.assign(out, { verdict: 'error', errorKind: 'read', errorOffset: summary.error.offset, message: summary.error.message })
  return out
}

/** @param {string} cmd @param {string[]} args @returns {Promise<{ code: number | null, stdout: string, stderr: string }>} */
export function run (cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''; let stderr = ''
    child.stdout.on('data', (d) => { stdout += d })
    child.stderr.on('data', (d) => { stderr += d })
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

/**
 * The independent answer: @ipld/car's CarReader and CarIndexer, and every block re-hashed by
 * multiformats' hashers. `framing` is @ipld/car's verdict on parsing; `verdict` adds the hashes.
 *
 * @param {Uint8Array} bytes
 * @returns {Promise<Outcome & { framing: 'ok' | 'error', framingMessage?: string }>}
 */
export async function ipldCar (bytes) {
  /** @type {OutBlock[]} */ const blocks = []
  let roots
  try {
    const reader = await ipld.CarReader.fromBytes(bytes)
    roots = (await reader.getRoots()).map(String)
    const offsets = []
    for await (const e of await ipld.CarIndexer.fromBytes(bytes)) offsets.push(e.offset)
    let i = 0
    for await (const b of reader.blocks()) blocks.push({ cid: String(b.cid), offset: offsets[i++], hash: await rehash(b.cid, b.bytes) })
  } catch (err) {
    return { verdict: 'error', framing: 'error', framingMessage: String(/** @type {any} */ (err)?.message), errorKind: 'read', message: String(/** @type {any} */ (err)?.message), blocks, roots }
  }
  const bad = blocks.find((b) => b.hash !== 'ok')
  if (bad) return { verdict: 'error', framing: 'ok', errorKind: bad.hash === 'mismatch' ? 'hash-mismatch' : 'unverified', errorOffset: bad.offset, blocks, roots }
  return { verdict: 'ok', framing: 'ok', blocks, roots }
}

/**
 * go-car's `car verify` on a file: its verdict, and its message without the log line's date and time.
 *
 * @param {string} gocar the binary @param {string} file
 */
export async function goCar (gocar, file) {
  const { code, stderr, stdout } = await run(gocar, ['verify', file])
  const message = ((stderr || stdout).trim().split('\n').pop() ?? '').replace(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d /, '')
  return { verdict: code === 0 ? 'ok' : 'error', message }
}

/** @param {Uint8Array} bytes */
export const sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex')

/** A temp dir for the CAR files of a run. */
export function tempDir () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'car-oracle-'))
  return { dir, done: () => fs.rmSync(dir, { recursive: true, force: true }) }
}
