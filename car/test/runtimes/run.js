#!/usr/bin/env node
// `npm run test:runtimes` (part of `npm test` here): the CAR core beyond the Node that runs it.
//   - Deno and Bun (from engines/, installed from its lockfile when missing) run core.test.js with
//     mocha: on every fixture CAR (car/test/fixtures, its atproto/ folder, and the codec's
//     test/fixtures/cars), two corrupted copies and three signed AT Protocol repos built here, each
//     part of observe.js must equal what Node's entry of the package answered, computed first here.
//   - Node 26 runs core.test.js too, and the golden test (every command on every fixture CAR says
//     what it said when recorded): from Node 24 on, a small input's sha2-256 goes through the core's
//     plain-JS hasher rather than node:crypto (lib/node/hashers-node.js), a path the Node running this
//     does not take.
//   - workerd runs car/examples/workerd/worker.js, to which workerd.test.js (mocha, in Node) POSTs
//     the same CARs and compares the summaries.
//   node car/test/runtimes/run.js [--runtimes=deno,bun,workerd,node26]
// Each run's output is printed with its runtime's name in front; the counts are mocha's own. Last
// line: `runtimes: N passing, M failing`. Exit code 1 if anything failed, crashed or did not run.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CarIndexer } from '@ipld/car'
import { pickEngines, ensureInstalled, runFile, versionOf, workerdVersion, root, countsOf, printPrefixed } from '../../../engines/engines.js'
import { buildRepo, keyPair, post } from '../core/check/atproto/helpers/repo-builder.js'
import { PARTS } from './observe.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const car = path.resolve(here, '../..')
const mocha = path.join(root, 'node_modules/mocha/bin/mocha.js')
const RUN_MS = 10 * 60_000
const ALL = ['deno', 'bun', 'workerd', 'node26']
const arg = (process.argv.find((a) => a.startsWith('--runtimes=')) || '').slice('--runtimes='.length)
/** The hash implementations each runtime must end up with: WebAssembly where it may be compiled, pure JS in workerd */
const BACKENDS = {
  deno: { 'sha2-256': 'wasm', 'blake2b-256': 'wasm', identity: 'multiformats' },
  bun: { 'sha2-256': 'node:crypto', 'blake2b-256': 'wasm', identity: 'multiformats' }, // Bun's node:crypto: about twice hash-wasm's sha2-256 (README, Runtimes)
  workerd: { 'sha2-256': 'js', 'blake2b-256': 'js', identity: 'multiformats' },
  node26: { 'sha2-256': 'node:crypto', 'blake2b-256': 'wasm', identity: 'multiformats' } // hashBackends() names the installed hasher
}
/** The mocha files each runtime runs, in this folder */
const TESTS = { deno: ['core.test.js'], bun: ['core.test.js'], workerd: ['workerd.test.js'], node26: ['core.test.js', '../golden.spec.js'] }

/**
 * @typedef {{ name: string, file: string, corrupted?: boolean, repo?: import('./observe.js').RepoOptions, atproto?: boolean }} CaseFile
 */

/** @returns {CaseFile[]} the fixture CARs, found by listing their folders (a new fixture is tested without a change here) */
function fixtureCases () {
  const dirs = [path.join(car, 'test/fixtures'), path.join(car, 'test/fixtures/atproto'), path.join(root, 'test/fixtures/cars')]
  return dirs.flatMap((dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.car')).sort().map((f) => ({
    name: path.relative(root, path.join(dir, f)),
    file: path.join(dir, f),
    atproto: dir.endsWith('atproto')
  })))
}

/**
 * A copy of a CARv1 with one byte flipped in the middle of its largest hashed (not identity) block
 * whose CID occurs once: one hash mismatch, the framing intact.
 *
 * @param {string} file
 * @param {string} dir
 * @returns {Promise<CaseFile>}
 */
async function corruptedCase (file, dir) {
  const bytes = new Uint8Array(fs.readFileSync(file))
  const indexer = await CarIndexer.fromBytes(bytes)
  /** @type {{ cid: import('multiformats').CID, blockOffset: number, blockLength: number }[]} */
  const entries = []
  for await (const entry of indexer) entries.push(entry)
  const seen = new Map()
  for (const e of entries) seen.set(e.cid.toString(), (seen.get(e.cid.toString()) || 0) + 1)
  const target = entries.filter((e) => e.cid.multihash.code !== 0 && seen.get(e.cid.toString()) === 1)
    .reduce((a, b) => (b.blockLength > a.blockLength ? b : a))
  const at = target.blockOffset + (target.blockLength >> 1)
  bytes[at] ^= 0x01
  const out = path.join(dir, `corrupted-${path.basename(file)}`)
  fs.writeFileSync(out, bytes)
  return { name: `${path.relative(root, file)} with byte ${at} flipped (block ${target.cid})`, file: out, corrupted: true, atproto: false }
}

/**
 * Signed version-3 repos built here: K-256 and P-256 checked with their own did:key, and one
 * checked with another key (its signature must come out invalid in every runtime).
 *
 * @param {string} dir
 * @returns {Promise<CaseFile[]>}
 */
async function signedRepoCases (dir) {
  const records = [
    ...['3jzfcijpj2z2a', '3jzfcijpj2z2b', '3jzfcijpj2z2c'].map((rkey, i) => ({ key: `app.bsky.feed.post/${rkey}`, value: post(`post ${i}`) })),
    { key: 'app.bsky.actor.profile/self', value: { $type: 'app.bsky.actor.profile', displayName: 'x' } }
  ]
  /** @type {CaseFile[]} */
  const cases = []
  for (const curve of /** @type {const} */ (['k256', 'p256'])) {
    const key = keyPair(curve)
    const repo = await buildRepo(records, { signer: key })
    const file = path.join(dir, `signed-${curve}.car`)
    fs.writeFileSync(file, repo.car)
    cases.push({ name: `a version-3 repo signed with ${curve}, checked with its did:key`, file, atproto: true, repo: { didKey: key.did } })
    if (curve === 'k256') cases.push({ name: 'the same repo checked with another did:key', file, atproto: true, repo: { didKey: keyPair('k256').did } })
  }
  return cases
}

/**
 * Node's answers: every part of observe.js through the package's Node entry.
 *
 * @param {CaseFile[]} cases
 */
async function nodeAnswers (cases) {
  const core = /** @type {any} */ (await import('dag-cbor-car'))
  return Promise.all(cases.map(async (c) => {
    const bytes = new Uint8Array(fs.readFileSync(c.file))
    /** @type {Record<string, unknown>} */
    const parts = {}
    for (const part of ['summary', 'summaryFromBlob', 'blocks', 'json', ...(c.atproto ? ['repo'] : [])]) {
      parts[part] = await PARTS[part](core, bytes, { repo: c.repo })
    }
    return { ...c, parts }
  }))
}

async function main () {
  const runtimes = arg ? arg.split(',').map((s) => s.trim()).filter(Boolean) : ALL
  const unknown = runtimes.filter((r) => !ALL.includes(r))
  if (unknown.length) throw new Error(`unknown runtime(s) ${unknown.join(', ')}; known: ${ALL.join(', ')}`)
  ensureInstalled()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'car-runtimes-'))
  try {
    const files = [...fixtureCases()]
    files.push(await corruptedCase(path.join(root, 'test/fixtures/cars/filecoin-sample-v1.car'), dir))
    files.push(await corruptedCase(path.join(car, 'test/fixtures/atproto/repo-small-v2.car'), dir))
    files.push(...await signedRepoCases(dir))
    const cases = await nodeAnswers(files)
    const node = `Node ${process.version}`
    let passing = 0
    let failing = 0
    /** @type {string[]} */
    const lines = []
    for (const runtime of runtimes) {
      const t0 = Date.now()
      const engine = runtime === 'workerd' ? pickEngines('node')[0] : pickEngines(runtime)[0]
      const version = runtime === 'workerd' ? workerdVersion() : versionOf(engine)
      const expected = path.join(dir, `expected-${runtime}.json`)
      fs.writeFileSync(expected, JSON.stringify({ node, runtime: version, backends: BACKENDS[/** @type {keyof BACKENDS} */ (runtime)], cases }))
      const tests = TESTS[/** @type {keyof TESTS} */ (runtime)].map((t) => path.join(here, t))
      const r = await runFile(engine, mocha, tests, { timeoutMs: RUN_MS, env: { CAR_RUNTIMES_EXPECTED: expected } })
      printPrefixed(runtime, r.stdout + (r.stderr ? '\n' + r.stderr : ''))
      const counts = countsOf(r.stdout, r.code)
      passing += counts.passing
      failing += counts.failing
      lines.push(`${runtime} (${version}): ${counts.passing} passing, ${counts.failing} failing, ${((Date.now() - t0) / 1000).toFixed(0)} s`)
    }
    for (const l of lines) console.log(l)
    console.log(`runtimes: ${passing} passing, ${failing} failing`)
    return failing === 0 && passing > 0 ? 0 : 1
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

main().then((code) => { process.exitCode = code }, (e) => {
  console.error(e && e.stack ? e.stack : e)
  console.log('runtimes: 0 passing, 1 failing')
  process.exitCode = 1
})
