/* global describe, it, before */
// The codec's smoke test for every engine besides Node (test/engines/run.js runs it with mocha in
// Bun and Deno, and bundled by esbuild in Chromium and Firefox): the codec-fixtures (decode,
// re-encode byte-identically, CID, every returned array owning exactly its memory), the negative
// conformance cases (each rejected with a DagCborDecodeError at an offset inside the input), and
// a CAR round trip over the real CARs of
// test/fixtures/cars/ (every DAG-CBOR block decoded and re-encoded, every block's hash checked, the
// blocks written to a new CAR with @ipld/car and read back identical), and the typed codec
// (dag-cbor-fast/schema) on the genesis CAR's block header and an AT Protocol commit and MST node;
// browsers run it under a Content-Security-Policy without 'unsafe-eval'. Uses only what every engine
// has; in browsers the fixture readers come embedded in the bundle.
import { CarReader, CarWriter } from '@ipld/car'
import * as dagJson from '@ipld/dag-json'
import { blake2b256 } from '@multiformats/blake2/blake2b'
import { CID } from 'multiformats/cid'
import { identity } from 'multiformats/hashes/identity'
import { sha256 } from 'multiformats/hashes/sha2'
import * as dagCbor from '../../index.js'
import { loadFixtures, loadNegativeFixtures, loadCar } from '../helpers/fixtures.js'
import { dataModelDiff } from '../helpers/ipld-equal.js'
import { ownsExactly, ownershipProblem } from '../helpers/ownership.js'
import { ok, is, bytesEqual, deepEqual, fromHex, throws } from '../browser/assert.js'
import { LARGE_MAP_ROWS, expectedMapBytes } from '../helpers/large-maps.js'
import { SPIDERMONKEY, JAVASCRIPTCORE, DENO } from '../../lib/engine.js'
import { MIN_POOLED, MAX_POOLED, SLAB_SIZE } from '../../lib/pool.js'
import { MEDIUM_TEXT, SHORT_TEXT } from '../../lib/utf8.js'
import { checkMediumText } from '../helpers/medium-text.js'
import { shortKeyMap, spoiledCopies } from '../helpers/short-key-maps.js'
import { readLargeMapInBatches } from '#map-batches'
import { fromDSL } from '@ipld/schema/from-dsl.js'
import { compile } from '../../lib/schema/index.js'
import { filecoinSchema } from '../../examples/schemas/filecoin.js'
import { atprotoSchema } from '../../examples/schemas/atproto.js'
import { compileTyped as compileAheadOfTime } from '../../bench/generated/atproto.js'

const { encode, decode, DagCborDecodeError } = dagCbor
const DAG_CBOR = 0x71
/** @type {Record<number, { digest: (bytes: Uint8Array) => any }>} */
const hashers = { [sha256.code]: sha256, [blake2b256.code]: blake2b256, [identity.code]: identity }

/**
 * @param {CID} cid
 * @param {Uint8Array} bytes
 */
async function assertHashHolds (cid, bytes) {
  const hasher = hashers[cid.multihash.code]
  ok(hasher, `no hasher for multihash 0x${cid.multihash.code.toString(16)} (${cid})`)
  const digest = await hasher.digest(bytes)
  bytesEqual(digest.bytes, cid.multihash.bytes, `${cid}: the block does not hash to its CID`)
}

describe('codec-fixtures: decode, re-encode identically, CID, DAG-JSON twin', () => {
  const fixtures = loadFixtures()

  it('has all 128 fixtures', () => is(fixtures.length, 128, 'fixture count'))

  for (const fixture of fixtures) {
    it(fixture.name, async () => {
      const value = decode(fixture.cbor)
      const encoded = encode(value)
      bytesEqual(encoded, fixture.cbor, 're-encoded bytes')
      // every array returned owns exactly its memory, in every engine (test/ownership.spec.js)
      is(ownershipProblem(value), null, 'decoded arrays own exactly their memory')
      ok(ownsExactly(encoded), `the ${encoded.length}-byte encode result is ${encoded.byteOffset}+${encoded.length} of ${encoded.buffer.byteLength}`)
      is(CID.create(1, dagCbor.code, await sha256.digest(fixture.cbor)).toString(), fixture.cidString, 'CID')
      if (fixture.json) {
        const diff = dataModelDiff(value, dagJson.decode(fixture.json), { intLoose: true })
        is(diff, null, 'DAG-CBOR vs DAG-JSON data model')
      }
    })
  }
})

describe('engine flags and objects of more than 100 keys (read by Object.values in JavaScriptCore and SpiderMonkey)', () => {
  const g = /** @type {any} */ (globalThis)
  const firefox = typeof g.navigator?.userAgent === 'string' && /\bFirefox\//.test(g.navigator.userAgent)
  const bun = typeof g.Bun === 'object'
  const deno = typeof g.Deno === 'object'

  it(`the engine is told apart by its features (this is ${bun ? 'Bun' : firefox ? 'Firefox' : deno ? 'Deno' : 'a V8 engine'})`, () => {
    is(SPIDERMONKEY, firefox, 'SPIDERMONKEY')
    is(JAVASCRIPTCORE, bun, 'JAVASCRIPTCORE')
    is(DENO, deno, 'DENO')
  })

  // V8 engines pool results of 65 bytes (any size in Deno, whose V8 keeps no typed array in its
  // heap) to 4 KiB; in Bun and Firefox every result owns exactly its bytes (lib/pool.js)
  it(`encode with { pool: true }: the fixtures' bytes, ${bun || firefox ? 'every result exact' : `views of a shared slab from ${deno ? '1 byte' : '65 bytes'} to 4 KiB`}`, () => {
    is(MAX_POOLED, bun || firefox ? 0 : 4096, 'MAX_POOLED')
    is(MIN_POOLED, deno ? 1 : 65, 'MIN_POOLED')
    const kept = []
    for (const fixture of loadFixtures()) {
      const pooled = encode(decode(fixture.cbor), { pool: true })
      kept.push({ pooled, cbor: fixture.cbor })
      const inRange = pooled.length >= MIN_POOLED && pooled.length <= MAX_POOLED
      ok(inRange ? !ownsExactly(pooled) && pooled.buffer.byteLength === SLAB_SIZE : ownsExactly(pooled),
        `${fixture.name}: a ${pooled.length}-byte result at ${pooled.byteOffset} of a ${pooled.buffer.byteLength}-byte buffer`)
    }
    ok(kept.some(({ pooled }) => !ownsExactly(pooled)) === !(bun || firefox), 'some results are views in V8 engines only')
    for (const { pooled, cbor } of kept) bytesEqual(pooled, cbor, 'a kept pooled result, after the others')
  })

  for (const row of LARGE_MAP_ROWS) {
    it(row.name, () => bytesEqual(encode(row.make()), expectedMapBytes(row.entries), 'encoded map'))
  }
})

describe('text around the JS readers\' limits (mediumAscii in Chromium and Firefox)', () => {
  it('ASCII text up to 128 bytes is read in JS exactly where TextDecoder is a host function and the engine is not JavaScriptCore', () => {
    const hostDecoder = /\[native code\]/.test(Function.prototype.toString.call(TextDecoder))
    is(MEDIUM_TEXT, hostDecoder && !JAVASCRIPTCORE ? 128 : 0)
  })

  it('text of every length from SHORT_TEXT to 136 bytes: ASCII in its place, non-ASCII and invalid bytes anywhere', () => {
    checkMediumText(decode, DagCborDecodeError, SHORT_TEXT, 136)
  })
})

describe('maps of thousands of short keys (in Bun made in batches by TextDecoder and cut by substring)', () => {
  const bun = typeof (/** @type {any} */ (globalThis)).Bun === 'object'
  it(`'#map-batches' is ${bun ? "Bun's batched reader (lib/map-batches.js)" : 'no reader (lib/map-batches-off.js)'}`, () => {
    is(readLargeMapInBatches === null, !bun, 'readLargeMapInBatches is null')
  })

  for (const [label, map] of [
    ['3,000 keys, small values', shortKeyMap(3000, 7, 0, 0)],
    ['3,000 keys, every 50th value 3,000 bytes', shortKeyMap(3000, 8, 50, 3000)]
  ]) {
    it(`${label}: every key and value, re-encoded identically`, () => {
      const value = /** @type {Record<string, unknown>} */ (decode(map.bytes))
      deepEqual(Object.keys(value), map.keys, 'keys')
      map.keys.forEach((key, i) => deepEqual(value[key], map.values[i], `value of ${JSON.stringify(key)}`))
      bytesEqual(encode(value), map.bytes, 're-encoded map')
    })

    it(`${label}: an invalid byte, a duplicate or a key out of order in every 97th key, each at its offset`, () => {
      const rows = spoiledCopies(map, 97)
      ok(rows.length > 60, `${rows.length} rows`)
      for (const row of rows) {
        const err = /** @type {any} */ (throws(() => decode(row.bytes), DagCborDecodeError, `${row.label}: decode must reject it`))
        is(err.rule, row.rule, `${row.label}: rule`)
        is(err.offset, row.offset, `${row.label}: offset`)
      }
    })
  }
})

describe('conformance: codec-fixtures-negative are rejected', () => {
  const cases = loadNegativeFixtures()

  it('found the negative cases', () => ok(cases.length > 0, 'no negative cases'))

  for (const c of cases) {
    it(`${c.file}: ${c.name}`, () => {
      const bytes = fromHex(c.hex)
      const err = /** @type {any} */ (throws(() => decode(bytes), DagCborDecodeError, 'decode must reject it'))
      ok(typeof err.rule === 'string' && err.rule.length > 0, 'the error names a rule')
      ok(err.offset >= 0 && err.offset <= bytes.length, `offset ${err.offset} outside the input`)
    })
  }
})

for (const file of ['filecoin-calibnet-genesis.car', 'filecoin-sample-v1.car']) {
  describe(`CAR round trip: ${file}`, function () {
    this.timeout(60000)
    /** @type {Array<{ cid: CID, bytes: Uint8Array }>} */
    let blocks

    before(async () => { blocks = await loadCar(file) })

    it('every block hashes to its CID', async () => {
      ok(blocks.length > 1000, `only ${blocks.length} blocks`)
      for (const { cid, bytes } of blocks) await assertHashHolds(cid, bytes)
    })

    it('every DAG-CBOR block decodes (strictly, or relaxed where strict names a relaxable rule) and re-encodes', async () => {
      let strict = 0
      let relaxed = 0
      for (const { cid, bytes } of blocks.filter((b) => b.cid.code === DAG_CBOR)) {
        let value
        try {
          value = decode(bytes)
        } catch (e) {
          const err = /** @type {any} */ (e)
          ok(err instanceof DagCborDecodeError && err.relaxable, `${cid}: ${err && err.message}`)
          value = decode(bytes, { relaxed: true })
          encode(value, { escapedBytes: true })
          relaxed++
          continue
        }
        const again = encode(value)
        bytesEqual(again, bytes, `${cid}: re-encoded bytes`)
        await assertHashHolds(cid, again)
        strict++
      }
      ok(strict > 900, `only ${strict} blocks decoded strictly (${relaxed} relaxed)`)
    })

    it('writes the blocks to a new CAR with @ipld/car and reads back the same roots and blocks', async () => {
      const rootCids = [blocks[0].cid]
      const { writer, out } = CarWriter.create(rootCids)
      /** @type {Uint8Array[]} */
      const chunks = []
      const collected = (async () => { for await (const chunk of out) chunks.push(chunk) })()
      for (const block of blocks) {
        const bytes = block.cid.code === DAG_CBOR && !needsRelaxed(block.bytes) ? encode(decode(block.bytes)) : block.bytes
        await writer.put({ cid: block.cid, bytes })
      }
      await writer.close()
      await collected
      const car = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
      let at = 0
      for (const c of chunks) { car.set(c, at); at += c.length }
      const reader = await CarReader.fromBytes(car)
      is((await reader.getRoots()).map(String).join(','), rootCids.map(String).join(','), 'roots')
      let i = 0
      for await (const { cid, bytes } of reader.blocks()) {
        ok(i < blocks.length, 'more blocks than written')
        ok(cid.equals(blocks[i].cid), `block ${i}: CID ${cid} !== ${blocks[i].cid}`)
        bytesEqual(bytes, blocks[i].bytes, `block ${i} (${cid}) bytes`)
        i++
      }
      is(i, blocks.length, 'block count')
    })
  })
}

describe('typed codec (dag-cbor-fast/schema): no code generated at run time', () => {
  // browsers run this page under a Content-Security-Policy without 'unsafe-eval' (test/engines/run.js).
  // In Firefox the driver reports any eval the policy blocks as a page error, which fails the whole
  // run, so the probe below (a blocked new Function) runs in Chromium only; there a blocked eval is
  // only the EvalError it throws.
  if (typeof window !== 'undefined' && !SPIDERMONKEY) {
    it('the page forbids eval and new Function', () => {
      throws(() => new Function('return 1'), undefined, 'new Function ran: no Content-Security-Policy in force') // eslint-disable-line no-new-func
    })
  }
  it('reads every block header of the calibnet genesis CAR and writes it back, and rejects a wrong shape with its type path', async () => {
    const header = compile(fromDSL(filecoinSchema), 'BlockHeader')
    let n = 0
    for (const { bytes } of await loadCar('filecoin-calibnet-genesis.car')) {
      let generic
      try { generic = decode(bytes) } catch { continue }
      if (!Array.isArray(generic) || generic.length !== 16 || !CID.asCID(generic[8])) continue
      const value = /** @type {any} */ (header.decode(bytes))
      ok(value.Parents.length === generic[5].length && value.Height === generic[7], 'fields')
      bytesEqual(header.encode(value), bytes, 'typed encode writes the block back')
      n++
    }
    is(n, 1, 'headers')
    const wrong = encode([new Uint8Array(2), new Uint8Array(1)])
    const e = /** @type {any} */ (throws(() => header.decode(wrong), DagCborDecodeError))
    is(e.rule, 'schema-tuple-length', e.message)
    is(e.typePath, 'BlockHeader', e.message)
  })
  it('an AT Protocol commit and MST node, both ways, with closures and with readers written ahead of time', () => {
    const atproto = fromDSL(atprotoSchema)
    const cid = CID.parse('bafyreiaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')
    // fields in canonical key order, the order typed decode makes them in
    const commit = { did: 'did:plc:abc', rev: '3k2', sig: new Uint8Array(64), data: cid, prev: null, version: 3 }
    const node = { e: [{ k: new TextEncoder().encode('app.bsky.feed.post/3k2'), p: 0, t: cid, v: cid }], l: null }
    for (const [root, value, typed] of /** @type {const} */ ([
      ['Commit', commit, compile(atproto, 'Commit')],
      ['MSTNode', node, compile(atproto, 'MSTNode')],
      // the struct readers toJavaScript writes out ahead of time (bench/generated/atproto.js)
      ['Commit', commit, compileAheadOfTime('Commit')],
      ['MSTNode', node, compileAheadOfTime('MSTNode')]
    ])) {
      const bytes = typed.encode(value)
      bytesEqual(bytes, encode(value), `${root}: typed encode = generic encode`)
      const back = /** @type {any} */ (typed.decode(bytes))
      for (const k of Object.keys(value)) deepEqual(back[k], /** @type {any} */ (value)[k], `${root}: typed decode, ${k}`)
      is(Object.keys(back).length, Object.keys(value).length, `${root}: fields`)
      typed.validate(bytes)
    }
  })
})

/** @param {Uint8Array} bytes @returns {boolean} whether strict decoding rejects the block */
function needsRelaxed (bytes) {
  try { decode(bytes); return false } catch { return true }
}
