// The page: hands the dropped or picked File to the worker (worker.js), which checks it, and shows
// what comes back. Every string from the CAR reaches the document as text (textContent, createTextNode,
// data attributes): no HTML is parsed from data, and no href is taken from it; links to blocks are
// buttons resolved here, through the block table.
import { CID } from 'multiformats/cid'
import { BlockTable, STATUSES } from './block-table.js'
import { CidSearch } from './cid-search.js'
import { prettyJson } from '../lib/pretty-json.js'

const ROW_HEIGHT = 24
const MAX_SCROLL_HEIGHT = 8_000_000
const CODEC_NAMES = new Map([[0x71, 'dag-cbor'], [0x55, 'raw'], [0x70, 'dag-pb'], [0x0129, 'dag-json'], [0x0200, 'json']])
const HASH_NAMES = new Map([[0x12, 'sha2-256'], [0xb220, 'blake2b-256'], [0x00, 'identity']])
const MAX_RECORDS_SHOWN = 500

/** @param {number} code @param {Map<number, string>} names */
const nameOf = (code, names) => names.get(code) ?? `0x${code.toString(16)}`

/**
 * @param {string} id
 * @returns {any}
 */
function $ (id) {
  const node = document.getElementById(id)
  if (!node) throw new Error(`the page has no #${id}`)
  return node
}

/**
 * An element with a class and children (strings become text nodes).
 *
 * @param {string} tag
 * @param {string | null} [className]
 * @param {...(Node | string | number | null | undefined)} children
 * @returns {HTMLElement}
 */
function el (tag, className, ...children) {
  const node = document.createElement(tag)
  if (className) node.className = className
  for (const child of children) {
    if (child === null || child === undefined) continue
    node.append(typeof child === 'object' ? child : document.createTextNode(String(child)))
  }
  return node
}

/** @param {number} n */
const count = (n) => n.toLocaleString('en-US')

/** @param {number} n */
function bytesText (n) {
  if (n < 1024) return `${n} B`
  const units = ['KiB', 'MiB', 'GiB', 'TiB']
  let v = n / 1024
  let u = 0
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++ }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`
}

/** @param {HTMLElement} node @param {string} state */
function setBadge (node, state) {
  node.textContent = state
  node.className = `badge badge-${state === 'ok' ? 'ok' : state === 'running' ? 'running' : 'fail'}`
}

// ---- the worker and its requests --------------------------------------------------------------

/** @type {Worker | null} */
let worker = null
let nextRequest = 1
/** @type {Map<number, { resolve: (v: any) => void, reject: (e: Error) => void }>} */
const pending = new Map()

/**
 * @param {string} type
 * @param {Record<string, unknown>} [fields]
 * @returns {Promise<any>}
 */
function request (type, fields = {}) {
  const to = worker
  if (!to) return Promise.reject(new Error('no file is loaded'))
  const id = nextRequest++
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject })
    to.postMessage({ type, id, ...fields })
  })
}

// ---- state of the file being shown --------------------------------------------------------------

/** @type {File | null} */
let file = null
let table = new BlockTable()
/** @type {Int32Array | null} the filtered blocks; null: every block */
let view = null
/** @type {any} */
let summary = null
let filterRun = 0
/** blocks and bytes checked so far, for the status line a failure leaves */
let checked = { blocks: 0, bytes: 0 }

/** @param {'idle' | 'running' | 'done' | 'error'} state */
function setState (state) {
  document.body.dataset.state = state
}

/** @param {File} picked */
function start (picked) {
  if (worker) worker.terminate()
  for (const { reject } of pending.values()) reject(new Error('a new file was loaded'))
  pending.clear()
  file = picked
  table = new BlockTable()
  view = null
  summary = null
  worker = new Worker('worker.js', { name: 'car-check' })
  worker.onmessage = (event) => onWorkerMessage(event.data)
  worker.onerror = (event) => showError(`the checker stopped: ${event.message || 'worker error'}`)
  for (const id of ['summary', 'repo', 'blocks', 'block']) $(id).hidden = true
  $('error').hidden = true
  $('progress').hidden = false
  $('progress').dataset.state = 'running'
  $('progress-bar').value = 0
  checked = { blocks: 0, bytes: 0 }
  $('progress-text').textContent = `reading ${picked.name} (${bytesText(picked.size)})…`
  $('download').hidden = true
  $('canonicalize-status').textContent = ''
  delete document.body.dataset.reach
  delete document.body.dataset.repo
  setState('running')
  worker.postMessage({ type: 'verify', file: picked, relaxed: $('relaxed').checked, partial: $('partial').checked })
}

/** @param {string} message */
function showError (message) {
  $('error').textContent = message
  $('error').hidden = false
  // the run is over: a full bar marked failed, and a status line that says so (not what was under way)
  $('progress').dataset.state = 'failed'
  $('progress-bar').value = 1
  $('progress-text').textContent = checked.blocks === 0
    ? 'failed before the first block; the error is below'
    : `failed: stopped after ${count(checked.blocks)} blocks (${bytesText(checked.bytes)} of ${bytesText(file?.size ?? 0)}); the error is below`
  setState('error')
}

/** @param {any} message */
function onWorkerMessage (message) {
  switch (message.type) {
    case 'blocks':
      table.append(message.batch)
      return
    case 'progress': {
      const { blocks, bytes, total, seconds } = message
      checked = { blocks, bytes }
      $('progress-bar').value = total ? bytes / total : 0
      const rate = seconds > 0 ? bytes / 1e6 / seconds : 0
      $('progress-text').textContent = `${count(blocks)} blocks, ${bytesText(bytes)} of ${bytesText(total)} — ${rate.toFixed(1)} MB/s`
      return
    }
    case 'summary':
      summary = message.summary
      checked = { blocks: summary.blocks, bytes: summary.bytes }
      showSummary(summary, message.offersCopy === true)
      showBlocks()
      if (summary.error) return // the 'error' message follows, and says the run failed
      $('progress').dataset.state = 'done'
      $('progress-bar').value = 1
      $('progress-text').textContent = `checked ${count(summary.blocks)} blocks, ${bytesText(summary.bytes)} in ${Number(message.seconds).toFixed(2)} s — ${Number(message.mbPerSec).toFixed(1)} MB/s`
      document.body.dataset.mbPerSec = Number(message.mbPerSec).toFixed(1)
      setState('done')
      checkRepoNow('')
      return
    case 'reach':
      showReach(message)
      return
    case 'error':
      showError(`${file?.name ?? 'the file'}: ${message.message}`)
      return
    case 'reply': {
      const waiting = pending.get(message.id)
      if (!waiting) return
      pending.delete(message.id)
      if (message.ok) waiting.resolve(message.value)
      else waiting.reject(new Error(message.error))
    }
  }
}

// ---- summary ---------------------------------------------------------------------------------------

/**
 * A labelled card of the summary grid.
 *
 * @param {HTMLElement} grid
 * @param {string} label
 * @param {...(Node | string | number | null | undefined)} content
 */
function card (grid, label, ...content) {
  const node = el('div', 'card', el('div', 'card-label', label), el('div', 'card-value', ...content))
  grid.append(node)
  return node
}

/** @param {Record<string, number>} counts */
function countTable (counts) {
  const entries = Object.entries(counts)
  if (entries.length === 0) return el('span', 'muted', 'none')
  const list = el('table', 'counts')
  for (const [name, n] of entries) list.append(el('tr', null, el('td', null, name), el('td', 'num', count(n))))
  return list
}

/**
 * A button that opens the block holding `cid` (text), or plain text when the CAR does not hold it.
 *
 * @param {string} cidText
 */
function cidButton (cidText) {
  const button = el('button', 'cid-link', cidText)
  button.setAttribute('type', 'button')
  button.dataset.cid = cidText
  return button
}

/**
 * @param {any} s the summary
 * @param {boolean} offersCopy whether a canonicalized copy would be written and differ from the file
 *   (the worker's offersCopy): no button for a run that fails, or a CAR already canonical
 */
function showSummary (s, offersCopy) {
  $('summary').hidden = false
  $('canonicalize').hidden = !offersCopy
  setBadge($('verdict'), s.result)
  const grid = $('summary-grid')
  grid.replaceChildren()
  card(grid, 'File', s.input ?? file?.name ?? '', el('div', 'muted', `CARv${s.version}, ${bytesText(s.bytes)}`))
  card(grid, 'Blocks', count(s.blocks), el('div', 'muted', `${bytesText(s.blockBytes)} of block data`))
  const roots = el('ul', 'roots')
  const missing = new Set(s.missingRoots ?? [])
  for (const root of s.roots ?? []) {
    roots.append(el('li', null, cidButton(root), ' ', el('span', missing.has(root) ? 'tag tag-bad' : 'tag tag-ok', missing.has(root) ? 'missing' : 'present')))
  }
  if ((s.roots ?? []).length === 0) roots.append(el('li', 'muted', 'the header lists no roots'))
  card(grid, `Roots (${(s.roots ?? []).length})`, roots)
  card(grid, 'Hashes', el('div', null, `${count(s.verified)} verified`),
    el('div', s.hashMismatches ? 'bad' : null, `${count(s.hashMismatches)} mismatched`),
    el('div', s.unverified ? 'warn' : null, `${count(s.unverified)} unverified (unknown hash)`), countTable(s.hashes ?? {}))
  card(grid, 'Codecs', countTable(s.codecs ?? {}),
    el('div', s.otherCodecs?.invalid ? 'bad' : 'muted', `${count(s.otherCodecs?.invalid ?? 0)} invalid, ${count(s.otherCodecs?.unknown ?? 0)} unknown codec`))
  const d = s.dagCbor ?? {}
  card(grid, 'DAG-CBOR', el('div', null, `${count(d.canonical ?? 0)} canonical`),
    el('div', d.nonCanonical ? 'warn' : null, `${count(d.nonCanonical ?? 0)} non-canonical (${count(d.lossless ?? 0)} lossless)`),
    el('div', d.invalid ? 'bad' : null, `${count(d.invalid ?? 0)} invalid`), countTable(d.rules ?? {}))
  card(grid, 'Duplicates', el('span', s.duplicates ? 'warn' : null, count(s.duplicates ?? 0)))
  card(grid, 'CARv2 index', s.index ? `${s.index.format}, ${count(s.index.entries)} entries, ${count(s.index.problems)} problems` : 'none')
  // a run that stopped early indexes no links (the worker sends none): say so, not "indexing"
  card(grid, 'Links', el('span', 'muted', s.error ? 'not indexed: the CAR could not be read to its end' : 'indexing links…')).id = 'links-card'
  if (s.integralFloats?.blocks) card(grid, 'Integral floats', `${count(s.integralFloats.values)} in ${count(s.integralFloats.blocks)} blocks`)
  if (s.error) {
    const where = typeof s.error.offset === 'number' ? el('div', 'muted', `at byte ${count(s.error.offset)}, after ${count(s.error.blocks ?? 0)} blocks`) : null
    card(grid, 'Read error', el('span', 'bad', s.error.message ?? String(s.error)), where).classList.add('card-wide')
  }

  const problems = $('problems')
  problems.replaceChildren()
  for (const p of s.problems ?? []) {
    const at = typeof p.at === 'number' ? p.at : null
    const where = at === null ? el('span', 'muted', 'the CAR') : offsetButton(at)
    problems.append(el('li', null, where, ' ', el('span', 'tag tag-bad', p.kind ?? 'problem'), ' ', p.rule ? el('code', null, p.rule) : null, ' ', el('span', null, p.message ?? '')))
  }
  if ((s.problems ?? []).length === 0) problems.append(el('li', 'muted none', 'none'))
  if (s.problemCount > (s.problems ?? []).length) problems.append(el('li', 'muted', `… ${count(s.problemCount - s.problems.length)} more (the summary keeps the first ${count(s.problems.length)})`))
  $('summary-json').textContent = JSON.stringify(s, null, 2)
}

/** @param {number} at a section's byte offset */
function offsetButton (at) {
  const button = el('button', 'offset-link', `byte ${count(at)}`)
  button.setAttribute('type', 'button')
  button.dataset.offset = String(at)
  return button
}

/** @param {any} r the worker's reach message */
function showReach (r) {
  const node = document.getElementById('links-card')
  document.body.dataset.reach = r.error ? 'error' : 'done'
  if (!node) return
  const value = /** @type {HTMLElement} */ (node.querySelector('.card-value'))
  if (r.error) {
    value.replaceChildren(el('span', 'bad', `links not indexed: ${r.error}`))
    return
  }
  table.reached = r.reached
  /** @param {number} n @param {string} one @param {string} [many] */
  const plural = (n, one, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`
  value.replaceChildren(
    el('div', null, `${count(r.reachable)} of ${count(r.blocks)} distinct blocks reachable from the roots`),
    el('div', r.orphans ? 'warn' : null, `${count(r.orphans)} reachable from none (orphans)`),
    el('div', r.duplicates ? 'warn' : 'muted', r.duplicates
      ? `${plural(r.duplicates, 'duplicate block')} (the same CID again), counted once above`
      : 'no duplicate blocks'),
    el('div', r.missingLinks ? 'warn' : 'muted', r.missingLinks
      ? `${plural(r.missingLinks, 'link')} to ${plural(r.missingBlocks, 'block')} not in the CAR (${count(r.missingReachable)} of them linked from blocks reachable from the roots)`
      : 'no links to blocks not in the CAR'))
  if (r.linksNotRead) value.append(el('div', 'warn', `${count(r.linksNotRead)} blocks of codecs whose links are not read`))
  if (r.missingExamples.length) {
    const list = el('ul', 'missing')
    for (const cid of r.missingExamples) list.append(el('li', null, el('code', null, cid)))
    value.append(el('details', null, el('summary', null, 'missing targets'), list))
  }
  if ($('filter-status').value) applyFilter()
}

// ---- the block list: virtual rows over the table ----------------------------------------------------

function showBlocks () {
  $('blocks').hidden = false
  const codecs = new Set()
  for (let i = 0; i < table.count; i++) codecs.add(table.codec[i])
  const codecSelect = $('filter-codec')
  codecSelect.replaceChildren(el('option', null, 'every codec'))
  codecSelect.firstChild.value = ''
  for (const code of [...codecs].sort((a, b) => a - b)) {
    const option = el('option', null, nameOf(code, CODEC_NAMES))
    option.setAttribute('value', String(code))
    codecSelect.append(option)
  }
  const statusSelect = $('filter-status')
  statusSelect.replaceChildren(el('option', null, 'every status'))
  statusSelect.firstChild.value = ''
  for (const status of [...STATUSES, 'problem', 'orphan', 'reachable']) {
    const option = el('option', null, status)
    option.setAttribute('value', status)
    statusSelect.append(option)
  }
  $('filter-cid').value = ''
  view = null
  $('list').scrollTop = 0
  renderList()
}

function visibleCount () {
  return view ? view.length : table.count
}

function renderList () {
  const list = $('list')
  const total = visibleCount()
  $('block-count').textContent = view ? `${count(total)} of ${count(table.count)}` : count(total)
  // browsers cap an element's height (Firefox near 17.9 million px, a million rows are 24): past
  // MAX_SCROLL_HEIGHT the scroll range is scaled, so that its end still reaches the last row
  const content = total * ROW_HEIGHT
  const height = Math.min(content, MAX_SCROLL_HEIGHT)
  $('list-spacer').style.height = `${height}px`
  const viewport = list.clientHeight
  const scale = height > viewport ? (content - viewport) / (height - viewport) : 1
  const top = list.scrollTop * scale // where the viewport starts in the unscaled list
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - 2)
  const last = Math.min(total, Math.ceil((top + viewport) / ROW_HEIGHT) + 2)
  const rows = $('list-rows')
  rows.style.transform = `translateY(${list.scrollTop - (top - first * ROW_HEIGHT)}px)`
  const fragment = document.createDocumentFragment()
  for (let k = first; k < last; k++) {
    const i = view ? view[k] : k
    const status = STATUSES[table.status[i]]
    const row = el('div', `row block-row status-${status}`,
      el('span', 'num', count(i)),
      el('span', 'num', count(table.offset[i])),
      el('span', 'num', count(table.length[i])),
      el('span', null, nameOf(table.codec[i], CODEC_NAMES)),
      el('span', null, nameOf(table.hash[i], HASH_NAMES)),
      el('span', 'status', status + (table.reached && !table.reached[i] ? ', orphan' : '')),
      el('span', 'cid', cidOf(i)))
    row.dataset.block = String(i)
    row.setAttribute('role', 'button')
    row.tabIndex = 0
    fragment.append(row)
  }
  rows.replaceChildren(fragment)
}

/** @param {number} block */
function cidOf (block) {
  return CID.decode(table.cidBytes(block).slice()).toString()
}

/** @param {number} status */
function isProblem (status) {
  const name = STATUSES[status]
  return name !== 'ok' && name !== 'canonical'
}

/** Filters the table by CID text, codec and status, in slices of time so the page stays responsive. */
function applyFilter () {
  const run = ++filterRun
  const text = $('filter-cid').value.trim()
  const codecValue = $('filter-codec').value
  const statusValue = $('filter-status').value
  if (!text && !codecValue && !statusValue) {
    view = null
    $('list').scrollTop = 0
    renderList()
    return
  }
  const codec = codecValue === '' ? -1 : Number(codecValue)
  const status = STATUSES.indexOf(/** @type {any} */ (statusValue))
  const reached = table.reached
  // a whole CID: one lookup instead of a scan
  /** @type {Uint8Array | null} */
  let exact = null
  try { exact = text ? CID.parse(text).bytes : null } catch { exact = null }
  const exactId = exact ? table.cids.find(exact, 0, exact.length) : -1
  const search = new CidSearch(text)
  const matches = new Int32Array(table.count)
  let found = 0
  let i = 0
  const step = () => {
    if (run !== filterRun) return
    const until = performance.now() + 30
    for (; i < table.count; i++) {
      if ((i & 1023) === 0 && performance.now() > until) break
      if (codec >= 0 && table.codec[i] !== codec) continue
      if (status >= 0 && table.status[i] !== status) continue
      if (statusValue === 'problem' && !isProblem(table.status[i])) continue
      if (statusValue === 'orphan' && (!reached || reached[i])) continue
      if (statusValue === 'reachable' && (!reached || !reached[i])) continue
      if (exact) {
        if (table.cidId[i] !== exactId) continue
      } else if (text && !search.matches(table.cidBytes(i))) continue
      matches[found++] = i
    }
    view = matches.subarray(0, found)
    if (i < table.count) {
      $('block-count').textContent = `filtering… ${count(found)} so far`
      setTimeout(step, 0)
      return
    }
    $('list').scrollTop = 0
    renderList()
  }
  step()
}

// ---- one block as DAG-JSON ----------------------------------------------------------------------------

/**
 * Shows DAG-JSON text with each link `{"/": "<cid>"}` as a button. The text is split around links
 * found by a pattern; every piece is a text node. Inside a JSON string a quote is always escaped, so
 * the pattern cannot match there.
 *
 * @param {HTMLElement} pre
 * @param {string} text
 */
function renderJson (pre, text) {
  const linkPattern = /\{\s*"\/"\s*:\s*"([A-Za-z0-9]+)"\s*\}/g
  const fragment = document.createDocumentFragment()
  let from = 0
  for (const m of text.matchAll(linkPattern)) {
    const start = /** @type {number} */ (m.index)
    fragment.append(document.createTextNode(text.slice(from, start)))
    const inner = m[0].indexOf('"', m[0].indexOf(':'))
    fragment.append(document.createTextNode(m[0].slice(0, inner + 1)))
    fragment.append(cidButton(m[1]))
    fragment.append(document.createTextNode(m[0].slice(inner + 1 + m[1].length)))
    from = start + m[0].length
  }
  fragment.append(document.createTextNode(text.slice(from)))
  pre.replaceChildren(fragment)
}

/** @param {number} offset the block's section offset */
async function openBlock (offset) {
  const section = $('block')
  section.hidden = false
  section.dataset.state = 'loading'
  $('block-json').textContent = 'reading…'
  $('block-links').replaceChildren()
  $('block-meta').replaceChildren()
  $('block-note').hidden = true
  try {
    const block = await request('block', { offset })
    const index = findBlock(block.cid)
    const meta = $('block-meta')
    card(meta, 'CID', el('code', 'cid-text', block.cid))
    card(meta, 'Offset', `byte ${count(block.offset)}`)
    card(meta, 'Size', bytesText(block.size))
    if (index >= 0) {
      card(meta, 'Codec / hash', `${nameOf(table.codec[index], CODEC_NAMES)} / ${nameOf(table.hash[index], HASH_NAMES)}`)
      card(meta, 'Block', `#${count(index)}`)
    }
    const status = index >= 0 ? STATUSES[table.status[index]] : 'ok'
    setBadge($('block-status'), status === 'canonical' ? 'ok' : status)
    const notes = []
    if (block.relaxed) notes.push('Non-canonical DAG-CBOR: shown through relaxed decode; its canonical form differs from these bytes.')
    if (block.error) notes.push(`Not decoded: ${block.error}`)
    if (notes.length) {
      $('block-note').textContent = notes.join(' ')
      $('block-note').hidden = false
    }
    section.dataset.relaxed = block.relaxed ? 'true' : 'false'
    renderJson($('block-json'), typeof block.json === 'string' ? prettyJson(block.json) : '')
    const links = $('block-links')
    $('block-link-count').textContent = `(${count(block.links.length)})`
    for (const link of block.links) {
      const present = findBlock(link) >= 0
      links.append(el('li', null, cidButton(link), ' ', el('span', present ? 'tag tag-ok' : 'tag tag-bad', present ? 'in this CAR' : 'not in this CAR')))
    }
    section.dataset.state = 'done'
    section.scrollIntoView({ block: 'start' })
  } catch (err) {
    $('block-json').textContent = `could not read the block at byte ${offset}: ${err instanceof Error ? err.message : err}`
    section.dataset.state = 'error'
  }
}

/** @param {string} cidText @returns {number} the first block with this CID, or -1 */
function findBlock (cidText) {
  try {
    return table.find(CID.parse(cidText).bytes)
  } catch {
    return -1
  }
}

/** @param {string} cidText */
function openCid (cidText) {
  const index = findBlock(cidText)
  if (index < 0) {
    $('block').hidden = false
    $('block-meta').replaceChildren()
    $('block-links').replaceChildren()
    $('block-note').hidden = true
    $('block-json').textContent = `${cidText} is not in this CAR`
    return
  }
  openBlock(table.offset[index])
}

// ---- AT Protocol repository ------------------------------------------------------------------------

/** @param {string} key did:key or DID document text; '' for none */
async function checkRepoNow (key) {
  document.body.dataset.repo = 'running'
  const root = summary?.roots?.[0]
  const rootBlock = root ? findBlock(root) : -1
  let result
  try {
    result = await request('repo', { key, rootOffset: rootBlock >= 0 ? table.offset[rootBlock] : -1 })
  } catch (err) {
    // not a repo (or unreadable as one): the section stays hidden unless a key was asked for
    if (key) {
      $('repo-problems').replaceChildren(el('li', 'bad', err instanceof Error ? err.message : String(err)))
    }
    document.body.dataset.repo = key ? 'error' : 'none'
    return
  }
  const { report, records } = result
  if (!report || !report.commit) {
    document.body.dataset.repo = 'none'
    return
  }
  showRepo(report, records)
  document.body.dataset.repo = 'done'
}

/** @param {any} r the repo report @param {any[]} records */
function showRepo (r, records) {
  $('repo').hidden = false
  setBadge($('repo-verdict'), r.result)
  const grid = $('repo-grid')
  grid.replaceChildren()
  const c = r.commit
  card(grid, 'Commit', el('div', null, cidButton(c.cid)), el('div', 'muted', `version ${c.version ?? '?'}`))
  card(grid, 'DID', el('code', null, c.did ?? '(none)'))
  card(grid, 'Revision', el('code', null, c.rev ?? '(none)'))
  const sig = r.signature
  card(grid, 'Signature', sig.checked
    ? el('span', sig.valid ? 'ok' : 'bad', sig.valid ? `valid (key ${sig.key})` : `INVALID for key ${sig.key}`)
    : el('span', 'muted', 'not checked: paste the account\'s did:key or DID document below'))
  card(grid, 'MST', `${count(r.mst.nodes)} nodes, height ${r.mst.height ?? '-'}${r.mst.empty ? ', empty' : ''}`,
    el('div', r.missing.nodes.length ? 'bad' : 'muted', `${count(r.missing.nodes.length)} nodes missing`))
  card(grid, `Records (${count(r.records.count)})`, countTable(r.records.byCollection),
    el('div', r.missing.records.length ? 'bad' : 'muted', `${count(r.missing.records.length)} records missing`))
  if (r.unreached !== null && r.unreached !== undefined) card(grid, 'Blocks not reached', count(r.unreached))

  const holder = $('repo-records')
  holder.replaceChildren()
  /** @type {Map<string, any[]>} */
  const byCollection = new Map()
  for (const rec of records) {
    const list = byCollection.get(rec.collection) ?? []
    list.push(rec)
    byCollection.set(rec.collection, list)
  }
  for (const [collection, list] of byCollection) {
    const items = el('ul', 'records')
    for (const rec of list.slice(0, MAX_RECORDS_SHOWN)) items.append(el('li', null, el('code', null, rec.rkey), ' ', cidButton(rec.cid)))
    if (list.length > MAX_RECORDS_SHOWN) items.append(el('li', 'muted', `… ${count(list.length - MAX_RECORDS_SHOWN)} more (filter the block list by CID)`))
    holder.append(el('details', 'collection', el('summary', null, `${collection} (${count(list.length)})`), items))
  }
  if (records.length === 0) holder.append(el('p', 'muted', 'no records listed'))

  const problems = $('repo-problems')
  problems.replaceChildren()
  for (const f of r.faults ?? []) problems.append(el('li', null, el('span', 'tag tag-bad', f.rule ?? 'fault'), ' ', f.message ?? JSON.stringify(f)))
  if ((r.faults ?? []).length === 0) problems.append(el('li', 'muted none', 'none'))
  $('repo-json').textContent = JSON.stringify(r, null, 2)
}

// ---- download a canonicalized copy -------------------------------------------------------------------

/** @type {string | null} */
let downloadUrl = null

async function canonicalize () {
  const status = $('canonicalize-status')
  status.textContent = 'writing a canonicalized copy…'
  $('canonicalize').disabled = true
  const forFile = file
  try {
    const { blob, summary: written } = await request('canonicalize')
    if (file !== forFile) return // another file was loaded meanwhile
    if (downloadUrl) URL.revokeObjectURL(downloadUrl)
    downloadUrl = URL.createObjectURL(blob)
    const link = $('download')
    link.href = downloadUrl // an object URL made here from the worker's Blob, not text from the file
    link.download = `${(file?.name ?? 'car').replace(/\.car$/i, '')}.canonical.car`
    link.textContent = `save ${link.download} (${bytesText(blob.size)})`
    link.hidden = false
    const o = written.output
    const check = o?.check?.result === 'ok' ? 'the copy passed every check' : `the copy's check: ${o?.check?.result ?? written.result}`
    status.textContent = o
      ? `${count(o.canonicalized)} blocks canonicalized, ${count(o.relinked)} relinked, ${count(o.unchanged)} unchanged; ${check}`
      : check
    link.click()
  } catch (err) {
    if (file !== forFile) return
    // the offer was wrong after all (the copy did not pass when read back): withdrawn
    $('canonicalize').hidden = true
    status.textContent = `not written: ${err instanceof Error ? err.message : err}`
  } finally {
    $('canonicalize').disabled = false
  }
}

// ---- wiring ------------------------------------------------------------------------------------------

function wire () {
  setState('idle')
  const input = $('file')
  input.addEventListener('change', () => { if (input.files && input.files[0]) start(input.files[0]) })
  const drop = $('drop')
  for (const type of ['dragenter', 'dragover']) {
    document.addEventListener(type, (e) => { e.preventDefault(); drop.classList.add('dragging') })
  }
  document.addEventListener('dragleave', (e) => { if (e.target === drop || e.target === document.documentElement) drop.classList.remove('dragging') })
  document.addEventListener('drop', (e) => {
    e.preventDefault()
    drop.classList.remove('dragging')
    const dropped = e.dataTransfer?.files?.[0]
    if (dropped) start(dropped)
  })
  drop.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); input.click() } })
  $('list').addEventListener('scroll', () => requestAnimationFrame(renderList))
  window.addEventListener('resize', () => { if (!$('blocks').hidden) renderList() })
  $('list-rows').addEventListener('click', (/** @type {MouseEvent} */ e) => {
    const row = /** @type {HTMLElement} */ (e.target).closest('.block-row')
    if (row instanceof HTMLElement && row.dataset.block) openBlock(table.offset[Number(row.dataset.block)])
  })
  $('list-rows').addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => {
    const row = /** @type {HTMLElement} */ (e.target).closest('.block-row')
    if ((e.key === 'Enter' || e.key === ' ') && row instanceof HTMLElement && row.dataset.block) {
      e.preventDefault()
      openBlock(table.offset[Number(row.dataset.block)])
    }
  })
  let filterTimer = 0
  $('filter-cid').addEventListener('input', () => { clearTimeout(filterTimer); filterTimer = window.setTimeout(applyFilter, 150) })
  $('filter-codec').addEventListener('change', applyFilter)
  $('filter-status').addEventListener('change', applyFilter)
  // every CID button and offset button on the page, resolved here
  document.addEventListener('click', (e) => {
    const target = /** @type {HTMLElement} */ (e.target)
    if (!(target instanceof HTMLElement)) return
    if (target.classList.contains('cid-link') && target.dataset.cid) openCid(target.dataset.cid)
    else if (target.classList.contains('offset-link') && target.dataset.offset) openBlock(Number(target.dataset.offset))
  })
  // the options change what passes: check the file again with them
  for (const id of ['relaxed', 'partial']) $(id).addEventListener('change', () => { if (file) start(file) })
  $('canonicalize').addEventListener('click', canonicalize)
  $('repo-check').addEventListener('click', () => checkRepoNow($('repo-key').value))
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', wire)
else wire()
