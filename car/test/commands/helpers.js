// Shared by the command specs: running the tool, CARs built in the test, and an independent walk of a
// CAR (@ipld/car to read it, @ipld/dag-cbor or cborg for links, the multiformats hashers), which the
// tool's answers are compared against. Nothing here imports the tool's lib/.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as dagCbor from '@ipld/dag-cbor'
import * as dagPb from '@ipld/dag-pb'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { fixturePath } from '../../../test/helpers/fixtures.js'
import { readAll, linksOf, carV1, hashers } from '../helpers/car-oracle.js'

export const TOOL = fileURLToPath(new URL('../../bin/dag-cbor-car.js', import.meta.url))
export const GENESIS = fileURLToPath(fixturePath('cars/filecoin-calibnet-genesis.car'))
export const SAMPLE = fileURLToPath(fixturePath('cars/filecoin-sample-v1.car'))
export const STACK_LINE = /\n\s+at .+:\d+:\d+/

/**
 * @param {string[]} args
 * @param {{ input?: Uint8Array | string }} [options] input: standard input
 */
export function tool (args, { input } = {}) {
  const r = spawnSync(process.execPath, [TOOL, ...args], { input, timeout: 60000, maxBuffer: 64 * 1024 * 1024 })
  if (r.error) throw r.error
  const stderr = r.stderr.toString('utf8')
  assert.doesNotMatch(stderr, STACK_LINE)
  return { code: r.status, stdout: r.stdout.toString('utf8'), stdoutBytes: new Uint8Array(r.stdout), stderr }
}

/** A temporary directory, removed by the caller's after() hook. */
export function tempDir () {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-cmd-'))
}

/**
 * @param {any} value a value to encode as DAG-CBOR, or the block's bytes (raw, or `encoded`)
 * @param {{ codec?: number, encoded?: boolean }} [options]
 */
export function block (value, { codec = 0x71, encoded = false } = {}) {
  const bytes = codec === 0x71 && !encoded ? dagCbor.encode(value) : value
  return { cid: CID.create(1, codec, sha256.digest(bytes)), bytes }
}

/**
 * A small DAG with every shape the commands report: a root linking down two levels, a raw leaf, a
 * link to a block the CAR lacks (dangling), an orphan (linked from no root), a duplicate block, and a
 * root the CAR lacks (missing root).
 */
export function shapesCar () {
  const raw = block(new TextEncoder().encode('raw leaf'), { codec: 0x55 })
  const leaf = block({ n: 1, text: 'leaf' })
  const absent = block({ never: 'stored' })
  const mid = block({ a: leaf.cid, b: raw.cid, gone: absent.cid })
  const root = block({ mid: mid.cid, list: [raw.cid, leaf.cid] })
  const orphan = block({ orphan: true, l: leaf.cid })
  const missingRoot = block({ not: 'here' })
  const blocks = [root, mid, leaf, raw, orphan, leaf]
  return { bytes: carV1([root.cid, missingRoot.cid], blocks), root, mid, leaf, raw, orphan, absent, missingRoot, blocks }
}

/**
 * A UnixFS-shaped DAG of dag-pb nodes (the root a CIDv0, as IPFS writes them) over raw leaves.
 */
export function dagPbCar () {
  const leaves = ['a', 'b', 'c'].map((t) => block(new TextEncoder().encode(t.repeat(100)), { codec: 0x55 }))
  const pb = (/** @type {CID[]} */ links, /** @type {0 | 1} */ version) => {
    const bytes = dagPb.encode(dagPb.prepare({ Data: new Uint8Array([8, 1]), Links: links.map((Hash, i) => ({ Hash, Name: `f${i}`, Tsize: 100 })) }))
    return { cid: version === 0 ? CID.createV0(sha256.digest(bytes)) : CID.create(1, 0x70, sha256.digest(bytes)), bytes }
  }
  const dir = pb([leaves[1].cid, leaves[2].cid], 1)
  const root = pb([leaves[0].cid, dir.cid], 0)
  return { bytes: carV1([root.cid], [leaves[2], dir, root, leaves[0], leaves[1]]), root, dir, leaves }
}

/**
 * An independent walk of a CAR: what inspect should say.
 *
 * @param {string | Uint8Array} car
 */
export async function walk (car) {
  const { roots, blocks } = await readAll(car)
  /** @type {Map<string, { cid: CID, bytes: Uint8Array, links: string[] }>} */
  const byCid = new Map()
  let duplicates = 0
  let links = 0
  let badHashes = 0
  /** @type {Record<string, number>} */
  const codecs = {}
  for (const b of blocks) {
    const hasher = hashers[b.cid.multihash.code]
    if (!hasher || !Buffer.from((await hasher.digest(b.bytes)).digest).equals(b.cid.multihash.digest)) badHashes++
    const name = { 0x71: 'dag-cbor', 0x55: 'raw' }[b.cid.code] ?? String(b.cid.code)
    codecs[name] = (codecs[name] ?? 0) + 1
    const key = b.cid.toString()
    if (byCid.has(key)) { duplicates++; continue }
    const ls = b.cid.code === 0x71 ? linksOf(b.bytes).map(String) : b.cid.code === 0x70 ? dagPb.decode(b.bytes).Links.map((l) => l.Hash.toString()) : []
    links += ls.length
    byCid.set(key, { cid: b.cid, bytes: b.bytes, links: ls })
  }
  /** @type {Set<string>} */ const reachable = new Set()
  /** @type {Set<string>} */ const missing = new Set()
  const stack = [...roots]
  while (stack.length) {
    const c = /** @type {string} */ (stack.pop())
    if (reachable.has(c)) continue
    reachable.add(c)
    for (const l of byCid.get(c)?.links ?? []) stack.push(l)
  }
  for (const b of byCid.values()) for (const l of b.links) if (!byCid.has(l)) missing.add(l)
  /** @type {Map<string, number>} */
  const depthMemo = new Map()
  /** @param {string} c @returns {number} */
  const depth = (c) => {
    if (!depthMemo.has(c)) depthMemo.set(c, Math.max(0, ...(byCid.get(c)?.links ?? []).map((l) => 1 + depth(l))))
    return /** @type {number} */ (depthMemo.get(c))
  }
  return {
    roots,
    blocks,
    byCid,
    codecs,
    duplicates,
    links,
    badHashes,
    reachable: [...byCid.keys()].filter((c) => reachable.has(c)),
    orphans: [...byCid.keys()].filter((c) => !reachable.has(c)),
    missing,
    missingRoots: roots.filter((r) => !byCid.has(r)),
    depth: Math.max(-1, ...roots.map(depth))
  }
}

/**
 * The blocks reachable from `from`, depth-first pre-order (a block, then its links in order), each once.
 *
 * @param {Awaited<ReturnType<typeof walk>>} w
 * @param {string} from
 */
export function dfsOrder (w, from) {
  /** @type {string[]} */ const order = []
  const seen = new Set()
  /** @param {string} c */
  const visit = (c) => {
    if (seen.has(c) || !w.byCid.has(c)) return
    seen.add(c)
    order.push(c)
    for (const l of /** @type {any} */ (w.byCid.get(c)).links) visit(l)
  }
  visit(from)
  return order
}
