// The example Worker (car/examples/workerd/worker.js) in workerd, which run.js runs with mocha in
// Node: bundled by the example's build.js (esbuild), served by workerd on a free localhost port, and
// sent every CAR of run.js's cases as a streamed POST body. Its answer must be the summary Node's
// verifyCar gives (CAR_RUNTIMES_EXPECTED, from run.js), 200 for a good CAR and 422 for a corrupted
// one, and its hashes must be the core's pure-JS fallback: workerd refuses to compile WebAssembly
// at run time. The same again for node-crypto.js, the Worker with workerd's node:crypto SHA-256.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { startWorkerd, postTo } from '../../../engines/engines.js'
import { buildWorker } from '../../examples/workerd/build.js'
import { comparable } from './observe.js'

const file = process.env.CAR_RUNTIMES_EXPECTED
if (!file) throw new Error('CAR_RUNTIMES_EXPECTED is not set: run this file through car/test/runtimes/run.js, which computes Node\'s answers first')
/** @type {{ node: string, runtime: string, backends: Record<string, string>, cases: { name: string, file: string, corrupted?: boolean, parts: Record<string, any> }[] }} */
const expected = JSON.parse(fs.readFileSync(file, 'utf8'))

/**
 * POSTs a file as a stream (chunked transfer encoding, no length given) in small chunks.
 *
 * @param {string} url
 * @param {string} car
 */
function postStreamed (url, car) {
  return postTo(url, fs.createReadStream(car, { highWaterMark: 4093 }))
}

/** The Worker files tested, and the hash backends each must report */
const WORKERS = [
  { entry: 'worker.js', what: 'the core as it is there', backends: expected.backends },
  { entry: 'node-crypto.js', what: 'with node:crypto\'s SHA-256 installed', backends: { ...expected.backends, 'sha2-256': 'node:crypto' } }
]

for (const { entry, what, backends } of WORKERS) {
  describe(`${entry} (${what}) in ${expected.runtime}, verifying CARs POSTed to it: the same summaries as ${expected.node}`, function () {
    this.timeout(120_000)
    /** @type {string} */
    let dir
    /** @type {Awaited<ReturnType<typeof startWorkerd>> | undefined} */
    let workerd
    /** @type {string[]} */
    const backendHeaders = []

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'car-workerd-'))
      workerd = await startWorkerd(await buildWorker(entry, dir))
    })

    after(async () => {
      if (workerd) {
        await workerd.close()
        if (workerd.output().trim()) console.log(`workerd's output:\n${workerd.output()}`)
      }
      fs.rmSync(dir, { recursive: true, force: true })
    })

    for (const c of expected.cases) {
      it(`${c.name}: ${c.corrupted ? '422, and' : '200, and'} the summary equals Node's`, async () => {
        const { status, headers, text } = await postStreamed(`${workerd?.base}/?name=${encodeURIComponent(c.name)}`, c.file)
        const want = c.parts.summary
        assert.equal(status, want.result === 'ok' ? 200 : 422, text.slice(0, 2000))
        const summary = JSON.parse(text)
        assert.equal(summary.input, c.name, 'the name given in the query string')
        assert.deepEqual(comparable(summary), want)
        if (c.corrupted) assert.equal(summary.hashMismatches, 1)
        backendHeaders.push(String(headers['x-hash-backends']))
      })
    }

    // a hasher is loaded when first needed: after all the CARs above, every hash has been
    it(`hashes with ${JSON.stringify(backends)} (hashBackends() there, after every CAR above)`, () => {
      const want = Object.entries(backends).map(([hash, backend]) => `${hash}=${backend}`).join(', ')
      assert.ok(backendHeaders.length > 0, 'no CAR was verified')
      assert.equal(backendHeaders[backendHeaders.length - 1], want)
    })

    it('a body that is not a CAR: 400 or 422, with the reason', async () => {
      const { status, text } = await postTo(`${workerd?.base}/`, new TextEncoder().encode('this is not a CAR'))
      const answer = JSON.parse(text)
      assert.ok(status === 400 || status === 422, `status ${status}`)
      assert.match(JSON.stringify(answer), /header|CAR|byte offset/i)
      assert.notEqual(answer.result, 'ok')
    })

    it('a GET: 405, with how to use it', async () => {
      const response = await fetch(`${workerd?.base}/`)
      assert.equal(response.status, 405)
      assert.match(await response.text(), /POST a CAR/)
    })
  })
}
