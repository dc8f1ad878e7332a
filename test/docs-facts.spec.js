// Facts the docs state that can drift without anyone noticing. Each figure lives in one place,
// bench/README.md, and where another page must show it (a README's short results table) it is the
// same text; the claims drawn from a table are that table's; links resolve; and the lists the docs
// give of what the code has (test files, --json fields, fault rules, CLI flags) are read from the
// code and held complete. No bench runs here: the figures come from the commands bench/README.md
// names (bundle-size.spec.js holds bench/README.md's bundle table to what `npm run size` prints).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { brokenLinks } from './helpers/markdown-links.js'

/** @param {string} file path from the repository root */
const read = (file) => fs.readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')

/**
 * The Markdown table whose header line starts with `head`: its lines, header to last row.
 *
 * @param {string} text
 * @param {string} head
 * @param {string} file for the message
 */
function tableStarting (text, head, file) {
  const lines = text.split('\n')
  const start = lines.findIndex((line) => line.startsWith(head))
  assert.ok(start >= 0, `${file}: no table whose header starts with ${JSON.stringify(head)}`)
  let end = start
  while (end < lines.length && lines[end].startsWith('|')) end++
  return lines.slice(start, end)
}

/** @param {string} row a Markdown table row */
const cells = (row) => row.split('|').slice(1, -1).map((cell) => cell.trim())

describe('docs: one place for each fact', () => {
  const readme = read('README.md')
  const benchReadme = read('bench/README.md')

  const RESULTS_HEAD = '| corpus | encode: ours |'
  it("README.md's results table is bench/README.md's (the same `node bench/medians.js` output)", () => {
    const ours = tableStarting(readme, RESULTS_HEAD, 'README.md')
    const bench = tableStarting(benchReadme, RESULTS_HEAD, 'bench/README.md')
    assert.deepEqual(ours, bench, 'copy bench/README.md\'s "Latest results" table into README.md\'s "Performance" as it is')
  })

  it("README.md's \"up to Nx\" claims are the table's largest `ours` ratios", () => {
    const table = tableStarting(readme, RESULTS_HEAD, 'README.md')
    const header = cells(table[0])
    const largest = (/** @type {string} */ column) => {
      const i = header.indexOf(column)
      assert.ok(i > 0, `README.md's results table has no column ${column}`)
      return Math.max(...table.slice(2).map((row) => Number.parseFloat(cells(row)[i])).filter(Number.isFinite)).toFixed(2)
    }
    const claim = /up to ([\d.]+)x to encode and ([\d.]+)x to decode/.exec(readme)
    assert.ok(claim, 'README.md: no "up to Nx to encode and Mx to decode" claim')
    assert.deepEqual([claim[1], claim[2]], [largest('encode: ours'), largest('decode: ours')],
      'README.md: the "Fast" claim must be the largest `encode: ours` and `decode: ours` of its table')
  })

  it("README.md's \"faster on every corpus [but ...]\" names the corpora where an `ours` ratio is under 1", () => {
    const table = tableStarting(readme, RESULTS_HEAD, 'README.md')
    const header = cells(table[0])
    const columns = [header.indexOf('encode: ours'), header.indexOf('decode: ours')]
    const slower = table.slice(2).map(cells)
      .filter((row) => columns.some((i) => Number.parseFloat(row[i]) < 1)).map((row) => row[0])
    // "on every corpus of the bench:" when none is under 1, else "... but `a`, `b`:"
    const claim = /on every corpus of the bench(?: but ([^:]+))?:/.exec(readme)
    assert.ok(claim, 'README.md: no "on every corpus of the bench[ but ...]:" claim')
    assert.deepEqual([...(claim[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]), slower)
  })

  it("README.md's bundle sizes are bench/README.md's bundle table's", () => {
    const table = tableStarting(benchReadme, '| bundle (esbuild', 'bench/README.md')
    const gzipped = (/** @type {string} */ label) => {
      const row = table.find((line) => cells(line)[0] === label)
      assert.ok(row, `bench/README.md's bundle table has no row ${label}`)
      return Number(cells(row)[3]).toLocaleString('en-US')
    }
    const claim = /`encode` \+ `decode` is ([\d,]+) B minified and gzipped\s+\(`@ipld\/dag-cbor`'s: ([\d,]+) B/.exec(readme)
    assert.ok(claim, 'README.md: no "`encode` + `decode` is N B minified and gzipped (`@ipld/dag-cbor`\'s: M B"')
    assert.deepEqual([claim[1], claim[2]], [gzipped('ours: encode + decode'), gzipped('@ipld/dag-cbor: encode + decode')])
  })

  it("car/README.md's CAR tool rows are bench/README.md's", () => {
    const head = '| generated CAR |'
    const car = tableStarting(read('car/README.md'), head, 'car/README.md')
    const bench = tableStarting(benchReadme, head, 'bench/README.md')
    for (const line of car) assert.ok(bench.includes(line), `car/README.md's row is not in bench/README.md's CAR tool table: ${line}`)
  })

  it('every link of the READMEs and docs/ pages resolves to a file and heading in the repository', () => {
    const root = fileURLToPath(new URL('../', import.meta.url))
    const pages = ['README.md', 'bench/README.md', 'test/README.md', 'car/README.md',
      ...['docs', 'car/docs'].flatMap((dir) => fs.readdirSync(new URL(`../${dir}/`, import.meta.url))
        .filter((file) => file.endsWith('.md')).map((file) => `${dir}/${file}`))]
    const broken = pages.flatMap((page) => brokenLinks(`${root}${page}`, root).map((line) => `${page}: ${line}`))
    assert.deepEqual(broken, [])
  })

  it("car/docs/json-summary.md names every field of verify --json's summary and of its `output`", function () {
    this.timeout(60_000)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-facts-'))
    try {
      // the embedded sample (standard input is /dev/null), rewritten with every output option
      const bin = fileURLToPath(new URL('../car/bin/dag-cbor-car.js', import.meta.url))
      const args = [bin, '--out', path.join(dir, 'out.car'), '--canonicalize', '--map', path.join(dir, 'map.txt'), '--json']
      const r = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 50_000 })
      assert.ok(r.stdout.startsWith('{'), `verify --json printed no summary (status ${r.status}):\n${r.stderr}`)
      const summary = JSON.parse(r.stdout)
      const doc = read('car/docs/json-summary.md')
      // every name in a code span: `input`, and each of `{ file, blocks, ... }`
      const fields = new Set([...doc.matchAll(/`([^`\n]+)`/g)].flatMap((m) => m[1].match(/\w+/g) ?? []))
      const undocumented = [...Object.keys(summary), ...Object.keys(summary.output).map((key) => `output.${key}`)]
        .filter((key) => !fields.has(key.replace(/^output\./, '')))
      assert.deepEqual(undocumented, [], 'add them to car/docs/json-summary.md')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("car/README.md names every flag the CAR tool's commands list in their --help", function () {
    this.timeout(120_000)
    const bin = fileURLToPath(new URL('../car/bin/dag-cbor-car.js', import.meta.url))
    const help = (/** @type {string[]} */ args) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 50_000 }).stdout
    // `help` lists each command on a line of its own: two spaces, the name, then what it does
    const commands = [...help(['help']).matchAll(/^ {2}([a-z][a-z-]+) {2,}\S/gm)].map((m) => m[1])
    assert.ok(commands.includes('verify') && commands.length > 8, `commands: ${commands}`)
    const flags = new Set(commands.flatMap((command) => [...help([command, '--help']).matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0])))
    const readme = read('car/README.md')
    assert.deepEqual([...flags].filter((flag) => !new RegExp(`${flag}(?![\\w-])`).test(readme)), [], 'car/README.md should name each')
  })

  it('car/docs/atproto.md names every fault rule of the repo check', () => {
    const lib = new URL('../car/lib/', import.meta.url)
    const sources = fs.readdirSync(lib, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.js') && file.includes('atproto'))
    assert.ok(sources.length > 3, `the repo check's sources: ${sources}`)
    // a fault is reported as fault('rule', ...), a commit fault as commitFault('rule', ...) and
    // the others as { rule: 'rule', ... }
    const rules = new Set(sources.flatMap((file) => [...fs.readFileSync(new URL(file, lib), 'utf8')
      .matchAll(/(?:[fF]ault\(|rule: )'([a-z]+(?:-[a-z0-9]+)+)'/g)].map((m) => m[1])))
    assert.ok(rules.size > 20, `rules found: ${[...rules]}`)
    const doc = read('car/docs/atproto.md')
    assert.deepEqual([...rules].filter((rule) => !doc.includes(`\`${rule}\``)), [], 'add them to car/docs/atproto.md')
  })

  it('test/README.md names every test/*.spec.js', () => {
    const testReadme = read('test/README.md')
    const specs = fs.readdirSync(new URL('./', import.meta.url)).filter((file) => file.endsWith('.spec.js'))
    assert.ok(specs.length > 10)
    const missing = specs.filter((file) => !testReadme.includes(`\`${file}\``))
    assert.deepEqual(missing, [], 'add a row to test/README.md\'s table for each')
  })

  it("test/README.md's last mutation score is its table's", () => {
    const testReadme = read('test/README.md')
    const stated = /\*\*Last score: ([\d.]+)%/.exec(testReadme)
    const table = /^All files\s*\|\s*([\d.]+)\s*\|/m.exec(testReadme)
    assert.ok(stated && table, 'test/README.md: no "**Last score: N%" or no "All files | N" line')
    assert.equal(stated[1], table[1])
  })
})
