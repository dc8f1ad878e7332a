// The tool as a user installs it, for the start-up bench (startup.js) and test/package.test.js:
// `npm pack` of the codec (repo root) and of this package, both tarballs installed into an empty
// project in the OS temp dir with npm's local cache and no network (`npm ci --offline`).
// npm, and the pack's bundle script with it, runs under the Node running this (first on PATH). The
// package ships no V8 code cache: the installed command's first check writes one for the Node that
// runs it (bin/dag-cbor-car.js).
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { consumerLockfile } from '../../test/helpers/consumer-lockfile.js'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const env = { ...process.env, PATH: [path.dirname(process.execPath), process.env.PATH].join(path.delimiter) }

/**
 * @typedef {{ name: string, version: string, filename: string, integrity: string, files: { path: string }[] }} Packed
 *   what `npm pack --json` says of a tarball
 */

/**
 * Pack both packages and install them into a new temporary project.
 *
 * @returns {{ dir: string, bin: string, codec: Packed, tool: Packed, installOutput: string, remove: () => void }}
 *   the project (holding the tarballs), the installed bin's path, the tarballs, what `npm ci` printed,
 *   and a function that deletes the project
 */
export function installPacked () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-packed-'))
  /** @param {string[]} args @returns {Packed} */
  const pack = (args) => JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', dir, ...args], { cwd: repo, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))[0]
  try {
    const codec = pack([])
    const tool = pack(['-w', 'dag-cbor-car'])
    const lock = JSON.parse(fs.readFileSync(path.join(repo, 'package-lock.json'), 'utf8')).packages
    const dependencies = { 'dag-cbor-car': `file:${tool.filename}`, 'dag-cbor-fast': `file:${codec.filename}` }
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }))
    fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify(consumerLockfile([{ packed: codec, manifest: lock[''] }, { packed: tool, manifest: lock.car }], dependencies)))
    const install = spawnSync(npm, ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: dir, env: { ...env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 300_000 })
    if (install.status !== 0) throw new Error(`npm ci --offline of the tarballs failed:\n${install.stdout}\n${install.stderr}`)
    return {
      dir,
      bin: path.join(dir, 'node_modules/dag-cbor-car/bin/dag-cbor-car.js'),
      codec,
      tool,
      installOutput: install.stdout + install.stderr,
      remove: () => fs.rmSync(dir, { recursive: true, force: true })
    }
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true })
    throw err
  }
}
