// The library's entries as the package's exports map gives them: in Node (and Deno, Bun) 'dag-cbor-car'
// is lib/node/library.cjs and 'dag-cbor-car/core' lib/node/core.cjs, which give lib/node/node-library.js
// and lib/core/index.js themselves (in the packed package too: test/package.test.js), at most two
// conditions an export: the same names as those modules, one
// copy of the core for both, its synchronous API working on first use in a fresh process, its CIDs
// the caller's multiformats class, its worker threads running the same modules, require() and a
// program bundled by esbuild loading it.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as dagJson from '@ipld/dag-json'
import * as dagPb from '@ipld/dag-pb'
import * as dagCbor from 'dag-cbor-fast'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import * as source from '../lib/node/node-library.js'
import * as sourceCore from '../lib/core/index.js'
import * as viaLibraryCjs from '../lib/node/library.cjs'
import * as viaCoreCjs from '../lib/node/core.cjs'

const car = fileURLToPath(new URL('../', import.meta.url))
const GENESIS = fileURLToPath(new URL('../../test/fixtures/cars/filecoin-calibnet-genesis.car', import.meta.url))
const REPO = fileURLToPath(new URL('fixtures/atproto/repo-small-v2.car', import.meta.url))

/**
 * A script run in a fresh Node process from a file inside car/ (where 'dag-cbor-car' is this
 * package through its exports map; a file, not -e: worker threads inherit -e's flags); its stdout
 * parsed as JSON.
 *
 * @param {string} script
 * @param {string[]} [args]
 * @param {'mjs' | 'cjs'} [kind]
 */
function fresh (script, args = [], kind = 'mjs') {
  const dir = scratchDir('library-entry-')
  try {
    const file = path.join(dir, `script.${kind}`)
    fs.writeFileSync(file, script)
    const { NODE_OPTIONS, ...env } = process.env
    const r = spawnSync(process.execPath, [file, ...args], { env, encoding: 'utf8' })
    assert.equal(r.status, 0, r.stderr)
    assert.equal(r.stderr, '')
    return JSON.parse(r.stdout)
  } finally {
    removeScratch(dir)
  }
}

/** A directory of its own under car/.scratch (git-ignored), inside the package, where 'dag-cbor-car' resolves to it. */
function scratchDir (/** @type {string} */ prefix) {
  fs.mkdirSync(path.join(car, '.scratch'), { recursive: true })
  return fs.mkdtempSync(path.join(car, '.scratch', prefix))
}

/** @param {string} dir removed, and .scratch too when nothing else is in it */
function removeScratch (dir) {
  fs.rmSync(dir, { recursive: true, force: true })
  try { fs.rmdirSync(path.join(car, '.scratch')) } catch {}
}

/** @param {any} s a summary without its timings */
const counts = ({ seconds, mbPerSec, ...rest }) => rest

/** @param {number} code @param {Uint8Array} bytes */
const block = (code, bytes) => ({ cid: CID.create(1, code, sha256.digest(bytes)), bytes })

describe('the library\'s entries (the exports map)', function () {
  this.timeout(60_000)

  it('each export has at most two conditions, "node" and "default": in Node \'dag-cbor-car\' is lib/node/library.cjs, \'dag-cbor-car/core\' lib/node/core.cjs', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(car, 'package.json'), 'utf8'))
    for (const [name, target] of Object.entries(manifest.exports)) {
      if (typeof target === 'string') continue
      const conditions = Object.keys(target).filter((k) => k !== 'types')
      assert.ok(conditions.length <= 2 && conditions.every((c) => c === 'node' || c === 'default'), `${name}: ${conditions}`)
    }
    assert.deepEqual(manifest.exports['.'].node, { types: './types/lib/node/node-library.d.ts', default: './lib/node/library.cjs' })
    assert.deepEqual(manifest.exports['.'].default, { types: './types/lib/core/index.d.ts', default: './lib/core/index.js' })
    assert.deepEqual(manifest.exports['./core'].node, { types: './types/lib/core/index.d.ts', default: './lib/node/core.cjs' })
    assert.deepEqual(manifest.exports['./core'].default, { types: './types/lib/core/index.d.ts', default: './lib/core/index.js' })
    const resolved = fresh(`console.log(JSON.stringify([import.meta.resolve('dag-cbor-car'), import.meta.resolve('dag-cbor-car/core')]))`)
    assert.deepEqual(resolved.map((/** @type {string} */ u) => path.relative(car, fileURLToPath(u))), ['lib/node/library.cjs', 'lib/node/core.cjs'])
  })

  it('library.cjs and core.cjs give, by import and by require, every name of lib/node/node-library.js and lib/core/index.js, and no other', () => {
    const require = createRequire(import.meta.url)
    for (const [cjs, required, esm] of /** @type {const} */ ([[viaLibraryCjs, require('../lib/node/library.cjs'), source], [viaCoreCjs, require('../lib/node/core.cjs'), sourceCore]])) {
      // import finds a CommonJS module's names by reading its source (Node's CommonJS lexer)
      assert.deepEqual(Object.keys(cjs).filter((k) => k !== 'default').sort(), Object.keys(esm).sort())
      assert.deepEqual(Object.keys(required).sort(), Object.keys(esm).sort())
      for (const name of Object.keys(esm)) {
        assert.equal(/** @type {any} */ (cjs)[name], /** @type {any} */ (esm)[name], name)
        assert.equal(required[name], /** @type {any} */ (esm)[name], name)
      }
    }
  })

  it("@ipld/car's sub-entries give @ipld/car's names and no other, under both conditions; in Node, the Node entry's own", async () => {
    // what each of @ipld/car 5.4's sub-entries exports (its src/*.js), less __browser, its flag for
    // which of its builds was loaded; the decoder also gives UnexpectedEnd (docs/from-ipld-car.md)
    const EXPECTED = {
      './reader': ['CarReader'],
      './buffer-reader': ['CarBufferReader'],
      './indexer': ['CarIndexer'],
      './iterator': ['CarBlockIterator', 'CarCIDIterator'],
      './writer': ['CarWriter'],
      './indexed-reader': ['CarIndexedReader'],
      './buffer-writer': ['addBlock', 'addRoot', 'blockLength', 'calculateHeaderLength', 'close', 'createWriter', 'estimateHeaderLength', 'headerLength', 'resizeHeader'],
      './decoder': ['UnexpectedEnd', 'asyncIterableReader', 'bytesReader', 'chunkReader', 'createDecoder', 'limitReader', 'readBlockHead', 'readHeader']
    }
    const manifest = JSON.parse(fs.readFileSync(path.join(car, 'package.json'), 'utf8'))
    const subEntries = Object.keys(manifest.exports).filter((name) => !['.', './core', './package.json'].includes(name))
    assert.deepEqual(subEntries.sort(), Object.keys(EXPECTED).sort())
    const require = createRequire(import.meta.url)
    const nodeLibrary = { ...require('../lib/node/library.cjs'), ...require('../lib/node/library-decoder.cjs') }
    const wrong = []
    for (const [name, expected] of Object.entries(EXPECTED)) {
      const target = manifest.exports[name]
      for (const condition of ['default', 'node']) {
        const chosen = typeof target.default === 'string' ? target : (target[condition] ?? target.default)
        const module = await import(path.join(car, chosen.default))
        // a CommonJS module's import also gives `default` (its module.exports), which is no name of its own
        const names = Object.keys(module).filter((k) => !(k === 'default' && chosen.default.endsWith('.cjs'))).sort()
        if (JSON.stringify(names) !== JSON.stringify(expected)) wrong.push(`${name} (${condition}, ${chosen.default}): ${names.join(', ')}`)
        // in Node, the one library: the same classes as 'dag-cbor-car' gives
        if (condition === 'node' && target.node) for (const n of expected) if (module[n] !== nodeLibrary[n]) wrong.push(`${name} (node): ${n} is not the Node entry's`)
      }
    }
    assert.deepEqual(wrong, [], 'sub-entries giving other names than @ipld/car\'s')
  })

  it("'dag-cbor-car/indexed-reader' outside Node: a CarIndexedReader whose fromFile rejects, saying why and what to use", async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(car, 'package.json'), 'utf8'))
    const { CarIndexedReader } = await import(path.join(car, manifest.exports['./indexed-reader'].default.default))
    await assert.rejects(CarIndexedReader.fromFile('x.car'), /^Error: CarIndexedReader\.fromFile\("x\.car"\) reads a file by its path, which needs Node, Deno or Bun .*; here, read the CAR's bytes or stream with CarReader/)
  })

  it('\'dag-cbor-car\' and \'dag-cbor-car/core\' in one Node program share one core: its classes and hashers', async () => {
    const got = fresh(`
      import * as main from 'dag-cbor-car'
      import * as core from 'dag-cbor-car/core'
      const shared = ['CarBlockError', 'CarReadError', 'InputFailedError', 'CarWriter', 'blockToJson', 'installHashers', 'hashBackends']
      let caught = null
      try { await core.verifyCar(new Uint8Array([1, 2, 3])) } catch (err) { caught = err }
      // an input that fails (a disk error) is an InputFailedError, a CarReadError, whichever entry reads it
      const failing = () => (async function * () { throw Object.assign(new Error('the disk went away'), { code: 'EIO' }) })()
      const failed = await Promise.all([main.verifyCar(failing()).catch((err) => err), core.CarBlockIterator.fromIterable(failing()).catch((err) => err)])
      console.log(JSON.stringify({
        same: shared.filter((name) => main[name] === core[name]),
        thrown: caught !== null,
        instanceOfMain: caught instanceof main.CarReadError,
        inputFailed: failed.map((err) => [err instanceof main.InputFailedError, err instanceof core.CarReadError, err.code]),
        backends: core.hashBackends()
      }))`)
    assert.deepEqual(got.same, ['CarBlockError', 'CarReadError', 'InputFailedError', 'CarWriter', 'blockToJson', 'installHashers', 'hashBackends'])
    assert.equal(got.thrown, true)
    assert.equal(got.instanceOfMain, true)
    assert.deepEqual(got.inputFailed, [[true, true, 'EIO'], [true, true, 'EIO']])
    // the core's #hashers import, not an import of the Node entry, installs node:crypto's sha2-256
    assert.equal(got.backends['sha2-256'], 'node:crypto')
  })

  it('blockToJson is synchronous and works on first use in a fresh process, for every codec it reads', () => {
    const leaf = block(0x55, new TextEncoder().encode('a leaf'))
    const blocks = [
      block(0x71, dagCbor.encode({ hello: 'world', link: leaf.cid, n: [1, 2.5, -3] })),
      block(0x0129, dagJson.encode({ a: leaf.cid, b: new Uint8Array([1, 2, 3]), c: 'text' })),
      block(0x70, dagPb.encode({ Data: new Uint8Array([8, 1]), Links: [{ Hash: leaf.cid, Name: 'leaf', Tsize: 6 }] })),
      leaf,
      block(0x0200, new TextEncoder().encode('{"plain":[1,2]}'))
    ]
    const given = blocks.map(({ cid, bytes }) => ({ cid: cid.toString(), bytes: Buffer.from(bytes).toString('base64') }))
    // the first thing the process does: import the package, then call blockToJson with no await
    const got = fresh(`
      import { blockToJson } from 'dag-cbor-car'
      import { CID } from 'multiformats/cid'
      const blocks = JSON.parse(process.argv[2])
      const out = blocks.map((b) => blockToJson(CID.parse(b.cid), new Uint8Array(Buffer.from(b.bytes, 'base64'))))
      console.log(JSON.stringify(out))`, [JSON.stringify(given)])
    const want = blocks.map(({ cid, bytes }) => source.blockToJson(cid, bytes))
    assert.deepEqual(got, want)
    assert.ok(want.every((r) => r.error === undefined && r.json.length > 0), JSON.stringify(want))
    assert.deepEqual(want[2].links, [leaf.cid.toString()])
  })

  it('its CIDs are the caller\'s multiformats CID class, and its worker threads (verifyCar, CarBlockIterator) run', async () => {
    const got = fresh(`
      import { verifyCar, CarBlockIterator } from 'dag-cbor-car'
      import { CID } from 'multiformats/cid'
      const file = process.argv[2]
      let blocks = 0, foreign = 0
      const iterator = await CarBlockIterator.fromIterable(file, { workers: 2 })
      const roots = await iterator.getRoots()
      for await (const block of iterator) {
        blocks++
        if (!(block.cid instanceof CID)) foreign++
      }
      const summary = await verifyCar(file, { workers: 2 })
      console.log(JSON.stringify({ blocks, foreign, rootsOurs: roots.every((r) => r instanceof CID), summary }))`, [GENESIS])
    assert.equal(got.blocks, 1207)
    assert.equal(got.foreign, 0)
    assert.equal(got.rootsOurs, true)
    assert.equal(got.summary.workers, 2)
    assert.deepEqual(counts(got.summary), counts(await source.verifyCar(GENESIS, { workers: 2 })))
  })

  it('require() loads it too, and checkRepo runs from it', async () => {
    const got = fresh(`
      const { checkRepo } = require('dag-cbor-car')
      checkRepo(process.argv[2]).then((r) => console.log(JSON.stringify(r)))`, [REPO], 'cjs')
    assert.deepEqual(got, JSON.parse(JSON.stringify(await source.checkRepo(REPO))))
  })

  it('a Node program bundled by esbuild gets the entry\'s modules, and runs', async () => {
    const esbuild = await import('esbuild')
    const dir = scratchDir('bundled-app-')
    try {
      fs.writeFileSync(path.join(dir, 'app.js'), `
        import { verifyCar } from 'dag-cbor-car'
        const summary = await verifyCar(process.argv[2])
        console.log(JSON.stringify(summary))`)
      const result = await esbuild.build({ entryPoints: [path.join(dir, 'app.js')], outfile: path.join(dir, 'app.bundle.mjs'), bundle: true, platform: 'node', format: 'esm', metafile: true, logLevel: 'error' })
      const inputs = Object.keys(result.metafile.inputs)
      assert.ok(inputs.some((i) => i.endsWith('lib/node/node-library.js')), inputs.join('\n'))
      assert.ok(inputs.some((i) => i.endsWith('lib/node/hashers-node.js')), 'the #hashers import resolved to the Node file')
      const { NODE_OPTIONS, ...env } = process.env
      const r = spawnSync(process.execPath, [path.join(dir, 'app.bundle.mjs'), GENESIS], { env, encoding: 'utf8' })
      assert.equal(r.status, 0, r.stderr)
      assert.deepEqual(counts(JSON.parse(r.stdout)), counts(await source.verifyCar(GENESIS)))
    } finally {
      removeScratch(dir)
    }
  })
})
