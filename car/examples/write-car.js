// Write a CAR (as with @ipld/car's CarWriter), then read it back with every check.
//   node examples/write-car.js out.car
import fs from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { encode } from 'dag-cbor-fast'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { CarWriter, verifyCar } from 'dag-cbor-car'

const file = process.argv[2]
if (!file) throw new Error('usage: node examples/write-car.js out.car')

/** @param {unknown} value */
async function block (value) {
  const bytes = encode(value)
  return { cid: CID.create(1, 0x71, await sha256.digest(bytes)), bytes }
}

const posts = await Promise.all(['first', 'second', 'third'].map((text) => block({ text })))
const root = await block({ posts: posts.map((p) => p.cid) })

const { writer, out } = CarWriter.create([root.cid])
const written = pipeline(Readable.from(out), fs.createWriteStream(file))
for (const b of [root, ...posts]) await writer.put(b)
await writer.close()
await written

const summary = await verifyCar(file)
console.log(`${file}: ${summary.blocks} blocks, root ${summary.roots[0]}, ${summary.result}`)
