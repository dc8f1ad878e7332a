// No comment in car/lib, car/bin, car/web or car/scripts names a file that does not exist (issue 62,
// item 1): when the core was split into lib/core's folders, comments kept naming read.js, write.js,
// ./codec.js and core/pipeline.js, files that had gone, sending a reader to nothing.
//
// The rule, kept simple on purpose:
// - files read: every tracked (git ls-files) .js and .cjs file under lib/, bin/, web/ and scripts/.
// - a comment: `//` to the end of its line, or `/*` to `*/`, outside strings, template text and
//   regular expression literals.
// - a name: a run of letters, digits and `_ @ . / -` ending in .js, .cjs, .mjs, .json, .md or .car,
//   with a letter, digit, `_` or `-` just before that dot (so "a .car file" or "*.car" names nothing).
//   Web addresses (http:// and https://) are dropped from the comment first: they name no file here,
//   and so is a JSDoc tag's parameter name (`@param {Car} a.car`).
// - a name exists when it is, in this order, a path from the commenting file's folder, from car/, or
//   from the repository's root; or the end of a tracked path of car/ (`read/limits.js` or
//   `limits.js` from anywhere in car/). A name starting ./ or ../ is only a path from the commenting
//   file's folder: that is what it says.
// - ALLOWED below: names of files that are not this checkout's (another package's, the packed bundle's,
//   the user's in an example command line), each allowed only in a comment that says whose it is, and
//   each entry still in use. Consecutive `//` lines are one comment.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const CAR = fileURLToPath(new URL('..', import.meta.url))
const ROOT = path.dirname(path.resolve(CAR))
const FOLDERS = ['lib/', 'bin/', 'web/', 'scripts/']

/**
 * Names of files that are not this checkout's, each allowed only in a comment that matches `when`.
 * @type {{ names: string[], when: RegExp, why: string }[]}
 */
const ALLOWED = [
  {
    names: ['writer-browser.js'],
    when: /@ipld\/car's/,
    why: "@ipld/car's src/writer-browser.js, which api/car-writer.js follows method by method"
  },
  {
    names: ['build/cli/dag-cbor-car.cjs', 'build/cli/worker.js', 'dag-cbor-car.cjs'],
    when: /build\/cli\//,
    why: "the packed package's bundle: scripts/bundle.js writes it at npm pack, it is never committed"
  },
  {
    names: ['a.car', 'b.car', 'x.car', 'sub.car', 'file.car'],
    when: /dag-cbor-car [a-z]|e\.g\.|< file\.car/,
    why: "the user's CAR in an example command line or shell redirection"
  }
]

const NAME = /[\w@./-]*[\w-]\.(?:js|cjs|mjs|json|md|car)(?![\w])/g
const WEB_ADDRESS = /\bhttps?:\/\/\S+/g
// the type is up to the line's last `}`: a type may hold braces of its own
const PARAMETER_NAME = /(@(?:param|property|prop)\s+\{.*\}\s+)\[?[\w$.]+/g

/**
 * The comments of JavaScript source, each with the line it starts on.
 * A `/` in code starts a regular expression where an operand is expected: at the start, or after an
 * operator, an opening bracket, a comma, a semicolon or a keyword such as `return`.
 * @param {string} text
 * @returns {{ line: number, text: string }[]}
 */
function commentsOf (text) {
  /** @type {{ line: number, text: string }[]} */
  const comments = []
  let line = 1
  let i = 0
  // the code last seen, to tell a regular expression's `/` from a division's
  let last = ''
  // for each template literal whose `${` we are inside, the brace depth it was opened at
  /** @type {number[]} */
  const templates = []
  let depth = 0
  // where the last `//` comment ended (its line's end), to join the next line's to it
  let lineComment = -2
  const lineAt = (/** @type {number} */ from, /** @type {number} */ to) => {
    for (let k = from; k < to; k++) if (text[k] === '\n') line++
  }
  /** @param {number} start the index just past the opening backtick or `}`; @returns {number} the index past the template text */
  const templateText = (start) => {
    let k = start
    while (k < text.length) {
      if (text[k] === '\\') { k += 2; continue }
      if (text[k] === '`') return k + 1
      if (text[k] === '$' && text[k + 1] === '{') { templates.push(depth); depth++; return k + 2 }
      k++
    }
    return k
  }
  while (i < text.length) {
    const c = text[i]
    const next = text[i + 1]
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i)
      const previous = comments[comments.length - 1]
      // a `//` comment on the line after another `//` comment, with nothing between, goes on with it
      let before = i - 1
      while (text[before] === ' ' || text[before] === '\t') before--
      if (previous && lineComment === before) previous.text += '\n' + text.slice(i + 2, end)
      else comments.push({ line, text: text.slice(i + 2, end) })
      lineComment = end
      i = end
      continue
    }
    if (c === '/' && next === '*') {
      const close = text.indexOf('*/', i + 2)
      const end = close === -1 ? text.length : close + 2
      comments.push({ line, text: text.slice(i + 2, close === -1 ? text.length : close) })
      lineAt(i, end)
      i = end
      continue
    }
    if (c === '\'' || c === '"') {
      let k = i + 1
      while (k < text.length && text[k] !== c && text[k] !== '\n') k += text[k] === '\\' ? 2 : 1
      i = k + 1
      last = 'a'
      continue
    }
    if (c === '`') {
      const end = templateText(i + 1)
      lineAt(i, end)
      i = end
      last = 'a'
      continue
    }
    if (c === '/' && (last === '' || /[(,=:[!&|?{};+\-*%<>~^]$/.test(last) || /\b(?:return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/.test(last))) {
      let k = i + 1
      let inClass = false
      while (k < text.length && text[k] !== '\n') {
        if (text[k] === '\\') { k += 2; continue }
        if (text[k] === '[') inClass = true
        else if (text[k] === ']') inClass = false
        else if (text[k] === '/' && !inClass) break
        k++
      }
      i = k + 1
      last = 'a'
      continue
    }
    if (c === '{') depth++
    if (c === '}') {
      if (templates.length && templates[templates.length - 1] === depth - 1) {
        templates.pop()
        depth--
        const end = templateText(i + 1)
        lineAt(i, end)
        i = end
        last = 'a'
        continue
      }
      depth--
    }
    if (c === '\n') line++
    if (!/\s/.test(c)) last = (last + c).slice(-12)
    i++
  }
  return comments
}

/** @param {string} cwd @returns {string[]} the tracked files under cwd, relative to it */
function tracked (cwd) {
  const r = spawnSync('git', ['ls-files'], { cwd, encoding: 'utf8' })
  assert.equal(r.status, 0, `git ls-files in ${cwd}: ${r.stderr}`)
  return r.stdout.split('\n').filter(Boolean)
}

/**
 * @param {string[]} carFiles car/'s tracked files
 * @param {string} from the commenting file, relative to car/
 * @param {string} name
 */
function exists (carFiles, from, name) {
  const here = path.join(CAR, path.dirname(from))
  if (name.startsWith('./') || name.startsWith('../')) return fs.existsSync(path.join(here, name))
  if ([here, CAR, ROOT].some((dir) => fs.existsSync(path.join(dir, name)))) return true
  return carFiles.some((f) => f === name || f.endsWith('/' + name))
}

describe('comments name files that exist', () => {
  it('the comment reader skips strings, template text and regular expressions, and joins // lines', () => {
    const source = [
      "const a = '// not.js' + \"/* nor.js */\" // one.js",
      'const b = `${x /* two.js */}// text.js ${`${y}`} /* text.js */` / 2 // three.js',
      "const c = /[/*]'\\/ re.js/.test(s) /* four.js",
      '   five.js */',
      '// six.js',
      '  // seven.js'
    ].join('\n')
    assert.deepEqual(commentsOf(source), [
      { line: 1, text: ' one.js' },
      { line: 2, text: ' two.js ' },
      { line: 2, text: ' three.js' },
      { line: 3, text: ' four.js\n   five.js ' },
      { line: 5, text: ' six.js\n seven.js' }
    ])
  })

  it('every file name in a comment under lib/, bin/, web/ and scripts/ is a file here, or allowed with a reason', () => {
    const carFiles = tracked(CAR)
    const sources = carFiles.filter((f) => FOLDERS.some((d) => f.startsWith(d)) && /\.c?js$/.test(f))
    assert.ok(sources.length > 100, `expected car's sources, found ${sources.length}`)
    const offenders = []
    const used = new Set()
    for (const file of sources) {
      for (const comment of commentsOf(fs.readFileSync(path.join(CAR, file), 'utf8'))) {
        comment.text.split('\n').forEach((text, k) => {
          for (const [name] of text.replace(WEB_ADDRESS, '').replace(PARAMETER_NAME, '$1').matchAll(NAME)) {
            if (exists(carFiles, file, name)) continue
            const allowed = ALLOWED.find((a) => a.names.includes(name) && a.when.test(comment.text))
            if (allowed) used.add(allowed)
            else offenders.push(`${file}:${comment.line + k}: ${name}`)
          }
        })
      }
    }
    assert.deepEqual(offenders, [], `comments naming files that do not exist (name the file that now holds what the comment describes):\n${offenders.join('\n')}`)
    // an entry no comment needs any more goes, so the list cannot grow stale itself
    assert.deepEqual(ALLOWED.filter((a) => !used.has(a)).map((a) => a.names.join(', ')), [], 'ALLOWED entries no comment uses')
  })
})
