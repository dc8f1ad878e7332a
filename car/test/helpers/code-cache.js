// Whether V8 takes a bundle's code cache (lib/node/load-bundle.cjs compiles each bundle so): checked
// in a fresh process without NODE_OPTIONS, whose flags would make V8 refuse any cache.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'

/**
 * Fails unless V8, compiling `bundle` as the loader does (named `name`), accepts `cache`.
 *
 * @param {string} bundle the bundle's path
 * @param {string} cache its code cache's path (the bundle's first line, then V8's data)
 * @param {string} name the name the loader compiles it under
 */
export function assertCacheTaken (bundle, cache, name) {
  const check = `
    const fs = require('node:fs'), vm = require('node:vm'), { wrap } = require('node:module')
    const bundle = fs.readFileSync(${JSON.stringify(bundle)}, 'utf8')
    const cachedData = fs.readFileSync(${JSON.stringify(cache)}).subarray(bundle.indexOf('\\n') + 1)
    const script = new vm.Script(wrap(bundle), { filename: ${JSON.stringify(name)}, cachedData })
    console.log(script.cachedDataRejected)`
  const { NODE_OPTIONS, ...env } = process.env
  const r = spawnSync(process.execPath, ['-e', check], { env, encoding: 'utf8' })
  assert.equal(r.status, 0, r.stderr)
  assert.equal(r.stdout.trim(), 'false', 'V8 refused the cache')
}
