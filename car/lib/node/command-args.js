// What the commands (other than verify) share on their command lines: the tool's own messages for bad
// flags (args.js), --help, --json and --max-block-size; and what every command shares (verify too):
// an output file is never one of the inputs (refuseOutputOverInput), standard input is never a directory.
import { statSync, fstatSync, realpathSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { parseOptions } from './args.js'
import { ToolError, UsageError } from '../core/base/errors.js'
import { MAX_BLOCK_SIZE_OPTION } from '../core/read/read-errors.js'
import { DEFAULT_MAX_BLOCK_SIZE, MAX_MAX_BLOCK_SIZE, bytesText } from '../core/read/limits.js'
import { guardStdout } from './lines.js'
import { parseSize } from '../core/report/units.js'
import { stdinKind } from './input-source.js'

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
  /** @type {{ values: Record<string, any>, positionals: string[], maxBlockSize: number }} */
  let parsed
  try {
    const { values, positionals } = parseOptions(argv, { ...COMMON_OPTIONS, ...options })
    if (values.help) {
      process.stdout.write(usage + '\n')
      return null
    }
    // a command that reads one input and is given no file reads what is piped in (stdinKind)
    if (inputs.length === 1 && (inputs[0] === 'in.car' || inputs[0] === 'FILE' || inputs[0].endsWith('?')) && positionals.length === 0) {
      if (stdinIsDirectory()) refuseDirectoryStdin()
      if (stdinKind() === 'piped') positionals.push('-')
    }
    expectInputs(positionals, inputs)
    for (const [name, spec] of Object.entries(options)) {
      if (spec.type === 'string' && values[name] === '') throw new UsageError(`--${name} needs a value`)
    }
    parsed = { values, positionals, maxBlockSize: maxBlockSizeOption(values['max-block-size']) }
  } catch (err) {
    if (err instanceof UsageError) err.usage = usage
    throw err
  }
  // past the usage text: these say all there is to say in one line
  const files = parsed.positionals.filter((_, i) => inputs[i] !== 'CID')
  if (files.includes('-')) refuseDirectoryStdin()
  if (typeof parsed.values.out === 'string') refuseOutputOverInput([['--out', parsed.values.out]], files)
  return parsed
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

/**
 * Refuse to run when standard input, to be read as an input, is a directory (`< some_dir`): reading
 * it would fail as if it were empty.
 */
export function refuseDirectoryStdin () {
  if (stdinIsDirectory()) throw new ToolError('standard input is a directory, not a file or a pipe to read; redirect a file (< in.car) or pipe one in')
}

/** Standard input is a directory (a shell's `< some_dir` opens one without complaint). */
export function stdinIsDirectory () {
  try {
    return fstatSync(0).isDirectory()
  } catch {
    return false
  }
}

/**
 * The one guard for every command that writes a file: no output may be one of the inputs, nor
 * another output, whatever path names it (spelled otherwise, a symlink, a hard link, or standard
 * input redirected from it), since writing it would replace what is being read. Checked before
 * anything is read or written, so a refused run leaves every file as it was.
 *
 * @param {[flag: string, path: string | undefined][]} outputs e.g. [['--out', 'x.car'], ['--map', 'm.txt']]
 * @param {(string | undefined)[]} inputs file names, or `-` for standard input
 */
export function refuseOutputOverInput (outputs, inputs) {
  const replaces = 'writing it would replace what is being read'
  /** @type {{ what: string, why: string, file: ReturnType<typeof fileOf> }[]} */
  const taken = inputs.filter((i) => i !== undefined).map((i) => ({
    what: i === '-' ? 'the file standard input is redirected from' : `the same file as the input ${i}`,
    why: replaces,
    file: fileOf(i)
  }))
  for (const [flag, out] of outputs) {
    if (out === undefined || out === '-') continue
    const file = fileOf(out)
    const same = taken.find((t) => sameFile(t.file, file))
    if (same) throw new UsageError(`${flag} ${out} is ${same.what}: ${same.why}; name another file for ${flag}`)
    taken.push({ what: `the ${flag} file (${out})`, why: 'one file cannot hold both', file })
  }
}

/**
 * What identifies a file: its device and inode when it exists (following symlinks), and its path
 * with its directory resolved (symlinks followed), for one that does not exist yet.
 *
 * @param {string} name a path, or `-` for standard input (only a regular file is identified)
 * @returns {{ dev: number, ino: number } | { path: string } | null}
 */
function fileOf (name) {
  try {
    if (name === '-') {
      const stat = fstatSync(0)
      return stat.isFile() ? { dev: stat.dev, ino: stat.ino } : null
    }
    const stat = statSync(name)
    return { dev: stat.dev, ino: stat.ino }
  } catch {
    if (name === '-') return null
    try {
      return { path: join(realpathSync(dirname(name)), basename(name)) }
    } catch {
      return { path: resolve(name) }
    }
  }
}

/**
 * @param {ReturnType<typeof fileOf>} a
 * @param {ReturnType<typeof fileOf>} b
 */
function sameFile (a, b) {
  if (a === null || b === null) return false
  if ('dev' in a && 'dev' in b) return a.dev === b.dev && a.ino === b.ino
  return 'path' in a && 'path' in b && a.path === b.path
}

/**
 * An error in the command line's words: the library's messages name its option (read/read-errors.js,
 * MAX_BLOCK_SIZE_OPTION), which on the command line is --max-block-size. Rewords the error's message
 * and that of the summary it carries (verify prints it) in place, and returns the error.
 *
 * @template T
 * @param {T} err
 * @returns {T}
 */
export function inCommandWords (err) {
  const e = /** @type {any} */ (err)
  if (!e || typeof e !== 'object') return err
  if (typeof e.message === 'string') e.message = e.message.replaceAll(MAX_BLOCK_SIZE_OPTION, '--max-block-size')
  const summaryError = e.summary?.error
  if (typeof summaryError?.message === 'string') summaryError.message = summaryError.message.replaceAll(MAX_BLOCK_SIZE_OPTION, '--max-block-size')
  return err
}
