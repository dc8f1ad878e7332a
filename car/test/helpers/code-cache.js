// The command's code cache (its first check writes it, and bin/dag-cbor-car.js compiles the bundle
// with it): made for this build of the bundle, free of the path it was built in, and taken by V8,
// which is checked in a fresh process without NODE_OPTIONS, whose flags would make V8 refuse any cache.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { WRAPPER } from '../../scripts/bundle.js'

const { cacheDataOffset, BUNDLE_NAME } = createRequire(import.meta.url)('../../bin/dag-cbor-car.js')
/** what the loader names the bundle in V8 (bin/dag-cbor-car.js) */
export { BUNDLE_NAME }

/**
 * Fails unless `cache` starts with the bundle's first line (which names its build), padded to V8's
 * 8-byte alignment, holds code, and does not name the directory the package was built in (it ships
 * in the package).
 *
 * @param {string} bundle the bundle's path
 * @param {string} cache its code cache's path
 * @param {string} checkout the package's directory
 */
export function assertBuiltTogether (bundle, cache, checkout) {
  const text = fs.readFileSync(bundle, 'utf8')
  const id = text.slice(0, text.indexOf('\n') + 1)
  assert.match(id, /^\/\/ build [0-9a-f]{32}\n$/)
  assert.ok(text.startsWith(id + WRAPPER[0]) && text.endsWith(WRAPPER[1]), 'the bundle is not inside its function wrapper')
  const bytes = fs.readFileSync(cache)
  const dataAt = cacheDataOffset(id.length)
  assert.equal(dataAt % 8, 0)
  assert.equal(bytes.subarray(0, dataAt).toString('latin1'), id + ' '.repeat(dataAt - id.length))
  assert.ok(bytes.length > dataAt + 1000, 'the cache holds no code')
  assert.equal(bytes.indexOf(Buffer.from(checkout.replace(/[\\/]$/, ''))), -1, 'the cache holds the path it was built in')
}

/**
 * Fails unless V8, compiling `bundle` as the loader does (named `name`), accepts `cache`.
 *
 * @param {string} bundle the bundle's path
 * @param {string} cache its code cache's path (the bundle's first line, then V8's data)
 * @param {string} name the name the loader compiles it under
 * @param {string} [nodeOptions] NODE_OPTIONS for the process that compiles it (none by default)
 */
export function assertCacheTaken (bundle, cache, name, nodeOptions) {
  const check = `
    const fs = require('node:fs'), vm = require('node:vm')
    const bundle = fs.readFileSync(${JSON.stringify(bundle)}, 'utf8')
    const cachedData = fs.readFileSync(${JSON.stringify(cache)}).subarray(${cacheDataOffset(fs.readFileSync(bundle, 'utf8').indexOf('\n') + 1)})
    const script = new vm.Script(bundle, { filename: ${JSON.stringify(name)}, cachedData })
    console.log(script.cachedDataRejected)`
  const { NODE_OPTIONS, ...env } = process.env
  const r = spawnSync(process.execPath, ['-e', check], { env: nodeOptions === undefined ? env : { ...env, NODE_OPTIONS: nodeOptions }, encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout.trim(), 'false', 'V8 refused the cache')
}
