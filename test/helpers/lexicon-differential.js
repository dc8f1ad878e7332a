// The differential run of dag-cbor-fast/lexicon against @atproto/lexicon, @atproto/lex-schema and
// @atcute/lexicons (test/lexicon-differential.spec.js asserts it; test/lexicon-differential-counts.js
// prints its counts). Generated records (valid ones, and one-rule mutations of each), the records of
// the real repo exports and the lines of the atproto interop syntax files (each in a string of its
// format) are encoded to DAG-CBOR; our codec judges the bytes, each peer
// the value its own decoder reads from them. The spec's verdict is the mutation's (refused with its
// rule, or accepted); a peer must give it unless a known disagreement (DISAGREEMENTS) says which
// verdict that peer gives instead, quoting the spec.
import fs from 'node:fs'
import { isDeepStrictEqual as equal } from 'node:util'
import { CarReader } from '@ipld/car'
import { compile } from '../../lib/lexicon/index.js'
import { encode, decode } from '../../index.js'
import { publishedDocuments } from './lexicons.js'
import { EVERYTHING, FORMATS_DOCUMENT } from './lexicon-everything.js'
import { recordGenerator } from './lexicon-records.js'
import { peerVerdicts, atcuteSchema, PEERS } from './lexicon-peers.js'
import { mulberry32 } from './prng.js'
import { outcome } from './lexicon-outcome.js'

const LEXICON_SPEC = 'Lexicon spec (atproto.com/specs/lexicon)'
const DATA_MODEL_SPEC = 'Data Model spec (atproto.com/specs/data-model)'

/**
 * @typedef {import('./lexicon-records.js').Mutation & { real?: boolean }} Case
 */

/**
 * @typedef {object} Disagreement
 * @property {string} name
 * @property {string[]} peers
 * @property {boolean} peerAccepts - the verdict the peer gives on the matching cases
 * @property {string} spec - the spec's text that settles it, and where it is
 * @property {(c: Case) => boolean} matches
 */

/** @param {any} v @param {boolean} top @returns {boolean} whether a record is nested in `v` */
function holdsRecord (v, top = true) {
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array || v.asCID === v) return false
  if (!top && !Array.isArray(v) && typeof v.$type === 'string' && RECORD_TYPES.has(v.$type)) return true
  return Object.values(v).some((x) => holdsRecord(x, false))
}
/** @type {Set<string>} */
let RECORD_TYPES = new Set()

/**
 * Where a peer's verdict is not the spec's: each names the case, the peers, the verdict they give
 * and the spec's text. The first entry that matches a case settles it for that peer.
 *
 * @type {Disagreement[]}
 */
export const DISAGREEMENTS = [
  {
    name: 'a record that holds a record, by ref (site.standard.publication#basicTheme, a ref to the record site.standard.theme.basic) or as a union member, is refused whatever else it holds ("Unexpected lexicon type: record")',
    peers: ['@atproto/lexicon'],
    peerAccepts: false,
    spec: `${LEXICON_SPEC}, ref: "When a ref points to an object type, the type of the encoded data is unambiguous. This means that the $type field should not be included in encoded data as a discriminator. This does not apply to references to record types, which always include the $type discriminator."; union: "The schema definitions pointed to by a union must have type object or record."`,
    matches: (c) => holdsRecord(c.value)
  },
  {
    name: 'a datetime without a timezone (2024-11-30T12:34:56.789; the interop file\'s 1985-04-12T23:20:50 and 1985-04-12T23:20:50.123) is accepted',
    peers: ['@atproto/lexicon'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, datetime: "Timezone specification is required."`,
    matches: (c) => (c.kind === 'format datetime' && c.what.startsWith('"2024-11-30T12:34:56.789" ')) ||
      (c.kind === 'interop datetime' && ['"1985-04-12T23:20:50" ', '"1985-04-12T23:20:50.123" '].some((line) => c.what.startsWith(line)))
  },
  {
    name: 'datetimes of the interop file datetime_syntax_invalid.txt are accepted: 1985-04-12T23:20:50.123+0000 (an offset without its colon), 1985-04-12T23:20:5Z (a one-digit second), 0000-01-01T00:00:00+01:00 (before year 0 once the offset is applied)',
    peers: ['@atproto/lexicon'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, datetime: "While hour/minute suffix syntax (like +01:00 or -10:30) is supported"; "Datetime strings in atproto should meet the intersecting requirements of the RFC 3339, ISO 8601, and WHATWG HTML datetime standards."; "Datetimes before year zero (in astronomical time) are specifically disallowed."`,
    matches: (c) => c.kind === 'interop datetime' && ['"1985-04-12T23:20:50.123+0000" ', '"1985-04-12T23:20:5Z" ', '"0000-01-01T00:00:00+01:00" '].some((line) => c.what.startsWith(line))
  },
  {
    name: 'datetimes of days that do not exist (2024-02-30, 2023-02-29) are accepted',
    peers: ['@atproto/lexicon', '@atproto/lex-schema', '@atcute/lexicons'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, datetime: "Implementations "should" validate that the semantics of the datetime are valid. For example, a month or day 00 is invalid."`,
    matches: (c) => c.kind === 'edge datetime' && (c.what === '"2024-02-30T00:00:00Z"' || c.what === '"2023-02-29T00:00:00Z"')
  },
  {
    name: 'a leap second (23:59:60) is accepted',
    peers: ['@atproto/lexicon'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, datetime: "Datetime strings in atproto should meet the intersecting requirements of the RFC 3339, ISO 8601, and WHATWG HTML datetime standards." (WHATWG HTML's seconds are 0-59)`,
    matches: (c) => c.kind === 'edge datetime' && c.what === '"1985-04-12T23:59:60Z"'
  },
  {
    name: 'year 0000 (0000-01-01T00:00:00Z) is refused',
    peers: ['@atcute/lexicons'],
    peerAccepts: false,
    spec: `${LEXICON_SPEC}, datetime: "Datetimes before year zero (in astronomical time) are specifically disallowed." (year zero itself is not before it)`,
    matches: (c) => c.kind === 'edge datetime' && c.what === '"0000-01-01T00:00:00Z"'
  },
  {
    name: 'URIs RFC 3986 allows are refused: http:// (an empty authority), a+b.c-d:x (a scheme with +, . and -)',
    peers: ['@atproto/lexicon', '@atproto/lex-schema', '@atcute/lexicons'],
    peerAccepts: false,
    spec: `${LEXICON_SPEC}, uri: "Flexible to any URI schema, following the generic RFC-3986 on URIs." (RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ); the authority may be empty)`,
    matches: (c) => c.kind === 'edge uri' && (c.what === '"http://"' || c.what === '"a+b.c-d:x"')
  },
  {
    name: 'a URI whose scheme starts with a digit (1abc:x) is accepted',
    peers: ['@atproto/lexicon', '@atproto/lex-schema', '@atcute/lexicons'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, uri: "following the generic RFC-3986 on URIs" (RFC 3986: a scheme begins with a letter)`,
    matches: (c) => c.kind === 'edge uri' && c.what === '"1abc:x"'
  },
  {
    name: 'a CIDv1 string in base58btc (z...) is accepted as format cid',
    peers: ['@atproto/lexicon'],
    peerAccepts: true,
    spec: `${DATA_MODEL_SPEC}, CID formats: "Encoding: binary serialization within DRISL-CBOR cid-link fields, and base32 (with b prefix) for string encoding elsewhere"`,
    matches: (c) => c.kind === 'edge cid' && c.what.startsWith('"zb2')
  },
  {
    name: "a CIDv0 string (Qm...) is refused as format cid. Here the spec's blessed set (CID version 1) is the peer's: we accept a CIDv0, as docs/lexicon.md says (a string that reads back to itself)",
    peers: ['@atcute/lexicons'],
    peerAccepts: false,
    spec: `${DATA_MODEL_SPEC}, CID formats: "The blessed formats for CIDs in atproto are: CID version: 1 (0x01)"`,
    matches: (c) => c.kind === 'edge cid' && c.what.startsWith('"Qm')
  },
  {
    name: 'language tags that are well formed but not valid (language_parse_invalid.txt: JA, jaja, de-DE-1901-1901, en-rozaj-ROZAJ, en-a-foo-a-bar, en-u-co-phonebk-U-ca-buddhist) are refused',
    peers: ['@atproto/lex-schema'],
    peerAccepts: false,
    spec: `${LEXICON_SPEC}, language: "The Lexicon string must validate as a "well-formed" language tag, as defined in the RFC. Clients should ignore language strings which are "well-formed" but not "valid" according to the RFC."`,
    matches: (c) => c.kind === 'interop language' && c.what.endsWith('(language_parse_invalid.txt)') && ['"JA"', '"jaja"', '"de-DE-1901-1901"', '"en-rozaj-ROZAJ"', '"en-a-foo-a-bar"', '"en-u-co-phonebk-U-ca-buddhist"'].some((line) => c.what.startsWith(line + ' '))
  },
  {
    name: 'language tags with an upper-case private-use singleton (X-fr-CH, de-X-foo; language_syntax_valid.txt) are refused',
    peers: ['@atcute/lexicons'],
    peerAccepts: false,
    spec: `${LEXICON_SPEC}, language: "The Lexicon string must validate as a "well-formed" language tag, as defined in the RFC." (RFC 5646 §2.1.1: tags and subtags are case-insensitive)`,
    matches: (c) => c.kind === 'interop language' && ['"X-fr-CH" ', '"de-X-foo" '].some((line) => c.what.startsWith(line))
  },
  {
    name: "a blob whose MIME type the field's accept does not list is accepted (legacy blobs too)",
    peers: ['@atproto/lexicon'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, blob: "accept (array of strings, optional): list of acceptable MIME types."`,
    matches: (c) => c.kind === 'blob-accept' || c.kind === 'blob-legacy-accept' || c.kind === 'blob-accept-case'
  },
  {
    name: 'a blob whose MIME type is an accepted one in upper case (IMAGE/PNG for image/png) is accepted. The spec is silent on case; we match accept patterns exactly, as docs/lexicon.md says, as @atproto/lex-schema does',
    peers: ['@atcute/lexicons'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, blob: "accept (array of strings, optional): list of acceptable MIME types. Each may end in * as a glob pattern (eg, image/*)."`,
    matches: (c) => c.kind === 'blob-accept-case'
  },
  {
    name: "a blob larger than the field's maxSize is accepted",
    peers: ['@atproto/lexicon'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, blob: "maxSize (integer, optional): maximum size in bytes"`,
    matches: (c) => c.kind === 'blob-size'
  },
  {
    name: 'a blob of size 0 is accepted',
    peers: ['@atproto/lexicon', '@atproto/lex-schema', '@atcute/lexicons'],
    peerAccepts: true,
    spec: `${DATA_MODEL_SPEC}, blob: "size (integer, required, positive, non-zero): length of blob in bytes"`,
    matches: (c) => c.kind === 'blob-shape' && c.what === 'size 0'
  },
  {
    name: 'a float in a property the Lexicon does not name is accepted',
    peers: ['@atproto/lexicon', '@atproto/lex-schema', '@atcute/lexicons'],
    peerAccepts: true,
    spec: `${DATA_MODEL_SPEC}, data types: "float ... not allowed in atproto" (and, of data the schema does not describe, ${LEXICON_SPEC}, unknown: "The (nested) contents of the data object must still be valid under the atproto data model. For example, it should not contain floats.")`,
    matches: (c) => c.kind === 'float' && c.path === '/zzExtra'
  },
  {
    name: 'a union member whose $type ends in #main (app.bsky.embed.images#main) is accepted (by @atproto/lexicon where the member is an object: it refuses records as members)',
    peers: ['@atproto/lexicon', '@atproto/lex-schema', '@atcute/lexicons'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, references: "For references in the $type fields in data objects themselves (eg, records or contents of a union), this is a "must" (use of a #main suffix is invalid)."`,
    matches: (c) => c.kind === 'union-type' && c.what === 'a member $type ending in #main'
  },
  {
    name: 'a union member that is a record, its $type ending in #main, is accepted',
    peers: ['@atproto/lex-schema'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, references: "For references in the $type fields in data objects themselves (eg, records or contents of a union), this is a "must" (use of a #main suffix is invalid)."`,
    matches: (c) => c.kind === 'union-type' && c.what === 'a member $type ending in #main (a record member)'
  },
  {
    name: 'an unknown field holding a blob is accepted',
    peers: ['@atproto/lexicon', '@atproto/lex-schema'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, unknown: "The top-level data object must not have the structure of a compound data type, like blob ($type: blob) or CID link ($link)."`,
    matches: (c) => c.kind === 'unknown' && c.what === 'a blob for an unknown object'
  },
  {
    name: 'a blob with a key beside $type, ref, mimeType and size is refused. We accept it, as docs/lexicon.md says: the data model lists the fields a blob has, not that it has no others, and the Lexicon spec asks that unexpected fields be ignored',
    peers: ['@atproto/lexicon', '@atproto/lex-schema', '@atcute/lexicons'],
    peerAccepts: false,
    spec: `${LEXICON_SPEC}: "Unexpected fields in data which otherwise conforms to the Lexicon should be ignored. When doing schema validation, they should be treated at worst as warnings."`,
    matches: (c) => c.kind === 'blob-extra'
  },
  {
    name: 'an integer of 2^53 (beyond the safe integers, within signed 64 bits) is refused',
    peers: ['@atproto/lexicon', '@atproto/lex-schema', '@atcute/lexicons'],
    peerAccepts: false,
    spec: `${DATA_MODEL_SPEC}, data types: "integer ... signed, 64-bit"; "As a best practice to ensure Javascript compatibility with default types, integer should be limited to 53 bits of precision." (a best practice for writers, not a limit of the type)`,
    matches: (c) => c.kind === 'integer-range' && c.rule === null
  },
  {
    name: 'an object reached by ref with a $type naming another definition is accepted ($type is not looked at). The spec is silent on a wrong $type there; we refuse it, as docs/lexicon.md says, as @atproto/lex-schema and @atcute/lexicons do',
    peers: ['@atproto/lexicon'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, ref: "When a ref points to an object type, the type of the encoded data is unambiguous. This means that the $type field should not be included in encoded data as a discriminator."`,
    matches: (c) => c.kind === 'ref-type' && c.rule !== null
  },
  {
    name: 'a float nested in an unknown object is accepted',
    peers: ['@atproto/lexicon'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, unknown: "The (nested) contents of the data object must still be valid under the atproto data model. For example, it should not contain floats."`,
    matches: (c) => c.kind === 'unknown-float'
  },
  {
    name: 'a blob of size 0 nested in an unknown object is accepted',
    peers: ['@atproto/lexicon', '@atproto/lex-schema'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, unknown: "Nested compound types like blobs and CID links should be validated and transformed as expected."; ${DATA_MODEL_SPEC}, blob: "size (integer, required, positive, non-zero)"`,
    matches: (c) => c.kind === 'unknown-blob'
  },
  {
    name: 'a legacy blob ({ cid, mimeType }) is refused (strict mode, which also checks accept and maxSize)',
    peers: ['@atproto/lex-schema', '@atcute/lexicons'],
    peerAccepts: false,
    spec: `${DATA_MODEL_SPEC}, blob: "Implementations should not throw errors when encountering the old format, but should never write them, and it is acceptable to only partially support them."`,
    matches: (c) => c.kind === 'blob-legacy' || (c.real === true && hasLegacyBlob(c.value))
  },
  {
    name: "a blob whose ref is a DAG-CBOR CID, not raw, is refused (strict mode). Here the spec's text is the peer's: we accept, as docs/lexicon.md says (the blessed CID set is described as evolving; the record is well formed)",
    peers: ['@atproto/lex-schema'],
    peerAccepts: false,
    spec: `${DATA_MODEL_SPEC}, blob: "ref (link, required): CID reference to blob, with codec type raw"`,
    matches: (c) => c.kind === 'blob-ref-codec'
  },
  {
    name: 'an integer below a minimum of 0 (a facet byteStart of -1) is accepted: minimum 0 is dropped',
    peers: ['@atcute/lexicons'],
    peerAccepts: true,
    spec: `${LEXICON_SPEC}, integer: "minimum (integer, optional): minimum acceptable value"`,
    matches: (c) => c.kind === 'minimum' && c.what === '-1'
  }
]

/** @param {any} v @returns {boolean} */
function hasLegacyBlob (v) {
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array || v.asCID === v) return false
  if (typeof v.cid === 'string' && typeof v.mimeType === 'string' && v.$type === undefined) return true
  return Object.values(v).some(hasLegacyBlob)
}

/**
 * Strings at the edges of their format, written here (the interop files do not hold them), with
 * the spec's verdict.
 *
 * @type {Array<{ format: string, line: string, valid: boolean }>}
 */
const EDGE_STRINGS = [
  { format: 'datetime', line: '2024-02-30T00:00:00Z', valid: false },
  { format: 'datetime', line: '2023-02-29T00:00:00Z', valid: false },
  { format: 'datetime', line: '2024-02-29T00:00:00Z', valid: true },
  { format: 'datetime', line: '1985-04-12T23:59:60Z', valid: false },
  { format: 'datetime', line: '0000-01-01T00:00:00Z', valid: true },
  { format: 'uri', line: 'http://', valid: true },
  { format: 'uri', line: 'a+b.c-d:x', valid: true },
  { format: 'uri', line: '1abc:x', valid: false },
  { format: 'cid', line: 'zb2rhe5P4gXftAwvA4eXQ5HJwsER2owDyS9sKaQRRVQPn93bA', valid: false },
  { format: 'cid', line: 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG', valid: true }
]

/**
 * The lines of the atproto interop syntax files (test/fixtures/lexicons/syntax/), with the verdict
 * the spec gives: *_syntax_valid pass, *_syntax_invalid fail, *_parse_invalid fail for datetime
 * (not a real time) and pass for language (well formed, not registered: "the Lexicon string must
 * validate as a well-formed language tag").
 *
 * @returns {Array<{ format: string, line: string, valid: boolean, file: string }>}
 */
function interopLines () {
  const files = { atidentifier: 'at-identifier', aturi: 'at-uri', datetime: 'datetime', did: 'did', handle: 'handle', language: 'language', nsid: 'nsid', recordkey: 'record-key', tid: 'tid' }
  const out = []
  for (const [prefix, format] of Object.entries(files)) {
    for (const [kind, valid] of /** @type {Array<[string, boolean]>} */ ([['syntax_valid', true], ['syntax_invalid', false], ['parse_invalid', format === 'language']])) {
      const file = new URL(`../fixtures/lexicons/syntax/${prefix}_${kind}.txt`, import.meta.url)
      if (!fs.existsSync(file)) continue
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        if (line !== '' && !line.startsWith('#')) out.push({ format, line, valid, file: `${prefix}_${kind}.txt` })
      }
    }
  }
  return out
}

/**
 * @returns {Promise<Array<{ car: string, bytes: Uint8Array, value: any }>>} the records of the
 *   AT Protocol repo exports in the test data
 */
export async function realRecords () {
  const found = []
  for (const car of ['repo-small-v2.car', 'repo-slice-v2.car']) {
    const reader = await CarReader.fromBytes(fs.readFileSync(new URL(`../../car/test/fixtures/atproto/${car}`, import.meta.url)))
    for await (const block of reader.blocks()) {
      const value = block.cid.code === 0x71 ? decode(block.bytes) : null
      if (typeof value?.$type === 'string') found.push({ car, bytes: new Uint8Array(block.bytes), value })
    }
  }
  return found
}

/** @returns {unknown[]} the documents the differential reads: the published ones, and two of its own */
export function differentialDocuments () {
  return [...publishedDocuments().map((text) => JSON.parse(text)), EVERYTHING, FORMATS_DOCUMENT]
}

/**
 * @typedef {object} Finding - one way a run went other than the spec and the table say
 * @property {string} who - 'dag-cbor-fast/lexicon' or a peer
 * @property {Case} case
 * @property {string} expected
 * @property {string} got
 */

/**
 * @param {{ perType?: number, synthetic?: number, seed?: number, withPeers?: boolean, onCase?: (c: Case, bytes: Uint8Array) => void }} [options] -
 *   generated records per published record type, and of the synthetic one; withPeers false
 *   judges no peer; onCase is given every case, with its bytes, before it is judged
 */
export async function runDifferential ({ perType = 6, synthetic = 40, seed = 64, withPeers = true, onCase } = {}) {
  const documents = differentialDocuments()
  const lexicons = compile(documents)
  RECORD_TYPES = new Set(lexicons.records)
  const peers = withPeers ? peerVerdicts(documents) : () => false
  const generator = recordGenerator(documents, mulberry32(seed))
  /** @type {Finding[]} */
  const findings = []
  const counts = {
    recordTypes: lexicons.records.length,
    records: 0,
    realRecords: 0,
    formatLines: 0,
    mutations: 0,
    /** @type {Record<string, number>} */
    rules: {},
    /** @type {Record<string, { compared: number, agreed: number, disagreed: number, notCompared: number }>} */
    peers: Object.fromEntries(PEERS.map((p) => [p, { compared: 0, agreed: 0, disagreed: 0, notCompared: 0 }])),
    /** @type {Array<Record<string, number>>} per DISAGREEMENTS entry, per peer: the cases it settled as disagreements */
    disagreements: DISAGREEMENTS.map((d) => Object.fromEntries(d.peers.map((p) => [p, 0])))
  }

  /** @param {Case} c @param {Uint8Array} bytes */
  const judge = (c, bytes) => {
    onCase?.(c, bytes)
    const codec = lexicons.record(c.nsid)
    const expected = c.rule === null ? 'accepted' : `${c.rule} at ${c.path}`
    const decoded = outcome(() => codec.decode(bytes))
    const validated = outcome(() => codec.validate(bytes))
    const encoded = c.real ? decoded : outcome(() => codec.encode(c.value))
    for (const [how, got] of [['decode', decoded], ['validate', validated], ['encode', encoded]]) {
      if (got !== expected) findings.push({ who: `dag-cbor-fast/lexicon ${how}`, case: c, expected, got })
    }
    if (decoded === 'accepted') {
      const typed = codec.decode(bytes)
      const generic = decode(bytes)
      if (!equal(typed, generic)) findings.push({ who: 'dag-cbor-fast/lexicon decode', case: c, expected: 'generic decode\'s value', got: 'another value' })
      if (!equal(codec.encode(typed), bytes)) findings.push({ who: 'dag-cbor-fast/lexicon encode', case: c, expected: 'the bytes read', got: 'other bytes' })
    }
    if (c.rule !== null) counts.rules[c.rule] = (counts.rules[c.rule] ?? 0) + 1
    const specAccepts = c.rule === null
    for (const peer of withPeers ? PEERS : []) {
      const tally = counts.peers[peer]
      if (peer === '@atcute/lexicons' && atcuteSchema(c.nsid) === undefined) {
        tally.notCompared++
        continue
      }
      tally.compared++
      const index = DISAGREEMENTS.findIndex((d) => d.peers.includes(peer) && d.matches(c))
      const want = index === -1 ? specAccepts : DISAGREEMENTS[index].peerAccepts
      const got = peers(peer, c.nsid, bytes)
      if (got !== want) findings.push({ who: peer, case: c, expected: want ? 'accepted' : 'refused', got: got ? 'accepted' : 'refused' })
      if (got === specAccepts) tally.agreed++
      else {
        tally.disagreed++
        if (index !== -1) counts.disagreements[index][peer]++
      }
    }
  }

  for (const { format, line, valid, file } of interopLines()) {
    counts.formatLines++
    const value = { $type: FORMATS_DOCUMENT.id, [format]: line }
    judge({ nsid: FORMATS_DOCUMENT.id, kind: `interop ${format}`, what: `${JSON.stringify(line)} (${file})`, path: `/${format}`, rule: valid ? null : 'lexicon-format', value }, encode(value))
  }
  for (const { format, line, valid } of EDGE_STRINGS) {
    counts.formatLines++
    const value = { $type: FORMATS_DOCUMENT.id, [format]: line }
    judge({ nsid: FORMATS_DOCUMENT.id, kind: `edge ${format}`, what: JSON.stringify(line), path: `/${format}`, rule: valid ? null : 'lexicon-format', value }, encode(value))
  }
  for (const nsid of lexicons.records) {
    if (nsid === FORMATS_DOCUMENT.id) continue
    const n = nsid === EVERYTHING.id ? synthetic : perType
    for (let i = 0; i < n; i++) {
      const { value, sites } = generator.record(nsid)
      counts.records++
      judge({ nsid, kind: 'valid', what: 'a generated valid record', path: '', rule: null, value }, encode(value))
      for (const m of generator.mutations(nsid, value, sites)) {
        counts.mutations++
        judge(m, encode(m.value))
      }
    }
  }
  for (const { car, bytes, value } of await realRecords()) {
    counts.realRecords++
    judge({ nsid: value.$type, kind: 'real', what: `a record of ${car}`, path: '', rule: null, value, real: true }, bytes)
  }
  return { counts, findings }
}
