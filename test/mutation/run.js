#!/usr/bin/env node
// `npm run test:mutation`: StrykerJS over lib/ (config: stryker.config.mjs; see test/README.md).
// Arguments are passed on to `stryker run` (e.g. --concurrency 2, --mutate lib/writer.js).
//
// StrykerJS is not a devDependency: it needs Node.js >= 22, and on Node 20 every contributor's
// `npm install` would print its engine warnings. This script installs it when a mutation run is
// asked for, into node_modules/.cache/stryker/ (kept between runs; npm does nothing when it is
// already there):
// - StrykerJS 10.0.0 and its mocha runner (pinned: the runner needs exactly this core), the Mocha
//   this repo uses (the runner loads Mocha from beside itself) and this repo's TypeScript (Stryker
//   imports it to rewrite tsconfig.json in its sandbox);
// - on Node older than 22, Node 22 itself from the npm registry (the package
//   node-<platform>-<arch>, a plain Node binary), which then runs Stryker and, through
//   process.execPath, its test processes.
// mocha-runner 10.0.0 cannot load Mocha 12's .cjs CLI helpers: mocha-cjs.cjs, preloaded into every
// Stryker process, lets require() find them.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const STRYKER = '10.0.0'
const NODE = 22

const root = fileURLToPath(new URL('../../', import.meta.url))
const tools = path.join(root, 'node_modules/.cache/stryker')
const shim = fileURLToPath(new URL('./mocha-cjs.cjs', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** @param {string} name @returns {string} the version of a package in this repo's node_modules */
const installed = (name) => JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version

/** @type {Record<string, string>} */
const dependencies = {
  '@stryker-mutator/core': STRYKER,
  '@stryker-mutator/mocha-runner': STRYKER,
  mocha: installed('mocha'),
  typescript: installed('typescript')
}
let node = process.execPath
if (Number(process.versions.node.split('.')[0]) < NODE) {
  const nodePackage = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`
  dependencies[nodePackage] = String(NODE)
  node = path.join(tools, 'node_modules', nodePackage, 'bin', process.platform === 'win32' ? 'node.exe' : 'node')
  console.log(`test:mutation: StrykerJS ${STRYKER} needs Node >= ${NODE}, this is Node ${process.version}: it runs under Node ${NODE} from npm (${nodePackage})`)
}

fs.mkdirSync(tools, { recursive: true })
fs.writeFileSync(path.join(tools, 'package.json'), JSON.stringify({ private: true, dependencies }, null, 2) + '\n')
console.log(`test:mutation: installing ${Object.entries(dependencies).map(([n, v]) => `${n}@${v}`).join(', ')} into ${path.relative(root, tools)}`)
// engine warnings are expected when npm itself runs on Node 20 (see above)
const install = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: tools, stdio: 'inherit', shell: process.platform === 'win32' })
if (install.status !== 0) {
  console.error(`test:mutation: npm install in ${tools} failed${install.error ? `: ${install.error.message}` : ''}`)
  process.exit(1)
}

const stryker = path.join(tools, 'node_modules/@stryker-mutator/core/bin/stryker.js')
const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(shim)}`.trim() }
const result = spawnSync(node, [stryker, 'run', ...process.argv.slice(2)], { cwd: root, env, stdio: 'inherit' })
if (result.error) {
  console.error(`test:mutation: could not run ${node}: ${result.error.message}`)
  process.exit(1)
}
process.exit(result.status ?? 1)
