// A Lexicon codec call's outcome as one comparable string, for the tests that hold decode, validate
// and encode to the same verdict (lexicon-differential.js, lexicon-mutations.spec.js).

/**
 * @param {() => unknown} run
 * @param {{ offset?: boolean }} [options] offset: name the byte offset too (decode and validate
 *   of the same bytes report the same one; encode has none)
 * @returns {string} 'accepted', or the rule and path of the error (an error without a rule is thrown on)
 */
export function outcome (run, { offset = false } = {}) {
  try {
    run()
    return 'accepted'
  } catch (e) {
    const err = /** @type {any} */ (e)
    if (typeof err.rule !== 'string') throw e
    return offset ? `${err.rule} at byte ${err.offset} ${err.path}` : `${err.rule} at ${err.path}`
  }
}
