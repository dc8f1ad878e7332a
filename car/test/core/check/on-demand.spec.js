// What a CAR's blocks need beyond DAG-CBOR and sha2-256 is loaded when the first such block is
// seen (on-demand.js), and every such block is still checked: on the main thread, on a worker
// thread, and through read.js's blocks() (verify --out). Each run is a fresh process, so that
// nothing is loaded before it.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import * as dagPb from '@ipld/dag-pb'
import * as dagJson from '@ipld/dag-json'
import * as dagCbor from '@ipld/dag-cbor'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { carV1 } from '../../helpers/car-oracle.js'

const LIB = new URL('../../../lib/', import.meta.url).href

// run in a child: roundTrip over the file, then what is still not loaded
const CHILD = `
import { roundTrip } from '${LIB}node/run.js'
import { openInput } from '${LIB}node/input-source.js'
import { hasherMissing } from '${LIB}core/check/hash.js'
import { codecMissing } from '${LIB}core/check/codecs.js'
const [file, options] = [process.argv[2], JSON.parse(process.argv[3])]
const missing = () => ({ blake2b: hasherMissing(0xb220), dagPb: codecMissing(0x70), dagJson: codecMissing(0x0129) })
const before = missing()
const source = await openInput(file)
let s
try {
  s = await roundTrip({ source, ...options })
} finally {
  await source.close()
}
console.log(JSON.stringify({ before, after: missing(), result: s.result, verified: s.verified, hashMismatches: s.hashMismatches, problems: s.problems.map((p) => p.kind) }))
`

/** @param {string} child the script, as a file (worker threads take the parent's flags) @param {string} file @param {object} [options] */
function run (child, file, options = {}) {
  const r = spawnSync(process.execPath, [child, file, JSON.stringify(options)], { encoding: 'utf8', timeout: 60000 })
  assert.equal(r.status, 0, r.stderr)
  return JSON.parse(r.stdout)
}

const NOTHING_LOADED = { blake2b: true, dagPb: true, dagJson: true }

describe('on-demand loading of hashers and codecs', function () {
  this.timeout(120000)
  /** @type {string} */
  let dir
  /** @type {Record<string, string>} */
  const cars = {}
  /** @param {string} file @param {object} [options] */
  const check = (file, options) => run(path.join(dir, 'child.mjs'), file, options)

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'on-demand-'))
    fs.writeFileSync(path.join(dir, 'child.mjs'), CHILD)
    const cbor = (/** @type {any} */ v) => { const bytes = dagCbor.encode(v); return { cid: CID.create(1, 0x71, sha256.digest(bytes)), bytes } }
    const raw = { bytes: new Uint8Array([1, 2, 3]), cid: CID.create(1, 0x55, sha256.digest(new Uint8Array([1, 2, 3]))) }
    const plain = [cbor({ a: 1 }), cbor({ b: [raw.cid] }), raw]
    const pbBytes = dagPb.encode({ Data: new Uint8Array([8, 1]), Links: [] })
    const pb = { bytes: pbBytes, cid: CID.create(1, 0x70, sha256.digest(pbBytes)) }
    const jsonBytes = dagJson.encode({ hello: 'world' })
    const json = { bytes: jsonBytes, cid: CID.create(1, 0x0129, sha256.digest(jsonBytes)) }
    const blakeBytes = dagCbor.encode({ filecoin: true })
    const blake = { bytes: blakeBytes, cid: CID.create(1, 0x71, await blake2b256.digest(blakeBytes)) }
    const write = (/** @type {string} */ name, /** @type {{ cid: CID, bytes: Uint8Array }[]} */ blocks) => {
      cars[name] = path.join(dir, `${name}.car`)
      fs.writeFileSync(cars[name], carV1([blocks[0].cid], blocks))
    }
    write('sha256', plain)
    write('mixed', [...plain, pb, json, blake])
    // the first block of each kind is a bad one: a dag-pb block that is not dag-pb (hashed right),
    // a blake2b-256 block whose bytes are not the ones hashed, a dag-json block that is not JSON
    const notPb = new Uint8Array([0xff, 0xff, 0xff])
    const notJson = new TextEncoder().encode('{"a":')
    write('mixed-bad', [...plain,
      { bytes: notPb, cid: CID.create(1, 0x70, sha256.digest(notPb)) },
      { bytes: dagCbor.encode({ filecoin: false }), cid: blake.cid },
      { bytes: notJson, cid: CID.create(1, 0x0129, sha256.digest(notJson)) },
      pb, json, blake])
  })

  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('a CAR of DAG-CBOR and raw blocks hashed with sha2-256 loads no other hasher or codec', () => {
    const r = check(cars.sha256)
    assert.deepEqual(r.before, NOTHING_LOADED)
    assert.equal(r.result, 'ok')
    assert.equal(r.verified, 3)
    assert.deepEqual(r.after, NOTHING_LOADED)
  })

  for (const [how, options] of /** @type {[string, object][]} */ ([
    ['on the main thread', {}],
    ['on a worker thread', { workers: 2, mainThreadChecks: false }],
    ['through blocks() (with an output file)', { out: 'OUT' }]
  ])) {
    it(`dag-pb, dag-json and blake2b-256 blocks are checked ${how} once what they need is loaded`, () => {
      const withOut = (/** @type {any} */ o, /** @type {string} */ name) => 'out' in o ? { ...o, out: path.join(dir, `${name}-out.car`) } : o
      const good = check(cars.mixed, withOut(options, 'mixed'))
      assert.deepEqual(good.before, NOTHING_LOADED)
      assert.equal(good.result, 'ok')
      assert.equal(good.verified, 6)
      if (!('workers' in options)) assert.deepEqual(good.after, { blake2b: false, dagPb: false, dagJson: false })

      const bad = check(cars['mixed-bad'], withOut(options, 'mixed-bad'))
      assert.notEqual(bad.result, 'ok')
      assert.equal(bad.hashMismatches, 1)
      assert.equal(bad.verified, 8)
      assert.deepEqual(bad.problems, ['invalid', 'hash-mismatch', 'invalid']) // not dag-pb; the blake2b-256 block; not dag-json
    })
  }
})
