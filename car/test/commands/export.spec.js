// dag-cbor-car export | import: byte-identical round trips, on CARs of canonical DAG-CBOR and raw
// blocks built here and on the real fixture CARs (whose non-canonical blocks travel as bytes);
// exported values compared with @ipld/dag-json's encoding of @ipld/dag-cbor's decoding.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import * as dagCbor from '@ipld/dag-cbor'
import * as dagJson from '@ipld/dag-json'
import * as dagPb from '@ipld/dag-pb'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import { CID } from 'multiformats/cid'
import { tool, tempDir, walk, block, dagPbCar, SAMPLE, GENESIS } from './helpers.js'
import { carV1, cidOf, withLongVarints } from '../helpers/car-oracle.js'

/** export, then import what it printed; returns both runs and the CAR written */
function roundTrip (/** @type {string} */ file, /** @type {string} */ out) {
  const exported = tool(['export', file])
  const imported = tool(['import', '-', '--out', out], { input: exported.stdoutBytes })
  return { exported, imported, lines: exported.stdout.trim().split('\n').map((l) => JSON.parse(l)) }
}

describe('dag-cbor-car export and import', function () {
  this.timeout(60000)
  /** @type {string} */ let tmp
  before(() => { tmp = tempDir() })
  after(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it('a CAR of canonical DAG-CBOR and raw blocks comes back byte for byte; -0 and float64 integers travel as bytes', async () => {
    const leaf = block(new Uint8Array([1, 2, 3, 250]), { codec: 0x55 })
    const values = [
      { text: 'héllo ✓ 𝄞', empty: '', list: [], map: {}, n: null, yes: true, no: false },
      { ints: [0, 1, -1, 23, 24, 255, 256, 65535, 65536, -65537, 2 ** 32, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER] },
      { big: 2n ** 63n, negBig: -(2n ** 64n), floats: [0.5, -1.25, 1e-300, 1.7976931348623157e308, 3.141592653589793] },
      { bytes: new Uint8Array([0, 255, 128]), link: leaf.cid, nested: { deeper: [[{ link: leaf.cid }]] } }
    ]
    const blocks = [leaf, ...values.map((v) => block(v))]
    const b2 = dagCbor.encode({ hashedWith: 'blake2b-256' })
    blocks.push({ cid: CID.create(1, 0x71, await blake2b256.digest(b2)), bytes: b2 })
    // canonical DAG-CBOR that JavaScript cannot carry through DAG-JSON exactly: -0, and 1.0 as a float64
    const minusZero = Uint8Array.from([0xa1, 0x61, 0x7a, 0xfb, 0x80, 0, 0, 0, 0, 0, 0, 0])
    const floatOne = Uint8Array.from([0xa1, 0x61, 0x66, 0xfb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0])
    for (const bytes of [minusZero, floatOne]) blocks.push(block(bytes, { encoded: true }))
    blocks.push(blocks[1]) // a duplicate
    const file = path.join(tmp, 'canonical.car')
    fs.writeFileSync(file, carV1([blocks[4].cid, leaf.cid], blocks))
    const out = path.join(tmp, 'canonical-back.car')
    const { exported, imported, lines } = roundTrip(file, out)
    assert.equal(exported.code, 0, exported.stderr)
    assert.equal(imported.code, 0, imported.stderr)
    assert.deepEqual(fs.readFileSync(out), fs.readFileSync(file))
    assert.deepEqual(lines[0], { roots: [{ '/': blocks[4].cid.toString() }, { '/': leaf.cid.toString() }], version: 1 })
    assert.deepEqual(lines.slice(1).map((l) => l.value === undefined ? 'bytes' : 'value'), ['bytes', 'value', 'value', 'value', 'value', 'value', 'bytes', 'bytes', 'value'])
    assert.match(lines[7].note, /DAG-JSON cannot say this value exactly: -0 at \/z \(DAG-JSON writes it as 0\)/)
    assert.match(lines[8].note, /does not give back its bytes \(a float64 holding an integer reads back as an integer\)/)
    assert.equal(lines[1].bytes, Buffer.from(leaf.bytes).toString('base64'))
    // the big integers survive as integers (JSON.parse would round them; the text must not)
    assert.match(exported.stdout, /"big":9223372036854775808,/)
    assert.match(exported.stdout, /"negBig":-18446744073709551616/)
  })

  it('length varints written longer than their shortest form: verify\'s messages on stderr, the same lines written, exit 1 with --strict', () => {
    const blocks = [block({ a: 1 }), block({ b: 2 })]
    const minimal = carV1([blocks[0].cid], blocks)
    const file = path.join(tmp, 'long-varints.car')
    fs.writeFileSync(file, withLongVarints(minimal, [2]).bytes)
    const r = tool(['export', file])
    const verify = JSON.parse(tool(['verify', file, '--json']).stdout)
    assert.equal(r.code, 0)
    assert.ok(r.stderr.includes(`: ${verify.problems[0].message}\n`), r.stderr)
    assert.match(r.stderr, /: 1 of its length varints are longer than needed; import writes the shortest form/)
    const strict = tool(['export', file, '--strict'])
    assert.equal(strict.code, 1)
    assert.equal(strict.stdout, r.stdout, 'the same lines are written either way')
    fs.writeFileSync(file, minimal)
    assert.equal(tool(['export', file, '--strict']).code, 0, 'the same CAR in shortest form')
  })

  it('roots missing or none listed: said on stderr as ls says them, exit 1 with --strict, --partial accepts them', () => {
    const blocks = [block({ a: 1 }), block({ b: 2 })]
    const absent = block({ elsewhere: true })
    const file = path.join(tmp, 'roots.car')
    for (const [roots, said] of /** @type {const} */ ([[[absent.cid], `root ${absent.cid} is listed in the CAR header but not present as a block`], [[], 'the CAR header lists no roots']])) {
      fs.writeFileSync(file, carV1([...roots], blocks))
      const r = tool(['export', file])
      assert.equal(r.code, 0)
      assert.ok(r.stderr.includes(said), r.stderr)
      assert.ok(tool(['ls', file]).stderr.includes(said), 'ls says the same')
      const strict = tool(['export', file, '--strict'])
      assert.equal(strict.code, 1, strict.stderr)
      assert.equal(strict.stdout, r.stdout, 'the same lines are written either way')
      const partial = tool(['export', file, '--strict', '--partial'])
      assert.deepEqual([partial.code, partial.stderr], [0, ''])
    }
  })

  it('a block of a codec with values that does not decode, and a codec the tool does not know: problems, as verify says (exit 1 with --strict)', async () => {
    const root = block({ a: 1 })
    const junk = new Uint8Array([0xff, 0x00, 0x13])
    for (const code of [0x70, 0x0200, 0x300001]) {
      const odd = { cid: await cidOf(junk, { code }), bytes: junk }
      const file = path.join(tmp, `odd-${code}.car`)
      fs.writeFileSync(file, carV1([root.cid], [root, odd]))
      const verify = JSON.parse(tool(['verify', file, '--json']).stdout)
      assert.deepEqual(verify.problems.map((/** @type {any} */ p) => p.kind), [code === 0x300001 ? 'unknown-codec' : 'invalid'])
      const r = tool(['export', file, '--strict'])
      assert.equal(r.code, 1, r.stderr)
      assert.match(r.stderr, new RegExp(`: ${odd.cid} at byte offset ${verify.problems[0].at}: `))
      assert.equal(JSON.parse(r.stdout.split('\n')[2]).bytes, Buffer.from(junk).toString('base64'), 'exported as its bytes')
    }
  })

  it('a header whose length varint is longer than needed: the note names the varint, not the DAG-CBOR', () => {
    const blocks = [block({ a: 1 })]
    const file = path.join(tmp, 'long-header-varint.car')
    fs.writeFileSync(file, withLongVarints(carV1([blocks[0].cid], blocks), [0]).bytes)
    const r = tool(['export', file])
    assert.match(r.stderr, /the header at byte offset 0 has a length varint written longer than its shortest form/)
    assert.match(r.stderr, /: 1 of its length varints are longer than needed; import writes the shortest form/)
    assert.doesNotMatch(r.stderr, /not in canonical DAG-CBOR form/)
  })

  it('dag-pb (UnixFS) blocks export as their PBNode value and come back byte for byte; get-block shows it', () => {
    const car = dagPbCar()
    const file = path.join(tmp, 'unixfs.car')
    fs.writeFileSync(file, car.bytes)
    const out = path.join(tmp, 'unixfs-back.car')
    const { exported, imported, lines } = roundTrip(file, out)
    assert.equal(exported.code, 0, exported.stderr)
    assert.equal(imported.code, 0, imported.stderr)
    assert.deepEqual(fs.readFileSync(out), car.bytes)
    const expected = new TextDecoder().decode(dagJson.encode(dagPb.decode(car.root.bytes)))
    const rootLine = lines.find((l) => l.cid === car.root.cid.toString())
    assert.deepEqual(rootLine, { cid: car.root.cid.toString(), codec: 'dag-pb', value: JSON.parse(expected) })
    assert.equal(tool(['get-block', file, car.root.cid.toString(), '--dag-json']).stdout, expected + '\n')
  })

  for (const [file, nonCanonical] of /** @type {const} */ ([[SAMPLE, 140], [GENESIS, 1]])) {
    it(`${path.basename(file)}: back byte for byte; its ${nonCanonical} non-canonical blocks as bytes, on stderr, exit 0 (1 with --strict)`, async () => {
      const out = path.join(tmp, path.basename(file))
      const { exported, imported, lines } = roundTrip(file, out)
      assert.equal(exported.code, 0, 'the export was written: the problems in the data are on stderr')
      assert.match(exported.stderr, /not canonical DAG-CBOR/)
      const strict = tool(['export', file, '--strict'])
      assert.equal(strict.code, 1, 'with --strict, problems in the data are exit 1')
      assert.equal(strict.stdout, tool(['export', file]).stdout, 'the same lines are written either way')
      assert.equal(imported.code, 0, imported.stderr)
      assert.deepEqual(fs.readFileSync(out), fs.readFileSync(file))
      assert.equal(lines.filter((l) => l.codec === 'dag-cbor' && l.bytes !== undefined).length, nonCanonical)
      const w = await walk(file)
      lines.slice(1).forEach((line, i) => {
        const b = w.blocks[i]
        assert.equal(line.cid, b.cid.toString())
        if (line.value !== undefined) assert.deepEqual(line.value, JSON.parse(new TextDecoder().decode(dagJson.encode(dagCbor.decode(b.bytes)))))
        else assert.equal(line.bytes, Buffer.from(b.bytes).toString('base64'))
      })
    })
  }
})
