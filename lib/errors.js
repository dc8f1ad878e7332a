// Errors carry the rule they enforce (`rule`), so callers such as the CAR tool can classify
// without parsing messages, and where: the value path (JSON-pointer style, '/links/3/name'),
// and for decoding the byte offset. The path is collected while the error unwinds, then
// `finish` writes the message.

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
    return `DAG-CBOR encode at ${path || '/'}`
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
   * @param {number} offset - byte offset in the input where it was found
   * @param {boolean} relaxable - whether `{ relaxed: true }` accepts it
   */
  constructor (rule, detail, offset, relaxable) {
    super(rule, detail)
    this.name = 'DagCborDecodeError'
    this.offset = offset
    this.relaxable = relaxable
  }

  /**
   * @param {string} path
   * @returns {string}
   */
  where (path) {
    return `DAG-CBOR decode at byte ${this.offset}${path ? ` (${path})` : ''}` +
      (this.relaxable ? ', not canonical (decode(bytes, { relaxed: true }) reads it)' : '')
  }
}
