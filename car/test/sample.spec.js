// The embedded sample: lib/node/sample.car, committed, is exactly what scripts/sample-car.js builds,
// and the planted problems lib/node/sample.js tells the check to expect are the generator's.
import assert from 'node:assert/strict'
import { buildSampleCar } from '../scripts/sample-car.js'
import { sampleCar } from '../lib/node/sample.js'

describe('the embedded sample', () => {
  it('lib/node/sample.car is byte for byte what the generator builds (node scripts/sample-car.js rewrites it)', async () => {
    const built = await buildSampleCar()
    const shipped = sampleCar()
    assert.equal(shipped.bytes.length, built.bytes.length, 'sample.car has another length than the generator\'s CAR')
    assert.ok(Buffer.from(shipped.bytes).equals(built.bytes), 'sample.car differs from the generator\'s CAR')
    assert.equal(shipped.blocks, built.blocks)
    assert.deepEqual(shipped.expected, built.expected)
  })
})
