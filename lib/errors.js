// Errors carry the rule they enforce (`rule`), so callers such as the CAR tool can classify
// without parsing messages, and where: the value path (JSON-pointer style, '/links/3/name'),
// and for decoding the byte offset. The path is collected while the error unwinds, then
// `finish` writes the message.

/**
 * @typedef {object} Rule
 * @property {'decode'|'encode'|'both'} side - which direction enforces it
 * @property {string} phrase - a few words for reports (the CAR tool's summary)
 * @property {boolean} relaxable - decode only: `{ relaxed: true }` accepts what this rule rejects
 */

/**
 * Every rule an error can name: the one place that says which decode rules the relaxed mode
 * lifts. test/errors.spec.js checks the README's strictness table against it.
 * @type {Readonly<Record<string, Rule>>}
 */
export const RULES = {
  truncated: { side: 'decode', phrase: 'truncated data', relaxable: false },
  'trailing-bytes': { side: 'decode', phrase: 'trailing bytes after the value', relaxable: false },
  malformed: { side: 'decode', phrase: 'malformed CBOR', relaxable: false },
  'indefinite-length': { side: 'decode', phrase: 'indefinite-length item', relaxable: false },
  'non-shortest': { side: 'decode', phrase: 'integer or length not in shortest form', relaxable: true },
  tag: { side: 'decode', phrase: 'unsupported tag', relaxable: false },
  cid: { side: 'decode', phrase: 'malformed CID (tag 42)', relaxable: false },
  'simple-value': { side: 'decode', phrase: 'unsupported simple value', relaxable: false },
  undefined: { side: 'both', phrase: 'undefined value', relaxable: true },
  'float-size': { side: 'decode', phrase: 'float not encoded as 64-bit', relaxable: true },
  'non-finite-float': { side: 'both', phrase: 'NaN or Infinity', relaxable: false },
  'map-key-type': { side: 'both', phrase: 'non-string map key', relaxable: false },
  'map-key-order': { side: 'decode', phrase: 'keys out of order', relaxable: true },
  'duplicate-key': { side: 'decode', phrase: 'duplicate map key', relaxable: false },
  'invalid-utf8': { side: 'decode', phrase: 'invalid UTF-8 in a text string', relaxable: true },
  depth: { side: 'both', phrase: 'nesting too deep', relaxable: false },
  utf8: { side: 'encode', phrase: 'string with a lone surrogate (no UTF-8 form)', relaxable: false },
  circular: { side: 'encode', phrase: 'circular reference', relaxable: false },
  type: { side: 'encode', phrase: 'value not in the IPLD data model', relaxable: false },
  'integer-range': { side: 'encode', phrase: 'integer outside -2^64..2^64-1', relaxable: false },
  'target-size': { side: 'encode', phrase: 'encodeInto target too small', relaxable: false }
}

class DagCborError extends Error {
  /**
   * @param {string} rule - short code of the rule broken, e.g. 'map-key-order'
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
    this.message = `${this.where(shown)}: ${this.detail} [rule: ${this.rule}]`
    return this
  }

  /**
   * @param {string} path
   * @returns {string}
   */
  where (path) {
    return this.located ? `DAG-CBOR encode at ${path || '/'}` : 'DAG-CBOR encode (in cborg, no value path)'
  }
}

export class DagCborEncodeError extends DagCborError {
  /**
   * @param {string} rule - short code of the rule broken, e.g. 'undefined', 'circular'
   * @param {string} detail - what was wrong
   */
  constructor (rule, detail) {
    super(rule, detail)
    this.name = 'DagCborEncodeError'
  }
}

export class DagCborDecodeError extends DagCborError {
  /**
   * @param {string} rule - short code of the rule broken, e.g. 'map-key-order'
   * @param {string} detail - what was wrong
   * @param {number} offset - byte offset in the input where it was found (-1: not known)
   */
  constructor (rule, detail, offset) {
    super(rule, detail)
    this.name = 'DagCborDecodeError'
    this.offset = offset
    /** whether `{ relaxed: true }` accepts it */
    this.relaxable = RULES[rule]?.relaxable === true
  }

  /**
   * @param {string} path
   * @returns {string}
   */
  where (path) {
    const at = this.located ? `at byte ${this.offset}${path ? ` (${path})` : ''}` : '(in cborg, no byte offset)'
    return `DAG-CBOR decode ${at}` +
      (this.relaxable ? ', not canonical (decode(bytes, { relaxed: true }) reads it)' : '')
  }
}
