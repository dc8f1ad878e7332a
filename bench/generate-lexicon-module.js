#!/usr/bin/env node
// Writes bench/generated/lexicon-post.js: the module toJavaScript (dag-cbor-fast/lexicon) writes
// for app.bsky.feed.post from the published Lexicons of the test data (test/fixtures/lexicons/),
// committed so that the bundle-size bench (bench/size.js) and any engine import it as it is.
// test/lexicon-aot.spec.js checks it is current.
//   node bench/generate-lexicon-module.js
import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { toJavaScript } from '../lib/lexicon/index.js'
import { publishedDocuments } from '../test/helpers/lexicons.js'

/** @returns {string} the module's text, as committed */
export function postModule () {
  return toJavaScript(publishedDocuments(), { records: ['app.bsky.feed.post'], from: '../../lib/lexicon/runtime.js' })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(new URL('./generated/lexicon-post.js', import.meta.url), postModule())
  console.log('bench/generated/lexicon-post.js')
}
