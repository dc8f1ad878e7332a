// Builds AT Protocol repos for the tests, written from the spec (atproto.com/specs/repository)
// without the tool's code: records, MST nodes (heights and prefix compression computed here), a
// commit signed with @noble/curves, and the CAR (@ipld/car's CarWriter). Every piece can be bent
// to plant a fault: nodes can be written by hand, keys given a false height, blocks left out.
import { createHash } from 'node:crypto'
import { carWriterBytes } from '../../../../helpers/car-oracle.js'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { base58btc } from 'multiformats/bases/base58'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { p256 } from '@noble/curves/nist.js'
import * as codec from 'dag-cbor-fast'

const enc = new TextEncoder()

/** Height of an MST key: leading zero bits of its SHA-256, halved (read off a bit string here). @param {string} key */
export function heightOf (key) {
  const bits = [...createHash('sha256').update(key).digest()].map((b) => b.toString(2).padStart(8, '0')).join('')
  return Math.floor(/** @type {RegExpMatchArray} */ (bits.match(/^0*/))[0].length / 2)
}

/** @typedef {{ cid: CID, bytes: Uint8Array }} Block */

/** @param {unknown} value @returns {Block} */
export function block (value) {
  const bytes = codec.encode(value)
  return { cid: CID.create(1, 0x71, /** @type {any} */ (sha256.digest(bytes))), bytes }
}

/**
 * An MST node value from entries in the order given, with the prefix compression the spec asks for.
 *
 * @param {{ left?: CID | null, entries: { key: string, value: CID, tree?: CID | null }[] }} node
 */
export function nodeValue ({ left = null, entries }) {
  let previous = ''
  const e = entries.map(({ key, value, tree = null }) => {
    let p = 0
    while (p < previous.length && p < key.length && previous[p] === key[p]) p++
    previous = key
    return { p, k: enc.encode(key.slice(p)), v: value, t: tree }
  })
  return { l: left, e }
}

/**
 * The MST of `items` (ASCII keys), built top-down: a node at height h holds the keys of height h,
 * and the runs of lower keys between them become subtrees at h - 1.
 *
 * @param {{ key: string, value: CID }[]} items
 * @param {{ height?: (key: string) => number }} [options] height: to give keys a false height
 * @returns {{ root: CID, blocks: Block[], nodes: Map<string, { value: any, height: number }> }}
 */
export function buildMst (items, { height = heightOf } = {}) {
  const sorted = [...items].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  const withHeight = sorted.map((i) => ({ ...i, h: height(i.key) }))
  /** @type {Block[]} */
  const blocks = []
  /** @type {Map<string, { value: any, height: number }>} */
  const nodes = new Map()
  /** @param {typeof withHeight} run @param {number} h @returns {CID | null} */
  const build = (run, h) => {
    if (run.length === 0) return null
    /** @type {{ key: string, value: CID, tree: CID | null }[]} */
    const entries = []
    let segment = []
    let left = null
    for (const item of run) {
      if (item.h > h) throw new Error(`builder: ${item.key} is above height ${h}`)
      if (item.h === h) {
        const tree = build(segment, h - 1)
        if (entries.length === 0) left = tree
        else entries[entries.length - 1].tree = tree
        entries.push({ key: item.key, value: item.value, tree: null })
        segment = []
      } else segment.push(item)
    }
    const tree = build(segment, h - 1)
    if (entries.length === 0) left = tree
    else entries[entries.length - 1].tree = tree
    const value = nodeValue({ left, entries })
    const b = block(value)
    blocks.push(b)
    nodes.set(b.cid.toString(), { value, height: h })
    return b.cid
  }
  const top = withHeight.reduce((m, i) => Math.max(m, i.h), 0)
  const root = withHeight.length === 0 ? pushed(blocks, block({ l: null, e: [] })) : /** @type {CID} */ (build(withHeight, top))
  return { root, blocks, nodes }
}

/** @param {Block[]} blocks @param {Block} b */
function pushed (blocks, b) {
  blocks.push(b)
  return b.cid
}

/**
 * A signing key pair and its did:key (encoded here: multicodec varint + compressed point, base58btc).
 *
 * @param {'k256' | 'p256'} curve
 * @param {Uint8Array} [secretKey]
 */
export function keyPair (curve, secretKey) {
  const c = curve === 'k256' ? secp256k1 : p256
  const secret = secretKey ?? c.utils.randomSecretKey()
  const publicKey = c.getPublicKey(secret, true)
  const prefix = curve === 'k256' ? [0xe7, 0x01] : [0x80, 0x24]
  const did = 'did:key:' + base58btc.encode(Uint8Array.from([...prefix, ...publicKey]))
  return { curve, secret, publicKey, did, sign: (/** @type {Uint8Array} */ message) => c.sign(message, secret, { prehash: true, lowS: true }) }
}

/**
 * A commit: the unsigned fields encoded as DAG-CBOR, signed (SHA-256 inside the curve library's sign).
 *
 * @param {{ did?: string, data: CID, rev?: string, prev?: CID | null, version?: number, key: ReturnType<typeof keyPair>, extra?: object, omit?: string[], sig?: (sig: Uint8Array) => Uint8Array }} o
 */
export function commitBlock ({ did = 'did:plc:ewvi7nxzyoun6zhxrhs64oiz', data, rev = '3jzfcijpj2z2a', prev = null, version = 3, key, extra = {}, omit = [], sig = (s) => s }) {
  /** @type {Record<string, unknown>} */
  const unsigned = { did, version, data, rev, prev, ...extra }
  for (const k of omit) delete unsigned[k]
  const signature = sig(key.sign(codec.encode(unsigned)))
  return block({ ...unsigned, sig: signature })
}

/** A record value of the app.bsky.feed.post kind. @param {string} text */
export function post (text) {
  return { $type: 'app.bsky.feed.post', text, createdAt: '2024-01-01T00:00:00.000Z' }
}

/** CAR bytes of roots and blocks, written by @ipld/car's CarWriter. */
export const carBytes = carWriterBytes

/**
 * A whole repo: records under their keys, the MST over them, a signed commit, the CAR.
 *
 * @param {{ key: string, value: unknown }[]} records
 * @param {{ signer?: ReturnType<typeof keyPair>, height?: (key: string) => number, commit?: object, drop?: (b: Block) => boolean, extraBlocks?: Block[] }} [options]
 */
export async function buildRepo (records, { signer = keyPair('k256'), height, commit = {}, drop = () => false, extraBlocks = [] } = {}) {
  const recordBlocks = records.map((r) => ({ key: r.key, block: block(r.value) }))
  const mst = buildMst(recordBlocks.map((r) => ({ key: r.key, value: r.block.cid })), { height })
  const c = commitBlock({ data: mst.root, key: signer, ...commit })
  const all = [c, ...mst.blocks, ...recordBlocks.map((r) => r.block), ...extraBlocks]
  return { car: await carBytes([c.cid], all.filter((b) => !drop(b))), commit: c, mst, records: recordBlocks, signer }
}
