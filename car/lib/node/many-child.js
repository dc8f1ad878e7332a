// A worker process for many.js: runs one command on one file per message, in this process, and
// sends back its exit status and what it wrote. The command's writes to stdout and stderr are
// captured for the run (the parent prints them in the order the files were given).
import { COMMANDS } from '../commands/command-table.js'
import { UsageError, errorLine } from '../core/base/errors.js'

/**
 * Route a stream's writes into `into` for the length of a run.
 *
 * @param {NodeJS.WriteStream} stream
 * @param {string[]} into
 */
function capture (stream, into) {
  const original = stream.write
  stream.write = /** @type {any} */ ((/** @type {string | Uint8Array} */ chunk, /** @type {any[]} */ ...rest) => {
    into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
    const done = rest.find((r) => typeof r === 'function')
    if (done) process.nextTick(done)
    return true
  })
  return () => { stream.write = original }
}

process.on('message', async (/** @type {{ name: string, argv: string[] }} */ { name, argv }) => {
  /** @type {string[]} */ const stdout = []
  /** @type {string[]} */ const stderr = []
  const restoreOut = capture(process.stdout, stdout)
  const restoreErr = capture(process.stderr, stderr)
  let status = 2
  /** @type {{ message: string, usage: string } | null} */
  let usage = null
  try {
    const command = await COMMANDS[name]()
    status = await command.run(argv)
  } catch (err) {
    if (err instanceof UsageError) usage = { message: err.message, usage: err.usage }
    stderr.push(`dag-cbor-car: ${errorLine(err)}\n`)
  } finally {
    restoreOut()
    restoreErr()
  }
  process.send?.({ status, stdout: stdout.join(''), stderr: stderr.join(''), usage })
})

// Handed no more files: end here rather than let Node end the process when its event loop empties
// (that shutdown path can deadlock in Node's drain of V8 background tasks; see bin/dag-cbor-car.js).
process.on('disconnect', () => process.exit(0))
