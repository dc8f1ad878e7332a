#!/usr/bin/env node
// Records go-car's `car verify` verdict on every input of the oracle's fixed-seed corpus into
// test/fixtures/oracle-go-car-verdicts.json (each input's sha-256, go-car's verdict and message), so
// npm test compares with go-car without go-car installed. go-car is built from github:ipld/go-car
// (cmd/car) by whoever records; neither it nor a script building it is in this repository.
//
//   node test/oracle/record-go-car.js --gocar PATH [--built-from TEXT] [--seed S] [--iterations N]
// (--built-from: where the binary came from, e.g. 'github:ipld/go-car d891b59, cmd/car', kept in the file)
import fs from 'node:fs'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { input, SPEC_SEED, SPEC_ITERATIONS } from './run.js'
import { goCar, tempDir, sha256Hex } from './paths.js'

export const FIXTURE = fileURLToPath(new URL('../fixtures/oracle-go-car-verdicts.json', import.meta.url))

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2)
  const value = (/** @type {string} */ name) => { const i = args.indexOf(name); return i < 0 ? undefined : args[i + 1] }
  const gocar = value('--gocar')
  if (!gocar) throw new Error('usage: node test/oracle/record-go-car.js --gocar PATH [--seed S] [--iterations N] (PATH: go-car\'s car, built from github:ipld/go-car cmd/car)')
  const seed = Number(value('--seed') ?? SPEC_SEED)
  const iterations = Number(value('--iterations') ?? SPEC_ITERATIONS)
  const builtFrom = value('--built-from')
  const version = execFileSync(gocar, ['--version'], { encoding: 'utf8' }).trim() + (builtFrom ? `, built from ${builtFrom}` : '')
  const tmp = tempDir()
  const file = path.join(tmp.dir, 'input.car')
  const inputs = []
  try {
    for (let i = 0; i < iterations; i++) {
      const { bytes } = await input(seed, i)
      fs.writeFileSync(file, bytes)
      const { verdict, message } = await goCar(gocar, file)
      inputs.push({ iteration: i, sha256: sha256Hex(bytes), verdict, message })
    }
  } finally {
    tmp.done()
  }
  const fixture = { seed, iterations, goCar: version, recordedWith: 'node test/oracle/record-go-car.js --gocar PATH', inputs }
  fs.writeFileSync(FIXTURE, JSON.stringify(fixture, null, 1) + '\n')
  console.log(`${inputs.length} verdicts (${inputs.filter((x) => x.verdict === 'ok').length} ok) from ${version} written to ${path.relative(process.cwd(), FIXTURE)}`)
}
