// The web page (car/web/) in Debian's chromium and firefox-esr: it is built once, served from
// localhost, and each CAR is set on its file input as a user would pick it.
//   - on every fixture CAR, the summary it shows (#summary-json) equals the CLI's `verify --json`
//     without the fields that depend on the run: input (the page names the file, the CLI the
//     path), seconds, mbPerSec and workers; on repo CARs, its repo report equals `repo verify --json`
//     without input
//   - a hash mismatch and a truncated CAR: summary, problem offsets and error as the CLI gives them;
//     a file that is not a CAR: one error, no summary; no download button where there is nothing to write
//   - a CAR of markup, script and javascript: URLs (keys, values, AT Protocol records) is opened
//     block by block, and nothing runs: no title change, console line or dialog from the payloads,
//     no CSP violation, no element built from the data
//   - a generated CAR of 800 MB: checked in the page, throughput and the browser's peak
//     resident memory printed, that memory bounded well below the file's size
//   - a CAR of a million blocks: listed, scrolled to its end, filtered by CID text (times printed)
//   - screenshots, kept in memory, are PNGs of the viewport's size and not blank
// WEB_SCREENSHOT=car/docs/web-page.png also saves Chromium's screenshot there (the README shows it;
// the file in the repository is that screenshot reduced to a 256-colour palette, `pngquant --quality
// 80-98 --speed 1 --strip`: 42 KB, not 96, in the package; it looks the same).
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { buildWeb } from '../../web/build.js'
import { serveDir } from '../../web/serve.js'
import { launch, missing, treeRss } from './browsers.js'
import { hostileCar, writeLargeCar, writeManyBlocksCar, MARKER, PAYLOADS } from './cars.js'

const carDir = fileURLToPath(new URL('../../', import.meta.url))
const repoRoot = path.dirname(carDir)
const CLI = path.join(carDir, 'bin/dag-cbor-car.js')
const FIXTURES = [
  ...carsIn(path.join(carDir, 'test/fixtures')),
  ...carsIn(path.join(carDir, 'test/fixtures/atproto')),
  ...carsIn(path.join(repoRoot, 'test/fixtures/cars'))
]
/** the summary fields that depend on the run, not the data */
const RUN_FIELDS = ['input', 'seconds', 'mbPerSec', 'workers']
// 800 MB: a browser's collector lets garbage (chunks read and checked) pile up before it runs. In
// Chromium that stays near 70 MB whatever the size; Firefox lets more pile up on a larger file
// (140-260 MB here from 210 to 600 MB). Growth below half of 800 MB still tells streaming from
// holding the file, with room for a loaded machine
const LARGE_BYTES = 800 * 1000 * 1000
const VIEWPORT = { width: 1280, height: 900 }

/** @param {string} dir */
function carsIn (dir) {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.car')).sort().map((f) => path.join(dir, f))
}

/**
 * @param {string[]} args
 * @returns {any} the CLI's JSON (it exits 1 on data with problems, 2 on a CAR it cannot read to the end)
 */
function cliJson (args) {
  const r = spawnSync(process.execPath, [CLI, ...args, '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (r.status !== 0 && r.status !== 1 && !(r.status === 2 && r.stdout.startsWith('{'))) throw new Error(`dag-cbor-car ${args.join(' ')}: exit ${r.status}: ${r.stderr}`)
  return JSON.parse(r.stdout)
}

/** @param {any} summary @param {string[]} fields */
function without (summary, fields) {
  const copy = { ...summary }
  for (const f of fields) delete copy[f]
  return copy
}

/** @param {import('./browsers.js').TestPage} page @param {string} file */
async function check (page, file, timeoutMs = 30_000) {
  await page.setFile('#file', file)
  await page.waitFor(() => document.body.dataset.state === 'done' || document.body.dataset.state === 'error', null, timeoutMs)
  const state = await page.evaluate(() => document.body.dataset.state)
  if (state !== 'done') throw new Error(`the page says: ${await text(page, 'error')}`)
  return JSON.parse(await text(page, 'summary-json'))
}

/** @param {import('./browsers.js').TestPage} page @param {string} id @returns {Promise<string>} */
function text (page, id) {
  return page.evaluate((/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id)).textContent, id)
}

/** @param {import('./browsers.js').TestPage} page until the link index and the repo check are done */
function settled (page) {
  return page.waitFor(() => document.body.dataset.reach === 'done' && document.body.dataset.repo !== 'running', null, 30_000)
}

/** @param {import('./browsers.js').TestPage} page until the block view shows `cid` */
function blockShown (page, cid) {
  return page.waitFor((/** @type {string} */ cid) => document.getElementById('block')?.dataset.state === 'done' &&
    document.querySelector('#block-meta .cid-text')?.textContent === cid, cid, 15_000)
}

/** @param {import('./browsers.js').TestPage} page @param {string} id @param {string} value a select's or input's new value */
function setControl (page, id, value) {
  return page.evaluate(([id, value]) => {
    const control = /** @type {HTMLInputElement} */ (document.getElementById(id))
    control.value = value
    control.dispatchEvent(new Event(control.tagName === 'SELECT' ? 'change' : 'input'))
  }, [id, value])
}

/** @param {import('./browsers.js').TestPage} page @param {string} prefix until the block count starts so */
function countShown (page, prefix) {
  return page.waitFor((/** @type {string} */ prefix) => /** @type {HTMLElement} */ (document.getElementById('block-count')).textContent?.startsWith(prefix), prefix, 10_000)
}

/**
 * Width and height from a PNG's IHDR, and how many distinct bytes its pixel rows hold (a blank page
 * inflates to a handful of values).
 *
 * @param {Buffer} png
 */
function pngFacts (png) {
  assert.equal(png.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'a PNG signature')
  const width = png.readUInt32BE(16)
  const height = png.readUInt32BE(20)
  const idat = []
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at)
    const type = png.toString('latin1', at + 4, at + 8)
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length))
    at += 12 + length
  }
  const pixels = zlib.inflateSync(Buffer.concat(idat))
  const seen = new Set()
  for (let i = 0; i < pixels.length; i += 7) seen.add(pixels[i])
  return { width, height, distinct: seen.size }
}

let dist = ''
/** @type {{ url: string, server: import('node:http').Server }} */
let served
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'car-web-test-'))
let hostileFile = ''
let hostileKey = ''
let flippedFile = ''
let truncatedFile = ''
let notCarFile = ''
let largeFile = ''
let manyFile = ''
/** @type {any} */
let manyExpected = null
/** @type {any} */
let largeExpected = null

before(async function () {
  this.timeout(120_000)
  dist = await buildWeb(path.join(scratch, 'dist'))
  served = await serveDir(dist)
  hostileFile = path.join(scratch, 'hostile.car')
  const hostile = await hostileCar()
  fs.writeFileSync(hostileFile, hostile.car)
  hostileKey = hostile.did
  // a fixture with one bit flipped inside a block (a hash mismatch), and one cut inside a section
  const genesis = fs.readFileSync(path.join(repoRoot, 'test/fixtures/cars/filecoin-calibnet-genesis.car'))
  const flipped = Buffer.from(genesis)
  flipped[5000] ^= 1
  flippedFile = path.join(scratch, 'flipped.car')
  fs.writeFileSync(flippedFile, flipped)
  truncatedFile = path.join(scratch, 'truncated.car')
  fs.writeFileSync(truncatedFile, genesis.subarray(0, 9000))
  notCarFile = path.join(scratch, 'not-a-car.txt')
  fs.writeFileSync(notCarFile, 'These are notes, not a CAR: nothing in them is a CAR header.\n'.repeat(20))
})

/**
 * What the page shows around its summary: whether the summary and the download button are shown,
 * the Links card's text, and the problem list's items (with whether each is numbered).
 *
 * @param {import('./browsers.js').TestPage} page
 */
function around (page) {
  return page.evaluate(() => {
    const shown = (/** @type {string} */ id) => { const e = /** @type {HTMLElement} */ (document.getElementById(id)); return !e.hidden && e.closest('[hidden]') === null }
    return {
      summary: shown('summary'),
      download: shown('canonicalize'),
      links: document.querySelector('#links-card .card-value')?.textContent ?? null,
      problems: [...document.querySelectorAll('#problems li')].map((li) => `${getComputedStyle(li).listStyleType === 'none' ? '' : '#. '}${li.textContent}`),
      errors: [...document.querySelectorAll('.error')].filter((e) => !(/** @type {HTMLElement} */ (e)).hidden).map((e) => e.textContent)
    }
  })
}

after(() => {
  served?.server.close()
  fs.rmSync(scratch, { recursive: true, force: true })
})

for (const name of /** @type {const} */ (['chromium', 'firefox'])) {
  describe(`web page in ${name}`, function () {
    this.timeout(60_000)
    /** @type {import('./browsers.js').TestBrowser} */
    let browser
    /** @type {import('./browsers.js').TestPage} */
    let page

    before(async function () {
      const why = missing(name)
      if (why) throw new Error(why)
      browser = await launch(name)
      console.log(`      (${browser.version})`)
    })
    after(async () => { await browser?.close() })
    beforeEach(async () => {
      page = await browser.newPage(VIEWPORT)
      await page.goto(served.url)
    })
    afterEach(async () => { await page?.close() })

    for (const file of FIXTURES) {
      const label = path.relative(repoRoot, file)
      it(`shows the CLI's verify --json summary for ${label} (without ${RUN_FIELDS.join(', ')})`, async () => {
        const shown = await check(page, file)
        const expected = cliJson(['verify', file])
        assert.equal(shown.input, path.basename(file), 'the page names the file it was given')
        assert.deepEqual(without(shown, RUN_FIELDS), without(expected, RUN_FIELDS))
        assert.deepEqual(page.errors, [])
        await settled(page)
        const rows = await page.evaluate(() => document.querySelectorAll('#list-rows .block-row').length)
        assert.equal(rows, Math.min(expected.blocks, rows), 'block rows are drawn')
        assert.ok(rows > 0, 'block rows are drawn')
        if (label.includes('atproto')) {
          const report = JSON.parse(await text(page, 'repo-json'))
          assert.deepEqual(without(report, ['input']), without(cliJson(['repo', 'verify', file]), ['input']))
          assert.equal(await page.evaluate(() => /** @type {HTMLElement} */ (document.getElementById('repo')).hidden), false)
        } else {
          assert.equal(await page.evaluate(() => document.body.dataset.repo), 'none', 'no repo section for a CAR that is not a repo')
        }
      })
    }

    it('shows a hash mismatch with its byte offset, and the block list finds it', async () => {
      const shown = await check(page, flippedFile)
      const expected = cliJson(['verify', flippedFile])
      assert.deepEqual(without(shown, RUN_FIELDS), without(expected, RUN_FIELDS))
      const mismatch = expected.problems.find((/** @type {any} */ p) => p.kind === 'hash-mismatch')
      assert.ok(mismatch, 'the CLI reports the flipped block')
      assert.equal(await page.evaluate((/** @type {number} */ at) => document.querySelector(`#problems .offset-link[data-offset="${at}"]`)?.textContent, mismatch.at), `byte ${mismatch.at.toLocaleString('en-US')}`)
      await settled(page)
      await setControl(page, 'filter-status', 'hash-mismatch')
      await countShown(page, '1 of')
    })

    it('shows a CAR cut inside a section as the CLI does: what was read, and the error with its offset', async () => {
      await page.setFile('#file', truncatedFile)
      await page.waitFor(() => document.body.dataset.state === 'error', null, 30_000)
      const shown = JSON.parse(await text(page, 'summary-json'))
      const expected = cliJson(['verify', truncatedFile])
      assert.equal(expected.result, 'incomplete')
      // the message says where the input ends in its own words (a file's size, a stream's end)
      assert.deepEqual(without(shown, [...RUN_FIELDS, 'error']), without(expected, [...RUN_FIELDS, 'error']))
      assert.deepEqual(without(shown.error, ['message']), without(expected.error, ['message']))
      assert.match(await text(page, 'error'), new RegExp(`byte offset ${expected.error.offset}`))
      // what was read is shown, and nothing that is not so: no links "indexing", no copy to download
      const shownAround = await around(page)
      assert.equal(shownAround.summary, true)
      assert.equal(shownAround.download, false)
      assert.equal(shownAround.links, 'not indexed: the CAR could not be read to its end')
      if (expected.problems.length === 0) assert.deepEqual(shownAround.problems, ['none'])
    })

    it('a file that is not a CAR: one error naming it, no summary of an empty run, no download button', async () => {
      await page.setFile('#file', notCarFile)
      await page.waitFor(() => document.body.dataset.state === 'error', null, 30_000)
      const shownAround = await around(page)
      assert.equal(shownAround.errors.length, 1)
      assert.match(shownAround.errors[0], /^not-a-car\.txt: not a CAR file: bad header/)
      assert.equal(shownAround.summary, false)
      assert.equal(shownAround.download, false)
    })

    it('after a failure the status line and the progress bar say the run failed, not "reading…"', async () => {
      for (const file of [notCarFile, truncatedFile]) {
        await page.goto(served.url)
        await page.setFile('#file', file)
        await page.waitFor(() => document.body.dataset.state === 'error', null, 30_000)
        const status = await page.evaluate(() => {
          const bar = /** @type {HTMLProgressElement} */ (document.getElementById('progress-bar'))
          const progress = /** @type {HTMLElement} */ (document.getElementById('progress'))
          return { text: document.getElementById('progress-text')?.textContent, value: bar.value, state: progress.dataset.state, shown: !progress.hidden }
        })
        const label = path.basename(file)
        assert.equal(status.shown, true, `${label}: the status line is shown`)
        assert.match(String(status.text), /^failed\b/, `${label}: the status line says the run failed (it says ${JSON.stringify(status.text)})`)
        // a full bar in the failed colour: the run is over (an empty one says it has not begun)
        assert.equal(status.value, 1, `${label}: the progress bar is full`)
        assert.equal(status.state, 'failed', `${label}: the progress bar is marked failed`)
      }
    })

    it('offers "Download canonicalized copy" only when the copy would pass and differ from the file', async () => {
      const byName = (/** @type {string} */ name) => /** @type {string} */ (FIXTURES.find((f) => f.endsWith(`/${name}`)))
      const cases = [
        // a hash mismatch: the CLI writes no copy
        { file: flippedFile, offered: false },
        // already canonical: the copy would be the file's own bytes
        { file: byName('repo-small-v2.car'), offered: false },
        // its only problems are non-canonical blocks, but they hold invalid UTF-8 text, which has
        // no canonical form: the CLI writes no copy
        { file: byName('filecoin-sample-v1.car'), offered: false },
        // one non-canonical block, which the copy rewrites
        { file: byName('filecoin-calibnet-genesis.car'), offered: true }
      ]
      for (const { file, offered } of cases) {
        await page.goto(served.url)
        const summary = await check(page, file)
        const shown = (await around(page)).download
        assert.equal(shown, offered, `${path.basename(file)} (${summary.result}, ${summary.dagCbor.nonCanonical} non-canonical): download ${offered ? '' : 'not '}offered`)
        // the CLI agrees: it writes a copy, and the copy rewrites a block, exactly when the page offers one
        const cli = cliJson(['verify', file, '--out', path.join(scratch, 'offer.car'), '--canonicalize'])
        const rewritten = cli.output?.written === true && (cli.output.canonicalized + cli.output.relinked) > 0
        assert.equal(rewritten, offered, `the CLI on ${path.basename(file)}: ${cli.result}, ${JSON.stringify(cli.output)}`)
      }
    })

    it('the Links card counts what inspect counts: distinct blocks reachable, duplicates apart', async () => {
      // the repo export first: it holds a block twice, which inspect counts once, and as a duplicate
      const withDuplicates = FIXTURES.filter((f) => f.endsWith('/repo-small-v2.car'))
      assert.equal(cliJson(['inspect', withDuplicates[0]]).duplicates, 1, 'the repo export holds a duplicate block')
      for (const file of [...withDuplicates, ...FIXTURES.filter((f) => !withDuplicates.includes(f))]) {
        await page.goto(served.url)
        await check(page, file)
        await settled(page)
        // the card's lines (the list of missing targets under them left out)
        const lines = await page.evaluate(() => [...document.querySelectorAll('#links-card .card-value > div')].map((d) => d.textContent))
        const r = cliJson(['inspect', file])
        const d = r.dag
        const n = (/** @type {number} */ x) => x.toLocaleString('en-US')
        const said = `${path.relative(repoRoot, file)}: inspect says ${d.reachable} of ${r.uniqueBlocks} reachable, ${d.unreachable} from none, ${r.duplicates} duplicates, ` +
          `${d.missing.links} links to ${d.missing.cids} blocks not in the CAR; the page says ${JSON.stringify(lines)}`
        assert.ok(lines.includes(`${n(d.reachable)} of ${n(r.uniqueBlocks)} distinct blocks reachable from the roots`), said)
        assert.ok(lines.includes(`${n(d.unreachable)} reachable from none (orphans)`), said)
        assert.ok(lines.includes(r.duplicates ? `${n(r.duplicates)} duplicate block${r.duplicates === 1 ? '' : 's'} (the same CID again), counted once above` : 'no duplicate blocks'), said)
        if (d.missing.links) assert.ok(lines.some((l) => l?.startsWith(`${n(d.missing.links)} link${d.missing.links === 1 ? '' : 's'} to ${n(d.missing.cids)} block${d.missing.cids === 1 ? '' : 's'} not in the CAR (`)), said)
        else assert.ok(lines.includes('no links to blocks not in the CAR'), said)
      }
    })

    it('an empty problem list says "none" once, not numbered', async () => {
      await check(page, /** @type {string} */ (FIXTURES.find((f) => f.endsWith('repo-small-v2.car'))))
      assert.deepEqual((await around(page)).problems, ['none'])
    })

    it('takes a file dropped on the page', async () => {
      const file = /** @type {string} */ (FIXTURES.find((f) => f.endsWith('repo-small-v2.car')))
      // a drop as the browser delivers it: a DragEvent whose DataTransfer holds the File
      await page.evaluate(([name, bytes]) => {
        const data = new DataTransfer()
        data.items.add(new File([new Uint8Array(bytes)], name))
        document.getElementById('drop')?.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }))
      }, [path.basename(file), [...fs.readFileSync(file)]])
      await page.waitFor(() => document.body.dataset.state === 'done', null, 30_000)
      const shown = JSON.parse(await text(page, 'summary-json'))
      assert.deepEqual(without(shown, RUN_FIELDS), without(cliJson(['verify', file]), RUN_FIELDS))
    })

    it('checks again with "relaxed" and "partial" ticked, as verify --relaxed --partial', async () => {
      const file = /** @type {string} */ (FIXTURES.find((f) => f.endsWith('genesis-slice-v2.car')))
      const strict = await check(page, file)
      assert.equal(strict.result, 'fail')
      await page.click('#relaxed')
      await page.waitFor(() => document.body.dataset.state === 'done' && JSON.parse(document.getElementById('summary-json')?.textContent || '{}').relaxed === true, null, 30_000)
      await page.click('#partial')
      await page.waitFor(() => document.body.dataset.state === 'done' && JSON.parse(document.getElementById('summary-json')?.textContent || '{}').partial === true, null, 30_000)
      const shown = JSON.parse(await text(page, 'summary-json'))
      assert.deepEqual(without(shown, RUN_FIELDS), without(cliJson(['verify', file, '--relaxed', '--partial']), RUN_FIELDS))
      assert.equal(shown.result, 'ok')
    })

    it('opens a non-canonical block through relaxed decode, marked so, and follows its links', async () => {
      const file = FIXTURES.find((f) => f.endsWith('genesis-slice-v2.car'))
      const summary = await check(page, /** @type {string} */ (file))
      const problem = summary.problems.find((/** @type {any} */ p) => p.kind === 'non-canonical')
      await page.click(`#problems .offset-link[data-offset="${problem.at}"]`)
      await blockShown(page, problem.cid)
      assert.equal(await page.evaluate(() => document.getElementById('block')?.dataset.relaxed), 'true')
      assert.match(await text(page, 'block-note'), /relaxed decode/)
      assert.match(await text(page, 'block-json'), /"Network"/)
      // the root links blocks in the CAR: open it, then one of its links
      await page.click('#summary-grid .cid-link')
      await blockShown(page, summary.roots[0])
      const link = await page.evaluate(() => [...document.querySelectorAll('#block-links li')]
        .find((li) => li.querySelector('.tag-ok'))?.querySelector('.cid-link')?.getAttribute('data-cid'))
      assert.ok(link, 'the root has a link to a block in the CAR')
      await page.click(`#block-links .cid-link[data-cid="${link}"]`)
      await blockShown(page, link)
    })

    it('filters the block list by codec, status and CID', async () => {
      const file = FIXTURES.find((f) => f.endsWith('filecoin-calibnet-genesis.car'))
      const summary = await check(page, /** @type {string} */ (file))
      await settled(page)
      await setControl(page, 'filter-codec', '85') // raw
      await countShown(page, `${summary.codecs.raw} of`)
      await setControl(page, 'filter-codec', '')
      await setControl(page, 'filter-status', 'non-canonical')
      await countShown(page, `${summary.dagCbor.nonCanonical} of`)
      await setControl(page, 'filter-status', '')
      const cid = summary.problems[0].cid
      await setControl(page, 'filter-cid', cid.slice(-12))
      await countShown(page, '1 of')
      assert.equal(await page.evaluate(() => document.querySelector('#list-rows .cid')?.textContent), cid)
      await setControl(page, 'filter-cid', '')
      await setControl(page, 'filter-status', 'orphan')
      await countShown(page, '0 of') // the genesis CAR: every block reachable from its root
    })

    for (const fixture of ['filecoin-calibnet-genesis.car', 'genesis-slice-v2.car']) {
      it(`downloads a canonicalized copy of ${fixture}: the bytes the CLI writes with --out --canonicalize`, async () => {
        await canonicalized(fixture)
      })
    }

    /** @param {string} fixture */
    async function canonicalized (fixture) {
      const file = /** @type {string} */ (FIXTURES.find((f) => f.endsWith(`/${fixture}`)))
      await check(page, file)
      const { name: saved, bytes } = await page.download('#canonicalize', 20_000).catch(async (err) => {
        throw new Error(`${err.message}; the page says: ${await text(page, 'canonicalize-status')}`)
      })
      assert.equal(saved, fixture.replace(/\.car$/, '.canonical.car'))
      const out = path.join(scratch, `canonical-${name}-${fixture}`)
      const r = spawnSync(process.execPath, [CLI, 'verify', file, '--out', out, '--canonicalize'], { encoding: 'utf8' })
      assert.equal(r.status, 0, r.stderr)
      assert.ok(Buffer.compare(bytes, fs.readFileSync(out)) === 0, `the page's copy (${bytes.length} B) is the CLI's (${fs.statSync(out).size} B)`)
      assert.match(await text(page, 'canonicalize-status'), /the copy passed every check/)
    }

    it('checks an AT Protocol commit\'s signature against a pasted did:key, as repo verify --key does', async () => {
      await check(page, hostileFile)
      await settled(page)
      for (const key of [hostileKey, 'did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme']) {
        await setControl(page, 'repo-key', key)
        await page.click('#repo-check')
        await page.waitFor((/** @type {string} */ key) => document.body.dataset.repo === 'done' && document.getElementById('repo-json')?.textContent?.includes(key), key, 15_000)
        const report = JSON.parse(await text(page, 'repo-json'))
        const expected = cliJson(['repo', 'verify', hostileFile, '--key', key])
        assert.deepEqual(without(report, ['input']), without(expected, ['input']))
        assert.equal(report.signature.valid, key === hostileKey)
      }
    })

    it('shows markup, script and javascript: URLs from a CAR as text, and runs none of it', async () => {
      await page.evaluate(() => {
        const violations = /** @type {string[]} */ ([])
        Object.assign(window, { cspViolations: violations })
        document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`))
      })
      const summary = await check(page, hostileFile)
      assert.deepEqual(without(summary, RUN_FIELDS), without(cliJson(['verify', hostileFile]), RUN_FIELDS))
      await settled(page)
      assert.equal(await page.evaluate(() => document.body.dataset.repo), 'done', 'the repo section is shown')
      const blocks = summary.blocks
      let shownPayloads = 0
      for (let i = 0; i < blocks; i++) {
        await page.click(`#list-rows .block-row[data-block="${i}"]`)
        await page.waitFor((/** @type {number} */ i) => document.getElementById('block')?.dataset.state === 'done' &&
          [...document.querySelectorAll('#block-meta .card-value')].some((n) => n.textContent === `#${i}`), i, 15_000)
        const json = await text(page, 'block-json')
        shownPayloads += PAYLOADS.filter((p) => json.includes(JSON.stringify(p).slice(1, -1))).length
      }
      assert.ok(shownPayloads >= PAYLOADS.length, `the payloads are shown as text (${shownPayloads} seen)`)
      // records' keys and the repo's fault messages carry them too
      assert.ok((await text(page, 'repo')).includes('<img src=x onerror='))
      await new Promise((resolve) => setTimeout(resolve, 500)) // anything queued would have run by now
      assert.notEqual(await page.evaluate(() => document.title), MARKER)
      assert.equal(await page.evaluate(() => document.title), 'CAR checker')
      assert.deepEqual(page.dialogs, [])
      assert.deepEqual(page.console.filter((m) => m.includes(MARKER)), [])
      assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).cspViolations), [])
      assert.deepEqual(page.errors, [])
      // nothing fetched but the page's own files (an <img src=x> parsed from the data would ask for /x)
      const own = new Set(['', 'app.js', 'worker.js', 'style.css', 'favicon.svg'].map((f) => served.url + f))
      // (data: and blob: URLs are read in the browser; Chromium loads a data: font for its own use)
      assert.deepEqual(page.requests.filter((u) => !own.has(u) && !/^(data|blob):/.test(u)), [])
      assert.equal(await page.evaluate(() => document.querySelectorAll('main img, main script, main svg, main iframe, main a[href]').length), 0,
        'no element is built from the data (the only link, the download, has no href until a copy is made)')
    })

    it('checks a generated CAR of 800 MB without holding it', async function () {
      this.timeout(300_000)
      if (!largeFile) {
        largeFile = path.join(scratch, 'large.car')
        const made = writeLargeCar(largeFile, LARGE_BYTES)
        largeExpected = cliJson(['verify', largeFile])
        console.log(`      generated ${(made.bytes / 1e6).toFixed(1)} MB, ${made.blocks} blocks`)
      }
      const size = fs.statSync(largeFile).size
      assert.ok(size >= LARGE_BYTES)
      // the baseline after a small CAR: the worker started and the browser's helper processes spawned
      await check(page, /** @type {string} */ (FIXTURES.find((f) => f.endsWith('filecoin-calibnet-genesis.car'))))
      await settled(page)
      const baseline = treeRss(browser.pid)
      let peak = baseline
      const sampler = setInterval(() => { peak = Math.max(peak, treeRss(browser.pid)) }, 100)
      const started = Date.now()
      let shown
      try {
        shown = await check(page, largeFile, 240_000)
      } finally {
        clearInterval(sampler)
      }
      const seconds = (Date.now() - started) / 1000
      peak = Math.max(peak, treeRss(browser.pid))
      const pageRate = Number(await page.evaluate(() => document.body.dataset.mbPerSec))
      console.log(`      ${name}: ${(size / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s from setting the file (${(size / 1e6 / seconds).toFixed(1)} MB/s); the page's own figure: ${pageRate} MB/s`)
      console.log(`      ${name}: browser processes' resident memory: ${(baseline / 1e6).toFixed(0)} MB before, peak ${(peak / 1e6).toFixed(0)} MB (+${((peak - baseline) / 1e6).toFixed(0)} MB for a ${(size / 1e6).toFixed(0)} MB file)`)
      assert.deepEqual(without(shown, RUN_FIELDS), without(largeExpected, RUN_FIELDS))
      assert.ok(peak - baseline < size / 2, `the browser grew by ${((peak - baseline) / 1e6).toFixed(0)} MB reading a ${(size / 1e6).toFixed(0)} MB file: it must not hold the file`)
    })

    it('lists a CAR of a million blocks: scrolls to its last block, filters it by CID text', async function () {
      this.timeout(300_000)
      if (!manyFile) {
        manyFile = path.join(scratch, 'many.car')
        const made = writeManyBlocksCar(manyFile, 1_000_000)
        manyExpected = cliJson(['verify', manyFile])
        console.log(`      generated ${(made.bytes / 1e6).toFixed(1)} MB, ${made.blocks} blocks`)
      }
      let started = Date.now()
      const shown = await check(page, manyFile, 240_000)
      await settled(page)
      const checkSeconds = (Date.now() - started) / 1000
      assert.deepEqual(without(shown, RUN_FIELDS), without(manyExpected, RUN_FIELDS))
      const last = shown.blocks - 1
      started = Date.now()
      await page.evaluate(() => { const list = /** @type {HTMLElement} */ (document.getElementById('list')); list.scrollTop = list.scrollHeight })
      await page.waitFor((/** @type {number} */ last) => document.querySelector(`#list-rows .block-row[data-block="${last}"]`) !== null, last, 10_000)
      const scrollMs = Date.now() - started
      const lastCid = await page.evaluate((/** @type {number} */ last) => document.querySelector(`#list-rows .block-row[data-block="${last}"] .cid`)?.textContent, last)
      started = Date.now()
      await setControl(page, 'filter-cid', String(lastCid).slice(-10))
      await page.waitFor(() => / of /.test(document.getElementById('block-count')?.textContent ?? ''), null, 60_000)
      const filterMs = Date.now() - started
      assert.equal(await page.evaluate(() => document.querySelector('#list-rows .cid')?.textContent), lastCid)
      console.log(`      ${name}: ${shown.blocks} blocks checked and listed in ${checkSeconds.toFixed(1)} s; scrolled to the last in ${scrollMs} ms; CID text filter over all in ${filterMs} ms`)
    })

    it('renders: a screenshot of the page on a fixture is a non-blank PNG of the viewport', async () => {
      const blankPng = await page.screenshot()
      await check(page, /** @type {string} */ (FIXTURES.find((f) => f.endsWith('genesis-slice-v2.car'))))
      await settled(page)
      await page.click('#list-rows .block-row[data-block="1"]')
      await page.waitFor(() => document.getElementById('block')?.dataset.state === 'done', null, 15_000)
      await page.evaluate(() => window.scrollTo(0, 0))
      const png = await page.screenshot()
      const facts = pngFacts(png)
      assert.deepEqual([facts.width, facts.height], [VIEWPORT.width, VIEWPORT.height])
      assert.ok(facts.distinct > 40, `the page is drawn (${facts.distinct} distinct byte values)`)
      // the summary, list and block view add text and colour: the PNG compresses less
      assert.ok(png.length > 2 * blankPng.length, `more is drawn than on the empty page (${png.length} B against ${blankPng.length} B)`)
      if (name === 'chromium' && process.env.WEB_SCREENSHOT) fs.writeFileSync(process.env.WEB_SCREENSHOT, png)
    })
  })
}
