// Indenting JSON text without parsing it to values: JSON.parse would round integers past 2^53,
// which DAG-JSON carries exactly. Walks the text once, copying strings as they are.

/**
 * @param {string} text compact JSON (as @ipld/dag-json writes it)
 * @param {string} [indent]
 */
export function prettyJson (text, indent = '  ') {
  let out = ''
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '"') {
      let j = i + 1
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      out += text.slice(i, j + 1)
      i = j
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']'
      if (text[i + 1] === close) { out += c + close; i++; continue }
      depth++
      out += c + '\n' + indent.repeat(depth)
    } else if (c === '}' || c === ']') {
      depth--
      out += '\n' + indent.repeat(depth) + c
    } else if (c === ',') {
      out += ',\n' + indent.repeat(depth)
    } else if (c === ':') {
      out += ': '
    } else {
      out += c
    }
  }
  return out
}
