#!/usr/bin/env node
// The CAR property oracle's run: generated CARs and their mutations through every read path
// (paths.js), compared (compare.js). runCarOracle is what oracle.spec.js runs (a fixed seed);
// as a command (npm run fuzz -- --minutes N [--seed S] [--only I] [--gocar PATH]) it runs longer
// and prints what it tried: inputs per generator and mutation, per path, and each disagreement
// with the command that replays it.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { generate, Rng, GENERATORS } from './generate.js'
import { mutate, MUTATIONS } from './mutate.js'
import { PATHS, COMMAND_PATHS, ipldCar, goCar, tempDir, sha256Hex } from './paths.js'
import { compare } from './compare.js'
import { checkWriters } from './writers.js'

/** The fixed-seed corpus npm test runs (oracle.spec.js) and whose go-car verdicts are recorded */
export const SPEC_SEED = 61
export const SPEC_ITERATIONS = 300

/** The mutation's PRNG stream for an iteration: apart from the generator's */
const MUTATION_STREAM = 0x40000000

/**
 * One input, from (seed, iteration): the generated CAR, mutated.
 *
 * @param {number} seed @param {number} iteration
 */
export async function input (seed, iteration) {
  const car = await generate(seed, iteration)
  const m = mutate(new Rng(seed, iteration + MUTATION_STREAM), car)
  return { car, ...m }
}

/**
 * @param {{
 *   seed?: number, iterations?: number, deadline?: number, log?: (line: string) => void,
 *   command?: (iteration: number, mutation: string) => boolean, gocar?: string, only?: number, paths?: string[],
 *   recorded?: { seed: number, inputs: { iteration: number, sha256: string, verdict: string, message: string }[] }
 * }} options
 *   deadline: a Date.now() after which no new input is started; command: which inputs also run
 *   the CLI's paths (COMMAND_PATHS: a process each), by iteration and mutation; gocar: go-car's binary, run on every input; recorded: go-car's
 *   verdicts recorded for this seed (record-go-car.js), used where gocar is not given
 */
export async function runCarOracle ({ seed = 1, iterations = Infinity, deadline = Infinity, log = () => {}, command = () => true, gocar, only, paths, recorded } = {}) {
  if (recorded && recorded.seed !== seed) throw new Error(`go-car's verdicts were recorded for seed ${recorded.seed}, not ${seed}`)
  const counts = {
    inputs: 0,
    /** @type {Record<string, number>} */ generators: {},
    /** @type {Record<string, number>} */ mutations: {},
    /** @type {Record<string, number>} */ paths: {},
    /** @type {Record<string, number>} */ verdicts: {},
    /** @type {Record<string, number>} */ commandMutations: {},
    /** writers' outputs read back (CarWriter and CarBufferWriter, each input's generated blocks) */
    writes: 0,
    /** @type {Record<string, number>} */ knownDifferences: {}
  }
  /** @type {{ iteration: number, generator: string, mutation: string, detail: string, rule: string, text: string, replay: string }[]} */
  const disagreements = []
  const tmp = tempDir()
  const file = path.join(tmp.dir, 'input.car')
  const names = paths ?? Object.keys(PATHS)
  try {
    for (let i = only ?? 0; only === undefined ? i < iterations : i === only; i++) {
      if (Date.now() > deadline) break
      const { car, mutation, bytes, detail } = await input(seed, i)
      fs.writeFileSync(file, bytes)
      /** @type {Record<string, import('./paths.js').Outcome>} */ const outcomes = {}
      const withCommand = command(i, mutation)
      if (withCommand) counts.commandMutations[mutation] = (counts.commandMutations[mutation] ?? 0) + 1
      for (const name of names) {
        if (COMMAND_PATHS.has(name) && !withCommand) continue
        outcomes[name] = await PATHS[name](bytes, file)
        counts.paths[name] = (counts.paths[name] ?? 0) + 1
      }
      const ipld = await ipldCar(bytes)
      let go = gocar ? await goCar(gocar, file) : undefined
      const replay = `cd car && node test/oracle/run.js --seed ${seed} --only ${i}`
      const fromFixture = recorded?.inputs[i]
      if (!go && fromFixture) {
        if (fromFixture.sha256 === sha256Hex(bytes)) go = fromFixture
        else {
          const text = `input ${i}'s bytes are not those go-car's verdict was recorded for: the generator or a mutation changed; re-record (node test/oracle/record-go-car.js --gocar PATH)`
          disagreements.push({ iteration: i, generator: car.generator, mutation, detail, rule: 'fixture', text, replay })
          log(text)
        }
      }
      // the writers, on the blocks as generated (once per input, not per mutation)
      for (const w of await checkWriters(car)) {
        disagreements.push({ iteration: i, generator: car.generator, mutation: 'written', detail: '', rule: 'writers', text: w.text, replay })
        log(`disagreement: input ${i} (${car.generator}, written): ${w.text}\n  replay: ${replay}`)
      }
      counts.writes += 2
      counts.inputs++
      counts.generators[car.generator] = (counts.generators[car.generator] ?? 0) + 1
      counts.mutations[mutation] = (counts.mutations[mutation] ?? 0) + 1
      const v = outcomes.verifyCar
      if (v) counts.verdicts[v.full ?? 'unreadable'] = (counts.verdicts[v.full ?? 'unreadable'] ?? 0) + 1
      for (const d of compare(outcomes, { ipld, goCar: go, bytes })) {
        if (d.known) { counts.knownDifferences[d.known] = (counts.knownDifferences[d.known] ?? 0) + 1; continue }
        disagreements.push({ iteration: i, generator: car.generator, mutation, detail, rule: d.rule, text: d.text, replay })
        log(`disagreement: input ${i} (${car.generator}, ${mutation}${detail ? ' ' + detail : ''}): ${d.text}\n  replay: ${replay}`)
      }
    }
  } finally {
    tmp.done()
  }
  return { counts, disagreements }
}

/** @param {string[]} argv */
function parseArgs (argv) {
  /** @type {Record<string, string>} */ const args = {}
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i]
    if (!key.startsWith('--')) throw new Error(`unexpected argument ${key}: use --minutes N, --seed S, --only I, --gocar PATH, --iterations N`)
    args[key.slice(2)] = argv[++i]
    if (args[key.slice(2)] === undefined) throw new Error(`${key} needs a value`)
  }
  return args
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = parseArgs(process.argv.slice(2))
  const minutes = Number(args.minutes ?? 1)
  const seed = Number(args.seed ?? Date.now() % 0x100000000)
  const only = args.only === undefined ? undefined : Number(args.only)
  const started = Date.now()
  // the fixed seed's go-car verdicts are recorded: compared without go-car, as npm test does
  const recorded = !args.gocar && seed === SPEC_SEED ? JSON.parse(fs.readFileSync(new URL('../fixtures/oracle-go-car-verdicts.json', import.meta.url), 'utf8')) : undefined
  console.log(`seed ${seed}${only === undefined ? `, for ${minutes} minutes` : `, input ${only}`}${args.gocar ? `, go-car ${args.gocar}` : ''}`)
  const { counts, disagreements } = await runCarOracle({
    seed,
    only,
    iterations: args.iterations === undefined ? Infinity : Number(args.iterations),
    deadline: only === undefined && args.iterations === undefined ? started + minutes * 60000 : Infinity,
    gocar: args.gocar,
    recorded,
    log: (line) => console.log(line)
  })
  console.log(JSON.stringify({ seconds: Math.round((Date.now() - started) / 1000), ...counts, disagreements: disagreements.length }, null, 2))
  console.log(`generators: ${GENERATORS.join(', ')}; mutations: ${MUTATIONS.join(', ')}`)
  process.exitCode = disagreements.length ? 1 : 0
}
