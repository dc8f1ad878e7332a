// Independent checks on CARs the tool writes, and a CAR builder for hand-made (also faulty) inputs.
// The checks use @ipld/car to read, @ipld/dag-cbor (or cborg, for blocks it refuses) to find links,
// and the multiformats hashers to verify: nothing from bin/ or lib/.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { CarReader, CarWriter } from '@ipld/car'
import * as dagCbor from '@ipld/dag-cbor'
import { decode as cborgDecode } from 'cborg'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { identity } from 'multiformats/hashes/identity'

/** @type {Record<number, { digest: (b: Uint8Array) => any }>} */
export const hashers = { [sha256.code]: sha256, [blake2b256.code]: blake2b256, [identity.code]: identity }

/**
 * @param {Uint8Array} bytes
 * @param {{ code?: number, hasher?: { code: number, digest: (b: Uint8Array) => any } }} [options]
 */
export async function cidOf (bytes, { code = 0x71, hasher = sha256 } = {}) {
  return CID.create(1, code, await hasher.digest(bytes))
}

/** @param {any} value @param {CID[]} out */
function collectLinks (value, out) {
  const cid = CID.asCID(value)
  if (cid) out.push(cid)
  else if (Array.isArray(value)) for (const v of value) collectLinks(v, out)
  else if (value && typeof value === 'object' && !(value instanceof Uint8Array)) for (const k of Object.keys(value)) collectLinks(value[k], out)
  return out
}

/** The CIDs a DAG-CBOR block links to (cborg without strictness for blocks @ipld/dag-cbor refuses). */
export function linksOf (/** @type {Uint8Array} */ bytes) {
  let value
  try {
    value = dagCbor.decode(bytes)
  } catch {
    const tags = []
    tags[42] = (/** @type {any} */ decode) => CID.decode(decode().subarray(1)) // cborg 6: a tag decoder is given a decode() for its content
    value = cborgDecode(bytes, { tags, useMaps: false })
  }
  return collectLinks(value, [])
}

/** @param {string | Uint8Array} car a file or its bytes */
export async function readAll (car) {
  const reader = await CarReader.fromBytes(typeof car === 'string' ? new Uint8Array(fs.readFileSync(car)) : car)
  const blocks = []
  for await (const b of reader.blocks()) blocks.push(b)
  return { roots: (await reader.getRoots()).map(String), blocks }
}

/**
 * Every link target and root missing from a CAR, and every block whose bytes do not hash to its CID.
 *
 * @param {string | Uint8Array} car
 */
export async function linkReport (car) {
  const { roots, blocks } = await readAll(car)
  const present = new Set(blocks.map((b) => b.cid.toString()))
  const dangling = new Set()
  const badHashes = []
  let links = 0
  for (const b of blocks) {
    const hasher = hashers[b.cid.multihash.code]
    if (hasher && !equalBytes((await hasher.digest(b.bytes)).digest, b.cid.multihash.digest)) badHashes.push(b.cid.toString())
    if (b.cid.code !== 0x71) continue
    for (const l of linksOf(b.bytes)) {
      links++
      if (!present.has(l.toString())) dangling.add(l.toString())
    }
  }
  return { roots, present, dangling, badHashes, links, blocks: blocks.length, missingRoots: roots.filter((r) => !present.has(r)) }
}

/**
 * The output may leave dangling only links that already dangled in the input (blocks the CAR never
 * held); every root it names that the input held must be in it; every block must verify.
 *
 * @param {string | Uint8Array} input
 * @param {string | Uint8Array} output
 */
export async function assertNoNewDanglingLinks (input, output) {
  const a = await linkReport(input)
  const b = await linkReport(output)
  assert.ok(b.links > 0, 'the output has links to check')
  const fresh = [...b.dangling].filter((c) => !a.dangling.has(c))
  assert.deepEqual(fresh, [], 'links in the output that point at no block in it, though they did in the input')
  assert.equal(b.missingRoots.length, a.missingRoots.length, 'roots missing from the output')
  assert.deepEqual(b.badHashes, a.badHashes, 'blocks whose bytes do not hash to their CID')
  return { input: a, output: b }
}

/** @param {Uint8Array} x @param {Uint8Array} y */
function equalBytes (x, y) {
  return x.length === y.length && x.every((v, i) => v === y[i])
}

/** @param {number} n */
export function varint (n) {
  const out = []
  while (n >= 0x80) { out.push((n % 0x80) | 0x80); n = Math.floor(n / 0x80) }
  out.push(n)
  return Uint8Array.from(out)
}

/**
 * A CARv1 with the length varints chosen (0: the header's, n: the n-th section's) written one byte
 * longer than their shortest form (a needless continuation byte, the value unchanged), every other
 * byte kept; and the byte offset of each chosen header or section in the new bytes.
 *
 * @param {Uint8Array} v1
 * @param {number[]} chosen
 */
export function withLongVarints (v1, chosen) {
  const parts = []
  const offsets = []
  for (let at = 0, out = 0, n = 0; at < v1.length; n++) {
    let value = 0
    let size = 0
    for (let b = 0x80; b >= 0x80; size++) {
      b = v1[at + size]
      value += (b & 0x7f) * 2 ** (7 * size)
    }
    let length = v1.subarray(at, at + size)
    if (chosen.includes(n)) {
      length = Uint8Array.from([...length.subarray(0, size - 1), length[size - 1] | 0x80, 0])
      offsets.push(out)
    }
    parts.push(length, v1.subarray(at + size, at + size + value))
    out += length.length + value
    at += size + value
  }
  return { bytes: new Uint8Array(Buffer.concat(parts)), offsets }
}

/**
 * CARv1 bytes from roots and blocks, written by hand so tests can also write what no CAR writer
 * would (hostile lengths come from `section`).
 *
 * @param {CID[]} roots
 * @param {{ cid: CID, bytes: Uint8Array }[]} blocks
 */
export function carV1 (roots, blocks) {
  const header = dagCbor.encode({ roots, version: 1 })
  return Buffer.concat([varint(header.length), header, ...blocks.map(section)])
}

/**
 * CARv1 bytes written by @ipld/car's CarWriter: an independent writer, for inputs the tool must
 * accept as any CAR writer makes them.
 *
 * @param {CID[]} roots
 * @param {Iterable<{ cid: CID, bytes: Uint8Array }>} blocks
 * @returns {Promise<Uint8Array>}
 */
export async function carWriterBytes (roots, blocks) {
  const { writer, out } = CarWriter.create(roots)
  const chunks = []
  const collected = (async () => { for await (const c of out) chunks.push(c) })()
  for (const b of blocks) await writer.put(b)
  await writer.close()
  await collected
  return new Uint8Array(Buffer.concat(chunks))
}

/** @param {{ cid: CID, bytes: Uint8Array }} block */
export function section ({ cid, bytes }) {
  return Buffer.concat([varint(cid.bytes.length + bytes.length), cid.bytes, bytes])
}

/**
 * A CARv2 around a CARv1 payload; the fixed header fields can be overridden to make it faulty.
 *
 * @param {Uint8Array} v1
 * @param {{ dataOffset?: number, dataSize?: number, indexOffset?: number, padding?: number, trailer?: Uint8Array }} [fields]
 */
export function carV2 (v1, fields = {}) {
  const pragma = Buffer.from('0aa16776657273696f6e02', 'hex')
  const padding = fields.padding ?? 0
  const fixed = Buffer.alloc(40)
  fixed.writeBigUInt64LE(BigInt(fields.dataOffset ?? pragma.length + 40 + padding), 16)
  fixed.writeBigUInt64LE(BigInt(fields.dataSize ?? v1.length), 24)
  fixed.writeBigUInt64LE(BigInt(fields.indexOffset ?? 0), 32)
  return Buffer.concat([pragma, fixed, Buffer.alloc(padding), v1, fields.trailer ?? Buffer.alloc(0)])
}
