// The oracle's rules: given every path's outcome on one input, the disagreements (each a sentence
// naming the paths and what each said). A path is held only to what CHECKS (paths.js) says it checks:
//
// 1. Every path that hands out blocks hands out the same ones in the same order at the same offsets:
//    each path's list is a prefix of the longest list any path handed out, all of it when the path
//    says ok (the command: its count), and every block handed out re-hashes to its CID
//    (multiformats' hashers; verifyCar's onBlock: its status says whether it does).
// 2. The expected verdict: CarIndexer's sections (framing), each block's bytes at the place it says
//    re-hashed independently. The first problem in CAR order is a wrong hash at a section's offset
//    (before any framing error) or the framing error at its offset, or none. Every path that checks
//    hashes and reads its input with its size known gives exactly that (kind and offset); an eager
//    path (it reads every section before it hands out a block) may give the framing error instead
//    of an earlier wrong hash; a path fed chunks (size unknown) gives the same verdict (ok or error).
// 3. verifyCar, the page's verifyCar (the core's, over a stream) and the command give the same
//    result and the same problems (kind and offset).
// 4. The roots: every path that read the header gives the same ones.
// 5. @ipld/car (with the re-hash) and go-car's `car verify` agree with our verdicts, except the
//    classes in differences.js.
// 6. The listing commands (ls, export, inspect with --strict; CHECKS's `reports`): exit 2 with
//    verify's message where verifyCar cannot read the CAR; otherwise exit 1 just when verify found a
//    problem of a kind the command reports, and the problems printed are verify's of those kinds
//    (one per block), in its order, at its byte offsets (the first one, or all when neither cut
//    its list short).
import { CHECKS, BLOCK_KINDS } from './paths.js'
import { classifyIpld, classifyGoCar, ourHashVerdict } from './differences.js'

/** Paths fed chunks of unknown total size: they cannot tell a CARv2's size claims from the end */
export const UNSIZED = new Set(['CarBlockIterator(chunks)', 'verifyCar(page)'])

/**
 * @typedef {import('./paths.js').Outcome} Outcome
 * @typedef {{ rule: string, text: string, known?: string }} Disagreement
 */

/** @param {Outcome} o */
export function show (o) {
  if (o.verdict === 'ok') return 'ok'
  return o.errorOffset === undefined ? `${o.errorKind} (${o.message})` : `${o.errorKind}@${o.errorOffset}`
}

/** @param {{ kind: string, at?: number }[]} problems */
const listed = (problems) => problems.map((p) => `${p.kind}@${p.at ?? '-'}`).join(', ')

/**
 * Whether a problem a command printed is verify's: the same kind ('block': any of a block's), at
 * the same byte offset where it prints one.
 *
 * @param {{ kind: string, at?: number } | undefined} printed @param {{ kind: string, at: number } | undefined} verify
 */
function sameProblem (printed, verify) {
  if (!printed || !verify) return false
  const kind = printed.kind === verify.kind || (printed.kind === 'block' && BLOCK_KINDS.includes(verify.kind))
  return kind && (printed.at === undefined || printed.at === verify.at)
}

/**
 * @param {Record<string, Outcome>} outcomes by path (a path not run is absent)
 * @param {{ ipld?: Outcome & { framing: string }, goCar?: { verdict: string, message: string }, bytes: Uint8Array }} others
 * @returns {Disagreement[]}
 */
export function compare (outcomes, others) {
  /** @type {Disagreement[]} */ const out = []
  const say = (/** @type {string} */ rule, /** @type {string} */ text) => out.push({ rule, text })
  const names = Object.keys(outcomes)

  // 1. blocks
  let longest = { name: '', blocks: /** @type {import('./paths.js').OutBlock[]} */ ([]) }
  for (const name of names) if (outcomes[name].blocks.length > longest.blocks.length) longest = { name, blocks: outcomes[name].blocks }
  const all = outcomes.CarIndexer?.verdict === 'ok' ? outcomes.CarIndexer.blocks.length : undefined
  for (const name of names) {
    const { gives } = CHECKS[name]
    const o = outcomes[name]
    const count = gives === 'none' ? o.summary?.blocks ?? o.reported?.blockCount : o.blocks.length
    const whole = o.verdict === 'ok' || (o.summary !== undefined && o.full !== 'incomplete')
    if (all !== undefined && whole && count !== all) say('blocks', `${name} says ${o.full ?? o.verdict} after ${count} blocks; the CAR has ${all}`)
    o.blocks.forEach((b, i) => {
      const want = longest.blocks[i]
      if (b.cid !== want.cid) say('blocks', `${name}'s block ${i} is ${b.cid}, ${longest.name}'s ${want.cid}`)
      else if (gives !== 'cids' && want.offset !== undefined && b.offset !== want.offset) say('blocks', `${name}'s block ${i} (${b.cid}) is at offset ${b.offset}, ${longest.name}'s at ${want.offset}`)
      if (gives === 'blocks' && b.hash !== 'ok') say('rehash', `${name} handed out block ${i} (${b.cid}, offset ${b.offset}) whose bytes re-hash as ${b.hash}`)
      if (gives === 'statuses') {
        const want = { mismatch: 'hash-mismatch', unverified: 'unverified' }[/** @type {'mismatch'} */ (ourHashVerdict(b.cid, b.hash))]
        const got = b.status === 'hash-mismatch' || b.status === 'unverified' ? b.status : undefined
        if (got !== want) say('rehash', `${name} gave block ${i} (${b.cid}, offset ${b.offset}) the status ${b.status}; its bytes re-hash as ${b.hash}`)
      }
    })
  }

  // 2. verdicts against the expected first problem
  const indexer = outcomes.CarIndexer
  if (indexer) {
    const bad = indexer.blocks.find((b) => ourHashVerdict(b.cid, b.hash) !== 'ok')
    /** @type {Outcome} */
    const expected = bad ? { verdict: 'error', errorKind: ourHashVerdict(bad.cid, bad.hash) === 'mismatch' ? 'hash-mismatch' : 'unverified', errorOffset: bad.offset, blocks: [] } : indexer
    const framing = indexer.verdict === 'error' ? show(indexer) : null
    for (const name of names) {
      if (!CHECKS[name].checks.includes('hashes')) continue
      const got = outcomes[name]
      if (UNSIZED.has(name)) {
        // a claim of the CARv2 header (offset 11) about the input's size it cannot check
        const sizeClaim = show(expected) === 'read@11' && got.verdict === 'ok'
        if (got.verdict !== expected.verdict && !sizeClaim) say('verdict', `${name} says ${show(got)}, expected ${show(expected)} (CarIndexer: ${show(indexer)})`)
        continue
      }
      const ok = show(got) === show(expected) || (CHECKS[name].eager && framing !== null && show(got) === framing)
      if (!ok) say('verdict', `${name} says ${show(got)}, expected ${show(expected)} (CarIndexer: ${show(indexer)})`)
    }
  }

  // 3. verifyCar and the command: the same result and problems; where verifyCar rejects (an
  // unreadable CAR), the command's result is incomplete, stopped at the same offset
  const { verifyCar, command } = outcomes
  const problems = (/** @type {Outcome} */ o) => o.summary
    ? JSON.stringify([o.summary.result, o.summary.problemCount, o.summary.problems.map((/** @type {any} */ p) => `${p.kind}@${p.at}`)])
    : show(o)
  if (verifyCar && command) {
    if (verifyCar.summary) {
      if (problems(verifyCar) !== problems(command)) say('full', `verifyCar: ${problems(verifyCar)}; the command: ${problems(command)}`)
    } else {
      const stopped = command.summary?.error ? `read@${command.summary.error.offset}` : problems(command)
      if (command.full !== 'incomplete' || stopped !== show(verifyCar)) say('full', `verifyCar rejects with ${show(verifyCar)}; the command: ${command.full ?? ''} ${stopped}`)
    }
  }
  // the page's verifyCar (the core's, over a stream of no known size) too, but where the input's
  // size decides (a CARv2 header claiming more bytes than there are, offset 11: see rule 2)
  const page = outcomes['verifyCar(page)']
  if (verifyCar && page && problems(page) !== problems(verifyCar) && !(show(verifyCar) === 'read@11')) {
    say('full', `verifyCar: ${problems(verifyCar)}; the page's: ${problems(page)}`)
  }
  for (const name of ['verifyCar', 'verifyCar(page)', 'command']) {
    const o = outcomes[name]
    if (o && o.verdict === 'ok' && o.full === undefined) say('full', `${name} gave no result`)
    if (o && o.verdict === 'error' && o.full === 'ok') say('full', `${name}'s result is ok despite ${show(o)}`)
  }

  // 4. roots
  // (paths that read the header: those with no framing error; one fed chunks may read a header a
  // sized path refuses, when a CARv2's sizes run past the end)
  const withRoots = names.filter((n) => outcomes[n].roots && !(outcomes[n].verdict === 'error' && outcomes[n].errorKind === 'read'))
  for (const name of withRoots) {
    const a = JSON.stringify(outcomes[name].roots); const b = JSON.stringify(outcomes[withRoots[0]].roots)
    if (a !== b) say('roots', `${name}'s roots ${a}, ${withRoots[0]}'s ${b}`)
  }

  // 6. the listing commands: where verify cannot read the CAR, exit 2 with its message; otherwise,
  // with --strict, exit 1 just when verify found a problem of a kind the command reports, and the
  // problems it printed are verify's of those kinds, in its order, one per block
  if (verifyCar) {
    for (const name of names.filter((n) => CHECKS[n].checks.includes('problems'))) {
      const said = outcomes[name].reported
      const claim = `${name} exits ${said?.code}`
      if (!verifyCar.summary || verifyCar.summary.error) {
        const message = verifyCar.summary?.error?.message ?? verifyCar.message ?? ''
        if (said?.code !== 2 || !outcomes[name].message?.includes(message)) say('problems', `verifyCar cannot read it (${message}); ${claim}${said?.code === 2 ? ` saying ${outcomes[name].message}` : ''}`)
        continue
      }
      const kinds = new Set(CHECKS[name].reports)
      const blocks = new Set()
      const expected = verifyCar.summary.problems.filter((/** @type {any} */ p) => {
        if (!kinds.has(p.kind)) return false
        if (!BLOCK_KINDS.includes(p.kind)) return true
        if (blocks.has(p.at)) return false // a block's first problem (one line per block)
        blocks.add(p.at)
        return true
      }).map((/** @type {any} */ p) => ({ kind: p.kind, at: p.at }))
      if (!said || said.code !== (expected.length ? 1 : 0)) {
        say('problems', `${claim}; verifyCar's problems it reports: ${listed(expected) || 'none'}`)
        continue
      }
      const whole = said.complete && verifyCar.summary.problemCount === verifyCar.summary.problems.length
      const n = whole ? Math.max(expected.length, said.problems.length) : Math.min(1, expected.length, said.problems.length)
      for (let i = 0; i < n; i++) {
        if (!sameProblem(said.problems[i], expected[i])) {
          say('problems', `${name} printed ${listed(said.problems) || 'none'}; verifyCar's problems it reports: ${listed(expected) || 'none'}`)
          break
        }
      }
    }
  }

  // 5. the independent implementations
  const ours = verifyCar ?? command
  if (others.ipld && indexer) {
    const hashLevel = names.find((n) => CHECKS[n].checks.includes('hashes') && !CHECKS[n].eager && !UNSIZED.has(n))
    const mine = hashLevel ? outcomes[hashLevel] : undefined
    if (mine && mine.verdict !== others.ipld.verdict) {
      const known = classifyIpld(others.bytes, mine, others.ipld, indexer)
      const text = `${hashLevel} says ${show(mine)}, @ipld/car with multiformats' hashers ${show(others.ipld)}${others.ipld.message ? ` (${others.ipld.message})` : ''}`
      if (known) out.push({ rule: 'ipld', text, known })
      else say('ipld', text)
    }
    if (JSON.stringify(others.ipld.blocks.slice(0, indexer.blocks.length).map((b) => b.cid + '@' + b.offset)) !== JSON.stringify(indexer.blocks.slice(0, others.ipld.blocks.length).map((b) => b.cid + '@' + b.offset))) {
      say('ipld', `@ipld/car's sections differ from CarIndexer's`)
    }
  }
  if (others.goCar && ours) {
    // ours: the result, or an unreadable CAR (verifyCar rejects, the command's result is incomplete)
    const mine = ours.full === 'ok' ? 'ok' : 'error'
    if (mine !== others.goCar.verdict) {
      const known = classifyGoCar(others.bytes, ours, others.goCar)
      const said = ours.full === undefined ? `cannot read it (${ours.message})` : `says ${ours.full} (${(ours.summary?.problems ?? []).map((/** @type {any} */ p) => p.kind).join(', ') || show(ours)})`
      const text = `${ours === verifyCar ? 'verifyCar' : 'the command'} ${said}, go-car's car verify ${others.goCar.verdict}${others.goCar.message ? ` (${others.goCar.message})` : ''}`
      if (known) out.push({ rule: 'go-car', text, known })
      else say('go-car', text)
    }
  }
  return out
}
