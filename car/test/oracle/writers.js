// The writers' half of the oracle: CarWriter's and CarBufferWriter's output for a generated set of
// roots and blocks (duplicates and all, in the generated order) read back through @ipld/car and
// through our CarReader and CarBlockIterator as exactly what was written: the same roots, the same
// blocks (CID and bytes) in the same order.
import * as ipld from '@ipld/car'
import { CarWriter, CarBufferWriter, CarReader, CarBlockIterator } from 'dag-cbor-car'
import { ourHashVerdict } from './differences.js'

/** @param {Uint8Array} a @param {Uint8Array} b */
function equal (a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i])
}

/**
 * @param {import('./generate.js').Generated} car (the CAR as generated, before any mutation)
 * @returns {Promise<{ writer: string, text: string }[]>} each way a read-back differs from what was written
 */
export async function checkWriters (car) {
  return [...await readBack(car), ...await refusesWrongBytes(car)]
}

/**
 * A block whose bytes do not hash to its CID (the first generated block's CID, its bytes with one
 * more byte) is refused by each writer, which would otherwise write a CAR its own readers refuse.
 *
 * @param {import('./generate.js').Generated} car
 */
async function refusesWrongBytes (car) {
  const first = car.blocks.find((b) => b.cid.multihash.code !== 0x00 && ourHashVerdict(String(b.cid), 'ok') === 'ok')
  if (!first) return []
  const wrong = { cid: first.cid, bytes: Uint8Array.of(...first.bytes, 0) }
  /** @type {{ writer: string, text: string }[]} */ const found = []
  const { writer, out } = CarWriter.create(car.roots)
  const drained = (async () => { for await (const _ of out); })() // eslint-disable-line no-unused-vars
  let refused = false
  try { await writer.put(wrong) } catch { refused = true }
  await writer.close()
  await drained
  if (!refused) found.push({ writer: 'CarWriter', text: `CarWriter.put() took ${first.cid} with bytes that do not hash to it` })
  const buffer = CarBufferWriter.createWriter(new ArrayBuffer(CarBufferWriter.headerLength({ roots: car.roots }) + CarBufferWriter.blockLength(wrong)), { roots: car.roots })
  refused = false
  try { buffer.write(wrong) } catch { refused = true }
  if (!refused) found.push({ writer: 'CarBufferWriter', text: `CarBufferWriter's write() took ${first.cid} with bytes that do not hash to it` })
  return found
}

/** @param {import('./generate.js').Generated} car */
async function readBack (car) {
  // digests truncated below 20 bytes: blocks the tool will not call checked (differences.js), so none are written
  const blocks = car.blocks.filter((b) => ourHashVerdict(String(b.cid), 'ok') === 'ok')
  const { roots } = car
  /** @type {Record<string, () => Promise<Uint8Array>>} */
  const writers = {
    async CarWriter () {
      const { writer, out } = CarWriter.create(roots)
      /** @type {Uint8Array[]} */ const chunks = []
      const collected = (async () => { for await (const c of out) chunks.push(c) })()
      for (const b of blocks) await writer.put(b)
      await writer.close()
      await collected
      const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
      let at = 0
      for (const c of chunks) { bytes.set(c, at); at += c.length }
      return bytes
    },
    async CarBufferWriter () {
      const size = CarBufferWriter.headerLength({ roots }) + blocks.reduce((n, b) => n + CarBufferWriter.blockLength(b), 0)
      const writer = CarBufferWriter.createWriter(new ArrayBuffer(size), { roots })
      for (const b of blocks) writer.write(b)
      return writer.close()
    }
  }
  /** @type {Record<string, (bytes: Uint8Array) => Promise<{ roots: string[], blocks: { cid: string, bytes: Uint8Array }[] }>>} */
  const readers = {
    async '@ipld/car CarReader' (bytes) {
      const r = await ipld.CarReader.fromBytes(bytes)
      const out = []
      for await (const b of r.blocks()) out.push({ cid: String(b.cid), bytes: b.bytes })
      return { roots: (await r.getRoots()).map(String), blocks: out }
    },
    async CarReader (bytes) {
      const r = await CarReader.fromBytes(bytes)
      const out = []
      for await (const b of r.blocks()) out.push({ cid: String(b.cid), bytes: b.bytes })
      return { roots: (await r.getRoots()).map(String), blocks: out }
    },
    async CarBlockIterator (bytes) {
      const it = await CarBlockIterator.fromBytes(bytes)
      const out = []
      for await (const b of it) out.push({ cid: String(b.cid), bytes: b.bytes })
      return { roots: (await it.getRoots()).map(String), blocks: out }
    }
  }
  const want = { roots: roots.map(String), blocks: blocks.map((b) => ({ cid: String(b.cid), bytes: b.bytes })) }
  /** @type {{ writer: string, text: string }[]} */ const found = []
  for (const [writerName, write] of Object.entries(writers)) {
    let bytes
    try {
      bytes = await write()
    } catch (err) {
      found.push({ writer: writerName, text: `${writerName} refused ${want.blocks.length} blocks and ${want.roots.length} roots: ${/** @type {any} */ (err)?.message}` })
      continue
    }
    for (const [readerName, read] of Object.entries(readers)) {
      let got
      try {
        got = await read(bytes)
      } catch (err) {
        found.push({ writer: writerName, text: `${readerName} cannot read ${writerName}'s output: ${/** @type {any} */ (err)?.message}` })
        continue
      }
      if (JSON.stringify(got.roots) !== JSON.stringify(want.roots)) found.push({ writer: writerName, text: `${readerName} reads ${writerName}'s roots as ${JSON.stringify(got.roots)}, written ${JSON.stringify(want.roots)}` })
      const same = got.blocks.length === want.blocks.length && got.blocks.every((b, i) => b.cid === want.blocks[i].cid && equal(b.bytes, want.blocks[i].bytes))
      if (!same) found.push({ writer: writerName, text: `${readerName} reads ${writerName}'s ${want.blocks.length} blocks as ${got.blocks.length} (${got.blocks.map((b) => b.cid).join(' ')}), written ${want.blocks.map((b) => b.cid).join(' ')}` })
    }
  }
  return found
}
