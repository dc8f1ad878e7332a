// CARs the page tests generate: one of hostile strings (markup, script, javascript: URLs in keys,
// values and AT Protocol records), and a large one written straight to a file.
import fs from 'node:fs'
import crypto from 'node:crypto'
import { CID } from 'multiformats/cid'
import { create as createDigest } from 'multiformats/hashes/digest'
import * as codec from 'dag-cbor-fast'
import { buildRepo, block } from '../core/check/atproto/helpers/repo-builder.js'
import { varint } from '../helpers/car-oracle.js'

/** What a payload would set if it ran: the test looks for it everywhere. */
export const MARKER = 'XSS-FIRED'
const run = `document.title='${MARKER}';console.log('${MARKER}');alert('${MARKER}')`
export const PAYLOADS = [
  `<img src=x onerror="${run}">`,
  `<script>${run}</script>`,
  `javascript:${run}`,
  `<a href="javascript:${run}">click</a>`,
  `"><svg onload="${run}">`,
  `<iframe srcdoc="<script>${run}</script>"></iframe>`
]

/**
 * A repo CAR (commit, MST, records) whose records hold the payloads in keys and values, and one
 * record key holding markup; beside it, orphan blocks with payload keys and values, one of them
 * non-canonical (keys out of order) so the page shows it through relaxed decode.
 *
 * @returns {Promise<{ car: Uint8Array, did: string }>} the CAR, and the did:key its commit is signed with
 */
export async function hostileCar () {
  const records = PAYLOADS.map((text, i) => ({
    key: `app.bsky.feed.post/3kxss${String.fromCharCode(97 + i)}aaaaaa2`,
    value: { $type: 'app.bsky.feed.post', text, createdAt: '2024-01-01T00:00:00.000Z', [text]: text, langs: [text], embed: { $type: 'app.bsky.embed.external', external: { uri: PAYLOADS[2], title: text, description: text } } }
  }))
  // a record key no repo may hold (the check reports it, with the key in its message)
  records.push({ key: `app.bsky.feed.post/${PAYLOADS[0]}`, value: { $type: 'app.bsky.feed.post', text: PAYLOADS[1], createdAt: '2024-01-01T00:00:00.000Z' } })
  const extra = []
  const plain = {}
  for (const p of PAYLOADS) plain[p] = { href: PAYLOADS[2], html: p, list: [p, PAYLOADS[2]] }
  extra.push(block(plain))
  // keys out of order: a map of two entries written by hand, DAG-CBOR otherwise
  const a = codec.encode({ [PAYLOADS[0]]: PAYLOADS[1] })
  const b = codec.encode({ [PAYLOADS[2]]: PAYLOADS[3] })
  // both single-entry maps start with 0xa1; joined as one map of two entries, the longer key first
  // (canonical order is shorter keys first)
  if (PAYLOADS[0].length <= PAYLOADS[2].length) throw new Error('the first payload must be the longer key')
  const bytes = Uint8Array.from([0xa2, ...a.subarray(1), ...b.subarray(1)])
  extra.push({ cid: cidOf(0x71, bytes), bytes })
  const { car, signer } = await buildRepo(records, { extraBlocks: extra })
  return { car, did: signer.did }
}

/**
 * Writes a CARv1 of at least `target` bytes to `file`: a root listing group nodes, each linking
 * 200 leaves (two thirds raw blocks of 1-16 KiB, one third DAG-CBOR records of 0.2-2 KiB), each node
 * written before its leaves. The root's CID is known last, so the sections go to a scratch file
 * first and are copied behind the header.
 *
 * @param {string} file
 * @param {number} target
 * @returns {{ bytes: number, blocks: number }}
 */
export function writeLargeCar (file, target) {
  let seed = 0x12345678
  const random = () => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return (seed >>> 0) / 0x100000000 }
  const noise = crypto.randomBytes(16 * 1024) // leaves are slices of it, made distinct by a counter
  const body = file + '.body'
  const fd = fs.openSync(body, 'w')
  /** @type {CID[]} */
  const groups = []
  let written = 0
  let blocks = 1
  let n = 0
  while (written < target) {
    /** @type {Buffer[]} */
    const leaves = []
    /** @type {CID[]} */
    const cids = []
    for (let i = 0; i < 200; i++, n++) {
      let bytes
      let code = 0x55
      if (i % 3 === 0) {
        code = 0x71
        bytes = codec.encode({ n, name: `record ${n}`, tags: ['a', 'b', String(random())], body: noise.subarray(0, 200 + Math.floor(random() * 1800)) })
      } else {
        const length = 1024 + Math.floor(random() * 15 * 1024)
        bytes = new Uint8Array(length)
        bytes.set(noise.subarray(0, length))
        new DataView(bytes.buffer).setUint32(0, n)
      }
      const cid = cidOf(code, bytes)
      cids.push(cid)
      leaves.push(section(cid, bytes))
    }
    const node = codec.encode({ group: groups.length, leaves: cids })
    const nodeCid = cidOf(0x71, node)
    groups.push(nodeCid)
    const chunk = Buffer.concat([section(nodeCid, node), ...leaves])
    fs.writeSync(fd, chunk)
    written += chunk.length
    blocks += 201
  }
  fs.closeSync(fd)
  const rootBytes = codec.encode({ groups })
  prependHeader(file, body, cidOf(0x71, rootBytes), rootBytes)
  return { bytes: fs.statSync(file).size, blocks }
}

/** @param {number} code @param {Uint8Array} bytes */
function cidOf (code, bytes) {
  return CID.create(1, code, createDigest(0x12, crypto.createHash('sha256').update(bytes).digest()))
}

/** @param {CID} cid @param {Uint8Array} bytes */
function section (cid, bytes) {
  return Buffer.concat([varint(cid.bytes.length + bytes.length), cid.bytes, bytes])
}

/**
 * Writes a CARv1 of `count` small blocks (raw, 8-40 bytes) under a root and group nodes of 1000
 * links each: a million blocks in about 60 MB, for the block list.
 *
 * @param {string} file
 * @param {number} count
 * @returns {{ bytes: number, blocks: number }}
 */
export function writeManyBlocksCar (file, count) {
  const body = file + '.body'
  const fd = fs.openSync(body, 'w')
  /** @type {CID[]} */
  const groups = []
  let blocks = 1
  for (let n = 0; n < count;) {
    /** @type {Buffer[]} */
    const leaves = []
    /** @type {CID[]} */
    const cids = []
    for (let i = 0; i < 1000 && n < count; i++, n++) {
      const bytes = new TextEncoder().encode(`block ${n} ${'x'.repeat(n % 33)}`)
      const cid = cidOf(0x55, bytes)
      cids.push(cid)
      leaves.push(section(cid, bytes))
    }
    const node = codec.encode({ group: groups.length, leaves: cids })
    const nodeCid = cidOf(0x71, node)
    groups.push(nodeCid)
    fs.writeSync(fd, Buffer.concat([section(nodeCid, node), ...leaves]))
    blocks += 1 + cids.length
  }
  fs.closeSync(fd)
  const rootBytes = codec.encode({ groups })
  prependHeader(file, body, cidOf(0x71, rootBytes), rootBytes)
  return { bytes: fs.statSync(file).size, blocks }
}

/**
 * Writes `file`: a CAR header naming `root`, the root's section, then the sections in `body`
 * (removed after).
 *
 * @param {string} file @param {string} body @param {CID} root @param {Uint8Array} rootBytes
 */
function prependHeader (file, body, root, rootBytes) {
  const header = codec.encode({ roots: [root], version: 1 })
  const out = fs.openSync(file, 'w')
  fs.writeSync(out, Buffer.concat([varint(header.length), header, section(root, rootBytes)]))
  const input = fs.openSync(body, 'r')
  const chunk = Buffer.alloc(8 * 1024 * 1024)
  for (let r; (r = fs.readSync(input, chunk, 0, chunk.length, null)) > 0;) fs.writeSync(out, chunk, 0, r)
  fs.closeSync(input)
  fs.closeSync(out)
  fs.rmSync(body)
}
