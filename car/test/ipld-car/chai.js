// What @ipld/car's tests use of 'aegir/chai' (chai's assert and expect, with chai-as-promised), over
// node:assert: a few dozen lines, where chai and chai-as-promised would be two devDependencies for
// the harness alone. The semantics are chai's where the tests depend on them:
// - deepEqual and deepStrictEqual are both strict (chai's deep-eql);
// - equal is ==;
// - throws(fn, errorLike, matcher) and isRejected(promise, errorLike, matcher): a RegExp or string in
//   errorLike's place is the matcher; an Error constructor is checked with instanceof; an Error
//   instance by identity; anything else there (a plain { name, message } object, as some of the
//   tests pass) is ignored, as chai-as-promised ignores it: only the rejection is checked; a string
//   matcher matches a message that includes it, a RegExp one a message it matches.
import nodeAssert from 'node:assert/strict'
import legacyAssert from 'node:assert'

/**
 * @param {any} err
 * @param {any} errorLike
 * @param {any} matcher
 */
function checkError (err, errorLike, matcher) {
  if (errorLike instanceof RegExp || typeof errorLike === 'string') {
    matcher = errorLike
    errorLike = null
  } else if (!(errorLike instanceof Error) && typeof errorLike !== 'function') {
    errorLike = null
  }
  if (errorLike instanceof Error) nodeAssert.equal(err, errorLike, 'not the error expected')
  else if (errorLike) nodeAssert.ok(err instanceof errorLike, `expected a ${errorLike.name}, got ${err}`)
  if (matcher !== undefined && matcher !== null) {
    const message = typeof err === 'string' ? err : String(err?.message ?? '')
    if (matcher instanceof RegExp) nodeAssert.match(message, matcher)
    else nodeAssert.ok(message.includes(matcher), `expected an error including ${JSON.stringify(matcher)}, got ${JSON.stringify(message)}`)
  }
}

export const assert = {
  strictEqual: nodeAssert.strictEqual,
  notStrictEqual: nodeAssert.notStrictEqual,
  deepStrictEqual: nodeAssert.deepStrictEqual,
  deepEqual: nodeAssert.deepStrictEqual,
  equal: legacyAssert.equal,
  ok: nodeAssert.ok,
  fail: nodeAssert.fail,
  /** @param {unknown} value @param {string} [message] */
  isDefined (value, message) {
    nodeAssert.notStrictEqual(value, undefined, message ?? 'expected a value, got undefined')
  },
  /** @param {unknown} err */
  ifError (err) {
    if (err) throw err
  },
  /** @param {() => unknown} fn @param {any} [errorLike] @param {any} [matcher] */
  throws (fn, errorLike, matcher) {
    try {
      fn()
    } catch (err) {
      checkError(err, errorLike, matcher)
      return err
    }
    nodeAssert.fail('expected the function to throw')
  },
  /** @param {Promise<unknown>} promise @param {any} [errorLike] @param {any} [matcher] */
  async isRejected (promise, errorLike, matcher) {
    try {
      await promise
    } catch (err) {
      checkError(err, errorLike, matcher)
      return err
    }
    nodeAssert.fail('expected the promise to be rejected, it was fulfilled')
  },
  /** @param {Promise<unknown>} promise */
  async isFulfilled (promise) {
    return promise
  }
}

/** expect(promise).to.eventually.be.rejected(), .rejectedWith(...) and expect(fn).throws(), as the tests use them */
export function expect (/** @type {any} */ value) {
  return {
    throws: () => assert.throws(value),
    to: {
      eventually: {
        be: {
          rejected: () => assert.isRejected(value),
          rejectedWith: (/** @type {any} */ errorLike, /** @type {any} */ matcher) => assert.isRejected(value, errorLike, matcher)
        }
      }
    }
  }
}
