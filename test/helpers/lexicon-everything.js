// A Lexicon document written for the differential tests (not a published one): a record type
// that uses every field type and constraint the published record types leave out (const, enum,
// minGraphemes, bytes, cid-link, unknown, a closed union, a nullable property, boolean const, the
// formats handle, nsid, tid, record-key and at-identifier), so that each rule of LEXICON_RULES is
// met by some generated record.
export const EVERYTHING = {
  lexicon: 1,
  id: 'com.example.lexdiff.everything',
  defs: {
    main: {
      type: 'record',
      key: 'tid',
      record: {
        type: 'object',
        required: ['title', 'count', 'flag', 'kind', 'data', 'link', 'extra', 'choice', 'items', 'note'],
        nullable: ['note'],
        properties: {
          title: { type: 'string', minLength: 4, maxLength: 40, minGraphemes: 2, maxGraphemes: 10 },
          kind: { type: 'string', enum: ['alpha', 'beta'] },
          fixed: { type: 'string', const: 'fixed' },
          count: { type: 'integer', minimum: 1, maximum: 10 },
          level: { type: 'integer', enum: [1, 2, 3] },
          version: { type: 'integer', const: 2 },
          flag: { type: 'boolean' },
          yes: { type: 'boolean', const: true },
          data: { type: 'bytes', minLength: 1, maxLength: 8 },
          link: { type: 'cid-link' },
          extra: { type: 'unknown' },
          choice: { type: 'union', refs: ['#small', '#text'], closed: true },
          open: { type: 'union', refs: ['#small'] },
          recordUnion: { type: 'union', refs: ['com.example.lexdiff.formats'] },
          items: { type: 'array', minLength: 1, maxLength: 3, items: { type: 'ref', ref: '#small' } },
          note: { type: 'string', maxLength: 20 },
          file: { type: 'blob', accept: ['image/*', 'text/plain'], maxSize: 100 },
          handle: { type: 'string', format: 'handle' },
          nsid: { type: 'string', format: 'nsid' },
          tid: { type: 'string', format: 'tid' },
          rkey: { type: 'string', format: 'record-key' },
          actor: { type: 'string', format: 'at-identifier' },
          marker: { type: 'string', knownValues: ['com.example.lexdiff.everything#marked'] }
        }
      }
    },
    small: { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 0 } } },
    text: { type: 'object', properties: { s: { type: 'string', maxGraphemes: 3 } } },
    marked: { type: 'token' }
  }
}

/** The string formats, one optional property each, for the atproto interop syntax files' lines. */
export const FORMATS_DOCUMENT = {
  lexicon: 1,
  id: 'com.example.lexdiff.formats',
  defs: {
    main: {
      type: 'record',
      key: 'tid',
      record: {
        type: 'object',
        properties: Object.fromEntries(['at-identifier', 'at-uri', 'cid', 'datetime', 'did', 'handle', 'language', 'nsid', 'record-key', 'tid', 'uri'].map((format) => [format, { type: 'string', format }]))
      }
    }
  }
}
