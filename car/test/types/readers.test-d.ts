// Type test: TypeScript written for @ipld/car 5.4's readers, with only the import renamed.
// `npm run test:types` (in car/) compiles this file twice under strict nodenext: with
// 'dag-cbor-car' mapped to this library's Node entry (tsconfig.json here), and to @ipld/car's own
// declarations (tsconfig.ipld-car.json), which proves the code is written for those.
import fs from 'node:fs'
import { CarReader, CarBufferReader, CarIndexer, CarBlockIterator, CarCIDIterator, CarIndexedReader, contentType } from 'dag-cbor-car'
import type { CID } from 'multiformats/cid'

declare const bytes: Uint8Array
declare const chunks: AsyncIterable<Uint8Array>
declare const someCid: CID

export const type: string = contentType

export async function reader (): Promise<number> {
  const reader = await CarReader.fromBytes(bytes)
  const again = await CarReader.fromIterable(chunks)
  const roots: CID[] = await reader.getRoots()
  const version: number = reader.version + again.version
  const has: boolean = await reader.has(roots[0])
  const block = await reader.get(someCid)
  let size = 0
  if (block !== undefined) {
    const b: Uint8Array = block.bytes
    const c: CID = block.cid
    size += b.length + c.bytes.length
  }
  for await (const { cid, bytes } of reader.blocks()) size += cid.bytes.length + bytes.length
  for await (const cid of reader.cids()) size += cid.version
  return size + version + (has ? 1 : 0)
}

export function bufferReader (): number {
  const reader = CarBufferReader.fromBytes(bytes)
  const roots: CID[] = reader.getRoots()
  const block = reader.get(roots[0])
  const all: { cid: CID, bytes: Uint8Array }[] = reader.blocks()
  const cids: CID[] = reader.cids()
  return (block?.bytes.length ?? 0) + all.length + cids.length + reader.version + (reader.has(someCid) ? 1 : 0)
}

export async function indexer (path: string): Promise<number> {
  const indexer = await CarIndexer.fromIterable(fs.createReadStream(path))
  const roots: CID[] = await indexer.getRoots()
  const fd = await fs.promises.open(path, 'r')
  let size = roots.length + indexer.version
  for await (const entry of indexer) {
    const { cid, offset, length, blockOffset, blockLength } = entry
    size += cid.bytes.length + offset + length + blockOffset + blockLength
    const block = await CarReader.readRaw(fd, entry)
    size += block.bytes.length
  }
  await fd.close()
  const fromBytes = await CarIndexer.fromBytes(bytes)
  return size + fromBytes.version
}

export async function iterators (): Promise<number> {
  let n = 0
  const blocks = await CarBlockIterator.fromIterable(chunks)
  const roots: CID[] = await blocks.getRoots()
  for await (const { cid, bytes } of blocks) n += cid.bytes.length + bytes.length
  const cids = await CarCIDIterator.fromBytes(bytes)
  for await (const cid of cids) n += cid.version
  return n + roots.length + blocks.version + cids.version + (await CarBlockIterator.fromBytes(bytes)).version
}

export async function indexedReader (path: string): Promise<number> {
  const reader = await CarIndexedReader.fromFile(path)
  let n = reader.version + (await reader.getRoots()).length
  const block = await reader.get(someCid)
  n += block?.bytes.length ?? 0
  for await (const { cid, bytes } of reader.blocks()) n += cid.bytes.length + bytes.length
  for await (const cid of reader.cids()) n += cid.version
  if (await reader.has(someCid)) n++
  await reader.close()
  return n
}
