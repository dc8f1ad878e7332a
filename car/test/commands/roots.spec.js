// dag-cbor-car roots: the header's roots, compared with @ipld/car's reading of the same CAR.
import assert from 'node:assert/strict'
import { tool, walk, block, GENESIS, SAMPLE } from './helpers.js'
import { carV1 } from '../helpers/car-oracle.js'

describe('dag-cbor-car roots', function () {
  this.timeout(60000)

  it('one root per line from a file, and the same as JSON from standard input', async () => {
    for (const file of [SAMPLE, GENESIS]) {
      const { roots } = await walk(file)
      const r = tool(['roots', file])
      assert.equal(r.code, 0)
      assert.equal(r.stdout, roots.join('\n') + '\n')
    }
    const a = block({ a: 1 })
    const b = block({ b: 2 })
    const two = tool(['roots', '-', '--json'], { input: carV1([a.cid, b.cid], [a]) })
    assert.deepEqual(JSON.parse(two.stdout), { input: 'standard input', version: 1, roots: [a.cid.toString(), b.cid.toString()] })
  })

  it('a header with no roots is said on stderr, exit 0 (1 with --strict); not a CAR is exit 2', () => {
    const noRoots = carV1([], [block({ a: 1 })])
    const none = tool(['roots', '-'], { input: noRoots })
    assert.equal(none.code, 0)
    assert.equal(none.stdout, '')
    assert.match(none.stderr, /lists no roots/)
    const strict = tool(['roots', '-', '--strict'], { input: noRoots })
    assert.equal(strict.code, 1)
    assert.match(strict.stderr, /lists no roots/)
    const junk = tool(['roots', '-'], { input: new TextEncoder().encode('hello, not a CAR') })
    assert.equal(junk.code, 2)
    assert.match(junk.stderr, /^dag-cbor-car: standard input: not a CAR file/)
  })
})
