// dag-cbor-car help [command]: the commands, one line each; with a command, its --help.
import { COMMANDS } from './command-table.js'
import { UsageError } from '../core/base/errors.js'

/** @type {Record<string, string>} */
const SUMMARIES = {
  verify: 'check hashes, roots and strict canonical DAG-CBOR; rewrite with --out (the default command)',
  repo: 'AT Protocol repository CARs: verify, ls, export',
  inspect: 'what a CAR holds: roots, codecs, hashes, sizes, canonical counts, reachability, depth',
  ls: 'one line per block: CID, codec, size, hash check, DAG-CBOR status (--links)',
  roots: 'the roots in the header, one per line',
  'get-block': 'one block: its bytes, its DAG-JSON (--dag-json), or its export line (--json)',
  'get-dag': 'a CAR of every block reachable from a CID (--out)',
  filter: 'a CAR of the blocks that pass --cids, --drop, --codec, --reachable-from (--out)',
  diff: 'blocks only in a, only in b, and whether the roots changed',
  export: 'the CAR as JSON lines (DAG-JSON values, or bytes), for jq',
  import: 'JSON lines as export writes them, back to a CAR (--out); from stdin when no file is named',
  version: 'the tool\'s name and version (also --version)',
  help: 'this list; help <command> shows its options'
}

/**
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
export async function run (argv) {
  const names = Object.keys(COMMANDS)
  if (argv.length > 0) {
    if (argv.length === 1 && Object.hasOwn(COMMANDS, argv[0])) return (await COMMANDS[argv[0]]()).run(['--help'])
    throw new UsageError(`help takes one command name (${names.join(', ')}), got "${argv.join(' ')}"`)
  }
  const width = Math.max(...names.map((n) => n.length))
  process.stdout.write([
    'usage: dag-cbor-car <command> [arguments]   (a file or - alone means verify: dag-cbor-car x.car)',
    '',
    ...names.map((n) => `  ${n.padEnd(width)}  ${SUMMARIES[n] ?? ''}`),
    '',
    'dag-cbor-car <command> --help shows a command\'s options. Exit status: verify 0 checked and good,',
    '1 problems found in the data; the commands that report or retrieve 0 once their output is written',
    '(problems in the data on stderr and in --json; 1 with --strict), 1 when the data leaves nothing to',
    'write; diff 0 same, 1 different; 2 bad usage or unreadable input.'
  ].join('\n') + '\n')
  return 0
}
