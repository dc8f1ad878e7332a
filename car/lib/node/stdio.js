// Standard output and error written without Node's stream objects where a run needs none. Node
// makes process.stdout and process.stderr when they are first read: a socket (node:net) for a
// pipe, node:tty for a terminal, about 5 ms of checking a small CAR (bench/startup.js). A command
// that writes its answer once, at the end (verify), writes it straight to the descriptor instead;
// the streams are made only when something reads them (a progress line on a terminal, a command
// that streams a listing, or a write the descriptor does not take at once).
import { fstatSync, writeSync } from 'node:fs'

/** @type {Set<'stdout' | 'stderr'>} */
const made = new Set()
/** watchStdio() was called: without it (this module used by another entry) both count as made */
let watching = false

/**
 * Note when process.stdout and process.stderr are made, for stdioMade(). Where they are not
 * made when first read (a runtime that makes them at start), they count as made from the start.
 */
export function watchStdio () {
  if (watching) return
  watching = true
  for (const name of /** @type {const} */ (['stdout', 'stderr'])) {
    const own = Object.getOwnPropertyDescriptor(process, name)
    if (!own?.get || !own.configurable) {
      made.add(name)
      continue
    }
    const get = own.get
    Object.defineProperty(process, name, {
      ...own,
      get () {
        made.add(name)
        Object.defineProperty(process, name, own) // noted: Node's own getter from now on
        return get.call(process)
      }
    })
  }
}

/**
 * The streams that were made: only they can hold output not yet handed to the OS.
 *
 * @returns {NodeJS.WriteStream[]}
 */
export function stdioMade () {
  return watching ? [...made].map((name) => process[name]) : [process.stdout, process.stderr]
}

/**
 * Could `fd` be a terminal? Only a character device can: a pipe or a file never is. Asked before
 * reading a stream's isTTY, which makes the stream.
 *
 * @param {number} fd
 */
export function mayBeTerminal (fd) {
  try {
    return fstatSync(fd).isCharacterDevice()
  } catch {
    return false
  }
}

/**
 * Write `text` to standard output (1) or error (2): straight to the descriptor while its stream
 * was not made; what the descriptor does not take (a full non-blocking pipe, a closed reader, any
 * error) goes to the stream, which then waits, fails or reports as it always did.
 *
 * @param {1 | 2} fd
 * @param {string} text
 */
export function writeText (fd, text) {
  const name = fd === 1 ? 'stdout' : 'stderr'
  if (!watching || made.has(name)) {
    process[name].write(text)
    return
  }
  const bytes = Buffer.from(text)
  let at = 0
  try {
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at)
  } catch {
    process[name].write(bytes.subarray(at))
  }
}
