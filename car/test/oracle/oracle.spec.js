// The CAR property oracle's fixed-seed run (issue 61): generated CARs and their mutations through
// every read path, each path held to what it claims to check (paths.js CHECKS), every block
// re-hashed independently, every verdict compared with @ipld/car's and with go-car's recorded
// verdicts (test/fixtures/oracle-go-car-verdicts.json) except the classes in docs/oracle.md.
// `npm run fuzz -- --minutes N` runs the same for longer, with other seeds.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { runCarOracle, SPEC_SEED, SPEC_ITERATIONS } from './run.js'
import { FIXTURE } from './record-go-car.js'
import { DIFFERENCES } from './differences.js'
import { CHECKS, PATHS } from './paths.js'
import { GENERATORS } from './generate.js'
import { MUTATIONS } from './mutate.js'

/**
 * The command's paths (verify, ls, export, inspect) are a process each per input: they run on one
 * input in COMMAND_EVERY and on the first input of each mutation, so the subset has CARs as
 * generated and broken every way
 */
const COMMAND_EVERY = 30

/** @returns {(iteration: number, mutation: string) => boolean} */
function commandSubset () {
  const mutations = new Set()
  return (i, mutation) => {
    const first = !mutations.has(mutation)
    mutations.add(mutation)
    return first || i % COMMAND_EVERY === 0
  }
}

describe('the CAR property oracle (fixed seed)', function () {
  this.timeout(180000)

  it('every read path, @ipld/car and go-car agree on every generated and mutated CAR', async function () {
    const recorded = JSON.parse(fs.readFileSync(FIXTURE, 'utf8'))
    assert.equal(recorded.iterations, SPEC_ITERATIONS, 'the go-car fixture covers the corpus: re-record (node test/oracle/record-go-car.js --gocar PATH)')
    const { counts, disagreements } = await runCarOracle({
      seed: SPEC_SEED, iterations: SPEC_ITERATIONS, recorded, command: commandSubset()
    })
    console.log(`      ${JSON.stringify({ generators: counts.generators, mutations: counts.mutations, paths: counts.paths, commandMutations: counts.commandMutations, verdicts: counts.verdicts, knownDifferences: counts.knownDifferences })}`)
    assert.equal(counts.inputs, SPEC_ITERATIONS)
    for (const g of GENERATORS) assert.ok(counts.generators[g] > 0, `the corpus has CARs of ${g}`)
    for (const m of MUTATIONS) assert.ok(counts.mutations[m] > 0, `the corpus has the mutation ${m}`)
    for (const m of MUTATIONS) assert.ok(counts.commandMutations[m] > 0, `the command's paths ran on an input of the mutation ${m}`)
    for (const p of Object.keys(PATHS)) assert.ok(counts.paths[p] > 0, `the corpus ran ${p}`)
    for (const v of ['ok', 'fail', 'unreadable']) assert.ok(counts.verdicts[v] > 0, `the corpus has CARs verifyCar says ${v} to`)
    const lines = disagreements.map((d) => `input ${d.iteration} (${d.generator}, ${d.mutation} ${d.detail}) [${d.rule}]: ${d.text}\n    replay: ${d.replay}`)
    if (lines.length) assert.fail(`${lines.length} disagreements:\n${lines.slice(0, 40).join('\n')}${lines.length > 40 ? `\n... and ${lines.length - 40} more (node test/oracle/run.js --seed ${SPEC_SEED} --iterations ${SPEC_ITERATIONS})` : ''}`)
  })

  it('the classes of differences are the same in the code and in docs/oracle.md', () => {
    const doc = fs.readFileSync(new URL('../../docs/oracle.md', import.meta.url), 'utf8')
    const inDoc = [...doc.matchAll(/^\| `([a-z0-9-]+)` \| (@ipld\/car|go-car) \|/gm)].map((m) => `${m[1]} ${m[2]}`).sort()
    assert.deepEqual(inDoc, DIFFERENCES.map((d) => `${d.name} ${d.against}`).sort())
  })

  it('the table of checks names every path, and every path is in it', () => {
    assert.deepEqual(Object.keys(CHECKS).sort(), Object.keys(PATHS).sort())
  })
})

describe('the CAR property oracle can fail', function () {
  this.timeout(60000)
  /** @type {{ outcomes: Record<string, import('./paths.js').Outcome>, others: any }} */
  let clean

  before(async () => {
    const fs = await import('node:fs')
    const path = await import('node:path')
    const { generate } = await import('./generate.js')
    const { ipldCar, tempDir } = await import('./paths.js')
    const tmp = tempDir()
    try {
      for (let i = 0; ; i++) {
        const car = await generate(SPEC_SEED, i)
        if (car.blocks.length < 3 || car.features.some((f) => ['missing-root', 'no-roots', 'truncated-sha256'].includes(f))) continue
        const file = path.join(tmp.dir, 'x.car')
        fs.writeFileSync(file, car.bytes)
        /** @type {Record<string, import('./paths.js').Outcome>} */ const outcomes = {}
        for (const [name, run] of Object.entries(PATHS)) outcomes[name] = await run(car.bytes, file)
        if (outcomes.verifyCar.full !== 'ok') continue
        clean = { outcomes, others: { bytes: car.bytes, ipld: await ipldCar(car.bytes), goCar: { verdict: 'ok', message: '' } } }
        break
      }
    } finally {
      tmp.done()
    }
  })

  /** @param {(o: Record<string, any>, others: any) => void} tamper */
  async function rulesBroken (tamper) {
    const { compare } = await import('./compare.js')
    const outcomes = structuredClone(clean.outcomes)
    const others = structuredClone(clean.others)
    tamper(outcomes, others)
    return [...new Set(compare(outcomes, others).map((d) => d.rule))]
  }

  it('a clean CAR: no disagreement', async () => {
    assert.deepEqual(await rulesBroken(() => {}), [])
  })
  it('a path that drops its last block and says ok', async () => {
    assert.deepEqual(await rulesBroken((o) => o.CarReader.blocks.pop()), ['blocks'])
  })
  it('a path that gives a block the wrong offset (CarIndexedReader serving a duplicate from its first section)', async () => {
    assert.deepEqual(await rulesBroken((o) => { o.CarIndexedReader.blocks[1].offset += 1 }), ['blocks'])
  })
  it('a path that hands out bytes that do not hash to the CID', async () => {
    assert.deepEqual(await rulesBroken((o) => { o['CarBlockIterator(workers)'].blocks[0].hash = 'mismatch' }), ['rehash'])
  })
  it('a path that refuses what the others read', async () => {
    assert.deepEqual(await rulesBroken((o) => Object.assign(o.CarIndexedReader, { verdict: 'error', errorKind: 'read', errorOffset: 60, blocks: [] })), ['verdict'])
  })
  it('the command and verifyCar giving different results', async () => {
    assert.deepEqual(await rulesBroken((o) => { o.command.summary = { ...o.command.summary, result: 'fail', problemCount: 1, problems: [{ kind: 'index', at: 51 }] }; o.command.full = 'fail' }), ['full'])
  })
  it("the page's verifyCar (the core's, over a stream) reporting a problem verifyCar does not (a long length varint)", async () => {
    assert.deepEqual(await rulesBroken((o) => { const page = o['verifyCar(page)']; page.summary = { ...page.summary, result: 'fail', problemCount: 1, problems: [{ kind: 'varint', at: 0 }] }; page.full = 'fail' }), ['full'])
  })
  it('a listing command failing with --strict where verify found nothing it reports', async () => {
    assert.deepEqual(await rulesBroken((o) => { o['export --strict'].reported = { code: 1, problems: [{ kind: 'missing-root' }], complete: true } }), ['problems'])
  })
  it('a listing command refusing what verify reads', async () => {
    assert.deepEqual(await rulesBroken((o) => Object.assign(o['inspect --strict'], { verdict: 'error', errorKind: 'read', message: 'cut short', reported: { code: 2, problems: [], complete: true } })), ['problems'])
  })
  it('ls listing a block at another offset, or printing a problem verify does not list', async () => {
    assert.deepEqual(await rulesBroken((o) => { o['ls --strict'].blocks[1].offset += 1 }), ['blocks'])
    assert.deepEqual(await rulesBroken((o) => { o['ls --strict'].reported.problems.push({ kind: 'varint', at: 0 }) }), ['problems'])
  })
  it('@ipld/car or go-car saying otherwise, outside the listed classes', async () => {
    assert.deepEqual(await rulesBroken((o, others) => { others.ipld.verdict = 'error'; others.ipld.errorKind = 'read' }), ['ipld'])
    assert.deepEqual(await rulesBroken((o, others) => { others.goCar = { verdict: 'error', message: 'unexpected EOF' } }), ['go-car'])
  })
})
