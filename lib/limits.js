/** Default nesting limit for encode and decode: deeper than any real block, shallow enough
 * that the recursive walk fits the smallest JavaScript stacks in use (browsers included). */
export const DEFAULT_MAX_DEPTH = 1000
