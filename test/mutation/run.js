#!/usr/bin/env node
// `npm run test:mutation`: StrykerJS over lib/ (config: stryker.config.json; see test/README.md).
// Arguments are passed on to `stryker run` (e.g. --concurrency 2, --mutate lib/writer.js).
//
// Two workarounds, both for the mutation run only:
// - StrykerJS 10 requires Node.js >= 22, and this project (and its CI machine) is on Node 20.
//   On an older Node this script runs Stryker under Node 22 taken from the npm registry
//   (package node-<platform>-<arch>, a plain Node binary; npx caches it after the first run).
// - mocha-runner 10.0.0 cannot load Mocha 12's .cjs CLI helpers: mocha-cjs.cjs, preloaded into
//   every Stryker process, lets require() find them.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const stryker = fileURLToPath(new URL('../../node_modules/@stryker-mutator/core/bin/stryker.js', import.meta.url))
const shim = fileURLToPath(new URL('./mocha-cjs.cjs', import.meta.url))

const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(shim)}`.trim() }
const args = [stryker, 'run', ...process.argv.slice(2)]

let result
if (Number(process.versions.node.split('.')[0]) >= 22) {
  result = spawnSync(process.execPath, args, { cwd: root, env, stdio: 'inherit' })
} else {
  const platform = process.platform === 'win32' ? 'win' : process.platform
  const node = `node-${platform}-${process.arch}@22`
  console.log(`test:mutation: Node ${process.version} is older than StrykerJS 10 needs (>= 22); running it under ${node} from npm`)
  result = spawnSync('npx', ['--yes', '--package', node, '--', 'node', ...args], {
    cwd: root, env, stdio: 'inherit', shell: process.platform === 'win32'
  })
}
if (result.error) throw result.error
process.exit(result.status ?? 1)
