// Text the Lexicon reader already knows is ASCII (a format checked on its bytes passed), as a
// string: here (browsers, Deno) by the codec's usual UTF-8 path, which decodes short ASCII in JS
// and longer text by TextDecoder; ASCII is valid UTF-8, so it never gives null. Node and Bun
// take ascii-text-node.js (package.json's "imports").

export { readUtf8 as asciiText } from '../utf8.js'
