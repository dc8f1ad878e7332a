// Errors of the typed codec (lib/schema/): the codec's own error classes, DagCborDecodeError and
// DagCborEncodeError, with the schema's rules added (`rule` names one of SCHEMA_RULES, or one of
// errors.js's RULES for what generic decode and encode reject too), and the type path: the root
// type's name, then each struct field's name, list index and map key on the way to the value
// that broke the rule ('BlockHeader.Ticket.VRFProof', 'BlockHeader.Parents[2]').

import { DagCborDecodeError, DagCborEncodeError } from '../errors.js'

/** The rules a schema adds to DAG-CBOR's; each error names one as its `rule`. */
export const SCHEMA_RULES = {
  /** the value is not of the kind its type needs (a string where an Int goes, a list for a map struct) */
  'schema-kind': 'the value is of another kind than its type',
  /** a required struct field is absent */
  'schema-missing-field': 'a required struct field is absent',
  /** a map struct holds a key that is none of its fields' */
  'schema-unknown-field': 'a key that is not a field of the struct',
  /** a tuple struct's list has another length than its field count */
  'schema-tuple-length': 'a tuple struct of the wrong length',
  /** a union's discriminant (key, kind or inline value) names none of its members */
  'schema-union': 'no member of the union matches',
  /** a value that is none of an enum's members */
  'schema-enum': 'not a member of the enum'
}

/** @typedef {keyof typeof SCHEMA_RULES} SchemaRule */

/**
 * @param {SchemaRule|import('../errors.js').RuleName} rule
 * @param {string} detail
 * @param {number} offset
 * @returns {DagCborDecodeError}
 */
export function decodeFail (rule, detail, offset) {
  return new DagCborDecodeError(/** @type {import('../errors.js').RuleName} */ (rule), detail, offset)
}

/**
 * @param {SchemaRule|import('../errors.js').RuleName} rule
 * @param {string} detail
 * @returns {DagCborEncodeError}
 */
export function encodeFail (rule, detail) {
  return new DagCborEncodeError(/** @type {import('../errors.js').RuleName} */ (rule), detail)
}

/**
 * An error unwinding out of a container gets that level's data segment (a representation key or
 * list index, as generic decode and encode give: the JSON-pointer `path`) and its type segment
 * (a field name, index or key: the `typePath`), innermost first. Other errors pass through.
 *
 * @param {any} e
 * @param {string|number|null} data - null: this level has no place in the data (a kinded union)
 * @param {string} type - '.Name', '[3]', '["key"]' or '(Member)'
 * @returns {any}
 */
export function withSegments (e, data, type) {
  if (e instanceof DagCborDecodeError || e instanceof DagCborEncodeError) {
    if (data !== null) e.segments.push(data)
    const t = /** @type {any} */ (e)
    if (t.typeSegments === undefined) t.typeSegments = []
    t.typeSegments.push(type)
  }
  return e
}

/**
 * Finish an error at the top: the codec's `finish` (path and message), then the type path,
 * put into the message after where the error is.
 *
 * @template {DagCborDecodeError|DagCborEncodeError} E
 * @param {E} e
 * @param {string} root - the root type's name
 * @returns {E}
 */
export function finishTyped (e, root) {
  e.finish()
  const t = /** @type {any} */ (e)
  let typePath = root
  const segments = t.typeSegments || []
  for (let i = segments.length - 1; i >= 0; i--) typePath += segments[i]
  t.typePath = typePath
  const tail = `: ${e.detail} [rule: ${e.rule}]`
  e.message = `${e.message.slice(0, e.message.length - tail.length)} in ${typePath.length > 160 ? `${typePath.slice(0, 60)}…${typePath.slice(-60)}` : typePath}${tail}`
  return e
}

/**
 * A field or key as a type-path segment: '.name' when it is a plain name, else '["..."]'.
 *
 * @param {string} name
 * @returns {string}
 */
export function fieldSegment (name) {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? '.' + name : `[${JSON.stringify(name)}]`
}
