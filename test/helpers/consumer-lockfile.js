// A lockfile for an empty "consumer" project that installs packed tarballs of this repo, for the
// package tests (test/package/, car/test/package.test.js). It pins the tarballs' dependencies, and any
// other package the consumer names, to the versions and integrity hashes in this repo's own lockfile,
// so `npm ci --offline` takes every package from npm's content-addressed cache and never asks the
// registry (which an offline install cannot do: the registry's answers to "which versions match this
// range" are not cached by a lockfile install).
import fs from 'node:fs'

const repoLock = new URL('../../package-lock.json', import.meta.url)

/**
 * @typedef {{ name: string, version: string, filename: string, integrity: string }} Packed
 * @param {{ packed: Packed, manifest: any }[]} tarballs each packed tarball with its manifest (the
 *   repo lockfile's entry: `''` for the codec, `'car'` for the tool)
 * @param {Record<string, string>} dependencies the consumer's dependencies: `file:` specs of the
 *   tarballs, and names this repo also installs at the top of its node_modules
 */
export function consumerLockfile (tarballs, dependencies) {
  const ours = JSON.parse(fs.readFileSync(repoLock, 'utf8')).packages
  /** @type {Record<string, any>} */
  const packages = { '': { name: 'consumer', dependencies } }
  const packedNames = new Set(tarballs.map(({ packed }) => packed.name))
  /** @type {[string, string][]} */
  const pending = Object.keys(dependencies).filter((name) => !packedNames.has(name)).map((name) => ['', name])
  for (const { packed, manifest } of tarballs) {
    packages[`node_modules/${packed.name}`] = {
      version: packed.version,
      resolved: dependencies[packed.name],
      integrity: packed.integrity,
      license: manifest.license,
      dependencies: manifest.dependencies,
      bin: manifest.bin
    }
    for (const name of Object.keys(manifest.dependencies ?? {})) pending.push(['', name])
  }
  // npm's resolution: node_modules/a/node_modules/b finds c in its own node_modules, then in each
  // enclosing one, then at the top
  while (pending.length > 0) {
    const [from, name] = /** @type {[string, string]} */ (pending.pop())
    if (from === '' && packages[`node_modules/${name}`]) continue
    let at = from
    let found = null
    for (;;) {
      const candidate = `${at ? at + '/' : ''}node_modules/${name}`
      if (packages[candidate] || ours[candidate]) { found = candidate; break }
      if (!at) break
      at = at.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')
    }
    if (found === null) throw new Error(`package-lock.json has no entry for ${name} (needed from ${from || 'the consumer'})`)
    if (packages[found]) continue
    const { dev, devOptional, peer, ...entry } = ours[found]
    // with no address in the lockfile, npm asks the registry where the tarball is, which offline it
    // answers only from a cached packument; the registry's address for it needs no question
    if (!entry.resolved && entry.integrity) {
      const full = found.slice(found.lastIndexOf('node_modules/') + 'node_modules/'.length)
      entry.resolved = `https://registry.npmjs.org/${full}/-/${full.split('/').pop()}-${entry.version}.tgz`
    }
    packages[found] = entry
    for (const dep of Object.keys(entry.dependencies ?? {})) pending.push([found, dep])
  }
  return { name: 'consumer', lockfileVersion: 3, requires: true, packages }
}
