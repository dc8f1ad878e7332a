// dag-cbor-car repo verify | ls | export: AT Protocol repository CARs (a signed commit, a Merkle
// Search Tree of record paths, the records). The checks live in ../atproto/; this file reads the
// arguments, the input and the key, and prints. Exit: 0 checked and good, 1 faults found (or
// blocks missing), 2 bad usage or unreadable input.
import fs from 'node:fs'
import { UsageError, systemReason, aboutInput } from '../core/base/errors.js'
import { parseCommand, COMMON_USAGE } from '../node/command-args.js'
import { openInput } from '../node/input-source.js'
import { readBlocks } from '../core/check/atproto/repo-blocks.js'
import { createProgress, drawProgress } from '../node/progress.js'
import { checkRepo } from '../core/check/atproto/repo-walk.js'
import { faultLine, formatSummary, oneLine } from '../core/check/atproto/report.js'
import { createExporter } from '../node/atproto/export-dir.js'
import { loadLexiconDir } from '../node/atproto/lexicon-dir.js'

const USAGE = `usage: dag-cbor-car repo verify FILE|- [--key KEY] [--lexicons DIR] [--json]
       dag-cbor-car repo ls FILE|- [--json]
       dag-cbor-car repo export FILE|- --out DIR [--key KEY] [--lexicons DIR] [--json]

  verify    check the commit, the MST (structure, key order and heights, repo paths) and every
            record (present, strict DAG-CBOR, inside the atproto data model); one line per fault
  ls        print "collection/rkey CID" for every record, in MST order (checks the MST, not the records)
  export    verify, and write every good record as DAG-JSON to DIR/<collection>/<rkey>.json
  --key KEY did:key:z... or a DID document (JSON file) holding the account's #atproto key:
            the commit signature is checked; without it, it is not
  --out DIR a new or empty directory
  --lexicons DIR  the Lexicon documents (every *.json under DIR): each record whose collection
            they define is checked against it, one fault per invalid record (record-lexicon);
            records of other collections are counted as not checked
  (--json: verify and export print the summary as one JSON object, ls one JSON object per record)
${COMMON_USAGE}

exit status: 0 checked and good, 1 faults found or blocks missing, 2 bad usage or unreadable input`

const SUBCOMMANDS = ['verify', 'ls', 'export']

/** @param {string[]} argv @returns {{ sub: string, input: string, key?: string, out?: string, lexicons?: string, json: boolean, maxBlockSize: number } | null} null: help was printed */
function parse (argv) {
  const [sub, ...rest] = argv
  if (sub === '-h' || sub === '--help') {
    process.stdout.write(USAGE + '\n')
    return null
  }
  if (!SUBCOMMANDS.includes(sub)) throw new UsageError(sub === undefined ? 'repo needs a subcommand: verify, ls or export' : `unknown repo subcommand "${sub}"; expected verify, ls or export`, USAGE)
  const parsed = parseCommand(rest, { key: { type: 'string' }, out: { type: 'string' }, lexicons: { type: 'string' } }, USAGE, ['FILE'])
  if (!parsed) return null
  const { values, positionals, maxBlockSize } = parsed
  /** @param {string} message */
  const usage = (message) => new UsageError(message, USAGE)
  if (sub === 'export' && !values.out) throw usage('repo export needs --out DIR')
  if (sub !== 'export' && values.out !== undefined) throw usage('--out is for repo export')
  if (sub === 'ls' && values.key !== undefined) throw usage('--key is for repo verify and repo export (ls reads no signature)')
  if (sub === 'ls' && values.lexicons !== undefined) throw usage('--lexicons is for repo verify and repo export (ls reads no records)')
  return { sub, input: positionals[0], key: values.key, out: values.out, lexicons: values.lexicons, json: !!values.json, maxBlockSize }
}

/**
 * @param {string} spec did:key:..., or a DID document file
 * @returns {Promise<{ key: import('../core/check/atproto/did-key.js').PublicKey, did: string | null }>}
 */
async function loadKey (spec) {
  // the curve library is loaded only with --key: its set-up is a few ms of every run's start
  const { parseDidKey, keyFromDidDocument, KeyError } = await import('../core/check/atproto/did-key.js')
  try {
    if (spec.startsWith('did:key:')) return { key: parseDidKey(spec), did: null }
    if (spec.startsWith('did:')) throw new KeyError(`--key ${spec}: this tool does not resolve DIDs (no network); give the account's did:key or its DID document as a file`)
    let text
    try {
      text = fs.readFileSync(spec, 'utf8')
    } catch (err) {
      throw new KeyError(`cannot read --key ${spec}: ${systemReason(err)}`)
    }
    let doc
    try {
      doc = JSON.parse(text)
    } catch {
      throw new KeyError(`--key ${spec} is neither a did:key nor a JSON DID document`)
    }
    return keyFromDidDocument(doc, spec)
  } catch (err) {
    if (err instanceof KeyError) throw new UsageError(err.message)
    throw err
  }
}

/**
 * @param {string[]} argv the arguments after `repo`
 * @returns {Promise<number>} the exit status
 */
export async function run (argv) {
  const args = parse(argv)
  if (!args) return 0
  const key = args.key === undefined ? null : await loadKey(args.key)
  const lexicons = args.lexicons === undefined ? undefined : (await loadLexiconDir(args.lexicons)).lexicons
  const source = await openInput(args.input)
  try {
    const store = await readBlocks(source, { maxBlockSize: args.maxBlockSize, onOpen: (car) => drawProgress(car, createProgress({ total: source.size, stdoutListing: true })) })
      .catch((err) => { throw aboutInput(err, source.name) })
    const exporter = args.out ? createExporter(args.out) : null
    const out = (/** @type {string} */ line) => process.stdout.write(line + '\n')
    /** @type {string[]} */
    const refused = []
    const summary = await checkRepo(store, {
      input: source.name,
      records: args.sub !== 'ls',
      key,
      lexicons,
      // ls keeps stdout for the listing; verify and export print faults where the summary goes
      onFault: args.json ? undefined : (f) => (args.sub === 'ls' ? process.stderr : process.stdout).write(faultLine(f) + '\n'),
      onRecord: (entry, record) => {
        if (args.sub === 'ls') {
          out(args.json ? JSON.stringify({ path: entry.path, collection: entry.collection, rkey: entry.rkey, cid: entry.value.toString() }) : oneLine(`${entry.path} ${entry.value}`))
        } else if (exporter) {
          const why = entry.collection === null
            ? 'the key is not a valid <collection>/<record key> path'
            : record?.ok ? exporter.write(entry.collection, entry.rkey, record.value) : 'the record has faults (above) or is missing'
          if (why) {
            refused.push(`${entry.path}: ${why}`)
            if (!args.json) out(oneLine(`REFUSED ${entry.path}: ${why}`))
          }
        }
      }
    })
    await source.checkUnchanged()
    if (args.sub === 'ls') {
      if (args.json && summary.faultCount > 0) for (const f of summary.faults) process.stderr.write(faultLine(f) + '\n')
    } else if (args.json) {
      out(JSON.stringify(exporter ? { ...summary, export: { dir: exporter.root, written: exporter.written(), refused } } : summary))
    } else {
      const extra = exporter ? [`export      ${exporter.written()} records written to ${oneLine(exporter.root)}${refused.length ? `, ${refused.length} refused (above)` : ''}`] : []
      out(formatSummary(summary, extra))
    }
    return summary.faultCount > 0 || refused.length > 0 ? 1 : 0
  } finally {
    await source.close()
  }
}
