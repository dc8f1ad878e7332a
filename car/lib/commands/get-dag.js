// dag-cbor-car get-dag FILE CID --out sub.car: a CAR of every block reachable from CID, depth-first
// (a block, then what its links lead to, in link order), each once, with CID as its root. One pass
// indexes the input (offset and length per block); the walk then reads each block it needs by offset
// (a stream is first saved to a temporary file). Each block written is hash-checked. As go-car's
// get-dag does, what is present is written and the linked blocks the input lacks are reported (a
// Bluesky repo CAR never holds the blobs its records link to); --strict makes them a failure:
// nothing written, exit 1.
import { openCarInput, readBlockAt } from '../node/car-input.js'
import { DagIndex } from '../core/graph/dag-index.js'
import { CidTable, grow } from '../core/graph/cid-table.js'
import { parseCid } from '../core/report/block-report.js'
import { forEachLink, cidText } from '../core/graph/links.js'
import { verifyBlock, hashName } from '../core/check/hash.js'
import { openCarOutput } from '../node/output.js'
import { humanBytes } from '../core/report/units.js'
import { UsageError } from '../core/base/errors.js'
import { parseCommand, COMMON_USAGE, STRICT_OPTION } from '../node/command-args.js'

const USAGE = `usage: dag-cbor-car get-dag <in.car | -> <CID> --out sub.car [--strict] [--json]

  in.car               CARv1 or CARv2 file; - reads standard input (saved to a temporary file first)
  CID                  the root of the DAG to extract
  --out FILE           the CARv1 to write, with CID as its root (atomically)
  --strict             fail when some linked blocks are not in the input (nothing written, exit 1);
                       without it they are listed on stderr and in --json, and the rest is written
${COMMON_USAGE}

exit status: 0 written (blocks linked to but not in the input are listed on stderr);
             1 nothing written: CID is not in the input, a block does not hash to its CID, or
             (--strict) linked blocks are missing; 2 bad usage or unreadable input`

const SHOWN = 5

/**
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
export async function run (argv) {
  const args = parseCommand(argv, { out: { type: 'string' }, ...STRICT_OPTION }, USAGE, ['in.car', 'CID'])
  if (!args) return 0 // --help
  const { values, positionals, maxBlockSize } = args
  if (!values.out) throw new UsageError('get-dag needs --out FILE', USAGE)
  const root = parseCid(positionals[1], 'the CID argument', USAGE)
  const input = await openCarInput(positionals[0], { maxBlockSize, reread: true })
  const { name, source, car } = input
  /** @type {Awaited<ReturnType<typeof openCarOutput>> | null} */
  let output = null
  try {
    const index = new DagIndex()
    for await (const block of car.blocks()) index.addBlock(block.cid.bytes, block.offset, car.position() - block.offset, block.cid.code, null)
    const rootId = index.cids.find(root.bytes, 0, root.bytes.length)
    if (!index.has(rootId)) {
      process.stderr.write(`dag-cbor-car: ${root} is not in ${name}\n`)
      return 1
    }
    output = await openCarOutput(values.out, [root])
    const missing = new CidTable()
    /** @type {string[]} */
    const badHashes = []
    let blocks = 0
    let bytes = 0
    let linksNotRead = 0
    const written = new Uint8Array(index.size)
    let stack = new Int32Array(64)
    let top = 0
    /** @type {number[]} */
    const children = []
    /** @type {import('../core/graph/links.js').OnLink} */
    const onLink = (b, start, end) => {
      const id = index.cids.find(b, start, end)
      if (index.has(id)) children.push(id)
      else missing.add(b, start, end)
    }
    stack[top++] = rootId
    while (top > 0) {
      const id = stack[--top]
      if (written[id]) continue
      written[id] = 1
      const block = await readBlockAt(source, index.offsetOf(id), index.sectionLength[id])
      const hash = verifyBlock(block.cid, block.bytes)
      if (hash !== 'ok') {
        badHashes.push(`${block.cid} at byte offset ${index.offsetOf(id)}: ${hash === 'mismatch' ? 'its bytes do not hash to the CID' : `hash function ${hashName(block.cid.multihash.code)} is not one this tool can check`}`)
      }
      await output.put(block.cid, block.bytes)
      blocks++
      bytes += block.bytes.length
      children.length = 0
      if (!forEachLink(block.cid.code, block.bytes, onLink)) linksNotRead++
      for (let i = children.length - 1; i >= 0; i--) { // pushed in reverse: popped in link order
        if (written[children[i]]) continue
        if (top === stack.length) stack = grow(stack, top + 1)
        stack[top++] = children[i]
      }
    }
    await source.checkUnchanged()
    const partial = missing.size > 0
    const ok = badHashes.length === 0 && !(partial && values.strict)
    if (ok) await output.commit()
    else await output.abort()
    output = null
    const firstMissing = []
    for (let id = 0; id < Math.min(missing.size, SHOWN); id++) firstMissing.push(cidText(missing.bytesOf(id)))
    const summary = { input: name, root: root.toString(), out: values.out, written: ok, blocks, bytes, missing: { cids: missing.size, first: firstMissing }, linksNotRead, problems: badHashes.slice(0, SHOWN) }
    for (const p of badHashes.slice(0, SHOWN)) process.stderr.write(`dag-cbor-car: ${p}\n`)
    if (partial) process.stderr.write(`dag-cbor-car: ${missing.size} linked block${missing.size === 1 ? ' is' : 's are'} not in ${name}: ${firstMissing.join(', ')}${missing.size > SHOWN ? ', ...' : ''}${values.strict ? ' (--strict: nothing written)' : ' (the DAG was written without them)'}\n`)
    if (linksNotRead) process.stderr.write(`dag-cbor-car: note: ${linksNotRead} block${linksNotRead === 1 ? ' is' : 's are'} of a codec whose links this tool does not read (not dag-cbor, dag-pb, dag-json, raw or json); what they link to was not followed\n`)
    if (values.json) process.stdout.write(JSON.stringify(summary) + '\n')
    else process.stdout.write(ok ? `wrote ${values.out}: ${blocks} blocks (${humanBytes(bytes)} of block data) reachable from ${root}${partial ? `, ${missing.size} missing` : ''}\n` : `${values.out} was not written\n`)
    return ok ? 0 : 1
  } catch (err) {
    await output?.abort()
    throw err
  } finally {
    await input.close()
  }
}
