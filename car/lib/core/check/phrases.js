// A few words for each rule the codec's errors name (err.rule), for the tool's one-line reports
// ("keys out of order at /Network (byte 412)"). They live with the tool, not the codec, so a
// browser bundle of the codec does not carry them. car/test/commands/car-tool.spec.js checks that every
// rule the codec's README table lists has a phrase here.

/** @type {Readonly<Record<string, string>>} */
export const PHRASES = {
  truncated: 'truncated data',
  'trailing-bytes': 'trailing bytes after the value',
  malformed: 'malformed CBOR',
  'indefinite-length': 'indefinite-length item',
  'non-shortest': 'integer or length not in shortest form',
  tag: 'unsupported tag',
  cid: 'malformed CID (tag 42)',
  'simple-value': 'unsupported simple value',
  undefined: 'undefined value',
  'float-size': 'float not encoded as 64-bit',
  'non-finite-float': 'NaN or Infinity',
  'map-key-type': 'non-string map key',
  'map-key-order': 'keys out of order',
  'duplicate-key': 'duplicate map key',
  'invalid-utf8': 'invalid UTF-8 in a text string',
  depth: 'nesting too deep',
  utf8: 'string with a lone surrogate (no UTF-8 form)',
  circular: 'circular reference',
  type: 'value not in the IPLD data model',
  'integer-range': 'integer outside -2^64..2^64-1',
  'target-size': 'encodeInto target too small'
}
