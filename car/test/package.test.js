// The tool as published: `npm pack` of the codec (repo root) and of this workspace package, both tarballs
// installed into an empty project in the OS temp dir with npm's local cache and no network
// (`npm ci --offline`, bench/packed.js), then the installed `npx dag-cbor-car` run on real CARs. The
// codec's own package test is test/package/package.test.js; this one runs in `npm run test:engines`.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { brokenLinks } from '../../test/helpers/markdown-links.js'
import { prepare, cases, runAll, recorded } from './golden/cases.js'
import { installPacked } from '../bench/packed.js'
import { ENGINES, commandFor } from '../../engines/engines.js'

const repo = fileURLToPath(new URL('../../', import.meta.url))
const GENESIS = path.join(repo, 'test/fixtures/cars/filecoin-calibnet-genesis.car')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
/** the most the tarball may weigh, in bytes (issue 62) */
const MAX_TARBALL = 600_000

/** @type {string} */
let dir

/**
 * @param {string} file
 * @param {string[]} args
 */
function run (file, args) {
  return spawnSync(file, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 })
}

describe('package: the dag-cbor-car tarball (with the codec\'s) installed into an empty project', function () {
  this.timeout(300_000)

  /** @type {ReturnType<typeof installPacked>} */
  let packed
  /** @type {import('../bench/packed.js').Packed} */
  let tool
  /** @type {string} */
  let codecTarball

  before(() => {
    // the tarballs, packed by npm under this Node, installed with npm ci --offline (bench/packed.js)
    packed = installPacked()
    dir = packed.dir
    tool = packed.tool
    codecTarball = packed.codec.filename
    // an install prints nothing but npm's own summary: no warning (npm 11 warns about every package
    // that carries an install script, prepare included)
    assert.doesNotMatch(packed.installOutput, /\bwarn\b/i, `npm ci of the tarballs warned:\n${packed.installOutput}`)
  })

  after(() => {
    packed?.remove()
  })

  it('holds the bin, the code, the README and the licences, and no tests or benches', () => {
    const files = tool.files.map((f) => f.path)
    for (const needed of ['bin/dag-cbor-car.js', 'lib/commands/verify.js', 'lib/core/read/open-car.js', 'lib/core/index.js', 'lib/node/node-library.js', 'lib/node/sample.car', 'build/cli/dag-cbor-car.cjs', 'build/cli/worker.js', 'build/cli/many-child.js', 'lib/node/library.cjs', 'lib/node/core.cjs', 'types/lib/core/index.d.ts', 'types/lib/node/node-library.d.ts', 'README.md', 'LICENSE-APACHE', 'LICENSE-MIT', 'package.json']) {
      assert.ok(files.includes(needed), `${needed} missing from the tarball`)
    }
    assert.deepEqual(files.filter((f) => /^(test|bench|scripts)\//.test(f)), [])
  })

  it(`weighs at most ${MAX_TARBALL / 1000} kB: one copy of the sample, no code cache, no bundle of the library`, () => {
    const files = tool.files.map((f) => f.path)
    assert.deepEqual(files.filter((f) => f.endsWith('sample.car')), ['lib/node/sample.car'])
    assert.deepEqual(files.filter((f) => f.endsWith('.cache') || f.startsWith('build/library/')), [])
    const size = fs.statSync(path.join(dir, tool.filename)).size
    assert.ok(size <= MAX_TARBALL, `the tarball is ${size} bytes, over ${MAX_TARBALL}`)
  })

  it('its command runs from its bundle; the checkout keeps no bundle after packing', () => {
    const installed = path.join(dir, 'node_modules/dag-cbor-car')
    const bundled = spawnSync(process.execPath, ['-e', "console.log(require('./bin/dag-cbor-car.js').bundled())"], { cwd: installed, encoding: 'utf8' })
    assert.equal(bundled.stdout.trim(), 'true', bundled.stderr)
    // npm pack's postpack removed it again: the checkout runs its source
    assert.ok(!fs.existsSync(path.join(repo, 'car/build')), 'car/build/ is left in the checkout')
  })

  for (const [name, make, constructs] of /** @type {const} */ ([
    ['CarBlockError', 'const bytes = fs.readFileSync(process.argv[2]); bytes[bytes.length - 1] ^= 1; for await (const block of await CarBlockIterator.fromBytes(bytes)) void block', 'new CarBlockError('],
    ['CarReadError', 'await CarBlockIterator.fromBytes(new Uint8Array([1, 2, 3]))', 'new CarReadError(']
  ])) {
    it(`an uncaught ${name} from the installed library prints its class, its message and frames naming the source's functions, files and lines; its constructor is named ${name}`, () => {
      // the genesis CAR with its last byte flipped: its last block does not hash to its CID
      fs.writeFileSync(path.join(dir, 'uncaught.mjs'), [
        "import fs from 'node:fs'",
        "import { CarBlockIterator } from 'dag-cbor-car'",
        `try { ${make} } catch (err) { console.log(JSON.stringify([err.constructor.name, err.name])); throw err }`
      ].join('\n'))
      const r = run(process.execPath, ['uncaught.mjs', GENESIS])
      assert.equal(r.status, 1, r.stderr)
      assert.deepEqual(JSON.parse(r.stdout), [name, name])
      const message = r.stderr.match(new RegExp(`^${name}: (.+)$`, 'm'))
      assert.ok(message && message[1].length > 20, `no line "${name}: <message>" in\n${r.stderr}`)
      // no line of minified code: every line a person reads
      for (const line of r.stderr.split('\n')) assert.ok(line.length <= 400, `a line of ${line.length} characters:\n${line.slice(0, 200)}...`)
      // the top frame: a function, and the file and line in the package's lib/ that throws it
      const frame = r.stderr.match(/^ {4}at ([\w$.]+) \((.+[\\/]node_modules[\\/]dag-cbor-car[\\/](lib[\\/][\w\\/.-]+\.js)):(\d+):\d+\)$/m)
      assert.ok(frame, `no frame naming a source file of the package:\n${r.stderr}`)
      const [, fn, file, inPackage, line] = frame
      const source = fs.readFileSync(file.startsWith('file:') ? fileURLToPath(file) : file, 'utf8')
      assert.ok(source.split('\n')[Number(line) - 1].includes(constructs), `${inPackage}:${line} does not construct the ${name}`)
      assert.ok(source.includes(fn.split('.').pop() ?? fn), `${inPackage} has no function ${fn}`)
    })
  }

  it('npm install of both tarballs, as a user types it, prints no warning', () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-install-'))
    try {
      fs.writeFileSync(path.join(fresh, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
      const r = spawnSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(dir, codecTarball), path.join(dir, tool.filename)],
        { cwd: fresh, encoding: 'utf8', timeout: 120_000 })
      assert.equal(r.status, 0, r.stdout + r.stderr)
      assert.doesNotMatch(r.stdout + r.stderr, /\bwarn\b/i, r.stdout + r.stderr)
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true })
    }
  })

  it('its package.json has no install scripts and depends only on what its code imports', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules/dag-cbor-car/package.json'), 'utf8'))
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) assert.equal(manifest.scripts?.[script], undefined, `scripts.${script}`)
    const installed = path.join(dir, 'node_modules/dag-cbor-car')
    const code = fs.readdirSync(installed, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(c?js)$/.test(f) && !f.includes('node_modules') && !f.startsWith('build'))
      .map((f) => fs.readFileSync(path.join(installed, f), 'utf8')).join('\n')
    for (const dependency of Object.keys(manifest.dependencies)) {
      assert.ok(code.includes(`'${dependency}`), `${dependency} is a dependency that no file of the package imports`)
    }
  })

  it('the packed README: every relative link resolves inside the tarball; nothing in it works only in a clone', () => {
    const installed = path.join(dir, 'node_modules/dag-cbor-car')
    const readme = fs.readFileSync(path.join(installed, 'README.md'), 'utf8')
    assert.deepEqual(brokenLinks(path.join(installed, 'README.md'), installed), [])
    // commands and paths of the repository, which an installed user does not have
    for (const cloneOnly of [/npm start/, /test\/fixtures/, /car\/test\//, /node car\/bench/, /run from `car\/`/]) {
      assert.doesNotMatch(readme, cloneOnly)
    }
    const notYet = readme.search(/not yet on the npm registry/i)
    const install = readme.search(/npm install /)
    assert.ok(notYet >= 0 && notYet < install, 'the install command comes before "not yet on the npm registry"')
  })

  it('the installed dag-cbor-car uses the installed codec tarball, not a link to this repo', () => {
    const codec = path.join(dir, 'node_modules/dag-cbor-fast')
    assert.ok(!fs.lstatSync(codec).isSymbolicLink(), 'node_modules/dag-cbor-fast is a link')
    assert.ok(fs.existsSync(path.join(codec, 'index.js')))
    assert.ok(!fs.existsSync(path.join(dir, 'node_modules/dag-cbor-car/node_modules/dag-cbor-fast')), 'the tool got a second copy of the codec')
  })

  it('npx dag-cbor-car --version prints the package\'s name and version', () => {
    const r = run(npx, ['--offline', '--no', '--', 'dag-cbor-car', '--version'])
    assert.equal(r.status, 0, r.stderr)
    assert.equal(r.stdout.trim(), `dag-cbor-car ${tool.version}`)
  })

  it('npx dag-cbor-car on a real CAR: the summary counts its blocks, finds its one non-canonical block, exits 1', () => {
    const r = run(npx, ['--offline', '--no', '--', 'dag-cbor-car', GENESIS, '--json'])
    assert.equal(r.status, 1, r.stderr)
    const s = JSON.parse(r.stdout)
    // counts from test/fixtures/README.md: 1207 blocks, one block with its map keys out of order
    assert.equal(s.blocks, 1207)
    assert.equal(s.hashMismatches, 0)
    assert.deepEqual(s.dagCbor.rules, { 'map-key-order': 1 })
    assert.equal(s.problems[0].cid, 'bafyreiaqpwbbyjo4a42saasj36kkrpv4tsherf2e7bvezkert2a7dhonoi')
    assert.equal(s.result, 'fail')
    // npm may warn about its own configuration on stderr; the tool itself says nothing there
    assert.doesNotMatch(r.stderr, /dag-cbor-car:|\n\s+at /)
  })

  it('the installed command (its minified bundle) says on every golden case what expected.json holds', async () => {
    const expected = recorded()
    const folder = prepare(packed.bin)
    try {
      const results = await runAll(folder, cases(), packed.bin)
      for (const c of cases()) assert.deepEqual(results[c.name], expected[c.name], c.name)
    } finally {
      fs.rmSync(folder, { recursive: true, force: true })
    }
  })

  it('the installed tool\'s other commands run from the tarball: inspect, ls, export | import, repo verify', () => {
    // reports exit 0 once written, the genesis CAR's one non-canonical block in them and on stderr
    const inspect = run(npx, ['--offline', '--no', '--', 'dag-cbor-car', 'inspect', GENESIS, '--json'])
    assert.equal(inspect.status, 0, inspect.stderr)
    assert.match(inspect.stderr, /1 problem in the data/)
    const summary = JSON.parse(inspect.stdout)
    assert.equal(summary.blocks, 1207)
    assert.deepEqual(summary.dagCbor, { canonical: 1196, nonCanonical: 1, invalid: 0 })
    assert.equal(summary.dag.reachable, 1207)
    const ls = run(npx, ['--offline', '--no', '--', 'dag-cbor-car', 'ls', GENESIS])
    assert.equal(ls.status, 0, ls.stderr)
    assert.equal(run(npx, ['--offline', '--no', '--', 'dag-cbor-car', 'ls', GENESIS, '--strict']).status, 1)
    assert.equal(ls.stdout.trim().split('\n').length, 1207)
    const lines = path.join(dir, 'genesis.jsonl')
    const rebuilt = path.join(dir, 'rebuilt.car')
    const exported = run(npx, ['--offline', '--no', '--', 'dag-cbor-car', 'export', GENESIS])
    // the genesis CAR's one non-canonical block is exported as its bytes, and said so
    assert.equal(exported.status, 0, exported.stderr)
    assert.match(exported.stderr, /not canonical DAG-CBOR/)
    fs.writeFileSync(lines, exported.stdout)
    const imported = run(npx, ['--offline', '--no', '--', 'dag-cbor-car', 'import', lines, '--out', rebuilt])
    assert.equal(imported.status, 0, imported.stderr)
    assert.ok(fs.readFileSync(rebuilt).equals(fs.readFileSync(GENESIS)), 'export | import did not give back the same bytes')
    const repoCar = path.join(repo, 'car/test/fixtures/atproto/repo-small-v2.car')
    const verified = run(npx, ['--offline', '--no', '--', 'dag-cbor-car', 'repo', 'verify', repoCar])
    assert.equal(verified.status, 0, verified.stdout + verified.stderr)
    assert.match(verified.stdout, /records +6: app\.bsky\.actor\.profile 1, app\.bsky\.feed\.post 5/)
  })

  it('npx dag-cbor-car --relaxed accepts it as it is: exit 0, the block still listed', () => {
    const r = run(npx, ['--offline', '--no', '--', 'dag-cbor-car', GENESIS, '--relaxed'])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /bafyreiaqpwbbyjo4a42saasj36kkrpv4tsherf2e7bvezkert2a7dhonoi {2}non-canonical/)
    assert.match(r.stdout, /result {6}OK \(--relaxed\)/)
  })

  it('npx dag-cbor-car --out --canonicalize fixes it: exit 0, and the written CAR checks clean', () => {
    const out = path.join(dir, 'fixed.car')
    const r = run(npx, ['--offline', '--no', '--', 'dag-cbor-car', GENESIS, '--out', out, '--canonicalize'])
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /result {6}FIXED: 1 non-canonical block canonicalized/)
    const again = run(npx, ['--offline', '--no', '--', 'dag-cbor-car', out])
    assert.equal(again.status, 0, again.stdout + again.stderr)
    assert.match(again.stdout, /result {6}OK/)
  })
  it('import: the library from the tarball, its Node entry (file paths, workers) and its neutral core give the CLI\'s summary', () => {
    fs.writeFileSync(path.join(dir, 'library.mjs'), `
      import fs from 'node:fs'
      import { CID } from 'multiformats/cid'
      import { verifyCar, CarBlockIterator, CarWriter, hashBackends } from 'dag-cbor-car'
      import * as core from 'dag-cbor-car/core'
      const file = ${JSON.stringify(GENESIS)}
      const viaPath = await verifyCar(file, { workers: 2 })
      const viaCore = await core.verifyCar(new Blob([fs.readFileSync(file)]), { name: file })
      let blocks = 0
      for await (const block of await CarBlockIterator.fromIterable(fs.createReadStream(file))) blocks += block.bytes.length > 0 && block.cid instanceof CID ? 1 : 0
      // where an error comes from: the library's source
      const stack = await verifyCar('no-such.car').catch((err) => err.stack)
      const { writer, out } = CarWriter.create([])
      const written = (async () => { let n = 0; for await (const chunk of out) n += chunk.length; return n })()
      await writer.close()
      console.log(JSON.stringify({ viaPath, viaCore, blocks, written: await written, backends: hashBackends(), stack }))
    `)
    const r = run(process.execPath, ['library.mjs'])
    assert.equal(r.status, 0, r.stderr)
    const { viaPath, viaCore, blocks, written, backends, stack } = JSON.parse(r.stdout)
    assert.match(stack, /node_modules\/dag-cbor-car\/lib\/node\/[\w-]+\.js:\d+:\d+\)/)
    const cli = JSON.parse(run(npx, ['--offline', '--no', '--', 'dag-cbor-car', GENESIS, '--json', '--workers', '2']).stdout)
    /** @param {any} s the summary without its timings */
    const counts = ({ seconds, mbPerSec, ...rest }) => rest
    assert.deepEqual(counts(viaPath), counts(cli))
    assert.deepEqual(counts(viaCore), { ...counts(cli), workers: 1 })
    assert.equal(blocks, 1207)
    assert.equal(written, 18) // the header alone: a length byte and the 17 bytes of {roots: [], version: 1}
    assert.equal(backends['sha2-256'], 'node:crypto') // the Node entry installed it
  })

  it('every engine imports and requires the installed library, from its source', () => {
    fs.writeFileSync(path.join(dir, 'engines.mjs'), `
      import { createRequire } from 'node:module'
      import { CID } from 'multiformats/cid'
      import { verifyCar, CarBlockIterator } from 'dag-cbor-car'
      const required = createRequire(import.meta.url)('dag-cbor-car')
      const file = ${JSON.stringify(GENESIS)}
      const summary = await verifyCar(file)
      let ours = 0
      for await (const block of await CarBlockIterator.fromIterable(file)) ours += block.cid instanceof CID ? 1 : 0
      const stack = await verifyCar('no-such.car').catch((err) => err.stack)
      const from = /build[\\/]library[\\/]dag-cbor-car\\.cjs/.test(stack) ? 'bundle' : /lib[\\/]node[\\/]input-source\\.js/.test(stack) ? 'source' : stack
      console.log(JSON.stringify([summary.blocks, summary.dagCbor.nonCanonical, ours, required.verifyCar === verifyCar, from]))
    `)
    const answers = Object.fromEntries(ENGINES.filter((e) => e.kind !== 'browser').map((engine) => {
      const [bin, args] = commandFor(engine, 'engines.mjs')
      const r = spawnSync(bin, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 })
      return [engine.name, r.status === 0 ? JSON.parse(r.stdout) : `exit ${r.status}: ${r.stderr}`]
    }))
    const source = [1207, 1, 1207, true, 'source']
    assert.deepEqual(answers, { node: source, node22: source, node24: source, node26: source, bun: source, deno: source })
  })

  it('require(): CommonJS code loads the library (Node >= 20.19)', () => {
    fs.writeFileSync(path.join(dir, 'library.cjs'), `
      const { verifyCar } = require('dag-cbor-car')
      verifyCar(${JSON.stringify(GENESIS)}).then((s) => console.log(s.blocks, s.result, s.dagCbor.nonCanonical))
    `)
    const r = run(process.execPath, ['library.cjs'])
    assert.equal(r.status, 0, r.stderr)
    assert.equal(r.stdout.trim(), '1207 fail 1')
  })

  it("@ipld/car's sub-entries resolve from the tarball, by import and require, with @ipld/car's names", () => {
    const names = {
      reader: ['CarReader'],
      'buffer-reader': ['CarBufferReader'],
      indexer: ['CarIndexer'],
      iterator: ['CarBlockIterator', 'CarCIDIterator'],
      writer: ['CarWriter'],
      'buffer-writer': ['createWriter', 'addRoot', 'blockLength', 'calculateHeaderLength', 'close', 'estimateHeaderLength', 'headerLength', 'resizeHeader', 'addBlock'],
      'indexed-reader': ['CarIndexedReader'],
      decoder: ['readHeader', 'readBlockHead', 'createDecoder', 'bytesReader', 'chunkReader', 'asyncIterableReader', 'limitReader']
    }
    fs.writeFileSync(path.join(dir, 'subentries.mjs'), `
      import { createRequire } from 'node:module'
      const require = createRequire(import.meta.url)
      const names = ${JSON.stringify(names)}
      const missing = []
      for (const [entry, list] of Object.entries(names)) {
        const esm = await import('dag-cbor-car/' + entry)
        const cjs = require('dag-cbor-car/' + entry)
        for (const name of list) if (typeof esm[name] !== 'function' || cjs[name] !== esm[name]) missing.push(entry + ': ' + name)
      }
      console.log(missing.length === 0 ? 'all' : missing.join(', '))
    `)
    const r = run(process.execPath, ['subentries.mjs'])
    assert.equal(r.status, 0, r.stderr)
    assert.equal(r.stdout.trim(), 'all')
  })

  it('TypeScript (nodenext, strict) type-checks code using the library against the shipped types', () => {
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: [], lib: ['es2022', 'dom'] },
      files: ['library.ts']
    }))
    fs.writeFileSync(path.join(dir, 'library.ts'), `
      import { verifyCar, CarBlockIterator, CarWriter, readBlockAt, blockToJson, checkRepo, canonicalizeCar, CarBlockError, InputFailedError, CarReadError } from 'dag-cbor-car'
      import type { Summary, VerifyOptions } from 'dag-cbor-car'
      import * as core from 'dag-cbor-car/core'

      export async function check (file: string, bytes: Uint8Array<ArrayBuffer>): Promise<number> {
        const options: VerifyOptions = { relaxed: true, onBlock: (info) => { const status: string = info.status; void status } }
        const summary: Summary = await verifyCar(file, { ...options, workers: 2 })
        const inBrowser: Summary = await core.verifyCar(new Blob([bytes]))
        const iterator = await CarBlockIterator.fromBytes(bytes, { validate: true })
        const version: 1 | 2 = iterator.version
        for await (const { cid, bytes: block, offset, status } of iterator) {
          const view: string = blockToJson(cid, block).json
          void view; void offset; void status
        }
        const { writer, out } = CarWriter.create(await iterator.getRoots())
        void out
        await writer.close()
        const at = await readBlockAt(bytes, 100)
        const fixed = canonicalizeCar(bytes)
        const repo = await checkRepo(bytes, { didKey: 'did:key:z' })
        const err: Error = new CarBlockError('x', { offset: 0, cid: at.cid, kind: 'hash-mismatch' })
        const failed: unknown = await verifyCar(new Blob([bytes])).catch((e: unknown) => e)
        if (failed instanceof InputFailedError || failed instanceof core.InputFailedError) {
          const readError: CarReadError = failed
          const where: number = failed.offset + failed.blocks
          void readError; void where; void failed.cause
        }
        void err; void version; void fixed; void repo
        // @ts-expect-error the core takes no file path's options such as workers
        await core.verifyCar(bytes, { workers: 2 })
        return summary.blocks + inBrowser.blocks
      }
    `)
    const tsc = path.join(repo, 'node_modules/typescript/bin/tsc')
    const result = run(process.execPath, [tsc, '-p', 'tsconfig.json'])
    assert.equal(result.status, 0, `tsc failed:\n${result.stdout}${result.stderr}`)
  })
})
