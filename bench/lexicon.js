#!/usr/bin/env node
// Lexicon record codecs (dag-cbor-fast/lexicon) against decoding and validating apart, on valid
// app.bsky.feed.post, app.bsky.feed.like and app.bsky.actor.profile records, interleaved in one
// process per corpus (bench/harness.js).
//   node bench/lexicon.js [--quick] [--only=SUBSTRING]
// Rows (µs per record, median over rounds):
//   ours lexicon decode      compile(documents).record(nsid).decode(bytes): the record, every rule checked
//   ours lexicon validate    .validate(bytes): the same checks, nothing built
//   ours generic decode      decode(bytes): no Lexicon rule checked
//   @atcute                  @atcute/cbor decode, then @atcute/lexicons `is` of @atcute/bluesky's
//                            schema with { strict: true }
//   @atproto/lexicon         @ipld/dag-cbor decode, ipldToLex (what @atproto/repo does to a record
//                            before it is validated: blobs as BlobRef), then assertValidRecord
//   @atproto/lex-schema      @atproto/lex-cbor decode, then `validate` of the record schema built
//                            from the same documents (bench/lexicon-schema.js), { strict: true }
//   @atcute/cbor alone       @atcute/cbor decode, no check: the floor under the @atcute target
// Then the targets as per-round time ratios (median, min-max over rounds): lexicon
// decode's time over generic decode's (target ≤ 1.5), validate's over generic decode's (≤ 0.67),
// and each peer pipeline's time over lexicon decode's (@atcute ≥ 2, @atproto/lexicon ≥ 10); then
// @atcute/cbor's decode alone over our generic decode's, and @atcute's pipeline over its decode
// alone: their product is @atcute's time over our generic decode's, and 2x needs our lexicon
// decode at half of it.
// Before anything is timed, every pipeline runs on every record: one that refuses a record is not
// timed on that corpus, and the refusal is printed; a strict peer that refuses (a legacy blob) is
// then tried, and timed, in its default mode, marked "(not strict)".
import { readFileSync } from 'node:fs'
import { publishedDocuments } from '../test/helpers/lexicons.js'
import { measureLexicon } from './lexicon-measure.js'

const args = process.argv.slice(2)
/* global Bun */
await measureLexicon({
  quick: args.includes('--quick'),
  only: (args.find((a) => a.startsWith('--only=')) || '').slice(7),
  documents: publishedDocuments(),
  cars: ['repo-small-v2.car', 'repo-slice-v2.car'].map((car) => readFileSync(new URL(`../car/test/fixtures/atproto/${car}`, import.meta.url))),
  engine: typeof Bun !== 'undefined' ? `Bun ${Bun.version}` : `${process.release.name} ${process.version}`,
  log: (line) => console.log(line)
})
