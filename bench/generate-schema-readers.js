#!/usr/bin/env node
// Writes bench/generated/*.js: the modules toJavaScript (dag-cbor-fast/schema) writes for the
// bench's schemas (bench/schema-corpora.js), committed so that every engine of the cross-engine
// bench imports them as they are. test/schema.spec.js checks they are current.
//   node bench/generate-schema-readers.js
import fs from 'node:fs'
import { GENERATED } from './schema-corpora.js'

for (const [file, text] of Object.entries(GENERATED())) {
  fs.writeFileSync(new URL(`./generated/${file}`, import.meta.url), text)
  console.log(`bench/generated/${file}`)
}
