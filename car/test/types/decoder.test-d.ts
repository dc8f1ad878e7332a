// Type test: TypeScript written for @ipld/car 5.4's decoder sub-entry (`@ipld/car/decoder`), with
// only the import renamed (→ `dag-cbor-car/decoder`). Compiled twice, as readers.test-d.ts is:
// against this library (tsconfig.json), and against @ipld/car's own declarations
// (tsconfig.ipld-car.json), so that it holds code written for either.
import {
  readHeader,
  readBlockHead,
  createDecoder,
  bytesReader,
  chunkReader,
  asyncIterableReader,
  limitReader
} from 'dag-cbor-car/decoder'
import type { CID } from 'multiformats/cid'

declare const bytes: Uint8Array
declare const stream: AsyncIterable<Uint8Array>
declare const readChunk: () => Promise<Uint8Array | null>

export async function decode (): Promise<number> {
  const reader = bytesReader(bytes)
  const header = await readHeader(reader)
  const roots: CID[] = header.roots
  let n = roots.length + reader.pos
  if (header.version === 2) {
    const characteristics: [bigint, bigint] = header.characteristics
    n += header.dataOffset + header.dataSize + header.indexOffset + Number(characteristics[0])
  } else {
    const version: 1 = header.version
    n += version
  }
  const v1 = await readHeader(bytesReader(bytes), 1)
  n += v1.version
  const head = await readBlockHead(reader)
  const cid: CID = head.cid
  n += head.length + head.blockLength + cid.version
  const block: Uint8Array = await reader.exactly(head.blockLength, true)
  n += block.length + (await reader.upTo(8)).length
  reader.seek(0)

  const decoder = createDecoder(asyncIterableReader(stream))
  n += (await decoder.header()).roots.length
  for await (const { cid, bytes } of decoder.blocks()) n += cid.version + bytes.length
  for await (const entry of createDecoder(chunkReader(readChunk)).blocksIndex()) {
    n += entry.offset + entry.blockOffset + entry.length + entry.blockLength + entry.cid.version
  }
  const limited = limitReader(bytesReader(bytes), 100)
  n += (await limited.exactly(4)).length + limited.pos
  // a reader of @ipld/car's interface written by hand
  let pos = 0
  const own = {
    async upTo (length: number) { return bytes.subarray(pos, pos + length) },
    async exactly (length: number, seek?: boolean) { const out = bytes.subarray(pos, pos + length); if (seek === true) pos += length; return out },
    seek (length: number) { pos += length },
    get pos () { return pos }
  }
  n += (await readHeader(own)).version
  return n
}
