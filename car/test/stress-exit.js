#!/usr/bin/env node
// Runs the tool many times in each mode and fails when a run outlives its work: a run is hung when
// its process is still alive 10 s after its last byte of output (the summary is the last thing it
// writes). A hung process gets `gdb -batch -ex 'thread apply all bt'` (when gdb is installed), its
// backtrace is printed, and it is killed. Not part of `npm test` (it takes minutes):
//
//   node car/test/stress-exit.js [--rounds N] [--mode NAME]... [--grace SECONDS] [--no-gdb]
//
// Modes: inline, workers, out, canonicalize, many, get-block, get-dag, inspect. Exit status 0 when
// no run hung, 1 when one did, 2 for bad usage. --bin FILE runs FILE instead of the tool (the
// detector's own test, stress-exit.spec.js, gives it a script that never exits).
import { spawn, execFileSync } from 'node:child_process'
import { parseArgs } from 'node:util'
import { mkdtempSync, rmSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const TOOL = path.join(here, '../bin/dag-cbor-car.js')
const CARS = path.join(here, '../../test/fixtures/cars')
const GENESIS = path.join(CARS, 'filecoin-calibnet-genesis.car')
const SAMPLE = path.join(CARS, 'filecoin-sample-v1.car')
const REPO = path.join(here, 'fixtures/atproto/repo-small-v2.car')
const SLICE = path.join(here, 'fixtures/genesis-slice-v2.car')

const tmp = mkdtempSync(path.join(tmpdir(), 'stress-exit-'))
const out = path.join(tmp, 'out.car')

/** @type {Record<string, string[]>} */
const MODES = {
  inline: ['verify', GENESIS, '--workers', '1'],
  workers: ['verify', GENESIS, '--workers', '2'],
  out: ['verify', SAMPLE, '--out', out, '--workers', '2'],
  canonicalize: ['verify', GENESIS, '--out', out, '--canonicalize', '--workers', '2'],
  many: ['verify', GENESIS, SAMPLE, REPO, SLICE],
  'get-block': ['get-block', GENESIS, 'bafyreiaqpwbbyjo4a42saasj36kkrpv4tsherf2e7bvezkert2a7dhonoi', '--dag-json'],
  'get-dag': ['get-dag', REPO, 'bafyreieovfuizojpw3zresz7sx3nk4trm2by23pt5rxbey3jme4uo5ogiu', '--out', out],
  inspect: ['inspect', GENESIS]
}

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '50' },
    mode: { type: 'string', multiple: true },
    grace: { type: 'string', default: '10' },
    bin: { type: 'string' },
    'no-gdb': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' }
  }
})
if (values.help) {
  process.stdout.write(`usage: node car/test/stress-exit.js [--rounds N] [--mode NAME]... [--grace SECONDS] [--no-gdb] [--bin FILE]\nmodes: ${Object.keys(MODES).join(', ')}\n`)
  process.exit(0)
}
const rounds = Number(values.rounds)
const graceMs = Number(values.grace) * 1000
const modes = values.mode ?? Object.keys(MODES)
for (const m of modes) {
  if (!Object.hasOwn(MODES, m)) {
    process.stderr.write(`unknown mode ${m} (modes: ${Object.keys(MODES).join(', ')})\n`)
    process.exit(2)
  }
}
const hasGdb = !values['no-gdb'] && existsSync('/usr/bin/gdb')
const BIN = values.bin ?? TOOL

/**
 * One run: resolves with its exit status and whether it hung.
 *
 * @param {string[]} args
 * @returns {Promise<{ code: number | null, hung: boolean, backtrace: string }>}
 */
function once (args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let lastOutput = Date.now()
    let hung = false
    let backtrace = ''
    const seen = () => { lastOutput = Date.now() }
    child.stdout.on('data', seen)
    child.stderr.on('data', seen)
    const timer = setInterval(() => {
      if (Date.now() - lastOutput < graceMs || hung) return
      hung = true
      if (hasGdb) {
        try {
          backtrace = execFileSync('/usr/bin/gdb', ['-p', String(child.pid), '-batch', '-ex', 'thread apply all bt'], { encoding: 'utf8', timeout: 60000, stdio: ['ignore', 'pipe', 'pipe'] })
        } catch (err) {
          backtrace = `gdb failed: ${/** @type {any} */ (err).message}`
        }
      }
      child.kill('SIGKILL')
    }, 250)
    child.on('exit', (code) => {
      clearInterval(timer)
      resolve({ code, hung, backtrace })
    })
  })
}

/** @type {Record<string, { runs: number, hangs: number, codes: Record<string, number> }>} */
const tally = {}
let hangs = 0
for (let r = 0; r < rounds; r++) {
  for (const mode of modes) {
    const t = (tally[mode] ??= { runs: 0, hangs: 0, codes: {} })
    const { code, hung, backtrace } = await once(MODES[mode])
    t.runs++
    t.codes[String(code)] = (t.codes[String(code)] ?? 0) + 1
    if (hung) {
      t.hangs++
      hangs++
      process.stdout.write(`HUNG: ${mode} (round ${r + 1}): alive ${graceMs / 1000} s after its last output\n${backtrace}\n`)
    }
  }
}
rmSync(tmp, { recursive: true, force: true })
for (const [mode, t] of Object.entries(tally)) {
  process.stdout.write(`${mode.padEnd(13)} ${t.runs} runs, ${t.hangs} hung, exit statuses ${JSON.stringify(t.codes)}\n`)
}
process.stdout.write(`${hangs === 0 ? 'OK' : 'FAIL'}: ${Object.values(tally).reduce((n, t) => n + t.runs, 0)} runs, ${hangs} hung\n`)
process.exit(hangs === 0 ? 0 : 1)
