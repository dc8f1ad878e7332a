// Writing a listing to standard output: lines gathered into about 64 KB writes, waiting for the
// reader when the pipe is full (memory stays bounded however slow the reader is). A reader that
// stops early (`| head`) ends the command as SIGPIPE ends other tools: quietly, with status 141.

const FLUSH_AT = 64 * 1024

let watching = false

/** Standard output closed by its reader: exit 141 (as SIGPIPE would), never a stack trace. */
export function guardStdout () {
  if (watching) return
  watching = true
  process.stdout.on('error', (/** @type {any} */ err) => {
    if (err?.code === 'EPIPE') process.exit(141)
    throw err
  })
}

/** @param {NodeJS.WritableStream} stream */
function quitOnClosedPipe (stream) {
  if (stream === process.stdout) guardStdout()
}

/**
 * @param {NodeJS.WritableStream} [stream]
 */
export function createLineWriter (stream = process.stdout) {
  quitOnClosedPipe(stream)
  /** @type {string[]} */
  let parts = []
  let size = 0
  const flush = async () => {
    if (parts.length === 0) return
    const text = parts.join('')
    parts = []
    size = 0
    await writeOut(stream, text)
  }
  return {
    /** @param {string} line written with a newline after it */
    async line (line) {
      parts.push(line, '\n')
      size += line.length + 1
      if (size >= FLUSH_AT) await flush()
    },
    flush
  }
}

/**
 * Write and wait until the stream takes more.
 *
 * @param {NodeJS.WritableStream} stream
 * @param {string | Uint8Array} data
 */
export async function writeOut (stream, data) {
  quitOnClosedPipe(stream)
  if (stream.write(data)) return
  await new Promise((resolve) => stream.once('drain', resolve))
}
