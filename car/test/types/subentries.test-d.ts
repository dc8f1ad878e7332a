// Type test: TypeScript written for @ipld/car 5.4's sub-entries and writers, with only the import
// renamed (`@ipld/car/writer` → `dag-cbor-car/writer`, and so on). Compiled twice, as
// readers.test-d.ts is: against this library, and against @ipld/car's own declarations.
import fs from 'node:fs'
import { CarReader } from 'dag-cbor-car/reader'
import { CarBufferReader } from 'dag-cbor-car/buffer-reader'
import { CarIndexer } from 'dag-cbor-car/indexer'
import { CarBlockIterator, CarCIDIterator } from 'dag-cbor-car/iterator'
import { CarWriter } from 'dag-cbor-car/writer'
import * as CarBufferWriter from 'dag-cbor-car/buffer-writer'
import { CarIndexedReader } from 'dag-cbor-car/indexed-reader'
import type { CID } from 'multiformats/cid'

declare const bytes: Uint8Array
declare const root: CID
declare const block: { cid: CID, bytes: Uint8Array }

export async function writeAndRead (): Promise<number> {
  const { writer, out } = CarWriter.create([root])
  const collected: Uint8Array[] = []
  const reading = (async () => { for await (const chunk of out) collected.push(chunk) })()
  await writer.put(block)
  await writer.close()
  await reading
  const version: number = writer.version()
  const car = new Uint8Array(collected.reduce((n, c) => n + c.length, 0))
  const updated: Uint8Array = await CarWriter.updateRootsInBytes(car, [root])
  const appender = CarWriter.createAppender()
  const fd = await fs.promises.open('x.car', 'r+')
  await CarWriter.updateRootsInFile(fd, [root])
  const reader = await CarReader.fromBytes(updated)
  const sync = CarBufferReader.fromBytes(updated)
  let n = version + (await reader.getRoots()).length + sync.getRoots().length + (appender.out ? 1 : 0)
  for await (const entry of await CarIndexer.fromBytes(bytes)) n += entry.blockLength + entry.offset
  for await (const b of await CarBlockIterator.fromBytes(bytes)) n += b.bytes.length
  for await (const c of await CarCIDIterator.fromBytes(bytes)) n += c.version
  const indexed = await CarIndexedReader.fromFile('x.car')
  n += (await indexed.get(root))?.bytes.length ?? 0
  await indexed.close()
  return n
}

export function bufferWriter (): number {
  const buffer = new ArrayBuffer(1024)
  const w = CarBufferWriter.createWriter(buffer, { roots: [root] })
  w.write(block)
  const written: Uint8Array = w.close()
  return written.length + CarBufferWriter.blockLength(block) + CarBufferWriter.headerLength({ roots: [root] }) + CarBufferWriter.estimateHeaderLength(1)
}
