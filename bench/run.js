#!/usr/bin/env node
// Throughput benchmark: ours vs @ipld/dag-cbor, cbor-x, @atcute/cbor and a JSON ceiling.
//   node bench/run.js [--quick] [--only=SUBSTRING] [--no-memory] [--no-car-tool] [--no-floor] [--no-lexicon] [--shared-process]
// Each corpus runs in a fresh child process (all peers interleaved inside it), so that no
// corpus is measured in a heap shaped by the ones before it; --shared-process runs them all in
// this process instead. Prints only; never fails (exit code 0 whatever happens).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { loadCorpora, CORPUS_NAMES } from './corpora.js'
import { makePeers, loadOurs, dagJsonForm } from './peers.js'
import { runInterleaved, median, medianRatio } from './harness.js'
import { bytesDiff, valueDiff, viewsOf } from './check.js'
import { tapesOf, buildFromTape } from './floor.js'
import { writeFloor, sizeFor } from './encode-floor.js'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const only = (args.find((a) => a.startsWith('--only=')) || '').slice(7)
/** set in a child process: the one corpus it benchmarks */
const child = (args.find((a) => a.startsWith('--child=')) || '').slice(8)
const RESULT_MARK = '@@bench-result '
const cfg = { ...(quick ? { rounds: 5, roundMs: 25, warmMs: 30 } : { rounds: 15, roundMs: 60, warmMs: 120 }), wall: args.includes('--wall') }
const RELAXED = { relaxed: true }
const ESCAPED = { escapedBytes: true }
const VIEWS = { viewBytes: true }
const RELAXED_VIEWS = { relaxed: true, viewBytes: true }
const POOL = { pool: true }

const fmtRate = (x) => !Number.isFinite(x) ? '-' : x >= 1e6 ? (x / 1e6).toFixed(2) + 'M' : x >= 1e3 ? (x / 1e3).toFixed(1) + 'k' : x.toFixed(1)
const fmtMB = (x) => !Number.isFinite(x) ? '-' : x >= 100 ? x.toFixed(0) : x.toFixed(1)
const fmtX = (x) => !Number.isFinite(x) ? '-' : x.toFixed(2) + 'x'
/** lowest-highest of the per-round ratios a[r] / b[r] */
const ratioRange = (a, b) => { const rs = a.slice(0, b.length).map((x, r) => x / b[r]); return `${Math.min(...rs).toFixed(2)}-${Math.max(...rs).toFixed(2)}` }
const pad = (s, n) => String(s).padStart(n)
const padR = (s, n) => String(s).padEnd(n)
const DIRS = ['encode', 'decode', 'roundtrip']
/** the decode row that only builds the decoded value (bench/floor.js) */
const FLOOR = 'build-only floor'
/** the encode row that only writes the bytes, checking nothing (bench/encode-floor.js) */
const WRITE_FLOOR = 'write-only floor'
/** the decode row with { viewBytes: true }, timed where a peer returns views (cbor-x) */
const VIEW_ROW = 'ours { viewBytes }'
/** the encode row with { pool: true }, timed beside `ours`; peers whose encode results are views
 * (of a shared buffer or of an over-sized chunk) are compared with it */
const POOL_ROW = 'ours { pool }'
/** the encode row writing into one reused buffer (no result allocated) */
const INTO_ROW = 'ours encodeInto'

/** results[dir][corpus] = { ours: rate[], byName: { name: rate[] } } */
const results = { encode: {}, decode: {}, roundtrip: {} }
const bytesRef = {} // dir -> { set: rate[], ours: rate[], oursView: rate[] }
let checkProblems = 0

function note (msg) { console.log('  ! ' + msg) }

function firstFailure (items, fn) {
  let fails = 0
  let first = null
  for (let i = 0; i < items.length; i++) {
    try {
      const d = fn(items[i], i)
      if (d) { fails++; if (!first) first = `item ${i}: ${d}` }
    } catch (e) {
      fails++
      if (!first) first = `item ${i}: threw ${e && e.message ? e.message.split('\n')[0].slice(0, 120) : e}`
    }
  }
  return { fails, first }
}

function allThrowFree (items, fn) {
  for (const it of items) {
    try { fn(it) } catch (e) { return e }
  }
  return null
}

async function benchCorpus (c, peers, ours, ref) {
  const head = `${c.name}: ${c.description} — ${c.blocks.length} item(s), avg ${c.avgBytes < 1e4 ? c.avgBytes.toFixed(0) + ' B' : (c.avgBytes / 1024).toFixed(1) + ' KiB'}`
  console.log('\n== ' + head)
  const tStart = Date.now()

  // Real blocks: ours decodes strictly, and with { relaxed: true } only the blocks strict rejects.
  const relaxedSet = new Set()
  if (c.real) {
    const rules = {}
    for (const b of c.blocks) {
      try { ours.decode(b) } catch (e) {
        relaxedSet.add(b)
        rules[e.rule || e.message] = (rules[e.rule || e.message] || 0) + 1
      }
    }
    console.log(`  ours: ${c.blocks.length - relaxedSet.size} blocks strict, ${relaxedSet.size} decoded with { relaxed: true } (strict rejects: ${JSON.stringify(rules)}); re-encoded with { escapedBytes: true } there`)
  }
  const oursDecode = c.real ? (b) => relaxedSet.has(b) ? ours.decode(b, RELAXED) : ours.decode(b) : (b) => ours.decode(b)
  const oursRoundtrip = (b) => relaxedSet.has(b) ? ours.encode(ours.decode(b, RELAXED), ESCAPED) : ours.encode(ours.decode(b))

  // JSON ceiling inputs: the DAG-JSON text and its JSON.parse form.
  let json = null
  try {
    const forms = c.values.map(dagJsonForm)
    json = { texts: forms.map((f) => f.text), plains: forms.map((f) => f.plain) }
  } catch (e) { note(`JSON ceiling n/a: @ipld/dag-json could not encode: ${e.message}`) }

  // ---- checks before timing ----
  const refBlocks = c.values.map((v) => { try { return ref.encode(v) } catch { return null } })
  /** peers some of whose encode results on this corpus are views, not arrays of their own */
  const encodeViews = []
  const usable = { encode: new Set(), decode: new Set(), roundtrip: new Set() }
  for (const p of peers) {
    if (p.ceiling) {
      if (json) {
        const r = firstFailure(json.plains, (pl, i) => JSON.stringify(pl) === json.texts[i] ? null : 'JSON.stringify differs from @ipld/dag-json text')
        if (r.fails) console.log(`  (info) ${p.name}: JSON.stringify(JSON.parse(dag-json)) is not the dag-json text on ${r.fails} items (JS objects list integer-like keys first); ${r.first}`)
        usable.encode.add(p); usable.decode.add(p)
      }
      continue
    }
    const dec = p.ours ? oursDecode : p.decode
    // encode: bytes equal @ipld/dag-cbor's, and decode back (by @ipld/dag-cbor) to the input
    const encErr = allThrowFree(c.values, p.encode)
    if (encErr) {
      note(`${p.name} encode n/a: throws on this corpus (${encErr.message.split('\n')[0].slice(0, 100)})`)
    } else {
      usable.encode.add(p)
      if (p.name !== '@ipld/dag-cbor') {
        const r = firstFailure(c.values, (v, i) => refBlocks[i] && bytesDiff(p.encode(v), refBlocks[i]))
        if (r.fails) { checkProblems++; note(`canonical-form bug: ${p.name} encode differs from @ipld/dag-cbor bytes on ${r.fails}/${c.values.length} items; first ${r.first}`) }
      }
      const r2 = firstFailure(c.values, (v) => valueDiff(ref.decode(p.encode(v)), v))
      if (r2.fails) { checkProblems++; note(`${p.name} encode does not decode back equal on ${r2.fails}/${c.values.length} items; first ${r2.first}`) }
      if (!p.ours) {
        const { views, buffers } = viewsOf(c.values.map(p.encode))
        if (views > 0) {
          encodeViews.push(p.name)
          console.log(`  (info) ${p.name}'s encode results are views: ${views}/${c.values.length} of ${buffers} buffer(s)${p.name === '@ipld/dag-cbor' ? '' : `; its encode is compared with ${POOL_ROW}`}`)
        }
      }
    }
    // decode: same value as @ipld/dag-cbor decodes
    const decErr = allThrowFree(c.blocks, dec)
    if (decErr) {
      note(`${p.name} decode n/a: throws on this corpus (${decErr.message.split('\n')[0].slice(0, 100)})`)
    } else {
      usable.decode.add(p)
      const r = firstFailure(c.blocks, (b, i) => valueDiff(dec(b), c.values[i]))
      if (r.fails) {
        const why = p.ours && c.real ? ' (expected where relaxed decoding keeps invalid UTF-8 as U+DCxx instead of U+FFFD)' : ''
        if (!why) checkProblems++
        note(`${p.name} decode differs from @ipld/dag-cbor on ${r.fails}/${c.blocks.length} items${why}; first ${r.first}`)
      }
      if (c.real) {
        const rt = p.ours ? oursRoundtrip : (b) => p.encode(dec(b))
        const e = allThrowFree(c.blocks, rt)
        if (e) note(`${p.name} decode+re-encode n/a: ${e.message.split('\n')[0].slice(0, 100)}`)
        else {
          usable.roundtrip.add(p)
          const r3 = firstFailure(c.blocks, (b) => bytesDiff(rt(b), b))
          if (r3.fails) {
            // ours re-encodes canonically, so a block strict decoding rejected for key order cannot come back byte-equal
            const strictOnly = p.ours ? firstFailure(c.blocks.filter((b) => !relaxedSet.has(b)), (b) => bytesDiff(rt(b), b)) : r3
            if (p.ours && strictOnly.fails) checkProblems++
            note(`${p.name} decode+re-encode differs from the original block on ${r3.fails}/${c.blocks.length} blocks` +
              (p.ours ? ` (${strictOnly.fails} of them strict-valid${strictOnly.fails ? '' : ': only blocks strict rejects, expected for non-canonical key order'})` : '') + `; first ${r3.first}`)
          }
        }
      }
    }
  }

  // ---- timing ----
  const tCheck = Date.now()
  const dirs = c.real ? DIRS : DIRS.slice(0, 2)
  const table = {} // name -> dir -> { rate, mbs, ratio }
  const order = []
  const oursPeer = peers.find((p) => p.ours)
  for (const dir of dirs) {
    const cells = []
    for (const p of peers) {
      if (!usable[dir].has(p)) continue
      if (dir === 'encode') cells.push({ name: p.name, p, fn: p.encode, items: p.ceiling ? json.plains : c.values })
      else if (dir === 'decode') cells.push({ name: p.name, p, fn: p.ceiling ? p.decode : p.ours ? oursDecode : p.decode, items: p.ceiling ? json.texts : c.blocks })
      else cells.push({ name: p.name, p, fn: p.ours ? oursRoundtrip : (b) => p.encode(p.decode(b)), items: c.blocks })
    }
    if (c.bytesCorpus) {
      const dst = new Uint8Array(1 << 20)
      cells.push({ name: 'Uint8Array.set (ref)', fn: (v) => { dst.set(v.data); return dst }, items: c.values })
      cells.push({ name: 'Uint8Array.slice (ref)', fn: (v) => v.data.slice(), items: c.values })
    }
    if (dir === 'decode' && usable.decode.has(oursPeer) && peers.some((p) => p.views && usable.decode.has(p))) {
      // a peer whose decoded byte strings are views of the input (cbor-x) is matched against
      // ours with the same semantics, { viewBytes: true }; on corpora with no byte strings the
      // two rows differ only by noise
      const viewDecode = c.real ? (b) => ours.decode(b, relaxedSet.has(b) ? RELAXED_VIEWS : VIEWS) : (b) => ours.decode(b, VIEWS)
      const r = firstFailure(c.blocks, (b, i) => valueDiff(viewDecode(b), oursDecode(b)))
      if (r.fails) { checkProblems++; note(`ours { viewBytes: true } decode differs from ours on ${r.fails} items; first ${r.first}`) }
      cells.push({ name: VIEW_ROW, fn: viewDecode, items: c.blocks })
    }
    if (dir === 'encode' && usable.encode.has(oursPeer)) {
      // results of up to a few KiB as views of a shared slab, as cbor-x's and (in Node)
      // @atcute/cbor's are views; the same bytes as `ours`
      const pooled = (v) => ours.encode(v, POOL)
      const r = firstFailure(c.values, (v) => bytesDiff(pooled(v), oursPeer.encode(v)))
      if (r.fails) {
        checkProblems++
        note(`ours { pool } encode differs from ours on ${r.fails} items; first ${r.first}`)
      } else cells.push({ name: POOL_ROW, fn: pooled, items: c.values })
    }
    if (dir === 'encode' && usable.encode.has(oursPeer) && typeof ours.encodeInto === 'function' && typeof ours.encodedLength === 'function') {
      // the same bytes written into one reused buffer (encodeInto): the difference from `ours`
      // is the cost of allocating each fresh exact-size result
      const target = new Uint8Array(Math.max(...c.values.map((v) => ours.encodedLength(v))))
      const r = firstFailure(c.values, (v) => {
        const { written } = ours.encodeInto(v, target)
        return bytesDiff(target.subarray(0, written), ours.encode(v))
      })
      if (r.fails) { checkProblems++; note(`ours encodeInto differs from ours encode on ${r.fails} items; first ${r.first}`) }
      cells.push({ name: INTO_ROW, fn: (v) => ours.encodeInto(v, target), items: c.values })
    }
    if (dir === 'encode' && usable.encode.has(oursPeer) && !args.includes('--no-floor')) {
      // no checks: only writing the bytes (see bench/encode-floor.js)
      sizeFor(c.values, ours.encodedLength)
      const r = firstFailure(c.values, (v, i) => refBlocks[i] && bytesDiff(writeFloor(v), refBlocks[i]))
      if (r.fails) {
        checkProblems++
        note(`write-only floor differs from @ipld/dag-cbor bytes on ${r.fails} items; first ${r.first}`)
      } else cells.push({ name: WRITE_FLOOR, fn: writeFloor, items: c.values })
    }
    if (dir === 'decode' && usable.decode.has(oursPeer) && !args.includes('--no-floor')) {
      // no parsing, no checks: only building the value ours returns (see bench/floor.js)
      const tapes = tapesOf(c.blocks)
      const r = firstFailure(tapes, (t, i) => valueDiff(buildFromTape(t), oursDecode(c.blocks[i])))
      if (r.fails) {
        checkProblems++
        note(`build-only floor differs from ours decode on ${r.fails} items; first ${r.first}`)
      } else cells.push({ name: FLOOR, fn: buildFromTape, items: tapes })
    }
    if (cells.length === 0) continue
    const rates = runInterleaved(cells, { ...cfg, chunk: c.chunk })
    if (args.includes('--verbose')) cells.forEach((cell, i) => console.log(`    ${dir} ${cell.name}: ${rates[i].map(fmtRate).join(' ')}`))
    const base = cells.findIndex((x) => x.name === '@ipld/dag-cbor')
    const res = { byName: {} }
    cells.forEach((cell, i) => {
      const rate = median(rates[i])
      res.byName[cell.name] = rates[i]
      if (cell.p && cell.p.ours) res.ours = rates[i]
      if (!table[cell.name]) { table[cell.name] = {}; order.push(cell.name) }
      table[cell.name][dir] = { rate, mbs: rate * c.avgBytes / 1e6, ratio: base >= 0 ? medianRatio(rates[i], rates[base]) : NaN }
    })
    if (dir === 'encode') res.encodeViews = encodeViews
    results[dir][c.name] = res
    if (c.bytesCorpus) {
      bytesRef[dir] = { byName: res.byName, set: res.byName['Uint8Array.set (ref)'], slice: res.byName['Uint8Array.slice (ref)'], ours: res.ours, oursView: res.byName[VIEW_ROW] }
    }
  }

  if (args.includes('--verbose')) console.log(`    (checks ${tCheck - tStart} ms, timing ${Date.now() - tCheck} ms)`)
  // ---- table ----
  const w = Math.max(20, ...order.map((n) => n.length)) + 1
  let h1 = padR('', w)
  let h2 = padR('codec', w)
  for (const d of dirs) {
    h1 += ' | ' + padR(d === 'roundtrip' ? 'decode+re-encode' : d, 27)
    h2 += ' | ' + pad('ops/s', 9) + pad('MB/s', 8) + pad('vs ipld', 10)
  }
  console.log('  ' + h1)
  console.log('  ' + h2)
  for (const name of order) {
    let line = padR(name, w)
    for (const d of dirs) {
      const x = table[name][d]
      line += ' | ' + (x ? pad(fmtRate(x.rate), 9) + pad(fmtMB(x.mbs), 8) + pad(fmtX(x.ratio), 10) : pad('n/a', 27))
    }
    console.log('  ' + line)
  }
}

/**
 * [corpus, median ratio of `row` to @ipld/dag-cbor] for the corpora that timed that row.
 *
 * @param {Array<[string, any]>} entries - [corpus, results[dir][corpus]]
 * @param {string} row
 * @returns {Array<[string, number]>}
 */
function rowRatios (entries, row) {
  return entries.filter(([, r]) => r.byName[row]).map(([name, r]) => [name, medianRatio(r.byName[row], r.byName['@ipld/dag-cbor'])])
}

/** @param {Array<[string, number]>} ratios @returns {string[]} "corpus 2.50x" for those under 3x */
function under3x (ratios) {
  return ratios.filter(([, x]) => x < 3).map(([name, x]) => `${name} ${fmtX(x)}`)
}

function summarize (peers) {
  const lines = []
  const others = peers.filter((p) => !p.ours && !p.ceiling && p.name !== '@ipld/dag-cbor').map((p) => p.name)
  const summary = {}
  for (const dir of DIRS) {
    const entries = Object.entries(results[dir]).filter(([, r]) => r.ours && r.byName['@ipld/dag-cbor'])
    if (entries.length === 0) continue
    const ratios = entries.map(([name, r]) => [name, medianRatio(r.ours, r.byName['@ipld/dag-cbor'])])
    const min = ratios.reduce((a, b) => (b[1] < a[1] ? b : a))
    const med = median(ratios.map((x) => x[1]))
    const beats = {}
    let line = `${padR(dir === 'roundtrip' ? 'decode+re-encode' : dir, 16)} ours vs @ipld/dag-cbor: min ${fmtX(min[1])} (${min[0]}), median ${fmtX(med)} over ${ratios.length} corpora`
    for (const o of others) {
      const lost = []
      const na = []
      let n = 0
      let viewNote = ''
      const pooled = []
      const peer = peers.find((p) => p.name === o)
      for (const [name, r] of Object.entries(results[dir])) {
        if (!r.ours) continue
        if (!r.byName[o]) { na.push(name); continue }
        n++
        // a peer whose byte strings are views of the input is matched against ours with the
        // same semantics (the { viewBytes } row); one whose encode results are views, against
        // ours { pool }
        const mine = peer && peer.views && r.byName[VIEW_ROW]
          ? r.byName[VIEW_ROW]
          : r.encodeViews && r.encodeViews.includes(o) && r.byName[POOL_ROW] ? r.byName[POOL_ROW] : r.ours
        const x = medianRatio(mine, r.byName[o])
        if (!(x > 1)) lost.push(`${name} ${fmtX(x)}`)
        if (mine === r.byName[VIEW_ROW]) viewNote = ' (decode: ours { viewBytes } against its views)'
        else if (mine === r.byName[POOL_ROW]) pooled.push(name)
      }
      if (pooled.length) viewNote = ` (ours { pool } against its views on ${pooled.length === n ? 'all' : pooled.length})`
      beats[o] = { lost, na, n }
      line += `; beats ${o} on ${n - lost.length}/${n}` + (lost.length ? ` (not: ${lost.join(', ')})` : '') + (na.length ? ` [n/a on ${na.length}]` : '') + viewNote
    }
    lines.push(line)
    summary[dir] = { ratios, min, med, beats }
    for (const [row, what] of [[FLOOR, 'bench/floor.js: no parsing, same output'], [WRITE_FLOOR, 'bench/encode-floor.js: no checks, same bytes']]) {
      const floors = rowRatios(entries, row)
      if (floors.length === 0) continue
      const under = under3x(floors)
      lines.push(`${padR('', 16)} ${row} (${what}) vs @ipld/dag-cbor: under 3x on ${under.length}/${floors.length} corpora${under.length ? ': ' + under.join(', ') : ''}`)
    }
    const into = rowRatios(entries, INTO_ROW)
    if (into.length) {
      const intoMin = into.reduce((a, b) => (b[1] < a[1] ? b : a))
      const under3 = under3x(into)
      lines.push(`${padR('', 16)} ours encodeInto (no result allocation) vs @ipld/dag-cbor: min ${fmtX(intoMin[1])} (${intoMin[0]}), median ${fmtX(median(into.map((x) => x[1])))}` +
        (under3.length ? `; under 3x: ${under3.join(', ')}` : '; 3x or more on every corpus'))
    }
  }
  return { lines, summary }
}

/** JSON's ratio under which the speed target is 0.9x of JSON's instead of 3x (issue 15) */
const JSON_BAR = 3.33
/** corpora bound by copying bytes, where the reference already runs at memcpy speed: their target
 * per direction, against @ipld/dag-cbor */
const COPY_BOUND = /** @type {Record<string, Record<string, number>>} */ ({ 'bytes-1MiB': { encode: 1, decode: 0.9 } })
/** a copy-bound encode's time at most this many times that of `Uint8Array.slice` of its payload */
const SLICE_BOUND = 1.3

/**
 * The per-corpus speed target of one direction: 3x @ipld/dag-cbor, or, where V8's JSON on the
 * DAG-JSON form of the same data (a ceiling for building or walking JS values) itself stays under
 * JSON_BAR, 0.9x of JSON's ratio; for the copy-bound corpora, their own. Prints a line per corpus.
 *
 * @param {'encode'|'decode'} dir
 * @returns {{ misses: string[], n: number }}
 */
function speedTargets (dir) {
  const misses = []
  let n = 0
  console.log(`\n== ${dir}: per-corpus target (3x, or 0.9x JSON where JSON < ${JSON_BAR}x)`)
  for (const [name, r] of Object.entries(results[dir])) {
    const ref = r.byName['@ipld/dag-cbor']
    if (!r.ours || !ref) continue
    n++
    const ours = medianRatio(r.ours, ref)
    const json = r.byName['JSON (ceiling)'] ? medianRatio(r.byName['JSON (ceiling)'], ref) : undefined
    const target = COPY_BOUND[name]?.[dir] ?? (json !== undefined && json < JSON_BAR ? 0.9 * json : 3)
    const met = ours >= target
    if (!met) misses.push(`${name} ${fmtX(ours)} < ${fmtX(target)}`)
    console.log(`  ${met ? 'met    ' : 'NOT met'} ${padR(name, 34)} ours ${padR(fmtX(ours), 8)} target ${padR(fmtX(target), 8)}` +
      `${COPY_BOUND[name] ? '(copy-bound)' : json === undefined ? '(no JSON form)' : `(JSON ${fmtX(json)})`}`)
  }
  return { misses, n }
}

function runMemory () {
  const script = fileURLToPath(new URL('./memory.js', import.meta.url))
  const r = spawnSync(process.execPath, ['--expose-gc', script, '--json', '--only-ours', ...args.filter((a) => a === '--ref-as-ours')], { encoding: 'utf8', maxBuffer: 1 << 24, timeout: 300000 })
  const last = (r.stdout || '').trim().split('\n').pop()
  try { return JSON.parse(last) } catch { return { error: (r.stderr || r.stdout || 'no output').slice(-400) } }
}

async function main () {
  const t0 = Date.now()
  const { mod: ours, path } = await loadOurs()
  const peers = makePeers(ours)
  const ref = await import('@ipld/dag-cbor')
  /** @param {(name: string) => boolean} filter */
  const benchHere = async (filter) => {
    for (const c of await loadCorpora({ quick, filter })) {
      try { await benchCorpus(c, peers, ours, ref) } catch (e) { console.log(`  bench error on ${c.name} (skipped): ${e.stack}`) }
    }
  }
  if (child) {
    await benchHere((name) => name === child)
    console.log(RESULT_MARK + JSON.stringify({ results, bytesRef, checkProblems }))
    return
  }
  console.log(`DAG-CBOR benchmark (${quick ? 'quick' : 'full'}): ours = ${path}; node ${process.version}; ${cfg.rounds} interleaved rounds x ${cfg.roundMs} ms per codec after ${cfg.warmMs} ms warm-up; medians`)
  console.log('Columns: ops/s = items per second; MB/s = DAG-CBOR bytes (reference encoding) per second; vs ipld = median per-round ratio of ops/s to @ipld/dag-cbor.')
  console.log('JSON (ceiling) = JSON.stringify / JSON.parse on the DAG-JSON form (a different, simpler job: platform ceiling, not a peer).')
  if (args.includes('--shared-process')) {
    console.log('(--shared-process: every corpus in this one process)')
    await benchHere((name) => !only || name.includes(only))
  } else {
    const script = fileURLToPath(import.meta.url)
    const passOn = args.filter((a) => a === '--quick' || a === '--wall' || a === '--verbose' || a === '--ref-as-ours' || a === '--no-floor')
    for (const name of CORPUS_NAMES.filter((n) => !only || n.includes(only))) {
      const r = spawnSync(process.execPath, [script, `--child=${name}`, ...passOn], { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 900000 })
      const lines = (r.stdout || '').split('\n')
      const mark = lines.findIndex((l) => l.startsWith(RESULT_MARK))
      console.log(lines.filter((l, i) => i !== mark).join('\n').replace(/\n+$/, ''))
      if (mark < 0) {
        console.log(`  bench error on ${name} (skipped): child process gave no result (exit ${r.status}${r.signal ? ', ' + r.signal : ''}) ${(r.stderr || '').slice(-400)}`)
        continue
      }
      const got = JSON.parse(lines[mark].slice(RESULT_MARK.length))
      for (const dir of DIRS) Object.assign(results[dir], got.results[dir])
      Object.assign(bytesRef, got.bytesRef)
      checkProblems += got.checkProblems
    }
  }

  console.log('\n== Summary (ours, median per-round ratios)')
  const { lines, summary } = summarize(peers)
  for (const l of lines) console.log('  ' + l)
  if (checkProblems) console.log(`  output checks: ${checkProblems} problem(s) reported above (lines marked !)`)

  // ---- targets ----
  const mark = (ok) => ok === undefined ? 'unknown' : ok ? 'met' : 'NOT met'
  const T = []
  for (const dir of ['encode', 'decode']) {
    const { misses, n } = speedTargets(dir)
    T.push([`ours >= 3x @ipld/dag-cbor on ${dir}, or >= 0.9x JSON's ratio where JSON is under ${JSON_BAR}x (${n - misses.length}/${n} corpora` +
      `${misses.length ? '; not: ' + misses.join(', ') : ''})`, n > 0 && misses.length === 0])
  }
  for (const o of ['cbor-x', '@atcute/cbor']) {
    const lost = []
    let n = 0
    for (const dir of ['encode', 'decode']) {
      const b = summary[dir] && summary[dir].beats[o]
      if (!b) continue
      n += b.n
      for (const l of b.lost) lost.push(`${dir} ${l}`)
    }
    T.push([`ours faster than ${o} on encode and decode, every corpus it runs (${n - lost.length}/${n}${lost.length ? '; not: ' + lost.join(', ') : ''})`, n > 0 && lost.length === 0])
  }
  for (const dir of ['encode', 'decode']) {
    const b = bytesRef[dir]
    if (b && b.ours && b.set) {
      const x = medianRatio(b.set, b.ours) // how many times slower than a plain copy
      // our views against a peer's views; a copying peer against our copies
      const vs = (name) => {
        const peer = peers.find((p) => p.name === name)
        const mine = peer && peer.views ? b.oursView : b.ours
        return mine && b.byName[name] ? `, ${peer && peer.views ? '{ viewBytes } ' : ''}${fmtX(medianRatio(mine, b.byName[name]))} the speed of ${name}` : ''
      }
      const into = b.byName[INTO_ROW]
      const extra = (dir === 'decode' && b.oursView ? `; { viewBytes } ${medianRatio(b.set, b.oursView).toFixed(2)}x the Uint8Array.set time${vs('cbor-x')}${vs('@atcute/cbor')}` : '') +
        (dir === 'encode' && into ? `; encodeInto (no result allocation) ${medianRatio(b.set, into).toFixed(2)}x` : '') +
        (b.slice && dir === 'decode' ? `; vs allocating Uint8Array.slice: ${medianRatio(b.slice, b.ours).toFixed(2)}x` : '')
      const vsRef = b.byName['@ipld/dag-cbor'] ? medianRatio(b.ours, b.byName['@ipld/dag-cbor']) : undefined
      const bound = COPY_BOUND['bytes-1MiB'][dir]
      T.push([`1 MiB bytes ${dir} >= ${fmtX(bound)} @ipld/dag-cbor (ours ${vsRef === undefined ? '-' : `${fmtX(vsRef)}, rounds ${ratioRange(b.ours, b.byName['@ipld/dag-cbor'])}`}; it takes ${x.toFixed(2)}x the Uint8Array.set time${extra})`, vsRef === undefined ? undefined : vsRef >= bound])
      if (dir === 'encode') {
        // the time of ours over that of slice(), both per round: slice's rate over ours
        const vsSlice = b.slice ? medianRatio(b.slice, b.ours) : undefined
        T.push([`1 MiB bytes encode within ${SLICE_BOUND}x the time of Uint8Array.slice of the payload (ours ${vsSlice === undefined ? '-' : vsSlice.toFixed(2) + 'x'}${vsSlice === undefined ? '' : ', rounds ' + ratioRange(b.slice, b.ours)})`, vsSlice === undefined ? undefined : vsSlice <= SLICE_BOUND])
      }
    } else T.push([`1 MiB bytes ${dir} >= ${fmtX(COPY_BOUND['bytes-1MiB'][dir])} @ipld/dag-cbor`, undefined])
  }
  const rt = summary.roundtrip
  T.push([`real CARs decode+re-encode >= 3x @ipld/dag-cbor (${rt ? rt.ratios.map(([n, x]) => `${n} ${fmtX(x)}`).join(', ') : '-'})`, rt && rt.ratios.length > 0 && rt.ratios.every(([, x]) => x >= 3)])
  if (!args.includes('--no-memory')) {
    const m = runMemory()
    if (m.error) {
      T.push([`<= 350 B per decoded CID (memory bench failed: ${m.error.replace(/\s+/g, ' ')})`, undefined])
      T.push(['kept CID from a 1 MiB block < 1 KB', undefined])
    } else {
      T.push([`<= 350 B retained per decoded CID (ours ${m.ours.perCid.toFixed(0)} B; run npm run bench:memory for all codecs)`, m.ours.perCid <= 350])
      T.push([`kept CID from a decoded 1 MiB block retains < 1 KB (ours ${m.ours.keptCid.toFixed(0)} B)`, m.ours.keptCid < 1024])
    }
  }
  console.log('\n== Targets')
  for (const [text, ok] of T) console.log(`  [${mark(ok)}] ${text}`)
  if (!args.includes('--no-lexicon')) {
    // Lexicon record codecs beside decoding and validating apart (bench/lexicon.js), in a fresh process
    console.log('\n== Lexicon record codecs (bench/lexicon.js)')
    const r = spawnSync(process.execPath, [fileURLToPath(new URL('./lexicon.js', import.meta.url)), ...args.filter((a) => a === '--quick')], { encoding: 'utf8', maxBuffer: 1 << 24, timeout: 900000 })
    console.log((r.stdout || '').replace(/\n+$/, ''))
    if (r.status !== 0) console.log(`  bench error in bench/lexicon.js (exit ${r.status}${r.signal ? ', ' + r.signal : ''}): ${(r.stderr || '').slice(-400)}`)
  }
  if (!args.includes('--no-car-tool')) {
    // the main job (bin/dag-cbor-car.js) on the real CARs, next to the same pipeline with @ipld/dag-cbor
    console.log('\n== CAR tool throughput (car/bench/car-tool.js)')
    await import('../car/bench/car-tool.js')
  }
  console.log(`\n(done in ${((Date.now() - t0) / 1000).toFixed(1)} s)`)
}

main().catch((e) => console.log('bench error (benchmarks never fail):', e && e.stack)).finally(() => { process.exitCode = 0 })
