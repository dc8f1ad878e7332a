// The library's Node entry as the package gives it (lib/node/library.js: lib/node/index.js run from
// its bundle, scripts/build-library.js): the same exports as the source, its synchronous API working
// on first use in a fresh process, its CIDs the caller's multiformats class, its worker threads
// found from the bundle, its code cache taken, and a clear error when the bundle is missing.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as dagJson from '@ipld/dag-json'
import * as dagPb from '@ipld/dag-pb'
import * as dagCbor from 'dag-cbor-fast'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import * as source from '../lib/node/index.js'
import { LIBRARY_BUNDLE, LIBRARY_CACHE } from '../scripts/build-library.js'
import { assertBuiltTogether, assertCacheTaken } from './helpers/code-cache.js'

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

describe('the library\'s Node entry (lib/node/library.js, from its bundle)', function () {
  this.timeout(60_000)

  it('the package\'s "node" export is lib/node/library.js, and it exports what lib/node/index.js does', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(car, 'package.json'), 'utf8'))
    assert.equal(manifest.exports['.'].node.default, './lib/node/library.js')
    assert.equal(manifest.exports['.'].node.types, './types/lib/node/index.d.ts')
    assert.deepEqual(manifest.exports['.'].bun, { types: './types/lib/node/index.d.ts', default: './lib/node/index.js' })
    assert.equal(manifest.exports['.'].node.module, './lib/node/index.js')
    const entry = await import('../lib/node/library.js')
    assert.deepEqual(Object.keys(entry).sort(), Object.keys(source).sort())
    for (const name of Object.keys(source)) assert.equal(typeof entry[/** @type {keyof typeof entry} */ (name)], typeof source[/** @type {keyof typeof source} */ (name)], name)
  })

  it('\'dag-cbor-car/core\' in Node is the core from the same bundle: one copy of its classes and hashers with \'dag-cbor-car\'', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(car, 'package.json'), 'utf8'))
    assert.equal(manifest.exports['./core'].node.default, './lib/node/core.js')
    assert.equal(manifest.exports['./core'].node.module, './lib/core/index.js')
    const coreSource = await import('../lib/core/index.js')
    const coreEntry = await import('../lib/node/core.js')
    assert.deepEqual(Object.keys(coreEntry).sort(), Object.keys(coreSource).sort())
    const got = fresh(`
      import * as main from 'dag-cbor-car'
      import * as core from 'dag-cbor-car/core'
      const shared = ['CarBlockError', 'CarReadError', 'CarWriter', 'blockToJson', 'installHashers', 'hashBackends']
      let caught = null
      try { await core.verifyCar(new Uint8Array([1, 2, 3])) } catch (err) { caught = err }
      console.log(JSON.stringify({
        same: shared.filter((name) => main[name] === core[name]),
        thrown: caught !== null,
        instanceOfMain: caught instanceof main.CarReadError
      }))`)
    assert.deepEqual(got.same, ['CarBlockError', 'CarReadError', 'CarWriter', 'blockToJson', 'installHashers', 'hashBackends'])
    assert.equal(got.thrown, true)
    assert.equal(got.instanceOfMain, true)
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

  it('its CIDs are the caller\'s multiformats CID class, and its worker threads (verifyCar, CarBlockIterator) run from the bundle', async () => {
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

  it('a Node program bundled by esbuild gets the entry\'s modules (the "module" condition), not the loader of a bundle it would not find, and runs', async () => {
    const esbuild = await import('esbuild')
    const dir = scratchDir('bundled-app-')
    try {
      fs.writeFileSync(path.join(dir, 'app.js'), `
        import { verifyCar } from 'dag-cbor-car'
        const summary = await verifyCar(process.argv[2])
        console.log(JSON.stringify(summary))`)
      const result = await esbuild.build({ entryPoints: [path.join(dir, 'app.js')], outfile: path.join(dir, 'app.bundle.mjs'), bundle: true, platform: 'node', format: 'esm', metafile: true, logLevel: 'error' })
      const inputs = Object.keys(result.metafile.inputs)
      assert.ok(inputs.some((i) => i.endsWith('lib/node/index.js')), inputs.join('\n'))
      assert.ok(!inputs.some((i) => i.endsWith('lib/node/library.js')), 'the bundle holds the loader of lib/node/library.bundle.cjs')
      const { NODE_OPTIONS, ...env } = process.env
      const r = spawnSync(process.execPath, [path.join(dir, 'app.bundle.mjs'), GENESIS], { env, encoding: 'utf8' })
      assert.equal(r.status, 0, r.stderr)
      assert.deepEqual(counts(JSON.parse(r.stdout)), counts(await source.verifyCar(GENESIS)))
    } finally {
      removeScratch(dir)
    }
  })

  it('the bundle and its code cache are built together, and V8 takes the cache', () => {
    assertBuiltTogether(LIBRARY_BUNDLE, LIBRARY_CACHE, car)
    assertCacheTaken(LIBRARY_BUNDLE, LIBRARY_CACHE, 'dag-cbor-car/lib/node/library.bundle.cjs')
  })

  it('without its bundle, importing it fails with an error saying how to build it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-entry-'))
    try {
      fs.mkdirSync(path.join(dir, 'lib/node'), { recursive: true })
      for (const f of ['library.js', 'library-bundle.js', 'load-bundle.cjs']) fs.copyFileSync(path.join(car, 'lib/node', f), path.join(dir, 'lib/node', f))
      fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }')
      const r = spawnSync(process.execPath, [path.join(dir, 'lib/node/library.js')], { encoding: 'utf8' })
      assert.equal(r.status, 1)
      assert.match(r.stderr, /lib\/node\/library\.bundle\.cjs is missing: in a clone of the repository, run npm install/)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
