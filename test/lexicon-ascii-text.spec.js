// The Lexicon reader's string of text it knows is ASCII (lib/lexicon/ascii-text*.js: Node's and
// Bun's by Buffer's latin1Slice past short text, the others' by the usual UTF-8 path) is the
// text's own string, at every length across the short-text boundary and at any offset.
import assert from 'node:assert/strict'
import { asciiText as nodeAsciiText } from '../lib/lexicon/ascii-text-node.js'
import { asciiText } from '../lib/lexicon/ascii-text.js'

describe('lexicon ascii-text', () => {
  it('gives the ASCII text of src[start, stop), in Node and elsewhere', () => {
    const src = new Uint8Array(300)
    for (let i = 0; i < src.length; i++) src[i] = 0x20 + ((i * 37) % 95) // printable ASCII
    for (const start of [0, 3, 50]) {
      for (let n = 0; n <= 200; n++) {
        const expected = String.fromCharCode(...src.subarray(start, start + n))
        assert.equal(nodeAsciiText(src, start, start + n), expected, `Node, ${n} bytes at ${start}`)
        assert.equal(asciiText(src, start, start + n), expected, `elsewhere, ${n} bytes at ${start}`)
      }
    }
  })
})
