// Ahead of time: `toJavaScript(documents, { records })` writes the source of a module with the
// codecs of the record types named, their definitions checked and resolved now: the module
// holds only the nodes those records reach (compile.js's, written out as calls to the makers of
// nodes.js) and imports dag-cbor-fast/lexicon/runtime, which has the reader and the encoder's
// check but no document checker or compiler, and only the format checkers its strings name.
// The module is plain code: nothing is evaluated at run time (a page's Content-Security-Policy
// does not see it).
//
//   fs.writeFileSync('post-lexicon.js', toJavaScript(documents, { records: ['app.bsky.feed.post'] }))
//   import { decode } from './post-lexicon.js'
//   decode('app.bsky.feed.post', bytes)   // what compile(documents).record(nsid).decode gives

import { loadDocuments } from './documents.js'
import { Compiler } from './compile.js'
import * as runtime from './runtime.js'

/**
 * @typedef {object} ToJavaScriptOptions
 * @property {string[]} [records] - the NSIDs of the record types to write (default: every record
 *   type the documents define)
 * @property {string} [from] - where the module imports the runtime from (default
 *   'dag-cbor-fast/lexicon/runtime')
 */

/**
 * An object literal of the constraints that are set (undefined and null left out).
 *
 * @param {Record<string, unknown>} constraints
 * @returns {string}
 */
function literal (constraints) {
  return JSON.stringify(Object.fromEntries(Object.entries(constraints).filter(([, v]) => v !== undefined && v !== null)))
}

/**
 * A variable's name for a definition's full name ('app.bsky.embed.images#image' is
 * appBskyEmbedImagesImage).
 *
 * @param {string} fullName
 * @returns {string}
 */
function camel (fullName) {
  const name = fullName.split(/[^A-Za-z0-9]+/).filter(Boolean).map((s, i) => i === 0 ? s : s[0].toUpperCase() + s.slice(1)).join('')
  return /^[A-Za-z_$]/.test(name) ? name : `_${name}`
}

/**
 * The source of a module exporting the codecs of the record types `options.records` (all those
 * the documents define when left out): `records` (their NSIDs), `record(nsid)` (the codec, as
 * compile(documents).record(nsid) gives it), and `decode(nsid, bytes, options)`,
 * `validate(nsid, bytes, options)` and `encode(nsid, value)`, which a bundler keeps apart (a
 * program that only decodes carries no encoder).
 *
 * @param {unknown[]} documents - Lexicon documents, as compile takes them (checked as it checks them)
 * @param {ToJavaScriptOptions} [options]
 * @returns {string}
 */
export function toJavaScript (documents, options) {
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) throw new TypeError('dag-cbor-fast/lexicon: toJavaScript: options must be an object (or left out)')
  for (const key of Object.keys(options ?? {})) {
    if (key !== 'records' && key !== 'from') throw new TypeError(`dag-cbor-fast/lexicon: toJavaScript: unknown option ${JSON.stringify(key)} (its options: records, from)`)
  }
  const from = options?.from ?? 'dag-cbor-fast/lexicon/runtime'
  if (typeof from !== 'string') throw new TypeError('dag-cbor-fast/lexicon: toJavaScript: options.from must be a module specifier (a string)')
  const compiler = new Compiler(loadDocuments(documents))
  const nsids = options?.records ?? compiler.records()
  if (!Array.isArray(nsids) || nsids.length === 0 || nsids.some((n) => typeof n !== 'string')) throw new TypeError('dag-cbor-fast/lexicon: toJavaScript: options.records must be a non-empty array of record types\' NSIDs')
  const roots = [...new Set(nsids)].map((nsid) => compiler.record(nsid))
  return new Writer(from).module(roots)
}

/** the names of the runtime's exports, by the function they are (the format checkers) */
/** @type {Map<unknown, string>} */
const EXPORTED = new Map(Object.entries(runtime).filter(([, v]) => typeof v === 'function').map(([name, v]) => [v, name]))

class Writer {
  /** @param {string} from */
  constructor (from) {
    this.from = from
    /** @type {Set<string>} the runtime's exports the module uses */
    this.imports = new Set()
    /** @type {Map<import('./compile.js').Node, number>} how often each node is reached */
    this.reached = new Map()
    /** @type {import('./compile.js').ObjectNode[]} in the order first reached */
    this.objects = []
    /** @type {Map<import('./compile.js').Node, string>} the variable of each object and shared node */
    this.names = new Map()
    /** @type {Set<string>} the module's own names and every name it may import */
    this.used = new Set(['nodes', 'records', 'record', 'decode', 'validate', 'encode', ...Object.keys(runtime)])
    /** @type {string[]} the shared nodes' declarations, each after those it uses */
    this.shared = []
  }

  /**
   * A runtime export the module uses, by its name.
   *
   * @param {string} name
   * @returns {string}
   */
  use (name) {
    this.imports.add(name)
    return name
  }

  /**
   * @param {string} wanted
   * @returns {string} a variable name not used yet
   */
  fresh (wanted) {
    let name = wanted
    for (let i = 2; this.used.has(name); i++) name = `${wanted}_${i}`
    this.used.add(name)
    return name
  }

  /** @param {import('./compile.js').Node} node */
  reach (node) {
    const times = this.reached.get(node) ?? 0
    this.reached.set(node, times + 1)
    if (times > 0) return
    if (node.kind === 'object') {
      this.objects.push(node)
      this.names.set(node, this.fresh(node.name === '' ? 'inline' : camel(node.name)))
      for (const p of node.properties.values()) this.reach(p.node)
    } else if (node.kind === 'array') this.reach(node.items)
    else if (node.kind === 'union') for (const member of node.members.values()) this.reach(member)
  }

  /**
   * The expression of `node`: its variable, or its maker's call.
   *
   * @param {import('./compile.js').Node} node
   * @returns {string}
   */
  expression (node) {
    const name = this.names.get(node)
    if (name !== undefined) return name
    if (/** @type {number} */ (this.reached.get(node)) > 1) {
      // a definition reached from several places: made once, as compile makes it
      const made = this.make(node)
      const shared = this.fresh('shared')
      this.shared.push(`const ${shared} = ${made}`)
      this.names.set(node, shared)
      return shared
    }
    return this.make(node)
  }

  /**
   * @param {import('./compile.js').Node} node - not an object
   * @returns {string}
   */
  make (node) {
    switch (node.kind) {
      case 'null': return `${this.use('nullNode')}()`
      case 'boolean': return `${this.use('booleanNode')}(${literal({ const: node.const })})`
      case 'integer': return `${this.use('integerNode')}(${literal({ const: node.const, enum: node.enum, minimum: node.minimum, maximum: node.maximum })})`
      case 'string': {
        const def = literal({ const: node.const, enum: node.enum, minLength: node.minLength, maxLength: node.maxLength, minGraphemes: node.minGraphemes, maxGraphemes: node.maxGraphemes, format: node.formatName || undefined })
        // the checkers, when the string has a format (stringNode takes none as null)
        return `${this.use('stringNode')}(${def}${node.format === null ? '' : `, ${this.checker(node.format)}, ${this.checker(node.formatBytes)}`})`
      }
      case 'bytes': return `${this.use('bytesNode')}(${literal({ minLength: node.minLength, maxLength: node.maxLength })})`
      case 'cid-link': return `${this.use('linkNode')}()`
      case 'blob': return `${this.use('blobNode')}(${literal({ accept: node.accept, maxSize: node.maxSize })})`
      case 'array': {
        const def = literal({ minLength: node.minLength, maxLength: node.maxLength })
        return `${this.use('arrayNode')}(${this.expression(node.items)}${def === '{}' ? '' : `, ${def}`})`
      }
      case 'union': {
        for (const [name, member] of node.members) if (member.name !== name) throw new Error(`dag-cbor-fast/lexicon: toJavaScript: the union member ${name} is named ${member.name} (a bug: please report it)`)
        return `${this.use('unionNode')}(${node.closed}, [${[...node.members.values()].map((m) => this.expression(m)).join(', ')}])`
      }
      case 'unknown': return `${this.use('unknownNode')}()`
      default: throw new Error(`dag-cbor-fast/lexicon: toJavaScript: a node of kind ${node.kind} (a bug: please report it)`)
    }
  }

  /**
   * @param {Function|null} checker - a format checker of formats.js or format-bytes.js
   * @returns {string}
   */
  checker (checker) {
    if (checker === null) return 'null'
    const name = EXPORTED.get(checker)
    if (name === undefined) throw new Error(`dag-cbor-fast/lexicon: toJavaScript: the format checker ${checker.name} is not exported by dag-cbor-fast/lexicon/runtime (a bug: please report it)`)
    return this.use(name)
  }

  /**
   * @param {import('./compile.js').ObjectNode[]} roots
   * @returns {string}
   */
  module (roots) {
    for (const root of roots) this.reach(root)
    const declarations = this.objects.map((o) => `const ${this.names.get(o)} = ${this.use('objectNode')}(${JSON.stringify(o.name)}${o.recordType === null ? '' : `, ${JSON.stringify(o.recordType)}`})`)
    const fills = this.objects.map((o) => {
      const properties = [...o.properties.values()].map((p) => {
        const flags = (p.required ? runtime.REQUIRED : 0) | (p.nullable ? runtime.NULLABLE : 0)
        return `  [${JSON.stringify(p.name)}, ${this.expression(p.node)}${flags === 0 ? '' : `, ${flags}`}]`
      })
      return `${this.use('setProperties')}(${this.names.get(o)}, [${properties.length ? `\n${properties.join(',\n')}\n` : ''}])`
    })
    const nsids = roots.map((r) => /** @type {string} */ (r.recordType))
    this.use('recordNode')
    const imported = [...this.imports, 'recordCodec', 'decodeRecord', 'validateRecord', 'encodeRecord']
    return '// Generated by toJavaScript (dag-cbor-fast/lexicon) from Lexicon documents: the codecs of\n' +
      `// ${nsids.join(', ')}, their definitions checked and resolved ahead of time.\n` +
      '// Regenerate it from the documents; do not edit.\n' +
      `import { ${imported.join(', ')} } from ${JSON.stringify(this.from)}\n\n` +
      '// each object first, its properties set below (a property may refer back to an object);\n' +
      '// a property\'s flags: 1 required, 2 nullable (none when left out)\n' +
      declarations.join('\n') + '\n' +
      (this.shared.length ? this.shared.join('\n') + '\n' : '') +
      fills.join('\n') + '\n\n' +
      `const nodes = new Map([${roots.map((r) => `[${JSON.stringify(r.recordType)}, ${this.names.get(r)}]`).join(', ')}])\n\n` +
      '/** the record types of this module (their NSIDs) */\n' +
      `export const records = ${JSON.stringify(nsids)}\n\n` +
      '/**\n * The codec of record type `nsid`, as compile(documents).record(nsid) gives it.\n *\n * @param {string} nsid\n */\n' +
      'export function record (nsid) {\n  return recordCodec(recordNode(nodes, nsid))\n}\n\n' +
      '/**\n * A record of type `nsid` read from `bytes`, every rule of its Lexicon checked as it is read.\n *\n' +
      ' * @param {string} nsid\n * @param {Uint8Array|ArrayBuffer|ArrayBufferView} bytes\n * @param {{ maxDepth?: number }} [options]\n */\n' +
      'export function decode (nsid, bytes, options) {\n  return decodeRecord(recordNode(nodes, nsid), bytes, options)\n}\n\n' +
      '/**\n * What decode checks, building nothing.\n *\n' +
      ' * @param {string} nsid\n * @param {Uint8Array|ArrayBuffer|ArrayBufferView} bytes\n * @param {{ maxDepth?: number }} [options]\n */\n' +
      'export function validate (nsid, bytes, options) {\n  validateRecord(recordNode(nodes, nsid), bytes, options)\n}\n\n' +
      '/**\n * Canonical DAG-CBOR of a record of type `nsid`, checked against its Lexicon first.\n *\n' +
      ' * @param {string} nsid\n * @param {unknown} value\n */\n' +
      'export function encode (nsid, value) {\n  return encodeRecord(recordNode(nodes, nsid), value)\n}\n'
  }
}
