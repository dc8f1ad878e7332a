// A bounded run of the fuzzer (test/fuzz/): tens of thousands of seeded inputs through every invariant.
// The full-size run is `npm run fuzz -- --iterations N --seed S`.
import assert from 'node:assert/strict'
import { runFuzz, loadCorpus, replayBytes, SOURCES } from './fuzz/fuzzer.js'
import { fromHex } from './fuzz/cbor.js'

/** @param {Record<string, number>} table @param {string} prefix */
const sum = (table, prefix) => Object.entries(table).filter(([k]) => k.startsWith(prefix)).reduce((a, [, v]) => a + v, 0)

describe('fuzz', function () {
  this.timeout(180_000)

  it('loads the whole mutation corpus (codec-fixtures and both real CARs)', async () => {
    const corpus = await loadCorpus()
    assert.equal(corpus.filter((s) => s.name.startsWith('fixture:')).length, 128)
    assert.equal(corpus.filter((s) => s.name.startsWith('filecoin-calibnet-genesis.car:')).length, 1197)
    assert.equal(corpus.filter((s) => s.name.startsWith('filecoin-sample-v1.car:')).length, 1043)
  })

  it('20,000 seeded inputs: no invariant fails; every source runs; accepts and rejects both occur', async () => {
    const stats = await runFuzz({ iterations: 20_000, seed: 0x5eed })
    assert.deepEqual(stats.failures, {}, `failures, first ones: ${JSON.stringify(stats.failureRecords.slice(0, 3), null, 1)}`)
    for (const s of SOURCES) assert.ok(stats.inputs[s] >= 1000, `source ${s} produced only ${stats.inputs[s]} inputs`)
    assert.ok(stats.outcomes['decode-ok'] >= 1000, `decode-ok ${stats.outcomes['decode-ok']}`)
    assert.ok(sum(stats.outcomes, 'decode-rejected:') >= 1000, 'strict rejections')
    // relaxed mode accepts strictly more than strict mode
    assert.ok(stats.outcomes['relaxed-ok'] > stats.outcomes['decode-ok'], 'relaxed-ok should exceed decode-ok')
    assert.ok(stats.outcomes['encode-ok'] >= 1000, `encode-ok ${stats.outcomes['encode-ok']}`)
    assert.ok(sum(stats.outcomes, 'encode-rejected:') >= 100, 'encode rejections')
    // the differential saw inputs @ipld/dag-cbor accepts and we reject, for our known stricter rules
    for (const rule of ['invalid-utf8', 'float-size', 'map-key-order']) {
      assert.ok(stats.converse[rule] > 0, `no converse case for ${rule}: ${JSON.stringify(stats.converse)}`)
    }
    // strictly accepted integral float64 values, which re-encode as integers, occurred and were checked
    assert.ok(stats.outcomes['reencode-js-numbers'] > 0, `no integral float64 accepted: ${JSON.stringify(stats.outcomes)}`)
  })

  it('is deterministic for a seed, and a chunk with --start equals the same slice of a longer run', async () => {
    const whole = await runFuzz({ iterations: 600, seed: 7 })
    const again = await runFuzz({ iterations: 600, seed: 7 })
    assert.deepEqual(again.outcomes, whole.outcomes)
    const a = await runFuzz({ iterations: 300, seed: 7 })
    const b = await runFuzz({ iterations: 300, seed: 7, start: 300 })
    const merged = { ...a.outcomes }
    for (const [k, v] of Object.entries(b.outcomes)) merged[k] = (merged[k] || 0) + v
    assert.deepEqual(merged, whole.outcomes)
    const other = await runFuzz({ iterations: 600, seed: 8 })
    assert.notDeepEqual(other.outcomes, whole.outcomes)
  })

  it('replays a saved input through the decode checks', () => {
    assert.deepEqual(replayBytes(fromHex('a2616101616202')).found, [])
    const { stats } = replayBytes(fromHex('a2616201616102'))
    assert.equal(stats.outcomes['decode-rejected:map-key-order'], 1)
    assert.equal(stats.outcomes['relaxed-ok'], 1)
  })
})
