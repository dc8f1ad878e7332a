// The nodes the reader (read.js) and the encoder's check (write.js) walk, one maker per field
// type. compile.js makes them from checked documents; a module toJavaScript wrote (aot.js) makes
// them by calling these with the constraints written out, so both give nodes of the same shapes.
// Each maker takes only the constraints the checks use (a definition's other keys are ignored).

/**
 * DAG-CBOR's map key order: shorter first, then bytewise.
 *
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 * @returns {number}
 */
function compareKeys (a, b) {
  if (a.length !== b.length) return a.length - b.length
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return 0
}

const utf8 = new TextEncoder()

/**
 * The UTF-8 of `text` as little-endian 32-bit words (the last one padded with zeros), which the
 * reader compares with a key's or a `$type`'s bytes four at a time (read.js, sameWords).
 *
 * @param {string} text
 * @returns {Int32Array}
 */
function wordsOf (text) {
  const bytes = utf8.encode(text)
  const words = new Int32Array((bytes.length + 3) >> 2)
  for (let i = 0; i < bytes.length; i++) words[i >> 2] |= bytes[i] << (8 * (i & 3))
  return words
}

/** @returns {import('./compile.js').NullNode} */
export function nullNode () {
  return { kind: 'null' }
}

/**
 * @param {{ const?: boolean }} def
 * @returns {import('./compile.js').BooleanNode}
 */
export function booleanNode (def) {
  return { kind: 'boolean', const: def.const }
}

/**
 * @param {{ const?: number, enum?: number[], minimum?: number, maximum?: number }} def
 * @returns {import('./compile.js').IntegerNode}
 */
export function integerNode (def) {
  return { kind: 'integer', const: def.const, enum: def.enum ?? null, minimum: def.minimum, maximum: def.maximum }
}

/**
 * @typedef {object} StringDef
 * @property {string} [const]
 * @property {string[]} [enum]
 * @property {number} [minLength]
 * @property {number} [maxLength]
 * @property {number} [minGraphemes]
 * @property {number} [maxGraphemes]
 * @property {string} [format]
 */

/**
 * @param {StringDef} def
 * @param {((s: string) => boolean)|null} [format] - the checker of def.format (formats.js)
 * @param {((src: Uint8Array, start: number, n: number) => boolean)|null} [formatBytes] - its
 *   check on the UTF-8 (format-bytes.js), if it has one; used only when the format is the
 *   string's only check that needs the text
 * @returns {import('./compile.js').StringNode}
 */
export function stringNode (def, format = null, formatBytes = null) {
  const countsOnly = format === null && def.const === undefined && def.enum === undefined
  const plain = countsOnly && def.minGraphemes === undefined && def.maxGraphemes === undefined
  const formatOnly = def.const === undefined && def.enum === undefined && def.minGraphemes === undefined && def.maxGraphemes === undefined
  return { kind: 'string', const: def.const, enum: def.enum ?? null, minLength: def.minLength, maxLength: def.maxLength, minGraphemes: def.minGraphemes, maxGraphemes: def.maxGraphemes, format, formatName: def.format ?? '', plain, countsOnly, formatBytes: !formatOnly || def.format === undefined ? null : formatBytes }
}

/**
 * @param {{ minLength?: number, maxLength?: number }} def
 * @returns {import('./compile.js').BytesNode}
 */
export function bytesNode (def) {
  return { kind: 'bytes', minLength: def.minLength, maxLength: def.maxLength }
}

/** @returns {import('./compile.js').LinkNode} */
export function linkNode () {
  return { kind: 'cid-link' }
}

/**
 * @param {{ accept?: string[], maxSize?: number }} def
 * @returns {import('./compile.js').BlobNode}
 */
export function blobNode (def) {
  return { kind: 'blob', accept: def.accept ?? null, maxSize: def.maxSize }
}

/**
 * @param {import('./compile.js').Node} items
 * @param {{ minLength?: number, maxLength?: number }} [def]
 * @returns {import('./compile.js').ArrayNode}
 */
export function arrayNode (items, def = {}) {
  return { kind: 'array', items, minLength: def.minLength, maxLength: def.maxLength }
}

/**
 * An object, its properties set later (setProperties): a property may refer back to it.
 *
 * @param {string} name - the definition's full name ('app.bsky.embed.images#image'), '' inline
 * @param {string|null} [recordType] - a record's NSID
 * @returns {import('./compile.js').ObjectNode}
 */
export function objectNode (name, recordType = null) {
  return { kind: 'object', name, nameBytes: utf8.encode(name), nameWords: wordsOf(name), recordType, properties: new Map(), required: [], keys: [] }
}

/** a property's flags in setProperties: */
export const REQUIRED = 1
export const NULLABLE = 2

/**
 * @param {import('./compile.js').ObjectNode} node
 * @param {Array<[string, import('./compile.js').Node, number?]>} properties - each name, node and
 *   flags (REQUIRED | NULLABLE; left out, none), in the definition's order
 */
export function setProperties (node, properties) {
  for (const [name, field, flags = 0] of properties) {
    /** @type {import('./compile.js').Property} */
    // REQUIRED and NULLABLE as numbers: a bundler does not inline exported constants
    const p = { name, node: field, required: (flags & 1) !== 0, nullable: (flags & 2) !== 0, seen: 0 }
    node.properties.set(name, p)
    if (p.required) node.required.push(p)
  }
  /** @type {import('./compile.js').Key[]} */
  const keys = [...node.properties.values()].map((p) => ({ bytes: utf8.encode(p.name), words: wordsOf(p.name), name: p.name, property: p }))
  if (!node.properties.has('$type')) keys.push({ bytes: utf8.encode('$type'), words: wordsOf('$type'), name: '$type', property: null })
  node.keys = keys.sort((a, b) => compareKeys(a.bytes, b.bytes))
}

/**
 * @param {boolean} closed
 * @param {import('./compile.js').ObjectNode[]} members - each named by its full name
 * @returns {import('./compile.js').UnionNode}
 */
export function unionNode (closed, members) {
  /** @type {import('./compile.js').UnionNode} */
  const node = { kind: 'union', closed, members: new Map(), names: [] }
  for (const member of members) {
    node.members.set(member.name, member)
    node.names.push(member.name)
  }
  return node
}

/** @returns {import('./compile.js').UnknownNode} */
export function unknownNode () {
  return { kind: 'unknown' }
}
