// The property oracle for the Lexicon checks of a repo (`repo verify --lexicons DIR`, checkRepo's
// `lexicons`): AT Protocol repos generated from a seeded PRNG, their records valid or broken in one
// Lexicon rule each (the root package's Lexicon differential: test/helpers/lexicon-records.js makes
// them, each with the rule and path the spec gives), run through the command, checkRepo and the
// codec's own validate (dag-cbor-fast/lexicon), and against an independent validator,
// @atproto/lex-schema (test/helpers/lexicon-peers.js), where the differential's table
// (DISAGREEMENTS in test/helpers/lexicon-differential.js) does not say it departs from the spec.
// Every other repo also has one length varint written longer than its shortest form (mutate.js's
// long-varint, as the CAR oracle makes it): the command, checkRepo and verifyCar must each report it,
// and only it, at its byte offset (car-varint faults; verify's problems of kind varint).
// lexicon.spec.js runs it (a fixed seed) and feeds compareLexicon tampered outcomes.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { compile } from 'dag-cbor-fast/lexicon'
import { encode } from 'dag-cbor-fast'
import { checkRepo, verifyCar } from 'dag-cbor-car'
import { publishedDocuments } from '../../../test/helpers/lexicons.js'
import { EVERYTHING, FORMATS_DOCUMENT } from '../../../test/helpers/lexicon-everything.js'
import { recordGenerator } from '../../../test/helpers/lexicon-records.js'
import { peerVerdicts } from '../../../test/helpers/lexicon-peers.js'
import { DISAGREEMENTS } from '../../../test/helpers/lexicon-differential.js'
import { mulberry32 } from '../../../test/helpers/prng.js'
import { buildRepo, keyPair } from '../core/check/atproto/helpers/repo-builder.js'
import { run } from './paths.js'
import { Rng } from './generate.js'
import { longLengthVarint } from './mutate.js'

const BIN = fileURLToPath(new URL('../../bin/dag-cbor-car.js', import.meta.url))
/** the independent validator */
export const PEER = '@atproto/lex-schema'
/** a collection no document defines: its records are counted as not checked */
const UNDEFINED_COLLECTION = 'com.example.nolexicon'

/** The documents: the published ones of the test data, and the differential's two synthetic ones. */
export function lexiconDocuments () {
  return [...publishedDocuments().map((text) => JSON.parse(text)), EVERYTHING, FORMATS_DOCUMENT]
}

/**
 * A TID record key, the n-th of a repo (13 characters of base32-sortable, first one of 2-7 or a-j).
 *
 * @param {number} n
 */
function tid (n) {
  const alphabet = '234567abcdefghijklmnopqrstuvwxyz'
  let tail = ''
  for (let i = 0; i < 4; i++, n = Math.floor(n / 32)) tail = alphabet[n % 32] + tail
  return `3jzfcijpj${tail}`
}

/**
 * @typedef {{ key: string, nsid: string, value: any, bytes: Uint8Array, kind: string, what: string, path: string, rule: string | null }} GeneratedRecord
 *   rule and path: the spec's verdict (rule null: valid), as the generator made the record
 * @typedef {{ records: GeneratedRecord[], car: Uint8Array, longVarint: { at: number, detail: string } | null }} GeneratedRepo
 *   longVarint: the length varint the long-varint mutation lengthened (every other repo, the first included)
 */

/**
 * Repos of `size` records each: a record type drawn for each, a valid record of it, replaced about
 * two times in three by one of its one-rule mutations; one record of a collection with no Lexicon.
 *
 * @param {any[]} documents
 * @param {{ seed: number, repos: number, size: number }} options
 * @returns {Promise<GeneratedRepo[]>}
 */
export async function generateRepos (documents, { seed, repos, size }) {
  const random = mulberry32(seed)
  const generator = recordGenerator(documents, random)
  // (the formats document's record is the differential's frame for one string, not generated)
  const types = compile(documents).records.filter((nsid) => nsid !== FORMATS_DOCUMENT.id)
  const signer = keyPair('k256')
  /** @type {GeneratedRepo[]} */
  const out = []
  for (let r = 0; r < repos; r++) {
    /** @type {GeneratedRecord[]} */
    const records = []
    for (let i = 0; i < size; i++) {
      const nsid = types[Math.floor(random() * types.length)]
      const { value, sites } = generator.record(nsid)
      const mutations = random() < 0.67 ? generator.mutations(nsid, value, sites) : []
      const m = mutations.length ? mutations[Math.floor(random() * mutations.length)] : { kind: 'valid', what: 'a generated valid record', path: '', rule: null, value }
      records.push({ key: `${nsid}/${tid(i)}`, nsid, value: m.value, bytes: encode(m.value), kind: m.kind, what: m.what, path: m.path, rule: m.rule })
    }
    const other = { $type: UNDEFINED_COLLECTION, n: r }
    records.push({ key: `${UNDEFINED_COLLECTION}/${tid(size)}`, nsid: UNDEFINED_COLLECTION, value: other, bytes: encode(other), kind: 'no Lexicon', what: 'a collection no document defines', path: '', rule: null })
    const { car } = await buildRepo(records.map(({ key, value }) => ({ key, value })), { signer })
    if (r % 2 === 1) {
      out.push({ records, car, longVarint: null })
      continue
    }
    // its own stream of the seed: the records drawn stay those of the seed alone
    const long = longLengthVarint(new Rng(seed, r), { bytes: car, generator: 'v1', buckets: [] })
    out.push({ records, car: long.bytes, longVarint: { at: long.at, detail: long.detail } })
  }
  return out
}

/**
 * @typedef {Record<string, string>} Invalid the records found invalid: key -> "rule at path"
 * @typedef {{ valid: number, invalid: number, notChecked: number }} Counts
 * @typedef {{ invalid: Invalid, counts?: Counts, varints?: number[] } | { error: string }} Outcome
 *   varints: the byte offsets of its car-varint faults (a repo check's outcome only)
 * @typedef {{
 *   command?: Outcome, checkRepo: Outcome, validate: Outcome, spec: Invalid,
 *   peer: Record<string, boolean | 'departs'>, verify: { varints: number[] } | { error: string }, longVarints: number[]
 * }} LexiconOutcomes
 *   peer: per record key the peer's verdict (true: accepted), 'departs' where the differential's
 *   table says the peer departs from the spec on such a record; verify: verifyCar's problems of kind
 *   varint, by byte offset; longVarints: where the mutation lengthened one (none, or one offset)
 */

/** A repo summary's record-lexicon faults and counts. @param {any} summary @returns {Outcome} */
function fromSummary (summary) {
  /** @type {Invalid} */
  const invalid = {}
  /** @type {number[]} */
  const varints = []
  for (const f of summary.faults) {
    if (f.rule === 'record-lexicon') invalid[f.key] = `${f.lexicon.rule} at ${f.lexicon.path}`
    if (f.rule === 'car-varint') varints.push(f.at)
  }
  const { valid, invalid: count, notChecked } = summary.lexicons
  return { invalid, counts: { valid, invalid: count, notChecked }, varints }
}

/**
 * Every answer on one repo.
 *
 * @param {GeneratedRepo} repo
 * @param {{ documents: any[], lexicons: import('dag-cbor-fast/lexicon').Lexicons, peer: ReturnType<typeof peerVerdicts>, dir?: string }} against
 *   dir: the documents as files, for the command (without it, the command is not run)
 * @returns {Promise<LexiconOutcomes>}
 */
export async function lexiconOutcomes (repo, { documents, lexicons, peer, dir }) {
  /** @type {LexiconOutcomes} */
  const out = { checkRepo: { error: '' }, validate: { invalid: {} }, spec: {}, peer: {}, verify: { error: '' }, longVarints: repo.longVarint ? [repo.longVarint.at] : [] }
  try {
    // the CAR check itself: verify's problems of kind varint (the records' own problems aside)
    const summary = await verifyCar(repo.car)
    out.verify = { varints: summary.problems.filter((/** @type {any} */ p) => p.kind === 'varint').map((/** @type {any} */ p) => p.at) }
  } catch (err) {
    out.verify = { error: String(err) }
  }
  try {
    out.checkRepo = fromSummary(await checkRepo(repo.car, { lexicons: documents }))
  } catch (err) {
    out.checkRepo = { error: String(err) }
  }
  if (dir) {
    const file = path.join(dir, 'repo.car')
    fs.writeFileSync(file, repo.car)
    const { code, stdout, stderr } = await run(process.execPath, [BIN, 'repo', 'verify', file, '--lexicons', path.join(dir, 'lexicons'), '--json'])
    try {
      out.command = { ...fromSummary(JSON.parse(stdout)), ...(code === 0 || code === 1 ? {} : { error: `exit ${code}: ${stderr.trim()}` }) }
    } catch {
      out.command = { error: `exit ${code}, no JSON: ${stderr.trim()}` }
    }
  }
  const types = new Set(lexicons.records)
  /** @type {Invalid} */
  const validated = {}
  const counts = { valid: 0, invalid: 0, notChecked: 0 }
  for (const r of repo.records) {
    if (r.rule !== null) out.spec[r.key] = `${r.rule} at ${r.path}`
    if (!types.has(r.nsid)) { counts.notChecked++; continue }
    try {
      lexicons.record(r.nsid).validate(r.bytes)
      counts.valid++
    } catch (err) {
      const e = /** @type {any} */ (err)
      if (typeof e?.rule !== 'string') throw err
      validated[r.key] = `${e.rule} at ${e.path}`
      counts.invalid++
    }
    const departs = DISAGREEMENTS.some((d) => d.peers.includes(PEER) && d.matches({ ...r, real: false }))
    out.peer[r.key] = departs ? 'departs' : peer(PEER, r.nsid, r.bytes)
  }
  out.validate = { invalid: validated, counts }
  return out
}

/**
 * The disagreements on one repo: the command, checkRepo and validate list the same invalid records
 * with the same rules and paths, and the same counts; that list is the spec's (the generator's
 * rule and path); the peer accepts exactly the records not in it (where it does not depart).
 *
 * @param {LexiconOutcomes} o
 * @returns {string[]}
 */
export function compareLexicon (o) {
  const out = []
  // the command and checkRepo list faults in the MST's key order, validate in the records' order
  const text = (/** @type {Outcome | undefined} */ x) => JSON.stringify(x && 'invalid' in x ? { ...x, invalid: sorted(x.invalid), varints: undefined } : x)
  const long = JSON.stringify(o.longVarints)
  for (const [name, x] of /** @type {[string, Outcome | undefined][]} */ ([['the command', o.command], ['checkRepo', o.checkRepo]])) {
    if (x === undefined) continue
    if ('error' in x && x.error !== undefined) out.push(`${name} failed: ${x.error}`)
    else if (text(x) !== text(o.validate)) out.push(`${name} says ${text(x)}; validate ${text(o.validate)}`)
    if ('varints' in x && JSON.stringify(x.varints) !== long) out.push(`${name}'s car-varint faults are at ${JSON.stringify(x.varints)}; the long varint (the mutation) at ${long}`)
  }
  if ('error' in o.verify) out.push(`verifyCar failed: ${o.verify.error}`)
  else if (JSON.stringify(o.verify.varints) !== long) out.push(`verifyCar's varint problems are at ${JSON.stringify(o.verify.varints)}; the long varint (the mutation) at ${long}`)
  if (!('invalid' in o.validate)) return out
  const ours = o.validate.invalid
  if (text(sorted(ours)) !== text(sorted(o.spec))) out.push(`validate finds ${text(sorted(ours))}; the spec (the generator) ${text(sorted(o.spec))}`)
  for (const [key, verdict] of Object.entries(o.peer)) {
    if (verdict === 'departs') continue
    if (verdict !== !(key in ours)) out.push(`${PEER} ${verdict ? 'accepts' : 'refuses'} ${key}, which validate ${key in ours ? `refuses (${ours[key]})` : 'accepts'}`)
  }
  return out
}

/** @param {Record<string, string>} o the same, keys in order */
const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))

/**
 * The documents as files (one per document) in `dir`/lexicons, as `--lexicons DIR` reads them.
 *
 * @param {string} dir @param {any[]} documents
 */
export function writeLexiconDir (dir, documents) {
  const lexicons = path.join(dir, 'lexicons')
  fs.mkdirSync(lexicons, { recursive: true })
  documents.forEach((doc, i) => fs.writeFileSync(path.join(lexicons, `${String(i).padStart(4, '0')}.json`), JSON.stringify(doc)))
}

/**
 * The oracle's run: `repos` generated repos through every answer, the command on the first
 * `commandRepos`; the disagreements, and what was compared.
 *
 * @param {{ seed: number, repos: number, size: number, commandRepos: number, dir: string }} options
 */
export async function runLexiconOracle ({ seed, repos, size, commandRepos, dir }) {
  const documents = lexiconDocuments()
  const lexicons = compile(documents)
  const peer = peerVerdicts(documents)
  writeLexiconDir(dir, documents)
  const counts = { repos: 0, records: 0, invalid: 0, valid: 0, notChecked: 0, commandRuns: 0, longVarints: 0, commandLongVarints: 0, peerCompared: 0, peerDeparts: 0, /** @type {Record<string, number>} */ rules: {} }
  /** @type {string[]} */
  const disagreements = []
  const generated = await generateRepos(documents, { seed, repos, size })
  for (const [i, repo] of generated.entries()) {
    const o = await lexiconOutcomes(repo, { documents, lexicons, peer, dir: i < commandRepos ? dir : undefined })
    for (const d of compareLexicon(o)) disagreements.push(`repo ${i} (seed ${seed}): ${d}`)
    counts.repos++
    counts.records += repo.records.length
    if (o.command) counts.commandRuns++
    if (repo.longVarint) {
      counts.longVarints++
      if (o.command) counts.commandLongVarints++
    }
    if ('counts' in o.validate && o.validate.counts) {
      counts.valid += o.validate.counts.valid
      counts.invalid += o.validate.counts.invalid
      counts.notChecked += o.validate.counts.notChecked
      for (const v of Object.values(o.validate.invalid)) {
        const rule = v.split(' ')[0]
        counts.rules[rule] = (counts.rules[rule] ?? 0) + 1
      }
    }
    for (const verdict of Object.values(o.peer)) {
      if (verdict === 'departs') counts.peerDeparts++
      else counts.peerCompared++
    }
  }
  return { counts, disagreements }
}
