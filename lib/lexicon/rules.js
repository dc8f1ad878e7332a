// The rules a Lexicon adds to DAG-CBOR's, and the checks of a value against one field's
// constraints, shared by the reader (read.js) and the encoder's check (write.js): each check
// answers with the rule broken and what was wrong, or null.

/** The rules a Lexicon adds to DAG-CBOR's; an error names one as its `rule`. */
export const LEXICON_RULES = {
  'lexicon-kind': 'the value is of another kind than its field type (a string where an integer goes)',
  'lexicon-type': 'a $type that is missing, misplaced, or names another type than the one it must',
  'lexicon-required': 'a required property is absent',
  'lexicon-nullable': 'null where the property is not nullable',
  'lexicon-const': 'not the constant value of the field',
  'lexicon-enum': 'not one of the values of a closed enum',
  'lexicon-minimum': 'an integer below the minimum',
  'lexicon-maximum': 'an integer above the maximum',
  'lexicon-min-length': 'shorter than minLength (UTF-8 bytes of a string, bytes, array items)',
  'lexicon-max-length': 'longer than maxLength (UTF-8 bytes of a string, bytes, array items)',
  'lexicon-min-graphemes': 'fewer grapheme clusters than minGraphemes',
  'lexicon-max-graphemes': 'more grapheme clusters than maxGraphemes',
  'lexicon-format': 'a string that is not of its format (datetime, did, handle, ...)',
  'lexicon-blob': 'a blob that is not of the blob shape (or of the legacy one)',
  'lexicon-blob-accept': "a blob whose MIME type is none of the field's accept patterns",
  'lexicon-blob-size': "a blob larger than the field's maxSize",
  'lexicon-union': "a union value whose $type is none of a closed union's members",
  'lexicon-unknown': 'an unknown field that is not an object, or is a blob',
  'lexicon-float': 'a float: the AT Protocol data model has none'
}

/** @typedef {keyof typeof LEXICON_RULES} LexiconRule */
/** @typedef {[LexiconRule, string]|null} Problem */

/**
 * 2000 as '2,000', for messages.
 *
 * @param {number|bigint} n
 * @returns {string}
 */
export function thousands (n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/**
 * @param {number} n
 * @param {string} one
 * @returns {string}
 */
function units (n, one) {
  return `${thousands(n)} ${n === 1 ? one : one + 's'}`
}

/**
 * @param {unknown} v
 * @returns {string}
 */
function shown (v) {
  const s = typeof v === 'bigint' ? `${v}` : JSON.stringify(v)
  return s.length > 60 ? s.slice(0, 57) + '...' : s
}

/**
 * @param {import('./compile.js').IntegerNode} node
 * @param {number|bigint} v
 * @returns {Problem}
 */
export function integerProblem (node, v) {
  if (node.const !== undefined && v !== node.const) return ['lexicon-const', `${shown(v)} is not the constant ${node.const}`]
  if (node.enum !== null && !node.enum.includes(/** @type {number} */ (v))) return ['lexicon-enum', `${shown(v)} is not one of ${node.enum.join(', ')}`]
  if (node.minimum !== undefined && v < node.minimum) return ['lexicon-minimum', `${shown(v)} is below the minimum ${thousands(node.minimum)}`]
  if (node.maximum !== undefined && v > node.maximum) return ['lexicon-maximum', `${shown(v)} is above the maximum ${thousands(node.maximum)}`]
  return null
}

/** @type {Intl.Segmenter|null} */
let segmenter = null

/**
 * How many grapheme clusters `s` has (Intl.Segmenter's extended grapheme clusters).
 *
 * @param {string} s
 * @returns {number}
 */
export function graphemes (s) {
  if (segmenter === null) segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
  let n = 0
  for (const _ of segmenter.segment(s)) n++ // eslint-disable-line no-unused-vars
  return n
}

/**
 * Checks of a string field other than maxLength and minLength (which the reader checks on the
 * byte length before it decodes anything): const, enum, graphemes, format.
 *
 * @param {import('./compile.js').StringNode} node
 * @param {string} s
 * @returns {Problem}
 */
export function stringProblem (node, s) {
  if (node.const !== undefined && s !== node.const) return ['lexicon-const', `${shown(s)} is not the constant ${shown(node.const)}`]
  if (node.enum !== null && !node.enum.includes(s)) return ['lexicon-enum', `${shown(s)} is not one of ${node.enum.map(shown).join(', ')}`]
  // a string has at most as many grapheme clusters as UTF-16 code units, and at least one if it
  // is not empty: the segmenter runs only when those bounds do not settle it
  if (node.maxGraphemes !== undefined && s.length > node.maxGraphemes) {
    const n = graphemes(s)
    if (n > node.maxGraphemes) return ['lexicon-max-graphemes', `${units(n, 'grapheme')}, more than ${thousands(node.maxGraphemes)}`]
  }
  if (node.minGraphemes !== undefined && node.minGraphemes > (s.length === 0 ? 0 : 1)) {
    const n = graphemes(s)
    if (n < node.minGraphemes) return ['lexicon-min-graphemes', `${units(n, 'grapheme')}, fewer than ${thousands(node.minGraphemes)}`]
  }
  if (node.format !== null && !node.format(s)) return ['lexicon-format', `${shown(s)} is not a valid ${node.formatName}`]
  return null
}

/**
 * A length (UTF-8 bytes of a string, bytes, array items) against minLength and maxLength.
 *
 * @param {{ minLength?: number, maxLength?: number }} node
 * @param {number} n
 * @param {string} unit - 'byte' or 'item'
 * @returns {Problem}
 */
export function lengthProblem (node, n, unit) {
  if (node.maxLength !== undefined && n > node.maxLength) return ['lexicon-max-length', `longer than ${units(node.maxLength, unit)} (${thousands(n)})`]
  if (node.minLength !== undefined && n < node.minLength) return ['lexicon-min-length', `shorter than ${units(node.minLength, unit)} (${thousands(n)})`]
  return null
}

/**
 * A blob's MIME type and size against the field's accept and maxSize (size undefined: a legacy
 * blob, which has none).
 *
 * @param {import('./compile.js').BlobNode} node
 * @param {string} mimeType
 * @param {number|undefined} size
 * @returns {Problem}
 */
export function blobProblem (node, mimeType, size) {
  // a type listed as it is (the usual case) settles it with no callback made
  if (node.accept !== null && !node.accept.includes(mimeType) && !node.accept.some((pattern) => pattern === '*/*' || (pattern.endsWith('/*') && mimeType.startsWith(pattern.slice(0, -1))))) {
    return ['lexicon-blob-accept', `MIME type ${shown(mimeType)} is not accepted (${node.accept.join(', ')})`]
  }
  if (node.maxSize !== undefined && size !== undefined && size > node.maxSize) return ['lexicon-blob-size', `${units(size, 'byte')}, more than the maxSize ${thousands(node.maxSize)}`]
  return null
}

/**
 * The shape of a blob's fields (both forms): `$type` 'blob' with `ref` (a link), `mimeType` (not
 * empty) and `size` (a positive integer); or the legacy `cid` (a CID string) and `mimeType`.
 *
 * @param {Record<string, unknown>} fields - the fields read (undefined when absent)
 * @param {boolean} isLink - whether `ref` is a link
 * @param {(s: string) => boolean} isCid
 * @returns {Problem}
 */
export function blobShapeProblem (fields, isLink, isCid) {
  const { $type, ref, mimeType, size, cid } = fields
  if (typeof mimeType !== 'string' || mimeType === '') return ['lexicon-blob', `a blob's mimeType is a non-empty string${mimeType === undefined ? ', and it is absent' : ''}`]
  if ($type === undefined) {
    if (ref !== undefined || size !== undefined) return ['lexicon-blob', 'a blob with ref or size needs "$type": "blob"']
    if (typeof cid !== 'string' || !isCid(cid)) return ['lexicon-blob', `a legacy blob (no $type) has "cid", a CID string, and "mimeType"${cid === undefined ? '; cid is absent' : `; ${shown(cid)} is not a CID`}`]
    return null
  }
  if ($type !== 'blob') return ['lexicon-blob', `a blob's $type is "blob", not ${shown($type)}`]
  if (cid !== undefined) return ['lexicon-blob', 'a blob has "ref", not the legacy "cid", beside "$type": "blob"']
  if (!isLink) return ['lexicon-blob', `a blob's ref is a link (tag 42)${ref === undefined ? ', and it is absent' : ''}`]
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 1) return ['lexicon-blob', `a blob's size is a positive integer${size === undefined ? ', and it is absent' : `, not ${shown(size)}`}`]
  return null
}
