// dag-cbor-car filter FILE --out x.car: the blocks that pass every filter given, in CAR order:
// --cids FILE (keep only these), --drop FILE (drop these), --codec NAME (keep only these codecs),
// --reachable-from CID (keep only blocks reachable from it). The output's header keeps the input's
// roots whose blocks are kept. Two passes (a stream is saved to a temporary file first): the first
// finds which roots are present, and with --reachable-from indexes the links; the second writes,
// hash-checking every block it keeps.
import fs from 'node:fs'
import { openCarInput } from '../node/car-input.js'
import { openCar } from '../core/read/open-car.js'
import { DagIndex } from '../core/graph/dag-index.js'
import { CidTable } from '../core/graph/cid-table.js'
import { parseCid, codecCode } from '../core/report/block-report.js'
import { verifyBlock } from '../core/check/hash.js'
import { openCarOutput } from '../node/output.js'
import { ToolError, UsageError, systemReason } from '../core/base/errors.js'
import { parseCommand, refuseOutputOverInput, COMMON_USAGE, STRICT_OPTION } from '../node/command-args.js'
import { readyFor } from '../core/check/on-demand.js'

const USAGE = `usage: dag-cbor-car filter <in.car | -> --out x.car [--cids FILE] [--drop FILE] [--codec NAME]...
                           [--reachable-from CID]... [--strict] [--json]

  in.car               CARv1 or CARv2 file; - reads standard input (saved to a temporary file first)
  --out FILE           the CARv1 to write (atomically); its roots: the input's roots that are kept
  --cids FILE          keep only the blocks whose CIDs FILE lists (one per line; # starts a comment)
  --drop FILE          drop the blocks whose CIDs FILE lists
  --codec NAME         keep only blocks of this codec (dag-cbor, raw, dag-pb, dag-json, json, or a
                       number such as 0x71); repeat for several
  --reachable-from CID keep only blocks reachable from CID (repeat for several)
  --strict             also fail (nothing written) when a --reachable-from CID is not in the input
${COMMON_USAGE}

A block is kept when it passes every filter given.
exit status: 0 written; 1 nothing written: a kept block does not hash to its CID, or (--strict) a
             --reachable-from CID is not in the input; 2 bad usage or unreadable input`

const SHOWN = 5

/**
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
export async function run (argv) {
  const args = parseCommand(argv, {
    out: { type: 'string' },
    cids: { type: 'string' },
    drop: { type: 'string' },
    codec: { type: 'string', multiple: true },
    'reachable-from': { type: 'string', multiple: true },
    ...STRICT_OPTION
  }, USAGE, ['in.car'])
  if (!args) return 0 // --help
  const { values, positionals, maxBlockSize } = args
  if (!values.out) throw new UsageError('filter needs --out FILE', USAGE)
  if (positionals[0] === '-' && (values.cids === '-' || values.drop === '-')) throw new UsageError('standard input (-) can be the CAR or a CID list, not both', USAGE)
  // parseCommand checked --out against the CAR; the CID lists are inputs too
  refuseOutputOverInput([['--out', values.out]], [values.cids, values.drop])
  /** @type {string[]} */ const codecArgs = values.codec ?? []
  /** @type {string[]} */ const fromArgs = values['reachable-from'] ?? []
  if (!values.cids && !values.drop && codecArgs.length === 0 && fromArgs.length === 0) throw new UsageError('give at least one filter: --cids, --drop, --codec or --reachable-from', USAGE)
  const codecs = new Set(codecArgs.flatMap((c) => c.split(',')).map((c) => codecCode(c.trim(), USAGE)))
  const from = fromArgs.map((c) => parseCid(c, '--reachable-from', USAGE))
  const keepOnly = values.cids ? await readCidList(values.cids) : null
  const drop = values.drop ? await readCidList(values.drop) : null

  const input = await openCarInput(positionals[0], { maxBlockSize, reread: true })
  const { name, source, car } = input
  /** @type {Awaited<ReturnType<typeof openCarOutput>> | null} */
  let output = null
  try {
    // pass 1: which roots are present; with --reachable-from, the links
    const index = new DagIndex()
    const links = from.length > 0
    for await (const block of car.blocks()) index.addBlock(block.cid.bytes, block.offset, 0, block.cid.code, links ? block.bytes : null)
    /** @type {Uint8Array | null} */
    let reached = null
    if (links) {
      const fromIds = from.map((c) => index.cids.find(c.bytes, 0, c.bytes.length))
      const absent = from.filter((c, i) => !index.has(fromIds[i]))
      for (const c of absent) process.stderr.write(`dag-cbor-car: ${values.strict ? '' : 'note: '}--reachable-from ${c} is not in ${name}${values.strict ? ` (--strict: ${values.out} was not written)` : ''}\n`)
      if (absent.length && values.strict) return 1
      reached = index.reach(fromIds)
      if (index.linksNotRead) process.stderr.write(`dag-cbor-car: note: ${index.linksNotRead} blocks are of a codec whose links this tool does not read (not dag-cbor, dag-pb, dag-json, raw or json); what they link to is not kept unless reached otherwise\n`)
    }
    /** @param {import('multiformats').CID} cid */
    const keep = (cid) => {
      const b = cid.bytes
      if (keepOnly && keepOnly.find(b, 0, b.length) < 0) return false
      if (drop && drop.find(b, 0, b.length) >= 0) return false
      if (codecs.size && !codecs.has(cid.code)) return false
      if (reached) {
        const id = index.cids.find(b, 0, b.length)
        if (id < 0 || !reached[id]) return false
      }
      return true
    }
    const roots = car.roots.filter((r) => index.has(index.cids.find(r.bytes, 0, r.bytes.length)) && keep(r))

    // pass 2: write the kept blocks
    await source.checkUnchanged()
    output = await openCarOutput(values.out, roots)
    const again = await openCar(source.stream(), { size: source.size, maxBlockSize, ready: readyFor })
    let read = 0
    let kept = 0
    /** @type {string[]} */
    const badHashes = []
    let badCount = 0
    for await (const block of again.blocks()) {
      read++
      if (!keep(block.cid)) continue
      const hash = verifyBlock(block.cid, block.bytes)
      if (hash !== 'ok' && badCount++ < SHOWN) badHashes.push(`${block.cid} at byte offset ${block.offset}: ${hash === 'mismatch' ? 'its bytes do not hash to the CID' : 'its hash function is not one this tool can check'}`)
      kept++
      await output.put(block.cid, block.bytes)
    }
    await source.checkUnchanged()
    if (badHashes.length) {
      await output.abort()
      output = null
      for (const p of badHashes) process.stderr.write(`dag-cbor-car: ${p}\n`)
      process.stderr.write(`dag-cbor-car: ${badCount} kept block${badCount === 1 ? '' : 's'} failed the hash check; ${values.out} was not written\n`)
      return 1
    }
    await output.commit()
    output = null
    const droppedRoots = car.roots.filter((r) => !roots.includes(r)).map(String)
    if (roots.length === 0) process.stderr.write(`dag-cbor-car: note: no root of ${name} is kept, so the header of ${values.out} lists none (verify it with --partial)\n`)
    if (values.json) {
      process.stdout.write(JSON.stringify({ input: name, out: values.out, blocks: read, kept, dropped: read - kept, roots: roots.map(String), droppedRoots }) + '\n')
    } else {
      process.stdout.write(`wrote ${values.out}: kept ${kept} of ${read} blocks; roots: ${roots.length ? roots.join(', ') : 'none'}${droppedRoots.length ? ` (dropped ${droppedRoots.join(', ')})` : ''}\n`)
    }
    return 0
  } catch (err) {
    await output?.abort()
    throw err
  } finally {
    await input.close()
  }
}

/**
 * A file of CIDs, one per line; blank lines and text after # are ignored.
 *
 * @param {string} file
 */
async function readCidList (file) {
  let text
  try {
    text = await fs.promises.readFile(file === '-' ? '/dev/stdin' : file, 'utf8')
  } catch (err) {
    throw new ToolError(`cannot read ${file}: ${systemReason(err)}`)
  }
  const table = new CidTable()
  text.split('\n').forEach((line, i) => {
    const cid = line.replace(/#.*/, '').trim()
    if (!cid) return
    try {
      const parsed = parseCid(cid, `line ${i + 1} of ${file}`)
      table.add(parsed.bytes, 0, parsed.bytes.length)
    } catch (err) {
      throw new ToolError(/** @type {Error} */ (err).message)
    }
  })
  return table
}
