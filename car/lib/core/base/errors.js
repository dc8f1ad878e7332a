// Errors the CLI reports as one clean line and exit status 2 (never a stack trace).

/** Input or output could not be used: unreadable or unwritable file, not a CAR, truncated CAR. */
export class ToolError extends Error {
  /** @param {string} message */
  constructor (message) {
    super(message)
    this.name = 'ToolError'
    /** @type {string | undefined} the input it is about, when the message does not name it (errorLine puts it first) */
    this.input = undefined
  }
}

/**
 * The error, with the input it is about when it is a ToolError that does not say yet (a CAR's
 * reader knows offsets, not names).
 *
 * @template T
 * @param {T} err
 * @param {string} input
 * @returns {T}
 */
export function aboutInput (err, input) {
  if (err instanceof ToolError && err.input === undefined) err.input = input
  return err
}

/** @param {any} err a Node system error */
export function systemReason (err) {
  const known = /** @type {Record<string, string>} */ ({
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EISDIR: 'is a directory',
    ENOSPC: 'no space left on device',
    EROFS: 'read-only file system'
  })
  return known[err?.code] ?? String(err?.message ?? err).split('\n')[0]
}

/** Bad usage: printed with the command's usage text, exit status 2. */
export class UsageError extends Error {
  /**
   * @param {string} message
   * @param {string} [usage] the command's usage text, printed after the message
   */
  constructor (message, usage = '') {
    super(message)
    this.name = 'UsageError'
    this.usage = usage
  }
}

/**
 * A block reached a check whose hasher or decoder is not loaded yet (on-demand.js): caught there,
 * which loads it and runs the check again. Never a verdict; printed only if that is ever missed.
 */
export class NotLoadedError extends Error {
  /** @param {'hash' | 'codec'} kind @param {number} code the multihash or codec code */
  constructor (kind, code) {
    super(`a block of ${kind} 0x${code.toString(16)} was checked before what it needs was loaded`)
    this.name = 'NotLoadedError'
    this.kind = kind
    this.code = code
  }
}

/**
 * The one line the CLI prints for an error that ends a command (exit status 2), without the
 * "dag-cbor-car: " prefix or a UsageError's usage text.
 *
 * @param {any} err
 */
export function errorLine (err) {
  if (err instanceof ToolError && err.input !== undefined) return `${err.input}: ${err.message}`
  if (err instanceof UsageError || err instanceof ToolError) return err.message
  if (err?.syscall) return `${err.syscall} ${err.path ?? ''} failed: ${err.code ?? err.message}`
  return `internal error: ${err?.message ?? err}`
}
