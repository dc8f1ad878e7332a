#!/usr/bin/env node
// Medians over several saved `npm run bench` outputs, as the README's and bench/README.md's tables:
//   for i in 1 2 3; do npm run bench > run$i.txt; done
//   node bench/medians.js run1.txt run2.txt run3.txt [--all]
// Prints one markdown table: per corpus, each codec's ratio to @ipld/dag-cbor (the "vs ipld"
// column), encode then decode, as the median over the runs (and, with --all, the range). The
// summary's "beats" counts compare per-round ratios within a run; these are only medians.
import fs from 'node:fs'

const files = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const showAll = process.argv.includes('--all')
if (files.length === 0) {
  console.log('usage: node bench/medians.js run1.txt [run2.txt ...] [--all]')
  process.exit(2)
}

/** runs[corpus][row][dir] = ratio[] */
const runs = {}
/** @type {string[]} */
const corpusOrder = []
for (const file of files) {
  let corpus = null
  /** @type {string[]} */
  let dirs = []
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const head = /^== (\S+): /.exec(line)
    if (head) {
      corpus = head[1]
      if (!corpusOrder.includes(corpus)) corpusOrder.push(corpus)
      continue
    }
    if (!corpus) continue
    const cells = line.split('|').map((cell) => cell.trim())
    if (cells.length < 2) continue
    if (cells[0] === '' && /encode|decode/.test(line)) {
      dirs = cells.slice(1)
      continue
    }
    if (cells[0] === 'codec' || dirs.length === 0) continue
    cells.slice(1).forEach((cell, i) => {
      const ratio = /([\d.]+)x$/.exec(cell)
      if (!ratio) return
      const byRow = (runs[corpus] ??= {})
      const byDir = (byRow[cells[0]] ??= {})
      ;(byDir[dirs[i]] ??= []).push(Number(ratio[1]))
    })
  }
}

/** @param {number[]} xs */
function median (xs) {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/**
 * @param {string} corpus
 * @param {string} row
 * @param {string} dir
 */
function cell (corpus, row, dir) {
  const xs = runs[corpus]?.[row]?.[dir]
  if (!xs || xs.length === 0) return 'n/a'
  const text = `${median(xs).toFixed(2)}x`
  return showAll && xs.length > 1 ? `${text} (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})` : text
}

const rows = ['ours', 'cbor-x', '@atcute/cbor', 'JSON (ceiling)']
const header = ['corpus', ...rows.map((r, i) => `${i === 0 ? 'encode: ' : ''}${r}`), 'encode: ours { pool }', ...rows.map((r, i) => `${i === 0 ? 'decode: ' : ''}${r}`), 'decode: ours { viewBytes }']
console.log(`medians of ${files.length} run(s)${showAll ? ' (range in brackets)' : ''}\n`)
console.log(`| ${header.join(' | ')} |`)
console.log(`| ${header.map(() => '---').join(' | ')} |`)
for (const corpus of corpusOrder) {
  if (!runs[corpus]) continue
  const line = [corpus, ...rows.map((r) => cell(corpus, r, 'encode')), cell(corpus, 'ours { pool }', 'encode'), ...rows.map((r) => cell(corpus, r, 'decode')), cell(corpus, 'ours { viewBytes }', 'decode')]
  console.log(`| ${line.join(' | ')} |`)
}
