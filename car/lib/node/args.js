// Command-line parsing for every command: node:util's parseArgs, with the tool's own one-line messages
// in place of Node's parser text (which suggests '--' for an unknown flag, with an unbalanced quote).
import { parseArgs } from 'node:util'
import { UsageError } from '../core/base/errors.js'

/**
 * @template {import('node:util').ParseArgsConfig['options']} T
 * @param {string[]} argv
 * @param {T} options
 * @returns {{ values: Record<string, string | boolean | undefined>, positionals: string[] }}
 */
export function parseOptions (argv, options) {
  try {
    return /** @type {any} */ (parseArgs({ args: argv, allowPositionals: true, strict: true, options }))
  } catch (err) {
    const e = /** @type {any} */ (err)
    // Node names the flag in quotes, e.g. '--out <value>' or '-h, --help'; keep its long name
    const flag = (/'(-[^']*)'/.exec(String(e?.message))?.[1] ?? '').replace(/ <value>$/, '').replace(/^-\w, /, '')
    if (e?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown option ${flag}`)
    if (e?.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw new UsageError(/argument missing/.test(e.message) ? `option ${flag} needs a value` : `option ${flag} takes no value`)
    }
    throw new UsageError(String(e?.message ?? err).split('\n')[0])
  }
}
