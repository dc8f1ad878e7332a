// Several inputs: `dag-cbor-car verify a.car b.car ...` and `inspect a.car b.car ...` run the
// single-file command on each file, spread over one worker process per core (many-child.js: each
// takes files one at a time, so a thousand files cost a handful of process starts). Results are
// printed in the order the files were given: one line per file, or with --json one JSON line per
// file (the command's own JSON, plus "status", and "error" when it stopped on one). The exit status
// is the worst of the files' statuses (for inspect without --strict, problems in the data count as 0).
import { UsageError } from '../core/base/errors.js'
import { guardStdout } from './lines.js'

/** The commands that take several inputs, each with its option table (the flags that take a value
 * are read from it, so a flag's value is never taken for an input). */
const OPTION_TABLES = {
  verify: async () => (await import('../commands/verify.js')).OPTIONS,
  inspect: async () => (await import('../commands/inspect.js')).OPTIONS
}
/** Flags that write one output, so make sense for one input only. */
const SINGLE_ONLY = new Set(['--out', '--map', '--canonicalize'])

/**
 * @param {string} name a key of OPTION_TABLES
 * @param {string[]} argv
 */
async function split (name, argv) {
  const table = await OPTION_TABLES[/** @type {keyof typeof OPTION_TABLES} */ (name)]()
  const valueFlags = new Set(Object.entries(table).filter(([, o]) => o.type === 'string').map(([flag]) => `--${flag}`))
  /** @type {string[]} */ const inputs = []
  /** @type {string[]} */ const flags = []
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') { inputs.push(...argv.slice(i + 1)); break }
    if (a.startsWith('-') && a !== '-') {
      flags.push(a)
      if (valueFlags.has(a) && i + 1 < argv.length) flags.push(argv[++i])
    } else {
      inputs.push(a)
    }
  }
  return { inputs, flags }
}

/**
 * Resolves true when the command takes several inputs and was given more than one (and no --help).
 *
 * @param {string} name
 * @param {string[]} argv
 */
export async function isMany (name, argv) {
  if (!Object.hasOwn(OPTION_TABLES, name)) return false
  const { inputs, flags } = await split(name, argv)
  return inputs.length > 1 && !flags.includes('--help') && !flags.includes('-h')
}

/**
 * @typedef {{ status: number, stdout: string, stderr: string, usage: { message: string, usage: string } | null }} Result
 */

/**
 * @param {string} name
 * @param {string[]} argv
 * @returns {Promise<number>} the worst exit status
 */
export async function runMany (name, argv) {
  guardStdout()
  const { inputs, flags } = await split(name, argv)
  const single = flags.find((f) => SINGLE_ONLY.has(f.split('=')[0]))
  if (single) throw new UsageError(`${single} writes one output, so it takes one input; ${inputs.length} were given`)
  if (inputs.includes('-')) throw new UsageError('standard input (-) cannot be one of several inputs')
  const json = flags.includes('--json')
  const childFlags = flags.filter((f) => f !== '--json')
  // the parallelism is across files: a file's own run keeps to one thread
  if (name === 'verify' && !childFlags.some((f) => f.split('=')[0] === '--workers')) childFlags.push('--workers', '1')
  // a report (inspect) exits 0 with problems unless --strict: its children always run strict, so
  // each file's line says FAIL when it has problems, and the total's status is 0 again without --strict
  const reportOnly = name !== 'verify' && !flags.includes('--strict')
  if (reportOnly) childFlags.push('--strict')
  childFlags.push('--json')

  // loaded here, not at the top: the dispatcher imports this file for every run of verify and inspect
  const [{ default: os }, { fork }] = await Promise.all([import('node:os'), import('node:child_process')])
  const processes = Math.min(inputs.length, os.availableParallelism())
  /** @type {(Result | undefined)[]} */
  const results = new Array(inputs.length)
  let next = 0 // next input to hand out
  let printed = 0 // results printed, in input order
  let worst = 0
  /** @type {UsageError | null} */
  let usageError = null
  const tally = { ok: 0, problems: 0, errors: 0 }

  const printReady = () => {
    if (usageError) return // said once, instead of once per file
    for (; printed < inputs.length && results[printed]; printed++) {
      const r = /** @type {Result} */ (results[printed])
      const status = reportOnly && r.status === 1 ? 0 : r.status // what the single-file run exits with
      worst = Math.max(worst, status)
      if (r.status === 0) tally.ok++
      else if (r.status === 1) tally.problems++
      else tally.errors++
      process.stdout.write((json ? jsonLine(inputs[printed], { ...r, status }) : textLine(inputs[printed], r)) + '\n')
      results[printed] = undefined // printed: let it go
    }
  }

  /** @type {import('node:child_process').ChildProcess[]} */
  const children = []
  await Promise.all(Array.from({ length: processes }, () => new Promise((resolve, reject) => {
    // stderr through a pipe, not the terminal: a command in a worker must not draw its progress line
    const child = fork(new URL('./many-child.js', import.meta.url), [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] })
    children.push(child)
    child.stderr?.pipe(process.stderr, { end: false })
    /** @type {number} */
    let current = -1
    const give = () => {
      if (usageError || next >= inputs.length) {
        child.disconnect() // it exits on that (many-child.js)
        current = -1
        resolve(undefined) // its work is done: a child slow to end does not hold up the results
        return
      }
      current = next++
      child.send({ name, argv: [inputs[current], ...childFlags] })
    }
    child.on('message', (/** @type {Result} */ r) => {
      if (r.usage) usageError ??= new UsageError(r.usage.message, r.usage.usage)
      results[current] = r
      printReady()
      give()
    })
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      if (current >= 0 && !results[current] && printed <= current) {
        results[current] = { status: 2, stdout: '', stderr: `dag-cbor-car: the worker process ${signal ? `was killed by ${signal}` : `exited with status ${code}`} while checking this file\n`, usage: null }
        printReady()
      }
      resolve(undefined)
    })
    give()
  })))
  // a child that has not ended by now has no work left: it must not outlive this process
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  if (usageError) throw usageError
  // files never handed out: every worker process had exited (killed, out of memory)
  for (let i = next; i < inputs.length; i++) results[i] = { status: 2, stdout: '', stderr: 'dag-cbor-car: not checked: every worker process had exited\n', usage: null }
  printReady()
  const summary = `${inputs.length} files: ${tally.ok} OK, ${tally.problems} with problems, ${tally.errors} unreadable`
  if (json) process.stderr.write(`dag-cbor-car: ${summary}\n`)
  else process.stdout.write(summary + '\n')
  return worst
}

/** @param {string} stderr */
const firstError = (stderr) => stderr.split('\n').find((l) => l.trim())?.replace(/^dag-cbor-car: /, '') ?? ''

/**
 * The file's JSON object from the command, with its exit status (and error) added.
 *
 * @param {string} input @param {Result} r
 */
function jsonLine (input, r) {
  const last = r.stdout.trim().split('\n').pop() ?? ''
  /** @type {Record<string, any>} */
  let object = {}
  try {
    object = last ? JSON.parse(last) : {}
  } catch {}
  const error = r.status === 2 ? firstError(r.stderr) : undefined
  return JSON.stringify({ input, ...object, status: r.status, ...(error ? { error } : {}) })
}

/**
 * One line per file: OK, FAIL with the problem count and the first problem, or ERROR with the error.
 *
 * @param {string} input @param {Result} r
 */
function textLine (input, r) {
  if (r.status === 2) return `ERROR  ${input}: ${firstError(r.stderr) || 'failed'}`
  if (r.status === 0) return `OK     ${input}`
  /** @type {any} */
  let s = {}
  try { s = JSON.parse(r.stdout.trim().split('\n').pop() ?? '') } catch {}
  const first = Array.isArray(s.problems) && s.problems[0]
  const detail = first ? `: ${s.problemCount ?? s.problems.length} problem${(s.problemCount ?? 0) === 1 ? '' : 's'}, first ${first.cid ? first.cid + ' ' : ''}${first.kind}: ${first.message}` : ''
  return `FAIL   ${input}${detail}`
}
