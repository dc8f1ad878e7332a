// dag-cbor-car version (also --version, -V): the package's name and version.
import { readFileSync } from 'node:fs'
import { parseCommand } from '../node/command-args.js'

const USAGE = `usage: dag-cbor-car version   (or --version, -V)

prints dag-cbor-car and its version`

/**
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
export async function run (argv) {
  if (!parseCommand(argv, {}, USAGE, [])) return 0 // --help
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`${manifest.name} ${manifest.version}\n`)
  return 0
}
