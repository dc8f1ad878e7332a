// The @ipld/car drop-in against @ipld/car: CarReader.fromBytes + get of every CID, CarIndexedReader
// + get of every CID, and CarIndexer over a file, on a generated 100 MB CAR of larger blocks (100 B
// to 25 KB) and a 10 MB CAR of small blocks. Each row runs in a process of its own (api-rows.js),
// rounds interleaved; the table gives medians and the ratios the issue asks for.
//
// Usage: node bench/api.js [--runs 3] [--large 100M] [--small 10M]
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'

const here = path.dirname(new URL(import.meta.url).pathname)
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, large: { type: 'string', default: '100M' }, small: { type: 'string', default: '10M' } } })
const runs = Number(values.runs)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'car-api-bench-'))
const cars = [['large', values.large], ['small', values.small]].map(([kind, size]) => {
  const file = path.join(dir, `${kind}.car`)
  execFileSync(process.execPath, [path.join(here, 'car-tool.js'), '--make-car', file, '--size', size, '--kind', kind], { stdio: 'ignore' })
  return { kind, size, file }
})

const groups = [
  { name: 'CarReader.fromBytes + get every CID', rows: ['ours-reader', 'ipld-hash-reader', 'ipld-reader'] },
  { name: 'CarIndexedReader + get every CID', rows: ['ours-indexed', 'ipld-hash-indexed', 'ipld-indexed'] },
  { name: 'CarIndexer over a file', rows: ['ours-indexer', 'ipld-indexer'] }
]
const median = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
const mb = (/** @type {number} */ n) => (n / 1e6).toFixed(0)

try {
  console.log(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}; ${runs} runs per row, interleaved; medians\n`)
  console.log('| CAR | operation | ours s | @ipld/car + hashing s | @ipld/car s | vs + hashing | vs no hashing | peak RSS MB (ours / @ipld/car) |')
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |')
  for (const car of cars) {
    for (const group of groups) {
      /** @type {Record<string, { seconds: number[], rss: number[] }>} */
      const got = Object.fromEntries(group.rows.map((r) => [r, { seconds: [], rss: [] }]))
      for (let i = 0; i < runs; i++) {
        for (const row of i % 2 ? [...group.rows].reverse() : group.rows) {
          const out = JSON.parse(execFileSync(process.execPath, [path.join(here, 'api-rows.js'), row, car.file], { encoding: 'utf8', maxBuffer: 1 << 20 }).trim().split('\n').pop() ?? '{}')
          got[row].seconds.push(out.seconds)
          got[row].rss.push(out.rss)
        }
      }
      const t = (/** @type {string} */ r) => got[r] ? median(got[r].seconds) : NaN
      const ours = t(group.rows[0])
      const hashed = group.rows.find((r) => r.startsWith('ipld-hash'))
      const plain = group.rows[group.rows.length - 1]
      console.log(`| ${car.kind} ${car.size} | ${group.name} | ${ours.toFixed(3)} | ${hashed ? t(hashed).toFixed(3) : '-'} | ${t(plain).toFixed(3)} | ${hashed ? (t(hashed) / ours).toFixed(2) + 'x' : '-'} | ${(t(plain) / ours).toFixed(2)}x | ${mb(median(got[group.rows[0]].rss))} / ${mb(median(got[plain].rss))} |`)
    }
  }
  console.log('\ntargets: CarReader and CarIndexedReader at least 2x @ipld/car + hashing and 1.2x @ipld/car alone; CarIndexer 1.2x; peak RSS at most @ipld/car\'s')
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
