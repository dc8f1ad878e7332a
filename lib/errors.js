// Errors carry the rule they enforce (`rule`), so callers such as the CAR tool can classify
// without parsing messages, and where: the value path (JSON-pointer style, '/links/3/name'),
// and for decoding the byte offset. The path is collected while the error unwinds, then
// `finish` writes the message.

/**
 * @typedef {object} Rule
 * @property {'decode'|'encode'|'both'} side - which direction enforces it
 * @property {boolean} relaxable - decode only: `{ relaxed: true }` accepts what this rule rejects
 */

/** Decode rules that `{ relaxed: true }` lifts, by what they reject: a form of a value that is not
 * the canonical one (the value itself is in the data model) ... */
const NOT_CANONICAL = ['non-shortest', 'float-size', 'map-key-order']
/** ... or something the IPLD data model lacks, which relaxed mode reads (undefined as null,
 * invalid UTF-8 as escaped text) */
const NOT_IN_DATA_MODEL = ['undefined', 'invalid-utf8']

/**
 * Every rule an error can name. test/errors.spec.js checks the README's strictness tables
 * against it, and that an error's `relaxable` agrees with it. The errors below do not read it,
 * so a bundle that does not import it does not carry it. (Short phrases for reports live with
 * the CAR tool, car/lib/phrases.js.)
 * @satisfies {Readonly<Record<string, Rule>>}
 */
export const RULES = {
  truncated: { side: 'decode', relaxable: false },
  'trailing-bytes': { side: 'decode', relaxable: false },
  malformed: { side: 'decode', relaxable: false },
  'indefinite-length': { side: 'decode', relaxable: false },
  'non-shortest': { side: 'decode', relaxable: true },
  tag: { side: 'decode', relaxable: false },
  cid: { side: 'decode', relaxable: false },
  'simple-value': { side: 'decode', relaxable: false },
  undefined: { side: 'both', relaxable: true },
  'float-size': { side: 'decode', relaxable: true },
  'non-finite-float': { side: 'both', relaxable: false },
  'map-key-type': { side: 'both', relaxable: false },
  'map-key-order': { side: 'decode', relaxable: true },
  'duplicate-key': { side: 'decode', relaxable: false },
  'invalid-utf8': { side: 'decode', relaxable: true },
  depth: { side: 'both', relaxable: false },
  utf8: { side: 'encode', relaxable: false },
  circular: { side: 'encode', relaxable: false },
  type: { side: 'encode', relaxable: false },
  'integer-range': { side: 'encode', relaxable: false },
  'target-size': { side: 'encode', relaxable: false }
}

/** @typedef {keyof typeof RULES} RuleName - the name of a rule, as an error's `rule` gives it */

/**
 * `n` with its unit, singular or plural: count(1, 'byte') is '1 byte', count(3, 'byte') '3 bytes'.
 *
 * @param {number|bigint} n
 * @param {string} one
 * @param {string} [many]
 * @returns {string}
 */
export function count (n, one, many = one + 's') {
  return `${n} ${n === 1 ? one : many}`
}

/**
 * The detail of a 'truncated' error for a head whose length cannot fit in what is left:
 * 'map of 2 entries (at least 2 bytes each), only 3 bytes left'. (decode.js and validate.js
 * must say the same.)
 *
 * @param {number} major - the head's major type: 2 byte string, 3 text string, 4 array, 5 map
 * @param {number|bigint} n - the length it declares
 * @param {number} left - bytes left after the head
 * @returns {string}
 */
export function lengthPastEnd (major, n, left) {
  const what = major === 4
    ? `array of ${count(n, 'item')} (at least 1 byte each)`
    : major === 5
      ? `map of ${count(n, 'entry', 'entries')} (at least 2 bytes each)`
      : `${major === 2 ? 'byte' : 'text'} string of ${count(n, 'byte')}`
  return `${what}, only ${count(left, 'byte')} left`
}

/**
 * A type's name with its article, for messages: 'a string', 'an Int8Array'.
 *
 * @param {string} name
 * @returns {string}
 */
export function named (name) {
  return `${/^[aeiouAEIOU]/.test(name) ? 'an' : 'a'} ${name}`
}

class DagCborError extends Error {
  /**
   * @param {RuleName} rule - short code of the rule broken, e.g. 'map-key-order'
   * @param {string} detail - what was wrong
   */
  constructor (rule, detail) {
    super(detail)
    this.rule = rule
    this.detail = detail
    /** @type {Array<string|number>} innermost first, while the error unwinds */
    this.segments = []
    this.path = ''
    /** false when raised inside cborg's encode/decode (encodeOptions/decodeOptions), which
     * tell a hook neither the value path nor the byte offset */
    this.located = true
  }

  /**
   * Called once the error has unwound to the top: fix the path and the message.
   *
   * @returns {this}
   */
  finish () {
    let path = ''
    for (let i = this.segments.length - 1; i >= 0; i--) {
      path += '/' + String(this.segments[i]).replace(/~/g, '~0').replace(/\//g, '~1')
    }
    this.path = path
    // a 100,000-level path is kept whole in .path, shortened in the message
    const shown = path.length > 160 ? `${path.slice(0, 60)}…${path.slice(-60)}` : path
    // where: each subclass's words for its direction and place (a decoder's bundle does not
    // carry the encoder's)
    this.message = `${/** @type {any} */ (this).where(shown)}: ${this.detail} [rule: ${this.rule}]`
    return this
  }
}

export class DagCborEncodeError extends DagCborError {
  /**
   * @param {RuleName} rule - short code of the rule broken, e.g. 'undefined', 'circular'
   * @param {string} detail - what was wrong
   */
  constructor (rule, detail) {
    super(rule, detail)
    this.name = 'DagCborEncodeError'
  }

  /**
   * @param {string} path
   * @returns {string}
   */
  where (path) {
    // '/' is the path of the value at key '', so the value itself is named in words
    return `DAG-CBOR encode ${this.located ? `at ${path || 'the top level'}` : '(in cborg, no value path)'}`
  }
}

export class DagCborDecodeError extends DagCborError {
  /**
   * @param {RuleName} rule - short code of the rule broken, e.g. 'map-key-order'
   * @param {string} detail - what was wrong
   * @param {number} offset - byte offset in the input where it was found (-1: not known)
   */
  constructor (rule, detail, offset) {
    super(rule, detail)
    this.name = 'DagCborDecodeError'
    this.offset = offset
    /** whether `{ relaxed: true }` accepts it */
    this.relaxable = NOT_CANONICAL.includes(rule) || NOT_IN_DATA_MODEL.includes(rule)
  }

  /**
   * @param {string} path
   * @returns {string}
   */
  where (path) {
    const at = this.located ? `at byte ${this.offset}${path ? ` (${path})` : ''}` : '(in cborg, no byte offset)'
    return `DAG-CBOR decode ${at}` +
      (this.relaxable ? `, ${NOT_CANONICAL.includes(this.rule) ? 'not canonical' : 'not in the IPLD data model'} (decode(bytes, { relaxed: true }) reads it)` : '')
  }
}

/**
 * A decode error (decode.js, validate.js, head.js and the typed reader make theirs here).
 *
 * @param {RuleName} rule - whether relaxed mode lifts it is in RULES
 * @param {string} detail
 * @param {number} offset
 * @returns {DagCborDecodeError}
 */
export function decodeFail (rule, detail, offset) {
  return new DagCborDecodeError(rule, detail, offset)
}

/**
 * @param {number} at
 * @returns {DagCborDecodeError}
 */
export function truncated (at) {
  return decodeFail('truncated', 'unexpected end of input', at)
}

/**
 * A decode error unwinding out of a list or map gets that level's index or key (innermost first;
 * `finish` joins them into the path); any other error passes through as it is. Shared by decode.js
 * and validate.js, whose paths must be the same.
 *
 * @param {any} e
 * @param {string|number} segment
 * @returns {any}
 */
export function withDecodeSegment (e, segment) {
  if (e instanceof DagCborDecodeError) e.segments.push(segment)
  return e
}
