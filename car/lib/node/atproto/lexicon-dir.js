// `repo verify --lexicons DIR`: every *.json file under DIR (recursively, in name order) read as a
// Lexicon document, and all of them compiled together (refs may cross files). A file that is not
// JSON, or a document dag-cbor-fast/lexicon refuses, is a usage error naming the file and the path
// inside the document: nothing is checked against a half-loaded set.
import fs from 'node:fs'
import path from 'node:path'
import { UsageError, systemReason } from '../../core/base/errors.js'

/**
 * @param {string} dir
 * @returns {Promise<{ lexicons: import('dag-cbor-fast/lexicon').Lexicons, files: number }>}
 */
export async function loadLexiconDir (dir) {
  // one line says it all: no usage text after it (as --key's errors)
  /** @param {string} message */
  const fail = (message) => new UsageError(`--lexicons ${dir}: ${message}`)
  /** @type {string[]} */
  let files
  try {
    if (!fs.statSync(dir).isDirectory()) throw fail('not a directory; give the directory holding the Lexicon documents (*.json)')
    files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json')).sort()
  } catch (err) {
    if (err instanceof UsageError) throw err
    throw fail(`cannot read it: ${systemReason(err)}`)
  }
  if (files.length === 0) throw fail('holds no *.json file; give the directory holding the Lexicon documents')
  /** @type {unknown[]} */
  const documents = files.map((file) => {
    const where = path.join(dir, file)
    let text
    try {
      text = fs.readFileSync(where, 'utf8')
    } catch (err) {
      throw fail(`cannot read ${where}: ${systemReason(err)}`)
    }
    try {
      return JSON.parse(text)
    } catch (err) {
      throw fail(`${where} is not JSON: ${/** @type {Error} */ (err).message}`)
    }
  })
  // loaded only with --lexicons: checks without them do not pay for the compiler
  const { compile, LexiconDocumentError } = await import('dag-cbor-fast/lexicon')
  try {
    return { lexicons: compile(documents), files: files.length }
  } catch (err) {
    if (!(err instanceof LexiconDocumentError)) throw err
    // the error names the document by its id, or by its place in the list when it has none
    const index = /^document (\d+)$/.exec(err.document)
    const named = index ? [files[Number(index[1])]] : files.filter((_, i) => /** @type {any} */ (documents[i])?.id === err.document)
    throw fail(`${named.map((f) => path.join(dir, f)).join(' and ') || err.document}: ${err.message}`)
  }
}
