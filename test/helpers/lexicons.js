// The Lexicon documents of the test data (test/fixtures/lexicons/, copied from
// bluesky-social/atproto's lexicons/; the folder's README names the commit).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const lexiconsDir = fileURLToPath(new URL('../fixtures/lexicons/', import.meta.url))

/** @returns {string[]} the JSON text of every document in test/fixtures/lexicons/, in path order */
export function publishedDocuments () {
  /** @type {string[]} */
  const files = []
  /** @param {string} dir */
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(file)
      else if (entry.name.endsWith('.json')) files.push(file)
    }
  }
  walk(lexiconsDir)
  return files.sort().map((file) => fs.readFileSync(file, 'utf8'))
}
