// The embedded sample: lib/node/sample.car and sample.json, as the build wrote them, are exactly what
// scripts/sample-car.js builds now (a build older than the generator fails here).
import assert from 'node:assert/strict'
import { buildSampleCar } from '../../scripts/sample-car.js'
import { sampleCar } from '../../lib/node/sample.js'

describe('the embedded sample', () => {
  it('lib/node/sample.car is byte for byte what the generator builds, and sample.json its count and planted blocks', async () => {
    const built = await buildSampleCar()
    const shipped = sampleCar()
    assert.equal(shipped.bytes.length, built.bytes.length, 'sample.car has another length than the generator\'s CAR')
    assert.ok(Buffer.from(shipped.bytes).equals(built.bytes), 'sample.car differs from the generator\'s CAR')
    assert.equal(shipped.blocks, built.blocks)
    assert.deepEqual(shipped.expected, built.expected)
  })
})
