// Ahead of time: `toJavaScript(schema)` writes the source of a module with a reader for each struct
// of the schema, one function per type, that the program imports. Each reads its fields in order
// into locals and returns them as one object literal; where the closures of read.js store each field
// through one shared keyed store (one call site for every struct type), this code has a site of
// its own per field: monomorphic, and the object made in one allocation. Nothing is evaluated at
// run time: the module is plain code, so a page's Content-Security-Policy does not see it.
//
//   fs.writeFileSync('header-codec.js', toJavaScript(schema))
//   import { compileTyped } from './header-codec.js'
//   const BlockHeader = compileTyped('BlockHeader')   // same API as compile(schema, 'BlockHeader')

import { Compiler } from './compile.js'
import { codeOf } from './read.js'

/** the read expression for a field of each CODE (read.js) */
const READS = ['', 'R.readString()', 'R.readBytes()', 'R.readInt()', 'R.readLink()', 'R.readBool()', 'R.readFloat()', 'R.readAny()']

/**
 * The schema as a JavaScript expression: its JSON, unless a key is "__proto__", which in an object
 * literal would set the prototype (the key lost): then parsed from the JSON text, which keeps it.
 *
 * @param {unknown} schema
 * @returns {string}
 */
function schemaLiteral (schema) {
  const json = JSON.stringify(schema)
  return json.includes('"__proto__":') ? `JSON.parse(${JSON.stringify(json)})` : json
}

/**
 * @param {import('./read.js').StructField} f
 * @param {number} k
 * @returns {string}
 */
function readExpression (f, k) {
  const code = codeOf(f.node)
  const read = code !== 0 ? READS[code] : /** @type {any} */ (f.node).list !== undefined ? `L${k}()` : `F[${k}].node.read()`
  return f.nullable ? `(R.isNull() ? null : ${read})` : read
}

/**
 * The reader of list field k's items, a loop of its own (where the closures' list reader, shared
 * by every list type, calls each item's reader through one call site), as a function `L${k}` in
 * the struct reader's factory.
 *
 * @param {import('./read.js').StructField} f
 * @param {number} k
 * @returns {string}
 */
function listFunction (f, k) {
  const { item, nullable } = /** @type {any} */ (f.node).list
  const code = codeOf(item)
  const read = code !== 0 ? READS[code] : 'item.read()'
  // the item's node is taken when the list is read: a recursive item type's is not made yet when
  // this reader is
  return `${code !== 0 ? '' : `  const N${k} = F[${k}].node.list\n`}  function L${k} () {
    const n = R.listHead(${JSON.stringify(item.name)})${code !== 0 ? '' : `\n    const item = N${k}.item`}
    const list = R.building() ? (n <= 1024 ? new Array(n) : []) : null
    let i = 0
    try {
      for (; i < n; i++) {
        const v = ${nullable ? `(R.isNull() ? null : ${read})` : read}
        if (list !== null) list[i] = v
      }
    } catch (e) {
      throw R.itemError(e, i)
    }
    R.leave()
    return list
  }
`
}

/**
 * A struct reader's factory: \`(R, F) => function\`, with its list fields' readers before it.
 *
 * @param {import('./read.js').StructField[]} fields
 * @param {string} reader - the function's source
 * @param {boolean} [tuple] - a tuple struct's (all its fields are stored by a literal)
 * @returns {string}
 */
function factory (fields, reader, tuple = false) {
  const lists = fields.map((f, k) => f.fixed === null && codeOf(f.node) === 0 && /** @type {any} */ (f.node).list !== undefined ? listFunction(f, k) : '').join('') + (tuple ? '' : valueConstructor(fields))
  return lists === '' ? `(R, F) => ${reader}` : `(R, F) => {\n${lists}  return ${reader}\n}`
}

/**
 * The test that the key at pos is field k's (moving past it): a key of up to 8 bytes (head
 * included) compared to constants written here, a longer one by its bytes.
 *
 * @param {import('./read.js').StructField} f
 * @param {number} k
 * @returns {string}
 */
function keyTest (f, k) {
  const b = f.keyBytes
  if (b.length > 8) return `R.match(F[${k}].keyBytes)`
  const word = (/** @type {number} */ from) => ((b[from] ?? 0) << 24) | ((b[from + 1] ?? 0) << 16) | ((b[from + 2] ?? 0) << 8) | (b[from + 3] ?? 0)
  return `R.key(${b.length}, ${word(0)}, ${b.length > 4 ? word(4) : 0})`
}

/**
 * A field's key in an object literal; `__proto__` computed, as a literal's plain `__proto__:`
 * (quoted or not) sets the prototype rather than a property.
 *
 * @param {string} name
 * @returns {string}
 */
function prop (name) {
  if (name === '__proto__') return '["__proto__"]'
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name)
}

/**
 * The source of a module exporting `compileTyped(root)` (and `schema`, the DMT) for `schema`, with
 * a reader written out for each struct type.
 *
 * @param {{ types: Record<string, any> }} schema - the parsed schema (DMT)
 * @param {{ from?: string }} [options] - where the module imports compile from (default 'dag-cbor-fast/schema')
 * @returns {string}
 */
export function toJavaScript (schema, options) {
  const compiler = new Compiler(schema)
  let out = '// Generated by toJavaScript (dag-cbor-fast/schema) from an IPLD Schema: its struct readers,\n' +
    '// written out ahead of time. Regenerate it from the schema; do not edit.\n' +
    `import { compile } from ${JSON.stringify(options?.from ?? 'dag-cbor-fast/schema')}\n\n` +
    `export const schema = ${schemaLiteral(schema)}\n\n` +
    '/** @type {Record<string, (R: any, F: any[]) => () => any>} */\nconst readers = {\n'
  const entries = []
  for (const [name, defn] of Object.entries(schema.types)) {
    if (defn === null || typeof defn !== 'object') continue
    if ('struct' in defn) {
      const s = compiler.struct(name, defn.struct)
      entries.push(`  ${prop(name)}: ${factory(s.fields, s.tuple ? tupleReader(name, s.fields) : mapReader(name, s.fields), s.tuple)}`)
    }
    // an inline union's members, each read with the discriminant as one more field: `Union|Member`
    const inline = defn.union?.representation?.inline
    if (inline === null || typeof inline !== 'object' || typeof inline.discriminantKey !== 'string' || inline.discriminantTable === null || typeof inline.discriminantTable !== 'object') continue
    for (const [value, member] of Object.entries(inline.discriminantTable)) {
      const body = typeof member === 'string' && Object.prototype.hasOwnProperty.call(schema.types, member) ? schema.types[member]?.struct : undefined
      if (body === null || typeof body !== 'object') continue // compile refuses it
      const s = compiler.struct(member, body, { key: inline.discriminantKey, value })
      if (!s.tuple) entries.push(`  ${JSON.stringify(`${name}|${member}`)}: ${factory(s.fields, mapReader(member, s.fields))}`)
    }
  }
  out += entries.join(',\n') + '\n}\n\n' +
    '/**\n * The typed codec of `root`, as compile(schema, root) makes it, with the readers above.\n *\n' +
    ' * @param {string} root\n */\nexport function compileTyped (root) {\n  return compile(schema, root, { readers })\n}\n'
  return out
}

/**
 * @param {string} name
 * @param {import('./read.js').StructField[]} fields
 * @returns {string}
 */
function tupleReader (name, fields) {
  const n = fields.length
  const lines = fields.map((f, k) => `      const v${k} = ${readExpression(f, k)}; i++`)
  return `function read${ident(name)} () {
    R.tupleHead(${n}, ${JSON.stringify(name)})
    let i = 0
    try {
${lines.join('\n')}
      R.leave()
      return R.building() ? { ${fields.map((f, k) => `${prop(f.name)}: v${k}`).join(', ')} } : null
    } catch (e) {
      throw i < ${n} ? R.fieldError(e, F[i], i) : e
    }
  }`
}

/**
 * @param {string} name
 * @param {import('./read.js').StructField[]} fields - in canonical key order
 * @returns {string}
 */
function mapReader (name, fields) {
  // field k can be the next key read when j (the next field expected) is in minJ[k]..k: the
  // fields from j to k - 1 are all optional (skipped)
  const minJ = fields.map((_, k) => {
    let m = k
    while (m > 0 && !fields[m - 1].required) m--
    return m
  })
  // an inline union member's discriminant (fixed) is checked, not stored
  const cases = fields.map((f, k) => `${k === 0 ? '' : 'else '}if (${minJ[k] === k ? `j === ${k}` : `j >= ${minJ[k]} && j <= ${k}`} && ${keyTest(f, k)}) { k = ${k}; ${f.fixed !== null ? `R.fixedField(F[${k}])` : `v${k} = ${readExpression(f, k)}`}; j = ${k + 1} }`)
  const present = fields.map((f, k) => f.fixed !== null ? null : f.required ? `${prop(f.name)}: v${k}` : f.implicit !== undefined ? `${prop(f.name)}: v${k} === undefined ? F[${k}].implicit : v${k}` : null).filter((x) => x !== null)
  // an assignment to o.__proto__ would set the prototype: that field is defined instead
  const optional = fields.map((f, k) => !f.required && f.implicit === undefined
    ? `    if (v${k} !== undefined) ${f.name === '__proto__' ? `R.defineField(o, "__proto__", v${k})` : `o${prop(f.name) === f.name ? `.${f.name}` : `[${JSON.stringify(f.name)}]`} = v${k}`}`
    : null).filter((x) => x !== null)
  // every field required: a map of exactly that many entries holds them in this order, read in a
  // line (any other count takes the loop, which reports what is missing or unknown)
  const straight = fields.length > 0 && fields.every((f) => f.required)
    ? `      if (n === ${fields.length}) {
${fields.map((f, k) => `        k = -1
        if (!${keyTest(f, k)}) throw R.keyError(F, ${k}, R.pos(), ${JSON.stringify(name)}, ${k - 1})
        k = ${k}
        ${f.fixed !== null ? `R.fixedField(F[${k}])` : `v${k} = ${readExpression(f, k)}`}`).join('\n')}
        j = ${fields.length}
      } else `
    : ''
  const construct = valueConstructor(fields)
  const stored = fields.map((f, k) => f.fixed === null ? k : -1).filter((k) => k >= 0)
  return `function read${ident(name)} () {
    const n = R.mapHead(${JSON.stringify(name)})
    let j = 0
    let k = -1
    ${fields.map((_, k) => `let v${k}`).join('; ')}
    try {
${straight === '' ? '      ' : straight}for (let i = 0; i < n; i++) {
        const keyAt = R.pos()
        k = -1
        ${cases.join('\n        ')}
        ${cases.length ? 'else ' : ''}throw R.keyError(F, j, keyAt, ${JSON.stringify(name)}, i > 0 ? j - 1 : -1)
      }
      k = -1
      const missing = R.missingFrom(F, j, ${JSON.stringify(name)})
      if (missing !== null) throw missing
      R.leave()
    } catch (e) {
      throw k < 0 ? e : R.fieldError(e, F[k], null)
    }
    if (!R.building()) return null
${construct === '' ? `    const o = { ${present.join(', ')} }\n${optional.join('\n')}\n    return o` : `    return new V(${stored.map((k) => `v${k}`).join(', ')})`}
  }`
}

/**
 * The constructor of a struct's values when it has optional fields (absent ones are no property):
 * V8 gives the objects a constructor makes room for every \`this.x =\` its body holds, where an
 * object literal has room for its own keys only and the optional fields stored after it went to a
 * separate array. Plain objects all the same (prototype Object.prototype, named Object). '' when
 * a literal serves: no optional field, or a field named __proto__ (which \`this.__proto__ =\` would
 * not store).
 *
 * @param {import('./read.js').StructField[]} fields
 * @returns {string}
 */
function valueConstructor (fields) {
  const stored = fields.filter((f) => f.fixed === null)
  if (stored.every((f) => f.required || f.implicit !== undefined) || stored.some((f) => f.name === '__proto__')) return ''
  const args = fields.map((f, k) => f.fixed === null ? `v${k}` : null).filter((x) => x !== null)
  const set = (/** @type {string} */ name) => `this${prop(name) === name ? `.${name}` : `[${JSON.stringify(name)}]`}`
  const body = [
    ...fields.map((f, k) => f.fixed !== null || (!f.required && f.implicit === undefined) ? null : `${set(f.name)} = ${f.required ? `v${k}` : `v${k} === undefined ? F[${k}].implicit : v${k}`}`),
    ...fields.map((f, k) => f.fixed === null && !f.required && f.implicit === undefined ? `if (v${k} !== undefined) ${set(f.name)} = v${k}` : null)
  ].filter((x) => x !== null)
  return `  const V = ({ Object: function (${args.join(', ')}) {\n    ${body.join('\n    ')}\n  } }).Object
  V.prototype = Object.prototype
`
}

/**
 * @param {string} name
 * @returns {string}
 */
function ident (name) {
  return name.replace(/[^A-Za-z0-9_$]/g, '_')
}
