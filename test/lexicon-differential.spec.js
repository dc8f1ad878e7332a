// dag-cbor-fast/lexicon against the other Lexicon validators (@atproto/lexicon, @atproto/lex-schema
// built from the same documents, @atcute/lexicons with @atcute/bluesky's schemas), on the published
// Lexicons (test/fixtures/lexicons/) and one written to reach the rules those leave out
// (helpers/lexicon-everything.js): seeded records of every record type, valid, and each changed to
// break one rule at one place; the records of the real repo exports; and each line of the atproto
// interop syntax files in a string of its format. Our codec must give the
// spec's verdict, naming the rule and the path, in decode, validate and encode alike, and the
// value of generic decode; each peer must give the spec's verdict, except in the cases of the
// table of known disagreements (helpers/lexicon-differential.js, DISAGREEMENTS), each of which
// quotes the spec and is asserted: it fails if the peer starts agreeing. The counts are printed by
// `node test/lexicon-differential-counts.js`.
import assert from 'node:assert/strict'
import { LEXICON_RULES } from '../lib/lexicon/index.js'
import { runDifferential, DISAGREEMENTS } from './helpers/lexicon-differential.js'

describe('dag-cbor-fast/lexicon: differential, against @atproto/lexicon, @atproto/lex-schema and @atcute/lexicons', function () {
  this.timeout(300_000)
  /** @type {Awaited<ReturnType<typeof runDifferential>>} */
  let run

  before(async () => {
    run = await runDifferential()
  })

  /**
   * @param {Array<import('./helpers/lexicon-differential.js').Finding>} findings
   * @returns {string}
   */
  const shown = (findings) => findings.slice(0, 5).map((f) => `${f.who} on ${f.case.nsid} ${f.case.path || '(the record)'}, ${f.case.what} (${f.case.kind}): expected ${f.expected}, got ${f.got}`).join('\n')

  it('our codec gives the spec\'s verdict on every case, with the rule and path, in decode, validate and encode, and generic decode\'s value', () => {
    const ours = run.findings.filter((f) => f.who.startsWith('dag-cbor-fast/lexicon'))
    assert.equal(ours.length, 0, shown(ours))
  })

  for (const peer of ['@atproto/lexicon', '@atproto/lex-schema', '@atcute/lexicons']) {
    it(`${peer} gives the spec's verdict on every case but the known disagreements, and gives those`, () => {
      const theirs = run.findings.filter((f) => f.who === peer)
      assert.equal(theirs.length, 0, shown(theirs))
      assert.ok(run.counts.peers[peer].compared > 1000, JSON.stringify(run.counts.peers[peer]))
    })
  }

  it('each known disagreement happens (an entry no peer disagrees on any more fails here)', () => {
    const unused = DISAGREEMENTS.flatMap((d, i) => d.peers.filter((peer) => run.counts.disagreements[i][peer] === 0).map((peer) => `${peer}: ${d.name}`))
    assert.deepEqual(unused, [])
  })

  it('every rule of LEXICON_RULES is broken by some mutation, and the real records and interop lines are all read', () => {
    assert.deepEqual(Object.keys(LEXICON_RULES).filter((rule) => !(run.counts.rules[rule] > 0)), [])
    assert.equal(run.counts.realRecords, 7)
    assert.ok(run.counts.formatLines > 400, `${run.counts.formatLines} interop lines`)
    assert.ok(run.counts.recordTypes >= 27 && run.counts.records > 150 && run.counts.mutations > 5000, JSON.stringify(run.counts))
  })
})
