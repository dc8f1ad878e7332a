// The package entry dag-cbor-fast/decode: decode and decodeFirst without the encoder the main entry
// brings (the CAR tool's readers load it so). lib/decode.js's other exports are the typed and
// Lexicon readers' internals, not API, so this entry names only these two.
export { decode, decodeFirst } from './decode.js'
