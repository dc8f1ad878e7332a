// The links of a Markdown file that do not resolve inside the directory tree it was installed in:
// a relative link to a file that is not there, or a #fragment naming no heading of its target.
// Used by the package tests on the README of each packed tarball, read where npm installed it.
import fs from 'node:fs'
import path from 'node:path'

/**
 * GitHub's anchor for a heading: lower case, punctuation other than - and _ dropped, spaces as -.
 *
 * @param {string} heading
 */
function anchorOf (heading) {
  return heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
}

/** @param {string} markdown */
function anchorsIn (markdown) {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '')
  return new Set([...withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map((m) => anchorOf(m[1])))
}

/**
 * Every link target in a Markdown text: inline `[text](target)` and reference `[name]: target`,
 * outside code blocks and code spans.
 *
 * @param {string} markdown
 * @returns {string[]}
 */
export function linkTargets (markdown) {
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1])
  const reference = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1])
  return [...inline, ...reference]
}

/**
 * @param {string} file a Markdown file inside an installed package
 * @param {string} root the package's directory: a link must resolve to a file under it
 * @returns {string[]} one line per broken link
 */
export function brokenLinks (file, root) {
  const markdown = fs.readFileSync(file, 'utf8')
  /** @type {string[]} */
  const broken = []
  for (const target of linkTargets(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:: outside the package by design
    const [where, fragment] = target.split('#')
    const resolved = where ? path.resolve(path.dirname(file), decodeURIComponent(where)) : path.resolve(file)
    if (!resolved.startsWith(path.resolve(root) + path.sep) || !fs.existsSync(resolved)) {
      broken.push(`${target}: ${where} is not in the package`)
      continue
    }
    if (fragment && resolved.endsWith('.md') && !anchorsIn(fs.readFileSync(resolved, 'utf8')).has(fragment)) {
      broken.push(`${target}: no heading #${fragment} in ${path.relative(root, resolved)}`)
    }
  }
  return broken
}
