// Own file: 'dag-cbor-car/buffer-reader' in Node (the exports map's "node" condition), which gives
// CarBufferReader alone, as @ipld/car's does: the Node entry's, as 'dag-cbor-car' gives them.
// From its own module (the Node entry gives the same class from it), not the whole entry's: a
// program that imports one class loads what that class needs (test/library-import.spec.js).
export { CarBufferReader } from './readers.js'
