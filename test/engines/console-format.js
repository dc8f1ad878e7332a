// A console message's text as util.format makes it, for a page: the drivers (playwright,
// puppeteer) forward a console message as its arguments' text joined by spaces, printf-style
// placeholders unfilled, so mocha's spec reporter in a page (Base.consoleLog('%d passing (%s)', n, ms))
// reads `%d passing (%s) 162 2s`. The smoke page (run.js) formats its reporter's lines with this
// function, inlined by its source text, so it uses nothing from outside itself.

/**
 * util.format's %s %d %i %f %j %% (and %o %O as JSON, %c dropped) for strings and numbers.
 *
 * @param {...any} all a format string and its values, or values alone
 * @returns {string}
 */
export function formatConsole (...all) {
  if (all.length === 0) return ''
  const [first, ...args] = all
  if (typeof first !== 'string') return all.map(String).join(' ')
  let next = 0
  const text = first.replace(/%[sdifjoOc%]/g, (placeholder) => {
    if (placeholder === '%%') return '%'
    if (next >= args.length) return placeholder
    const value = args[next++]
    switch (placeholder) {
      case '%d': return typeof value === 'bigint' ? `${value}n` : String(Number(value))
      case '%i': return typeof value === 'bigint' ? `${value}n` : String(parseInt(value))
      case '%f': return String(parseFloat(value))
      case '%j': case '%o': case '%O': try { return JSON.stringify(value) } catch { return String(value) }
      case '%c': return '' // a CSS style: nothing to print
      default: return String(value)
    }
  })
  return [text, ...args.slice(next).map(String)].join(' ')
}
