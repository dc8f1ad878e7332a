/** Default nesting limit for encode and decode: deeper than any real block, shallow enough
 * that the recursive walk fits the smallest JavaScript stacks in use (browsers included). */
export const DEFAULT_MAX_DEPTH = 1000

/**
 * The `maxDepth` option, checked: the default when left out, else a whole number from 0 up, or
 * Infinity (then the JavaScript stack is the limit, still an error of rule depth). A value that is
 * not one (NaN, a string) would compare false with every depth and so turn the limit off.
 *
 * @param {unknown} value
 * @param {string} call - the function it was given to, for the message ('decode')
 * @returns {number}
 */
export function maxDepthOf (value, call) {
  if (value === undefined) return DEFAULT_MAX_DEPTH
  if (typeof value !== 'number') throw new TypeError(`${call}: options.maxDepth must be a number (the nesting limit), not ${value === null ? 'null' : typeof value}`)
  if (!(value >= 0 && (Number.isInteger(value) || value === Infinity))) throw new RangeError(`${call}: options.maxDepth must be a whole number from 0 up, or Infinity (the nesting limit), not ${value}`)
  return value
}
