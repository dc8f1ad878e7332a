// What a block costs a hashed reader on small records (issue 63): one pass over the CAR in memory per
// step, each step adding one piece of work to the one before, passes interleaved round by round in
// this process (after warm-up rounds), each step's CPU time per block (median and min-max). The
// difference from one step to the next is that piece's cost:
//   atcute walk        @atcute/car's section walk (zero-copy views, its own CID objects): the baseline
//   walk               ours (read/in-memory.js forEachSection): length varint, the CID's end checked, no CID made
//   + CID (view)       a multiformats CID made over the CAR's bytes
//   + CID (copy)       instead, a CID owning its bytes (three small arrays, as the readers hand out)
//   + hash             the block hashed and compared with its CID (check/block-errors.js checkBlockNow)
//   + block copy       the block's bytes copied into an array of its own (base/bytes.js ownedCopy)
//   + object, promise  a block object handed out through an awaited promise (the async readers' next())
//   + kept             every block kept in an array (CarBufferReader holds them all: garbage collection)
//   floor              @atcute/car's walk + crypto.hash('sha256', bytes, 'binary'), nothing else
//
// Usage: node bench/small-records-split.js [--rounds 7] [--car FILE] (default: a CAR bench/small-records.js makes)
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { fromUint8Array } from '@atcute/car'
import { readCarHeader, forEachSection } from '../lib/core/read/in-memory.js'
import { ownedCopy } from '../lib/core/base/bytes.js'
import { checkBlockNow } from '../lib/core/check/block-errors.js'
import '../lib/node/node-library.js' // the Node shell's hashers (node:crypto) installed, as a script gets them
import { makeSmallRecordsCar } from './small-records.js'

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '7' }, car: { type: 'string' }, records: { type: 'string', default: '200000' } } })
const file = values.car ?? path.join(os.tmpdir(), `dag-cbor-car-split-${process.pid}.car`)
if (!values.car) makeSmallRecordsCar(file, Number(values.records))
const car = new Uint8Array(fs.readFileSync(file))
if (!values.car) fs.rmSync(file, { force: true })
const header = readCarHeader(car)
const OPTIONS = {}
// where the sections are cut into batches of about 1 MiB, as the iterator reads them (found before any pass)
const cuts = [header.dataStart]
forEachSection(car, header.dataStart, header.dataEnd, (cid, offset, cidStart, blockOffset, end) => {
  if (end - cuts[cuts.length - 1] >= 1 << 20) cuts.push(end)
}, { cids: 'none' })
if (cuts[cuts.length - 1] !== header.dataEnd) cuts.push(header.dataEnd)

/** @typedef {{ cids: 'none' | 'view' | 'copy', hash?: boolean, copy?: boolean, promise?: boolean, keep?: boolean }} Step */
/** @type {[string, Step | 'atcute' | 'floor'][]} */
const STEPS = [
  ['atcute walk', 'atcute'],
  ['walk', { cids: 'none' }],
  ['+ CID (view)', { cids: 'view' }],
  ['+ CID (copy)', { cids: 'copy' }],
  ['+ hash', { cids: 'copy', hash: true }],
  ['+ block copy', { cids: 'copy', hash: true, copy: true }],
  ['+ object, promise', { cids: 'copy', hash: true, copy: true, promise: true }],
  ['+ kept', { cids: 'copy', hash: true, copy: true, promise: true, keep: true }],
  ['floor', 'floor']
]

/** @param {Step | 'atcute' | 'floor'} step @returns {Promise<number>} blocks */
async function pass (step) {
  let blocks = 0
  let sum = 0
  if (step === 'atcute' || step === 'floor') {
    for (const entry of fromUint8Array(car)) {
      blocks++
      sum += step === 'floor' ? crypto.hash('sha256', entry.bytes, 'binary').charCodeAt(0) : entry.bytes.length
    }
    return blocks + (sum & 0)
  }
  /** @type {{ cid: any, bytes: Uint8Array, offset: number }[]} */
  const kept = []
  for (let c = 1; c < cuts.length; c++) {
    /** @type {{ cid: any, bytes: Uint8Array, offset: number }[]} */
    const batch = []
    forEachSection(car, cuts[c - 1], cuts[c], (cid, offset, cidStart, blockOffset, end) => {
      blocks++
      const bytes = step.copy ? ownedCopy(car, blockOffset, end) : car.subarray(blockOffset, end)
      if (step.hash) checkBlockNow(/** @type {any} */ (cid), bytes, offset, OPTIONS)
      if (step.promise) batch.push({ cid, bytes, offset })
      sum += bytes.length
    }, { cids: step.cids })
    // the async readers hand each block of a batch out through a promise (one next() each)
    for (const block of batch) {
      sum += (await Promise.resolve(block)).offset & 1
      if (step.keep) kept.push(block)
    }
  }
  return blocks + (sum & 0)
}

const rounds = Number(values.rounds)
/** @type {number[][]} */
const perBlock = STEPS.map(() => [])
for (let r = -2; r < rounds; r++) { // two warm-up rounds
  const order = r & 1 ? [...STEPS.keys()].reverse() : [...STEPS.keys()]
  for (const k of order) {
    const start = process.cpuUsage()
    const blocks = await pass(STEPS[k][1])
    const used = process.cpuUsage(start)
    if (r >= 0) perBlock[k].push((used.user + used.system) * 1000 / blocks)
  }
}
const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
console.log(`node ${process.version}, load ${os.loadavg()[0].toFixed(1)}; ${rounds} rounds, interleaved; CPU ns per block, median (min-max); the difference from the step before\n`)
console.log('| step | ns per block | added |')
console.log('| --- | ---: | ---: |')
for (const [k, [label]] of STEPS.entries()) {
  const m = median(perBlock[k])
  const added = k >= 2 && k < STEPS.length - 1 ? `${(m - median(perBlock[k - (k === 3 ? 2 : 1)])).toFixed(0)}` : '-'
  console.log(`| ${label} | ${m.toFixed(0)} (${Math.min(...perBlock[k]).toFixed(0)}-${Math.max(...perBlock[k]).toFixed(0)}) | ${added} |`)
}
