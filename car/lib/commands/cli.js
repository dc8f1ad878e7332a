// dag-cbor-car <command> [args]: the command dispatcher, which bin/dag-cbor-car.js runs (from the
// packed package's bundle, build/cli/dag-cbor-car.cjs written by scripts/bundle.js, or in a
// checkout from the source). A bare `dag-cbor-car file.car` means `dag-cbor-car verify file.car`;
// `--help` alone lists the commands, `--version` is `version`, and a first word that is neither a
// command nor a file is a usage error naming the closest command. Exit status: the one table in the
// README (0 good or written, 1 problems in the data, 2 bad usage or unreadable input), with one-line
// errors on stderr.
import { COMMANDS, DEFAULT_COMMAND, closestCommand } from './command-table.js'
import { UsageError, errorLine } from '../core/base/errors.js'
import { removeTemporaryFiles, pendingTemporaryFiles } from '../node/temporary-files.js'
import { existsSync } from 'node:fs'
import { watchStdio, stdioMade, writeText } from '../node/stdio.js'

// before anything reads process.stdout or process.stderr: which of them a run makes decides what
// the exit waits for (exitWhenFlushed)
watchStdio()

/** @type {Array<() => void>} */
const onSignal = []

// On SIGINT, SIGTERM or SIGHUP: remove any temporary output file (the target stays as it was), say
// so, then die of the same signal, so the shell sees the usual status (130 for Ctrl-C, 143 for TERM).
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
  process.on(signal, () => {
    const hadOutput = pendingTemporaryFiles().length > 0
    removeTemporaryFiles()
    for (const f of onSignal) f()
    process.stderr.write(`dag-cbor-car: stopped by ${signal}${hadOutput ? '; the partial output was removed, the target is untouched' : ''}\n`)
    process.removeAllListeners(signal)
    process.kill(process.pid, signal)
  })
}
process.on('exit', removeTemporaryFiles)

async function main () {
  const argv = process.argv.slice(2)
  if (argv[0] === '--version' || argv[0] === '-V') argv[0] = 'version'
  if (argv[0] === '--help' || argv[0] === '-h') argv[0] = 'help'
  // a word (no dot, no slash) that names no command and no file: a mistyped command, not a file name
  const first = argv[0]
  if (first !== undefined && !Object.hasOwn(COMMANDS, first) && /^[A-Za-z][A-Za-z-]*$/.test(first) && !existsSync(first)) {
    const meant = closestCommand(first.toLowerCase())
    throw new UsageError(`unknown command '${first}'${meant ? ` (did you mean ${meant}?)` : ''}`, 'dag-cbor-car help lists the commands')
  }
  const name = argv.length > 0 && Object.hasOwn(COMMANDS, argv[0]) ? /** @type {string} */ (argv.shift()) : DEFAULT_COMMAND
  const many = await import('../node/many.js') // several inputs: one worker process per core
  if (await many.isMany(name, argv)) return many.runMany(name, argv)
  const command = await COMMANDS[name]()
  if ('stopProgress' in command && typeof command.stopProgress === 'function') onSignal.push(/** @type {() => void} */ (command.stopProgress))
  return command.run(argv)
}

/**
 * End the process once everything written to stdout and stderr has been handed to the OS, with
 * `code`, whatever else is still alive: a worker thread still starting (its WebAssembly compile),
 * a handle some library left open. Letting Node end on its own when the event loop empties runs
 * its shutdown drain of V8's background tasks, which can deadlock (nodejs/node#54918: the main
 * thread waits in a futex forever, after the output was complete). Our signal handlers go first, so
 * that if Node's own teardown ever blocks, SIGTERM and SIGINT still end the process.
 *
 * @param {number} code
 */
function exitWhenFlushed (code) {
  process.exitCode = code
  // only a stream the run made can hold output not yet handed over (writeText wrote the rest)
  const streams = stdioMade()
  let waiting = streams.length
  const done = () => {
    if (--waiting > 0) return
    for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) process.removeAllListeners(signal)
    process.exit(code)
  }
  if (streams.length === 0) done()
  for (const stream of streams) stream.write('', done)
}

main().then(exitWhenFlushed, (err) => {
  writeText(2, `dag-cbor-car: ${errorLine(err)}\n${err instanceof UsageError && err.usage ? err.usage + '\n' : ''}`)
  exitWhenFlushed(2)
})
