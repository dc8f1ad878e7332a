// The published package is the product: `npm pack`, installed from the tarball into an empty project with
// npm's local cache and no network (`--offline`), must work as an ESM import, as require() (Node >= 20.19),
// and for a strict TypeScript consumer (nodenext); it installs nothing of the CAR tool's (car/ tests its own tarball).
// A second project, with @ipld/car and multiformats beside the tarball, runs the README's examples as pasted.
// It prints the install size the README points to. Run by `npm run test:package` (part of `npm test`); it
// needs the dependencies in npm's cache, which `npm install` in this repo puts there.
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as oracle from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { consumerLockfile } from '../helpers/consumer-lockfile.js'
import { brokenLinks } from '../helpers/markdown-links.js'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const tsc = path.join(repo, 'node_modules/typescript/bin/tsc')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** @type {string} */
let dir
/** @type {string} */
let tarball
/** @type {string} the project that runs the README's examples */
let examplesDir

/**
 * @param {string} file
 * @param {string[]} args
 * @param {string} [cwd]
 */
function run (file, args, cwd = dir) {
  return spawnSync(file, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 })
}

/**
 * Installs a project with `npm ci --offline` from a lockfile made by consumerLockfile.
 *
 * @param {string} at
 * @param {{ name: string, version: string, filename: string, integrity: string }} packed
 * @param {Record<string, string>} dependencies
 */
function installOffline (at, packed, dependencies) {
  fs.mkdirSync(at, { recursive: true })
  fs.writeFileSync(path.join(at, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }))
  fs.writeFileSync(path.join(at, 'package-lock.json'), JSON.stringify(consumerLockfile([{ packed, manifest: JSON.parse(fs.readFileSync(path.join(repo, 'package-lock.json'), 'utf8')).packages[''] }], dependencies)))
  const install = run(npm, ['ci', '--offline', '--no-audit', '--no-fund'], at)
  assert.equal(install.status, 0, `npm ci --offline in ${at} failed:\n${install.stdout}\n${install.stderr}`)
  assert.doesNotMatch(install.stdout + install.stderr, /\bwarn\b/i, `npm ci of the tarball warned:\n${install.stdout}\n${install.stderr}`)
}

/**
 * @param {string} at
 * @returns {number} the bytes of the files under a directory
 */
function bytesUnder (at) {
  return fs.readdirSync(at, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .reduce((sum, d) => sum + fs.statSync(path.join(d.parentPath, d.name)).size, 0)
}

describe('package: the npm pack tarball installed into an empty project', function () {
  this.timeout(300_000)

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-fast-package-'))
    const packed = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', dir], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))
    tarball = path.join(dir, packed[0].filename)
    installOffline(dir, packed[0], { 'dag-cbor-fast': `file:${packed[0].filename}` })
    // the README's examples import @ipld/car and multiformats, which its install line names
    const ours = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'))
    examplesDir = path.join(dir, 'examples')
    installOffline(examplesDir, packed[0], {
      'dag-cbor-fast': `file:../${packed[0].filename}`,
      '@ipld/car': ours.devDependencies['@ipld/car'],
      multiformats: ours.dependencies.multiformats
    })
  })

  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it('holds the code, types and licences, and no tests or benches', () => {
    const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''))
    for (const needed of ['index.js', 'lib/decode.js', 'lib/encode.js', 'types/index.d.ts', 'LICENSE-APACHE', 'LICENSE-MIT', 'README.md', 'package.json']) {
      assert.ok(listed.includes(needed), `${needed} missing from the tarball`)
    }
    // the docs the README links are shipped; nothing of the tests, benches or CI (the README names
    // bench/README.md as a file of the repository, not a link)
    assert.deepEqual(listed.filter((f) => /^(test|bench|examples|\.ci)\//.test(f)), [])
    for (const doc of ['docs/memory.md', 'docs/migration.md', 'docs/data-model.md', 'docs/performance.md']) assert.ok(listed.includes(doc), `${doc} missing`)
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules/dag-cbor-fast/package.json'), 'utf8'))
    assert.equal(manifest.license, 'Apache-2.0 OR MIT')
    // the README's install section names this line: what `npm install dag-cbor-fast` puts on disk
    const sizes = fs.readdirSync(path.join(dir, 'node_modules'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .flatMap((d) => d.name.startsWith('@') ? fs.readdirSync(path.join(dir, 'node_modules', d.name)).map((n) => `${d.name}/${n}`) : [d.name])
      .map((name) => [name, bytesUnder(path.join(dir, 'node_modules', name))])
    const total = sizes.reduce((sum, [, size]) => sum + Number(size), 0)
    console.log(`      install size: ${total} B of files in node_modules (${sizes.map(([n, b]) => `${n} ${b}`).join(', ')}); the tarball ${fs.statSync(tarball).size} B`)
  })

  it('the packed README: every relative link resolves inside the tarball, every #anchor to a heading', () => {
    const installed = path.join(dir, 'node_modules/dag-cbor-fast')
    assert.deepEqual(brokenLinks(path.join(installed, 'README.md'), installed), [])
    for (const doc of ['docs/migration.md', 'docs/memory.md', 'docs/data-model.md', 'docs/performance.md']) {
      assert.ok(fs.existsSync(path.join(installed, doc)), `${doc}, which the README links, is not in the tarball`)
    }
  })

  it('the README says it is not yet on the registry before its first install command', () => {
    const readme = fs.readFileSync(path.join(dir, 'node_modules/dag-cbor-fast/README.md'), 'utf8')
    const notYet = readme.search(/not yet on the npm registry/i)
    const install = readme.search(/npm install /)
    assert.ok(notYet >= 0 && notYet < install, 'the install command comes before "not yet on the npm registry"')
  })

  it('ESM: import of the package encodes and decodes, CIDs included', () => {
    fs.writeFileSync(path.join(dir, 'esm.mjs'), `
      import * as dagCbor from 'dag-cbor-fast'
      import { CID } from 'multiformats/cid'
      const link = CID.parse('bafyreihdb57fdysx5h35urvxz64ros7zvywshber7id6t6c6fek37jgyfe')
      const bytes = dagCbor.encode({ hello: 'world', link })
      const back = dagCbor.decode(bytes)
      const { validate } = await import('dag-cbor-fast/validate')
      console.log(JSON.stringify({ name: dagCbor.name, code: dagCbor.code, hex: Buffer.from(bytes).toString('hex'), same: back.link.equals(link), links: validate(bytes, { links: true }).links.length }))
    `)
    const result = run(process.execPath, ['esm.mjs'])
    assert.equal(result.status, 0, result.stderr)
    const out = JSON.parse(result.stdout)
    const link = CID.parse('bafyreihdb57fdysx5h35urvxz64ros7zvywshber7id6t6c6fek37jgyfe')
    const expected = Buffer.from(oracle.encode({ hello: 'world', link })).toString('hex')
    assert.deepEqual(out, { name: 'dag-cbor', code: 0x71, hex: expected, same: true, links: 2 }) // one link: a pair of offsets
  })

  // each example in the README: a js block whose first line is `// NAME.mjs`, then, before the next block,
  // "`node NAME.mjs ARGS` prints `OUTPUT`"; an argument naming a file in test/fixtures/cars/ is that file
  const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8')
  const examples = [...readme.matchAll(/```js\n\/\/ ([\w-]+\.mjs)\n[\s\S]*?```\n[\s\S]*?(?=```|$)/g)].map((m) => {
    const [block, name] = m
    const code = block.slice('```js\n'.length, block.indexOf('```\n', 5))
    const said = new RegExp(`\`node ${name.replace('.', '\\.')}((?: [^\`\\s]+)*)\` prints \`([^\`]+)\``).exec(block)
    return { name, code, args: said?.[1].trim().split(' ').filter(Boolean) ?? [], printed: said?.[2] }
  })

  it('the README has its three examples, each saying what it prints', () => {
    assert.deepEqual(examples.map((e) => e.name), ['quick-start.mjs', 'block.mjs', 'car-round-trip.mjs'])
    for (const { name, printed } of examples) assert.ok(printed, `${name}: the README does not say what it prints`)
  })

  for (const { name, code, args, printed } of examples) {
    it(`the README's ${name} runs as pasted and prints what the README says`, () => {
      fs.writeFileSync(path.join(examplesDir, name), code)
      for (const arg of args) {
        const fixture = path.join(repo, 'test/fixtures/cars', arg)
        if (fs.existsSync(fixture)) fs.copyFileSync(fixture, path.join(examplesDir, arg))
      }
      const result = run(process.execPath, [name, ...args], examplesDir)
      assert.equal(result.status, 0, result.stderr)
      assert.equal(result.stdout.trim(), printed)
    })
  }

  it('require(): CommonJS code loads the package (Node >= 20.19)', () => {
    fs.writeFileSync(path.join(dir, 'cjs.cjs'), `
      const dagCbor = require('dag-cbor-fast')
      const bytes = dagCbor.encode([1, 'a', null])
      const { validate } = require('dag-cbor-fast/validate')
      console.log(Buffer.from(bytes).toString('hex'), JSON.stringify(dagCbor.decode(bytes)), dagCbor.code, validate(bytes).integralFloats)
    `)
    const result = run(process.execPath, ['cjs.cjs'])
    assert.equal(result.status, 0, result.stderr)
    assert.equal(result.stdout.trim(), '83016161f6 [1,"a",null] 113 0')
  })

  it('TypeScript (nodenext, strict): a BlockCodec<0x71, T>, the options with cborg, and code written for @ipld/dag-cbor', () => {
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: [], lib: ['es2022'] },
      files: ['consumer.ts', 'drop-in.ts']
    }))
    // written for @ipld/dag-cbor with only the import changed (test:types compiles it against both)
    fs.copyFileSync(path.join(repo, 'test/types/drop-in.test-d.ts'), path.join(dir, 'drop-in.ts'))
    fs.writeFileSync(path.join(dir, 'consumer.ts'), `
      import type { BlockCodec } from 'multiformats/codecs/interface'
      import * as cborg from 'cborg'
      import * as dagCbor from 'dag-cbor-fast'
      import type { DecodeOptions, EncodeOptions, ValidateOptions, RuleName } from 'dag-cbor-fast'
      import { validate } from 'dag-cbor-fast/validate'

      interface Post { text: string, likes: number }
      const codec: BlockCodec<0x71, Post> = dagCbor
      const bytes: Uint8Array = codec.encode({ text: 'hi', likes: 1 })
      const post: Post = codec.decode(bytes)
      const viaCborg: Uint8Array = cborg.encode(post, dagCbor.encodeOptions)
      const back: unknown = cborg.decode(viaCborg, dagCbor.decodeOptions)
      const relaxed: unknown = dagCbor.decode(bytes, { relaxed: true })
      const error: Error = new dagCbor.DagCborDecodeError('truncated', 'x', 0)
      const options: DecodeOptions = { relaxed: true }
      const rule: RuleName = new dagCbor.DagCborDecodeError('truncated', 'x', 0).rule
      const encodeWith: EncodeOptions = { escapedBytes: true }
      const validateWith: ValidateOptions = { links: true }
      const floats: number = validate(bytes, validateWith).integralFloats
      // @ts-expect-error not a rule name
      const typo: RuleName = 'truncate'
      // @ts-expect-error the code is 0x71, not 0x70
      const wrong: BlockCodec<0x70, Post> = dagCbor
      export { back, relaxed, error, wrong, options, rule, encodeWith, validateWith, floats, typo }
    `)
    const result = run(process.execPath, [tsc, '-p', 'tsconfig.json'])
    assert.equal(result.status, 0, `tsc failed:\n${result.stdout}${result.stderr}`)
  })

  it('installs only the codec\'s two dependencies: no CAR tool, CAR reader or hashing package', () => {
    const installed = fs.readdirSync(path.join(dir, 'node_modules'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
      .flatMap((d) => d.name.startsWith('@') ? fs.readdirSync(path.join(dir, 'node_modules', d.name)).map((n) => `${d.name}/${n}`) : [d.name])
      .sort()
    assert.deepEqual(installed, ['cborg', 'dag-cbor-fast', 'multiformats'])
    assert.ok(!fs.existsSync(path.join(dir, 'node_modules/.bin/dag-cbor-car')), 'the codec package must not install the CAR tool')
  })
})
