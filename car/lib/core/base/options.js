// The checks of a library call's options, in one place: each throws, before the call opens or reads
// anything, a TypeError (the wrong kind of value) or a RangeError (the right kind, out of range)
// that names the call and the option, says what it got and what it takes. An option left out
// (undefined) is always accepted: the call's default applies.

/**
 * A value as a message shows it: short, and saying its kind.
 *
 * @param {unknown} value
 */
export function shown (value) {
  if (value === null) return 'null'
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} ${String(value)}`
  if (typeof value === 'function') return 'a function'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') {
    const name = Object.getPrototypeOf(value)?.constructor?.name
    return name && name !== 'Object' ? `a ${name}` : 'a plain object'
  }
  return typeof value
}

/**
 * The options argument itself: an object, or left out.
 *
 * @param {string} api the call, as messages name it (`verifyCar`)
 * @param {unknown} options
 * @returns {Record<string, unknown>}
 */
export function checkOptionsObject (api, options) {
  if (options === undefined) return {}
  // null too: the callers' default ({}) applies only to undefined, and they read options' fields
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new TypeError(`${api}: its options must be an object (or left out), got ${shown(options)}`)
  return /** @type {Record<string, unknown>} */ (options)
}

/**
 * `signal`: an AbortSignal (what an AbortController's `signal` is), checked for what the run uses
 * of it, so that an object that only looks like one fails here rather than halfway through a run.
 *
 * @param {string} api
 * @param {unknown} signal
 * @returns {AbortSignal | undefined}
 */
export function checkSignal (api, signal) {
  if (signal === undefined) return undefined
  const s = /** @type {any} */ (signal)
  if (s === null || typeof s !== 'object' || typeof s.aborted !== 'boolean' || typeof s.addEventListener !== 'function' ||
      typeof s.removeEventListener !== 'function' || typeof s.throwIfAborted !== 'function') {
    throw new TypeError(`${api}: options.signal must be an AbortSignal (an AbortController's signal), got ${shown(signal)}; leave it out to run without one`)
  }
  return /** @type {AbortSignal} */ (signal)
}

/**
 * A size in bytes (`maxBlockSize`): a whole number from 1 to `max` (the reader's limits, read/limits.js,
 * are above this folder: the caller passes its own).
 *
 * @param {string} api
 * @param {string} name
 * @param {unknown} value
 * @param {number} max
 * @returns {number | undefined}
 */
export function checkByteCount (api, name, value, max) {
  if (value === undefined) return undefined
  if (typeof value !== 'number') throw new TypeError(`${api}: options.${name} must be a number of bytes, got ${shown(value)}`)
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${api}: options.${name} must be a whole number of bytes from 1 to ${max}, got ${String(value)}`)
  }
  return value
}

/**
 * A callback option (`onBlock`, `onProgress`).
 *
 * @param {string} api
 * @param {string} name
 * @param {unknown} value
 */
export function checkFunction (api, name, value) {
  if (value !== undefined && typeof value !== 'function') throw new TypeError(`${api}: options.${name} must be a function, got ${shown(value)}`)
}

/**
 * A yes-or-no option (`relaxed`, `partial`, `verifyHashes`, ...).
 *
 * @param {string} api
 * @param {string} name
 * @param {unknown} value
 */
export function checkBoolean (api, name, value) {
  if (value !== undefined && typeof value !== 'boolean') throw new TypeError(`${api}: options.${name} must be true or false, got ${shown(value)}`)
}

/**
 * A text option (`name`, `outName`).
 *
 * @param {string} api
 * @param {string} name
 * @param {unknown} value
 */
export function checkString (api, name, value) {
  if (value !== undefined && typeof value !== 'string') throw new TypeError(`${api}: options.${name} must be a string, got ${shown(value)}`)
}
