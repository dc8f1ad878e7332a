// Several inputs: verify and inspect over many files in worker processes, one JSON line per file in
// the order given, the worst status as the exit status; each line equal to the single-file run's.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { tool, tempDir, block, SAMPLE, GENESIS } from './helpers.js'
import { carV1 } from '../helpers/car-oracle.js'

describe('dag-cbor-car verify / inspect with several files', function () {
  this.timeout(60000)
  /** @type {string} */ let tmp
  before(() => { tmp = tempDir() })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it('inspect a b c d --json: one line per file, in order, equal to the single-file runs; worst status', () => {
    const good = block({ good: true })
    const goodFile = path.join(tmp, 'good.car')
    fs.writeFileSync(goodFile, carV1([good.cid], [good]))
    const missing = path.join(tmp, 'missing.car')
    const files = [SAMPLE, goodFile, missing, GENESIS]
    const r = tool(['inspect', ...files, '--json'])
    assert.equal(r.code, 2, 'the worst: an unreadable file')
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l))
    // a report exits 0 with problems in the data (they are in its JSON): 1 only with --strict
    assert.deepEqual(lines.map((l) => [l.input, l.status, l.problemCount]), [[SAMPLE, 0, 140], [goodFile, 0, 0], [missing, 2, undefined], [GENESIS, 0, 1]])
    assert.match(lines[2].error, /cannot read .*missing\.car: no such file/)
    for (const i of [0, 1, 3]) {
      const single = tool(['inspect', files[i], '--json'])
      assert.deepEqual(lines[i], { ...JSON.parse(single.stdout), status: single.code })
    }
    assert.match(r.stderr, /4 files: 1 OK, 2 with problems, 1 unreadable/)
    const strict = tool(['inspect', SAMPLE, goodFile, GENESIS, '--strict'])
    assert.equal(strict.code, 1)
    assert.deepEqual(strict.stdout.trim().split('\n').map((l) => l.split(/\s+/)[0]), ['FAIL', 'OK', 'FAIL', '3'])
    const text = tool(['inspect', SAMPLE, goodFile, GENESIS])
    assert.equal(text.code, 0)
    assert.equal(text.stdout, strict.stdout, 'the same lines, FAIL for the files with problems')
  })

  it('verify a b: one text line per file and a total; exit 1; a flag meant for one input is refused', () => {
    const good = block({ good: true })
    const goodFile = path.join(tmp, 'good2.car')
    fs.writeFileSync(goodFile, carV1([good.cid], [good]))
    const r = tool(['verify', goodFile, GENESIS])
    assert.equal(r.code, 1)
    const lines = r.stdout.trim().split('\n')
    assert.equal(lines[0], `OK     ${goodFile}`)
    assert.match(lines[1], /^FAIL {3}.*genesis\.car: 1 problem, first bafyreiaqpwbbyjo4a42saasj36kkrpv4tsherf2e7bvezkert2a7dhonoi non-canonical: .*keys out of order/)
    assert.equal(lines[2], '2 files: 1 OK, 1 with problems, 0 unreadable')
    const out = tool([goodFile, GENESIS, '--out', path.join(tmp, 'x.car')])
    assert.equal(out.code, 2)
    assert.match(out.stderr, /^dag-cbor-car: --out writes one output, so it takes one input; 2 were given/)
    const flag = tool([goodFile, GENESIS, '--frobnicate'])
    assert.equal(flag.code, 2)
    assert.equal(flag.stdout, '')
    assert.match(flag.stderr, /^dag-cbor-car: unknown option --frobnicate\nusage:/)
  })
})
