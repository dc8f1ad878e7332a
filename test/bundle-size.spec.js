// The bundle sizes never grow unnoticed: `npm run size` (bench/size.js) builds each drop-in bundle
// (named encode + decode, the namespace used as a value, the README's Block.encode example) and
// exits 1 when one is over its ceiling in bench/size-ceilings.json (today's size); it reports
// beside it the goal, @ipld/dag-cbor's same bundle; and bench/README.md's bundle table is the one
// it prints.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

describe('bundle size: every drop-in bundle at most its ceiling, bench/README.md\'s table what npm run size prints', function () {
  this.timeout(120_000)
  it('npm run size meets every ceiling', () => {
    const script = fileURLToPath(new URL('../bench/size.js', import.meta.url))
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 100_000 })
    assert.equal(r.error, undefined, 'bench/size.js did not finish within 100 s')
    const verdicts = r.stdout.split('\n').filter((line) => /^(met|NOT met)\b/.test(line))
    assert.ok(verdicts.length >= 3, `no verdicts printed:\n${r.stdout}\n${r.stderr}`)
    assert.equal(r.status, 0, `a bundle is over its ceiling:\n${verdicts.join('\n')}\n${r.stderr}`)
    // bench/README.md's table is the one figure of these sizes: it must be what this run printed
    assert.match(r.stdout, /^bench\/README\.md: bundle-size table matches this run$/m,
      `bench/README.md's bundle table is not what npm run size printed: run npm run size -- --write-readme\n${r.stdout}`)
  })
})
