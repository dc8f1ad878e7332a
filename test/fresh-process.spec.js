// The first calls in a new process: module state starts empty (the writer's chunk list, the map key
// cache, the key-order cache), and a wrong initial value shows only on a first call, which the
// other specs cannot arrange (any of them may run first). A child process imports the codec and
// makes the calls. Under StrykerJS the active mutant is handed to the child (the instrumented code
// reads __STRYKER_ACTIVE_MUTANT__), so it runs the same code as this process.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'

const script = `
import { encode, decode } from ${JSON.stringify(new URL('../index.js', import.meta.url).href)}
const hex = (b) => Buffer.from(b).toString('hex')
console.log(hex(encode({ b: [1, 'x'], a: new Uint8Array([7]) })))
console.log(JSON.stringify(Object.keys(decode(Uint8Array.from([0xa1, 0x61, 0x00, 0x01])))))
console.log(JSON.stringify(Object.keys(decode(Uint8Array.from([0xa1, 0x60, 0x01])))))
console.log(hex(encode({ é: 1, z: 2 })))
`

describe('a new process', () => {
  it('its first encode, decode and key order are right', function () {
    this.timeout(20_000)
    const active = /** @type {any} */ (globalThis).__stryker__?.activeMutant
    const env = active === undefined ? process.env : { ...process.env, __STRYKER_ACTIVE_MUTANT__: String(active) }
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env })
    assert.equal(result.status, 0, result.stderr)
    assert.deepEqual(result.stdout.trim().split('\n'), [
      'a2616141076162820161' + '78',
      JSON.stringify(['\u0000']),
      JSON.stringify(['']),
      'a2617a0262c3a901'
    ])
  })
})
