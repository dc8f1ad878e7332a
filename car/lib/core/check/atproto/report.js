// How `repo verify` and `repo export` print: one line per fault as it is found, then a summary.

// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g

/** One line, whatever a crafted CAR put in its keys or values. @param {string} s */
export function oneLine (s) {
  return s.replace(CONTROL, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
}

/** @param {import('./mst-walk.js').Fault} f */
export function faultLine (f) {
  const where = [f.node && `node ${f.node}`, f.key !== null && `key ${f.key}`].filter(Boolean).join(', ')
  return oneLine(`FAULT ${f.rule}${where ? ` (${where})` : ''}: ${f.message}`)
}

/**
 * @param {import('./repo-walk.js').RepoSummary} s
 * @param {string[]} [extra] more lines before the result (export's)
 */
export function formatSummary (s, extra = []) {
  const lines = [`repo        ${oneLine(s.input)} (CARv${s.car.version}, ${s.car.blocks} blocks, ${s.car.distinct} distinct)`]
  const c = s.commit
  if (c) {
    const version = c.version === 2
      ? 'version 2 (the legacy commit format; version 3 is current)'
      : c.version === 3 ? 'version 3' : 'version unknown'
    lines.push(`commit      ${c.cid} ${version}`)
    lines.push(`did         ${c.did ?? '(invalid)'}${c.rev ? `, rev ${c.rev}` : ', no rev'}${c.prev ? `, prev ${c.prev}` : ''}`)
  } else if (s.missing.commit) {
    lines.push(`commit      ${s.missing.commit} is not in the CAR`)
  }
  const sig = s.signature
  lines.push(`signature   ${sig.checked ? `${sig.valid ? 'valid' : 'INVALID'} (key ${sig.key})` : 'not checked (give --key did:key:... or a DID document file)'}`)
  if (c?.data) {
    const m = s.mst
    lines.push(`mst         ${m.empty ? 'empty (an empty repo)' : `${m.nodes} nodes, root height ${m.height ?? '?'}`}${s.missing.nodes.length ? `, ${s.missing.nodes.length} missing` : ''}`)
    const counts = Object.entries(s.records.byCollection).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([k, n]) => `${k} ${n}`)
    if (s.records.invalidPaths) counts.push(`invalid paths ${s.records.invalidPaths}`)
    lines.push(`records     ${s.records.count}${s.records.checked ? '' : ' (listed, not read)'}${s.missing.records.length ? `, ${s.missing.records.length} missing` : ''}${counts.length ? `: ${counts.join(', ')}` : ''}`)
  }
  if (s.lexicons) lines.push(`lexicons    ${lexiconLine(s.lexicons)}`)
  if (s.unreached !== null) lines.push(`unreached   ${s.unreached} blocks in the CAR are not reached from the commit`)
  lines.push(...extra)
  lines.push(`result      ${resultText(s)}`)
  return lines.join('\n')
}

/**
 * What the check against the Lexicons found: never a record of a collection no document defines
 * counted as valid.
 *
 * @param {import('./lexicon-check.js').LexiconSummary} l
 */
function lexiconLine (l) {
  const types = `${l.recordTypes.length} record type${l.recordTypes.length === 1 ? '' : 's'} given`
  const counts = [`${l.valid} valid`, `${l.invalid} invalid${l.invalid ? ' (above)' : ''}`]
  if (l.unread) counts.push(`${l.unread} unreadable (above)`)
  const others = Object.entries(l.notCheckedByCollection).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([k, n]) => `${oneLine(k)} ${n}`)
  counts.push(`${l.notChecked} not checked${others.length ? ` (no Lexicon given: ${others.join(', ')})` : ''}`)
  return `${types}; records ${counts.join(', ')}`
}

/** @param {import('./repo-walk.js').RepoSummary} s */
function resultText (s) {
  if (s.result === 'ok') {
    const records = !s.lexicons
      ? 'every record checked'
      : s.lexicons.notChecked === 0
        ? 'every record checked, and against its Lexicon'
        : `every record checked, ${s.lexicons.valid} against their Lexicon (${s.lexicons.notChecked} of collections with no Lexicon given not checked against one)`
    return s.signature.checked
      ? `OK: commit, signature, MST and ${records}`
      : `OK: commit, MST and ${records}; the signature was not checked`
  }
  const missing = []
  if (s.missing.commit) missing.push('the commit')
  if (s.missing.nodes.length) missing.push(`${s.missing.nodes.length} MST node${s.missing.nodes.length === 1 ? '' : 's'}`)
  if (s.missing.records.length) missing.push(`${s.missing.records.length} record${s.missing.records.length === 1 ? '' : 's'}`)
  const rules = Object.entries(s.faultsByRule).map(([r, n]) => `${r} ${n}`).join(', ')
  if (s.result === 'incomplete') return `INCOMPLETE: the CAR lacks ${missing.join(' and ')} (each named above); the repo cannot be fully verified (${rules})`
  return `FAIL: ${s.faultCount} fault${s.faultCount === 1 ? '' : 's'} (${rules})${missing.length ? `; the CAR also lacks ${missing.join(' and ')}` : ''}`
}
