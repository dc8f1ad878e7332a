// The repository's own ESLint rules (plugin `local` in eslint.config.js):
//   declared-imports  every bare import names a package that the importing file's package.json
//                     declares. In an npm workspace every package resolves the root's
//                     node_modules, so an import its own package.json leaves out still runs here
//                     and breaks only for whoever installs that package alone.
//   jsdoc-types       names used only in JSDoc types (`@param {CID} cid`) count as used: the type
//                     checker reads those comments, no-unused-vars does not.
import fs from 'node:fs'
import path from 'node:path'
import { builtinModules } from 'node:module'

const builtins = new Set(builtinModules)

/** @type {Map<string, { file: string, names: Set<string> } | null>} */
const manifests = new Map()

/**
 * The package.json nearest above a folder, and the names it lets its files import: its own name
 * (a package may import itself by name through its exports) and every kind of dependency.
 *
 * @param {string} dir
 * @returns {{ file: string, names: Set<string> } | null}
 */
export function nearestManifest (dir) {
  if (manifests.has(dir)) return /** @type {any} */ (manifests.get(dir))
  const file = path.join(dir, 'package.json')
  let found = null
  if (fs.existsSync(file)) {
    const json = JSON.parse(fs.readFileSync(file, 'utf8'))
    const names = new Set(json.name ? [json.name] : [])
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const name of Object.keys(json[field] ?? {})) names.add(name)
    }
    found = { file, names }
  } else if (path.dirname(dir) !== dir) {
    found = nearestManifest(path.dirname(dir))
  }
  manifests.set(dir, found)
  return found
}

/**
 * The package a bare specifier names ('@scope/name/sub' -> '@scope/name', 'name/sub' -> 'name'),
 * or null for what is no package: relative and absolute paths, subpath imports (#x), URLs and
 * Node's built-in modules.
 *
 * @param {string} specifier
 * @returns {string | null}
 */
export function packageOf (specifier) {
  if (/^[./#]/.test(specifier) || /^[a-z][a-z0-9+.-]*:/i.test(specifier)) return null
  const parts = specifier.split('/')
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
  return builtins.has(name) || builtins.has(specifier) ? null : name
}

/**
 * The string a node spells out, if it is a string literal or a template with no expressions.
 *
 * @param {any} node
 * @returns {string | undefined}
 */
function constantString (node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked
  return undefined
}

const declaredImports = {
  meta: {
    type: 'problem',
    docs: { description: 'every bare import is declared in the package.json of the package it is in' },
    schema: []
  },
  /** @param {any} context */
  create (context) {
    const manifest = nearestManifest(path.dirname(context.physicalFilename))
    if (!manifest) return {}
    const where = path.relative(context.cwd, manifest.file) || 'package.json'
    /** @param {any} node */
    function check (node) {
      const specifier = constantString(node)
      if (specifier === undefined) return
      const name = packageOf(specifier)
      if (name === null || manifest?.names.has(name)) return
      context.report({
        node,
        message: `'${specifier}' is package '${name}', which ${where} does not declare; this file's package gets it only through the workspace root's node_modules. Add '${name}' to ${where}'s dependencies (if the published package needs it at run time) or devDependencies`
      })
    }
    return {
      /** @param {any} node */
      ImportDeclaration: (node) => check(node.source),
      /** @param {any} node */
      ExportNamedDeclaration: (node) => node.source && check(node.source),
      /** @param {any} node */
      ExportAllDeclaration: (node) => check(node.source),
      /** @param {any} node */
      ImportExpression: (node) => check(node.source),
      /** @param {any} node */
      CallExpression (node) {
        const callee = node.callee
        const isRequire = callee.type === 'Identifier' && callee.name === 'require'
        const isMetaResolve = callee.type === 'MemberExpression' && callee.object.type === 'MetaProperty' && callee.property.name === 'resolve'
        if ((isRequire || isMetaResolve) && node.arguments.length >= 1) check(node.arguments[0])
      }
    }
  }
}

const jsdocTypes = {
  meta: {
    type: 'problem',
    docs: { description: 'names used in JSDoc types count as used (for no-unused-vars)' },
    schema: []
  },
  /** @param {any} context */
  create (context) {
    const source = context.sourceCode
    return {
      /** @param {any} program */
      Program (program) {
        for (const comment of source.getAllComments()) {
          if (comment.type !== 'Block' || !comment.value.startsWith('*')) continue
          for (const type of typeExpressions(comment.value)) {
            for (const [name] of type.matchAll(/[A-Za-z_$][\w$]*/g)) source.markVariableAsUsed(name, program)
          }
        }
      }
    }
  }
}

/**
 * The `{...}` type expressions of a JSDoc comment (after a tag, as in `@param {CID} cid`, or
 * standing alone as in an inline cast), braces balanced.
 *
 * @param {string} text
 * @returns {string[]}
 */
export function typeExpressions (text) {
  const types = []
  for (let open = text.indexOf('{'); open !== -1; open = text.indexOf('{', open + 1)) {
    let depth = 0
    let end = open
    for (; end < text.length; end++) {
      if (text[end] === '{') depth++
      else if (text[end] === '}' && --depth === 0) break
    }
    types.push(text.slice(open + 1, end))
    open = end
  }
  return types
}

export default {
  meta: { name: 'local' },
  rules: { 'declared-imports': declaredImports, 'jsdoc-types': jsdocTypes }
}
