// What the commands (other than verify) share on their command lines: the tool's own messages for bad
// flags (args.js), --help, --json and --max-block-size.
import { parseOptions } from './args.js'
import { UsageError } from '../core/base/errors.js'
import { DEFAULT_MAX_BLOCK_SIZE, MAX_MAX_BLOCK_SIZE, bytesText } from '../core/read/limits.js'
import { guardStdout } from './lines.js'
import { parseSize } from '../core/report/units.js'
import { stdinKind } from './source.js'

/** @type {{ json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, 'max-block-size': { type: 'string' } }} */
export const COMMON_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'max-block-size': { type: 'string' }
}

/** The report and retrieve commands' --strict: data problems make the exit status 1 (they are on
 * stderr and in --json either way); see the exit status table in the README. */
export const STRICT_OPTION = /** @type {{ strict: { type: 'boolean' } }} */ ({ strict: { type: 'boolean' } })
export const STRICT_USAGE = `  --strict             exit status 1 when the data has problems (without it they are reported on
                       stderr and in --json, and the status is 0 once the output is written)`

export const COMMON_USAGE = `  --json               machine-readable output
  --max-block-size S   largest block accepted, in bytes or with K/M/G; default ${bytesText(DEFAULT_MAX_BLOCK_SIZE)}
  -h, --help           this help`

/**
 * A command's arguments: its options, then exactly the inputs named. With --help, prints the usage
 * and returns null (the command then exits 0).
 *
 * @param {string[]} argv
 * @param {Record<string, { type: 'string' | 'boolean', short?: string, multiple?: boolean }>} options besides the common ones
 * @param {string} usage printed for --help and after a usage error
 * @param {string[]} inputs the names of the positional arguments, in order (a trailing `?`: optional)
 * @returns {{ values: Record<string, any>, positionals: string[], maxBlockSize: number } | null}
 */
export function parseCommand (argv, options, usage, inputs) {
  guardStdout()
  try {
    const { values, positionals } = parseOptions(argv, { ...COMMON_OPTIONS, ...options })
    if (values.help) {
      process.stdout.write(usage + '\n')
      return null
    }
    // a command that reads one CAR and is given no file reads what is piped in (stdinKind)
    if (inputs.length === 1 && (inputs[0] === 'in.car' || inputs[0] === 'FILE') && positionals.length === 0 && stdinKind() === 'piped') positionals.push('-')
    expectInputs(positionals, inputs)
    for (const [name, spec] of Object.entries(options)) {
      if (spec.type === 'string' && values[name] === '') throw new UsageError(`--${name} needs a value`)
    }
    return { values, positionals, maxBlockSize: maxBlockSizeOption(values['max-block-size']) }
  } catch (err) {
    if (err instanceof UsageError) err.usage = usage
    throw err
  }
}

/**
 * The inputs named, each given unless its name ends in `?`: named in the usage error.
 *
 * @param {string[]} positionals
 * @param {string[]} names
 */
function expectInputs (positionals, names) {
  const required = names.filter((n) => !n.endsWith('?')).length
  const shown = names.map((n) => n.replace(/\?$/, ''))
  const missing = shown.slice(positionals.length, required)
  if (missing.length) throw new UsageError(`missing ${missing.join(' and ')}${missing[0] === 'in.car' || missing[0] === 'FILE' ? ' (name a CAR file, or - or a pipe for standard input)' : ''}`)
  if (positionals.length > names.length) throw new UsageError(`unexpected argument "${positionals[names.length]}" (expected ${shown.join(' ')})`)
  if (positionals.filter((p) => p === '-').length > 1) throw new UsageError('standard input (-) can be only one of the inputs')
}

/**
 * --max-block-size, checked: the default when not given.
 *
 * @param {unknown} text the option's value
 * @returns {number}
 */
export function maxBlockSizeOption (text) {
  if (typeof text !== 'string') return DEFAULT_MAX_BLOCK_SIZE
  const size = parseSize(text)
  if (!(size >= 1 && size <= MAX_MAX_BLOCK_SIZE)) throw new UsageError(`--max-block-size must be a size from 1 byte to ${bytesText(MAX_MAX_BLOCK_SIZE)} (e.g. 8M), got "${text}"`)
  return size
}
