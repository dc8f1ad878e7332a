// Bench: the CAR tool's pipeline (stream-read, verify hashes, strict decode, re-encode, compare) on both
// real CARs, once with this repo's codec and once with @ipld/dag-cbor plugged into the same pipeline.
// Inline (1 worker), no output file. Median of 9 runs after a warm-up. Usage: node bench/car-tool.js
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CarReader } from '@ipld/car'
import { roundTrip, defaultCodecUrl } from '../bin/lib/run.js'
import { openInput } from '../bin/lib/source.js'

const carDir = new URL('../test/fixtures/cars/', import.meta.url)
const cars = ['filecoin-calibnet-genesis.car', 'filecoin-sample-v1.car'].map((name) => {
  const file = fileURLToPath(new URL(name, carDir))
  if (!fs.existsSync(file)) throw new Error(`missing test data: ${file} (see test/fixtures/README.md)`)
  return file
})
const codecs = [['this repo', defaultCodecUrl], ['@ipld/dag-cbor', import.meta.resolve('@ipld/dag-cbor')]]
const RUNS = 9

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

/**
 * The codec's share of the pipeline, over the DAG-CBOR blocks in memory: strict decode + re-encode,
 * and a relaxed decode where the strict one throws (what the tool does to classify a block). The
 * codecs alternate pass by pass (order flipped each round) after three warm-up passes each.
 * Returns MB/s per codec.
 */
async function codecOnly (/** @type {string} */ file, /** @type {any[]} */ mods) {
  const reader = await CarReader.fromBytes(new Uint8Array(fs.readFileSync(file)))
  const blocks = []
  for await (const b of reader.blocks()) if (b.cid.code === 0x71) blocks.push(b.bytes)
  const bytes = blocks.reduce((n, b) => n + b.length, 0)
  const pass = (/** @type {any} */ codec) => {
    const t = performance.now()
    for (const b of blocks) {
      try { codec.encode(codec.decode(b)) } catch { codec.decode(b, { relaxed: true }) }
    }
    return (performance.now() - t) / 1000
  }
  for (let w = 0; w < 3; w++) for (const m of mods) pass(m)
  const times = mods.map(() => /** @type {number[]} */ ([]))
  for (let r = 0; r < RUNS; r++) {
    const order = r & 1 ? [...mods.keys()].reverse() : [...mods.keys()]
    for (const k of order) times[k].push(pass(mods[k]))
  }
  return times.map((ts) => bytes / 1e6 / median(ts))
}

for (const file of cars) {
  const size = fs.statSync(file).size
  console.log(`${file.split('/').pop()} (${(size / 1e6).toFixed(2)} MB)`)
  // interleave the codecs run by run so machine noise hits both alike; run 0 is the warm-up
  /** @type {number[][]} */
  const secs = codecs.map(() => [])
  const classes = codecs.map(() => '')
  for (let r = 0; r <= RUNS; r++) {
    for (const [k, [, url]] of codecs.entries()) {
      const source = await openInput(file)
      const s = await roundTrip({ source, workers: 1, codecUrl: url })
      await source.close()
      if (r > 0) secs[k].push(s.seconds)
      classes[k] = `${s.dagCbor.canonical}/${s.dagCbor.nonCanonical}/${s.dagCbor.invalid}`
    }
  }
  const rates = []
  const codecRates = await codecOnly(file, await Promise.all(codecs.map(([, url]) => import(url))))
  for (const [k, [label]] of codecs.entries()) {
    const pipeline = size / 1e6 / median(secs[k])
    const codecRate = codecRates[k]
    rates.push([pipeline, codecRate])
    console.log(`  ${label.padEnd(15)} pipeline ${pipeline.toFixed(1).padStart(6)} MB/s   decode+encode only ${codecRate.toFixed(1).padStart(6)} MB/s   (canonical/non-canonical/invalid ${classes[k]})`)
  }
  console.log(`  ratio (this repo / @ipld/dag-cbor): pipeline ${(rates[0][0] / rates[1][0]).toFixed(2)}x, decode+encode only ${(rates[0][1] / rates[1][1]).toFixed(2)}x`)
}
