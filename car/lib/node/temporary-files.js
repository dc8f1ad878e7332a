// The temporary files a run has open (output written atomically, a saved copy of standard input),
// apart from output.js so that the dispatcher's signal and exit handlers need only this file and
// node:fs: a run that writes no file loads nothing that writes one.
//
// A process killed by SIGKILL runs no handler, so each temporary file is also given to a watchdog:
// a small child process, started with the first one, that reads their names from a pipe and, when
// the pipe closes (this process has ended, however), removes those still there. A file renamed
// into place is no longer at its temporary name, so the watchdog's removal finds nothing. The
// watchdog runs in a process group of its own, so that a Ctrl-C reaching this one does not end it
// before this process has cleaned up.
import { rmSync } from 'node:fs' // named: a bundle then takes fs as it is rather than copying its hundred exports

/** Temporary files not yet renamed or removed, for the signal and exit handlers. */
export const temporaryFiles = new Set()

const WATCHDOG = `const fs = require('node:fs'); const files = []; let rest = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (d) => { rest += d; let i; while ((i = rest.indexOf('\\n')) >= 0) { files.push(JSON.parse(rest.slice(0, i))); rest = rest.slice(i + 1) } })
process.stdin.on('close', () => { for (const f of files) { try { fs.rmSync(f, { force: true }) } catch {} } })`

/** @type {import('node:stream').Writable | null} */
let watchdog = null

/**
 * Note a temporary file, for the handlers and for the watchdog.
 * @param {string} file
 */
export function addTemporaryFile (file) {
  temporaryFiles.add(file)
  if (watchdog === null) {
    // child_process (and net, dgram, streams with it) loads only for a run that writes a file
    const { spawn } = /** @type {typeof import('node:child_process')} */ (process.getBuiltinModule('node:child_process'))
    const child = spawn(process.execPath, ['-e', WATCHDOG], { stdio: ['pipe', 'ignore', 'ignore'], detached: true })
    child.on('error', () => {}) // without a watchdog, the handlers still clean up all but a SIGKILL
    child.unref()
    const pipe = /** @type {import('node:stream').Writable & { unref?: () => void }} */ (child.stdin)
    pipe.on('error', () => {})
    pipe.unref?.() // the pipe does not keep this process alive either
    watchdog = pipe
  }
  watchdog.write(JSON.stringify(file) + '\n')
}

/** Remove every temporary output file still pending. Synchronous: safe in 'exit' and signal handlers. */
export function removeTemporaryFiles () {
  for (const file of temporaryFiles) {
    try { rmSync(file, { force: true }) } catch {}
  }
  temporaryFiles.clear()
}

/** @returns {string[]} temporary output files not yet renamed or removed */
export function pendingTemporaryFiles () {
  return [...temporaryFiles]
}
