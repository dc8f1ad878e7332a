// Errors carry the rule they enforce, so callers (the CAR tool, tests) can classify
// without parsing messages. Decode errors name the byte offset and value path; encode
// errors name the value path. Paths are JSON-pointer style ('/links/3/name').

/**
 * Escape one path segment the JSON-pointer way, so a key holding '/' stays readable.
 *
 * @param {string|number} segment
 * @returns {string}
 */
function escapeSegment (segment) {
  return typeof segment === 'number' ? String(segment) : segment.replace(/~/g, '~0').replace(/\//g, '~1')
}

/**
 * A path short enough for a message (the error's .path keeps all of it).
 *
 * @param {string} path
 * @returns {string}
 */
function shortPath (path) {
  return path.length > 160 ? `${path.slice(0, 60)}…(${path.length - 120} chars)…${path.slice(-60)}` : path
}

/**
 * @param {Array<string|number>} reversed - segments collected innermost first
 * @returns {string}
 */
function joinPath (reversed) {
  let path = ''
  for (let i = reversed.length - 1; i >= 0; i--) path += '/' + escapeSegment(reversed[i])
  return path
}

export class DagCborDecodeError extends Error {
  /**
   * @param {string} rule - short code of the rule broken, e.g. 'map-key-order'
   * @param {string} detail - what was wrong
   * @param {number} offset - byte offset in the input where it was found
   * @param {boolean} relaxable - whether `{ relaxed: true }` accepts it
   */
  constructor (rule, detail, offset, relaxable) {
    super(detail)
    this.name = 'DagCborDecodeError'
    this.rule = rule
    this.detail = detail
    this.offset = offset
    this.relaxable = relaxable
    /** @type {Array<string|number>} innermost first, while the error unwinds */
    this.segments = []
    this.path = ''
  }

  /**
   * Called once the error has unwound to the top: fix the path and the full message.
   *
   * @returns {this}
   */
  finish () {
    this.path = joinPath(this.segments)
    this.message = `DAG-CBOR decode: ${this.detail} [rule: ${this.rule}] at byte ${this.offset}` +
      (this.path ? `, value path ${shortPath(this.path)}` : '') +
      (this.relaxable ? '; decode(bytes, { relaxed: true }) reads it, but the block is not canonical DAG-CBOR' : '')
    return this
  }
}

export class DagCborEncodeError extends Error {
  /**
   * @param {string} rule - short code of the rule, e.g. 'undefined', 'circular'
   * @param {string} detail - what was wrong
   */
  constructor (rule, detail) {
    super(detail)
    this.name = 'DagCborEncodeError'
    this.rule = rule
    this.detail = detail
    /** @type {Array<string|number>} innermost first, while the error unwinds */
    this.segments = []
    this.path = ''
  }

  /**
   * @returns {this}
   */
  finish () {
    this.path = joinPath(this.segments)
    this.message = `DAG-CBOR encode: ${this.detail} [rule: ${this.rule}] at ${shortPath(this.path) || '/ (the top-level value)'}`
    return this
  }
}
