// Bundles a Worker of this folder (worker.js by default) with its dependencies into the one module
// config.capnp embeds, worker.bundle.js, beside a copy of config.capnp:
//   node build.js [worker.js | node-crypto.js] [out-dir]      (default: this folder)
// The conditions pick the package's platform-neutral entry; node: imports are left to workerd,
// which provides node:crypto (nodejs_compat, on by default from compatibility date 2026-08-04).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'

const here = path.dirname(fileURLToPath(import.meta.url))

/**
 * @param {string} [entry] a file of this folder
 * @param {string} [dir] where to write worker.bundle.js and config.capnp
 * @returns {Promise<string>} the path of the config to serve
 */
export async function buildWorker (entry = 'worker.js', dir = here) {
  await esbuild.build({
    entryPoints: [path.join(here, entry)],
    outfile: path.join(dir, 'worker.bundle.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser'],
    external: ['node:*'],
    logLevel: 'warning'
  })
  const config = path.join(dir, 'config.capnp')
  if (path.resolve(dir) !== here) fs.copyFileSync(path.join(here, 'config.capnp'), config)
  return config
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await buildWorker(process.argv[2], process.argv[3]))
}
