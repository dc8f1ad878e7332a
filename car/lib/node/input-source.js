// Where the CAR bytes come from: a regular file (size known, can be read again and in ranges), or a
// stream (standard input, a pipe, a FIFO, a device) read once, front to back, size unknown.
// Files are read through plain descriptors, not fs.promises: a FileHandle loads node:fs/promises,
// and with it readline and fs.watch; node:net only for a FIFO or socket. A file is opened, stat'ed,
// read front to back and closed synchronously, as the pipeline's batches are read (readRangeSync):
// a small CAR is then checked without starting libuv's thread pool, whose threads, and a round trip
// through them per request, its start-up would otherwise wait for. Reads by position (readRange:
// later passes, blocks read on demand) still go through the pool.
import { systemReason } from '../core/base/errors.js'
import { InputError, bytesSource } from '../core/read/source.js'
import { STREAM_CHUNK } from '../core/read/limits.js'

// (process.getBuiltinModule, not import: an import of a built-in module makes Node build its ES
// module face, reading every export, node:fs's fs.promises among them, which loads 35 of Node's
// internal modules, its streams and readline, when the library is imported; a bundle keeps the call)
const { constants, open, read, fstat, createReadStream, openSync, closeSync, fstatSync, readSync } = /** @type {typeof import('node:fs')} */ (process.getBuiltinModule('node:fs'))

const WAIT_NOTE_MS = 500
/** What a CAR input is called; an input that is one and empty is left to the CAR reader to refuse */
const A_CAR = 'a CAR'

/** @typedef {import('../core/read/source.js').Source} Source */

export { InputError, bytesSource }

/**
 * Open the input named on the command line: a path, or '-' for standard input. `expected` is what it
 * should hold, for the messages about an empty input or a terminal (default: a CAR).
 * A path is opened non-blocking, so a FIFO with no writer yet does not hang in open(): it is then
 * read through the event loop, and the tool waits for data (and still answers Ctrl-C).
 *
 * @param {string} spec
 * @param {{ expected?: string }} [options]
 * @returns {Promise<Source>}
 */
export async function openInput (spec, { expected = A_CAR } = {}) {
  if (spec === '-') return openStdin(expected)
  /** @type {FileHandle | undefined} */
  let handle
  try {
    handle = fileHandle(openSync(spec, constants.O_RDONLY | constants.O_NONBLOCK))
    const stat = fstatSync(handle.fd)
    if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' })
    if (stat.isFile()) {
      // an empty CAR is the reader's to refuse, with the words and offset every other path gives
      if (stat.size === 0 && expected !== A_CAR) throw new Error(`the file is empty, not ${expected}`)
      return fileSource(spec, handle, stat)
    }
    if (stat.isFIFO() || stat.isSocket()) {
      // the net.Socket that reads it takes over its fd and closes it: an fd of its own, opened
      // before the first one is closed (the FIFO keeps a reader)
      const fd = openSync(spec, constants.O_RDONLY | constants.O_NONBLOCK)
      await handle.close()
      handle = undefined
      return pipeSource(spec, fd, async () => closeSync(fd))
    }
    // a character device (/dev/stdin on a terminal, /dev/zero, ...): plain blocking reads
    await handle.close()
    handle = await openFile(spec, constants.O_RDONLY)
    const device = handle
    return {
      name: spec,
      size: undefined,
      seekable: false,
      stream: once(spec, () => device.createReadStream({ highWaterMark: STREAM_CHUNK, autoClose: false })),
      readRange: notSeekable(spec),
      checkUnchanged: async () => {},
      close: () => device.close()
    }
  } catch (err) {
    await handle?.close().catch(() => {})
    throw new InputError(`cannot read ${spec}: ${systemReason(err)}`)
  }
}

/**
 * What standard input is, for a command given no file: 'piped' when it holds input to read (a pipe,
 * a socket, or a file redirected with <), which the command then reads; otherwise what it is
 * instead (a terminal; a character device such as /dev/null, as CI gives; or closed), and the
 * command runs as if given nothing (verify: the embedded sample).
 *
 * @returns {'piped' | 'a terminal' | 'a device (such as /dev/null)' | 'closed'}
 */
export function stdinKind () {
  let stat
  try {
    stat = fstatSync(0)
  } catch {
    return 'closed'
  }
  if (stat.isFIFO() || stat.isSocket() || stat.isFile()) return 'piped'
  return process.stdin.isTTY ? 'a terminal' : 'a device (such as /dev/null)'
}

/**
 * @param {string} expected
 * @returns {Promise<Source>}
 */
async function openStdin (expected) {
  const name = 'standard input'
  let stat
  try {
    stat = fstatSync(0)
  } catch (err) {
    throw new InputError(`cannot read ${name}: ${systemReason(err)}`)
  }
  if (process.stdin.isTTY) throw new InputError(`cannot read ${name}: it is a terminal; pipe ${expected} into it or name a file`)
  if (stat.isFile()) {
    // redirected from a file (< file.car): its size is known and it can be read again
    let handle = null
    try {
      handle = fileHandle(openSync('/dev/stdin', constants.O_RDONLY))
    } catch {}
    if (handle) {
      if (stat.size === 0 && expected !== A_CAR) throw new InputError(`cannot read ${name}: it is empty, not ${expected}`)
      return fileSource(name, handle, stat)
    }
  }
  return {
    name,
    size: undefined,
    seekable: false,
    stream: once(name, () => process.stdin),
    readRange: notSeekable(name),
    checkUnchanged: async () => {},
    close: async () => { process.stdin.destroy() }
  }
}

/**
 * @param {string} name
 * @param {FileHandle} handle
 * @param {import('node:fs').Stats} stat
 * @returns {Source}
 */
function fileSource (name, handle, stat) {
  const shrank = () => new InputError(`${name} is shorter than when it was first read (it changed during the run)`)
  return {
    name,
    size: stat.size,
    seekable: true,
    stream: (start = 0) => fileChunks(handle, start),
    async readRange (start, length, into) {
      const buffer = into ? into.subarray(0, length) : new Uint8Array(length)
      let got = 0
      while (got < length) {
        const { bytesRead } = await handle.read(buffer, got, length - got, start + got)
        if (bytesRead === 0) throw shrank()
        got += bytesRead
      }
      return buffer
    },
    readRangeSync (start, length, into) {
      const buffer = into.subarray(0, length)
      let got = 0
      while (got < length) {
        const bytesRead = readSync(handle.fd, buffer, got, length - got, start + got)
        if (bytesRead === 0) throw shrank()
        got += bytesRead
      }
      return buffer
    },
    async checkUnchanged () {
      const now = await handle.stat()
      if (now.size !== stat.size || now.mtimeMs !== stat.mtimeMs) throw new InputError(`${name} changed during the run (size or modification time); nothing was written`)
    },
    close: () => handle.close()
  }
}

/**
 * A file's bytes from `start` to its end, in fresh 1 MiB buffers (blocks are views into them).
 * Not a ReadStream: stopping early would destroy the stream, and with it the file handle that
 * later passes read again.
 *
 * @param {FileHandle} handle
 * @param {number} start
 */
async function * fileChunks (handle, start) {
  for (let position = start, first = true; ; first = false) {
    // a turn of the event loop before each chunk after the first, as a read through the thread
    // pool gave: a long file read this way does not hold up an application's timers and I/O
    if (!first) await new Promise((resolve) => setImmediate(resolve))
    const chunk = Buffer.allocUnsafe(STREAM_CHUNK)
    const bytesRead = readSync(handle.fd, chunk, 0, STREAM_CHUNK, position)
    if (bytesRead === 0) return
    position += bytesRead
    yield chunk.subarray(0, bytesRead)
  }
}

/**
 * A FIFO or socket, read through the event loop (a non-blocking fd in a net.Socket).
 *
 * @param {string} name
 * @param {number} fd
 * @param {() => Promise<void> | undefined} closeFd
 * @returns {Source}
 */
function pipeSource (name, fd, closeFd) {
  /** @type {import('node:net').Socket | undefined} */
  let socket
  return {
    name,
    size: undefined,
    seekable: false,
    stream: once(name, () => {
      const net = /** @type {typeof import('node:net')} */ (process.getBuiltinModule('node:net'))
      const pipe = new net.Socket({ fd, readable: true, writable: false })
      socket = pipe
      // a FIFO with no writer yet: say why nothing happens (open() returned at once; we wait here)
      const waiting = setTimeout(() => process.stderr.write(`dag-cbor-car: waiting for data on ${name} (no writer yet?)\n`), WAIT_NOTE_MS)
      const settled = () => clearTimeout(waiting)
      pipe.once('readable', settled).once('end', settled).once('error', settled).once('close', settled)
      return pipe
    }),
    readRange: notSeekable(name),
    checkUnchanged: async () => {},
    close: async () => {
      if (socket) socket.destroy() // closes the fd
      else await closeFd()
    }
  }
}

/**
 * A stream that can be read only once; a second read is a bug in the caller, said plainly.
 *
 * @param {string} name
 * @param {() => AsyncIterable<Uint8Array>} make
 * @returns {(start?: number) => AsyncIterable<Uint8Array>}
 */
function once (name, make) {
  let used = false
  return (start = 0) => {
    if (used || start !== 0) throw new InputError(`${name} is a stream and cannot be read twice`)
    used = true
    return make()
  }
}

/** @param {string} name */
function notSeekable (name) {
  return async () => { throw new InputError(`${name} is a stream, not a file: it cannot be read again`) }
}

/**
 * @typedef {object} FileHandle what this module uses of an open file: the few calls of
 *   fs.promises' FileHandle it needs, on a plain descriptor
 * @property {number} fd
 * @property {(buffer: Uint8Array, offset: number, length: number, position: number) => Promise<{ bytesRead: number }>} read
 * @property {() => Promise<import('node:fs').Stats>} stat
 * @property {(options: { highWaterMark: number, autoClose: boolean }) => import('node:fs').ReadStream} createReadStream
 * @property {() => Promise<void>} close closes the descriptor once (a second call does nothing:
 *   the number may belong to another file by then)
 */

/**
 * @param {string} file
 * @param {number} flags
 * @returns {Promise<FileHandle>}
 */
function openFile (file, flags) {
  return new Promise((resolve, reject) => open(file, flags, (err, fd) => err ? reject(err) : resolve(fileHandle(fd))))
}

/**
 * @param {number} fd
 * @returns {FileHandle}
 */
function fileHandle (fd) {
  let closed = false
  return {
    fd,
    read: (buffer, offset, length, position) => new Promise((resolve, reject) => {
      read(fd, buffer, offset, length, position, (err, bytesRead) => err ? reject(err) : resolve({ bytesRead }))
    }),
    stat: () => new Promise((resolve, reject) => fstat(fd, (err, stat) => err ? reject(err) : resolve(stat))),
    createReadStream: (options) => createReadStream('', { ...options, fd }),
    close: async () => {
      if (closed) return
      closed = true
      closeSync(fd)
    }
  }
}
