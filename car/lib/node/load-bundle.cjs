'use strict'
// Runs one of the package's bundles (scripts/bundle.js: an entry module and every module it loads
// in one CommonJS file) and returns its exports: for the command (bin/dag-cbor-car.js) and the
// library's Node entry (lib/node/library.js). Node resolves, reads and links each ES module on its
// own, and that, not the work, was most of what a short run cost; a bundle is one file.
//
// It is compiled with the V8 code cache made beside it at build time, which holds the bytecode of
// every function the build's run of it ran: V8 then neither parses the file nor compiles those
// functions again. V8 ignores a cache made by another V8 or with other flags (it compiles as
// without one); a cache for another build of the bundle is not passed (the id on the bundle's first
// line heads the cache). CommonJS: Node loads it without its ES module loader, which for an ES
// module would lex the whole file for its export names first.
const fs = require('node:fs')
const path = require('node:path')
const vm = require('node:vm')
const { createRequire, wrap } = require('node:module')

/**
 * @param {string} bundle the bundle's path (a missing one throws ENOENT with this path)
 * @param {string} cache its code cache's path (a missing one is compiled without)
 * @param {string} name what V8 names the bundle in stack traces: a code cache keeps the name of the
 *   build's run, so it is one name, the same on every machine, with or without the cache
 * @param {string} cacheOutVariable the environment variable through which the build's run that
 *   makes the cache names the file to write it to, as the process ends (it then holds what that run compiled)
 * @returns {any} the bundle's module.exports
 */
function loadBundle (bundle, cache, name, cacheOutVariable) {
  const source = fs.readFileSync(bundle, 'utf8')
  const id = Buffer.from(source.slice(0, source.indexOf('\n') + 1), 'latin1')
  /** @type {Buffer | undefined} */
  let cachedData
  try {
    const bytes = fs.readFileSync(cache)
    if (bytes.subarray(0, id.length).equals(id)) cachedData = bytes.subarray(id.length)
  } catch (err) {
    if (/** @type {{ code?: string }} */ (err).code !== 'ENOENT') throw err
  }
  const script = new vm.Script(wrap(source), { filename: name, cachedData })
  const cacheOut = process.env[cacheOutVariable]
  if (cacheOut) process.on('exit', () => fs.writeFileSync(cacheOut, Buffer.concat([id, script.createCachedData()])))
  const module = { exports: {} }
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle))
  return module.exports
}

module.exports = { loadBundle }
