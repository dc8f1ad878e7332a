// The property oracle for the Lexicon checks of a repo (lexicon-repos.js): generated repos whose
// records are valid or broken in one Lexicon rule each, through `repo verify --lexicons DIR`,
// checkRepo's `lexicons` and dag-cbor-fast/lexicon's validate, which must list the same invalid
// records with the same rules and paths, the spec's (as the generator broke them), with
// @atproto/lex-schema agreeing on valid or invalid where the Lexicon differential's table does
// not say it departs from the spec. Every other repo has one length varint written longer than its
// shortest form: the command, checkRepo and verifyCar must each report it, at its byte offset. A
// fixed seed; the command on the first repos only (a process each, which compiles the documents).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { compile } from 'dag-cbor-fast/lexicon'
import { peerVerdicts } from '../../../test/helpers/lexicon-peers.js'
import { runLexiconOracle, generateRepos, lexiconOutcomes, compareLexicon, lexiconDocuments, writeLexiconDir } from './lexicon-repos.js'

const SEED = 65
const REPOS = 8
const SIZE = 16
const COMMAND_REPOS = 2

describe('the Lexicon checks\' property oracle (fixed seed)', function () {
  this.timeout(120000)
  /** @type {string} */ let dir
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'car-lexicon-oracle-')) })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('the command, checkRepo and validate list the same invalid records, the spec\'s; @atproto/lex-schema agrees where it follows the spec', async () => {
    const { counts, disagreements } = await runLexiconOracle({ seed: SEED, repos: REPOS, size: SIZE, commandRepos: COMMAND_REPOS, dir })
    console.log(`      ${JSON.stringify(counts)}`)
    assert.equal(counts.repos, REPOS)
    assert.equal(counts.commandRuns, COMMAND_REPOS)
    assert.deepEqual([counts.longVarints, counts.commandLongVarints], [REPOS / 2, 1])
    // not vacuous: valid and invalid records, several rules, the peer consulted on most
    assert.ok(counts.valid > 20 && counts.invalid > 40 && counts.notChecked === REPOS, JSON.stringify(counts))
    assert.ok(Object.keys(counts.rules).length >= 8, JSON.stringify(counts.rules))
    assert.ok(counts.peerCompared > counts.peerDeparts * 4, JSON.stringify(counts))
    assert.deepEqual(disagreements, [])
  })
})

describe('the Lexicon checks\' property oracle can fail', function () {
  this.timeout(60000)
  /** @type {import('./lexicon-repos.js').LexiconOutcomes} */ let clean
  /** @type {string} */ let dir
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'car-lexicon-oracle-'))
    const documents = lexiconDocuments()
    writeLexiconDir(dir, documents)
    const [repo] = await generateRepos(documents, { seed: SEED, repos: 1, size: SIZE })
    clean = await lexiconOutcomes(repo, { documents, lexicons: compile(documents), peer: peerVerdicts(documents), dir })
  })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  /** @param {(o: any) => void} tamper */
  const disagreements = (tamper) => {
    const o = structuredClone(clean)
    tamper(o)
    return compareLexicon(o)
  }
  const firstInvalid = () => Object.keys(/** @type {any} */ (clean.validate).invalid)[0]

  it('a clean repo: no disagreement, and some records invalid, and one long varint', () => {
    assert.deepEqual(disagreements(() => {}), [])
    assert.ok(firstInvalid())
    assert.equal(clean.longVarints.length, 1)
  })
  it('checkRepo missing the long varint', () => {
    assert.match(disagreements((o) => { o.checkRepo.varints = [] }).join('\n'), /^checkRepo's car-varint faults are at \[\]/)
  })
  it('the command placing it at another offset', () => {
    assert.match(disagreements((o) => { o.command.varints[0]++ }).join('\n'), /^the command's car-varint faults/)
  })
  it('verifyCar missing it', () => {
    assert.match(disagreements((o) => { o.verify.varints = [] }).join('\n'), /^verifyCar's varint problems are at \[\]/)
  })
  it('the command missing an invalid record', () => {
    assert.match(disagreements((o) => { delete o.command.invalid[firstInvalid()] }).join('\n'), /^the command says/)
  })
  it('checkRepo naming another rule or path', () => {
    assert.match(disagreements((o) => { o.checkRepo.invalid[firstInvalid()] = 'lexicon-type at /x' }).join('\n'), /^checkRepo says/)
  })
  it('a count that differs', () => {
    assert.match(disagreements((o) => { o.command.counts.valid++ }).join('\n'), /^the command says/)
  })
  it('all three agreeing on what the spec does not say', () => {
    assert.match(disagreements((o) => { for (const x of [o.command, o.checkRepo, o.validate]) delete x.invalid[firstInvalid()] }).join('\n'), /^validate finds .*; the spec/)
  })
  it('@atproto/lex-schema accepting a record ours refuses', () => {
    assert.match(disagreements((o) => { o.peer[firstInvalid()] = true }).join('\n'), /^@atproto\/lex-schema accepts/)
  })
})
