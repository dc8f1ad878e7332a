// Own file: 'dag-cbor-car/iterator' in Node (the exports map's "node" condition), which gives
// CarBlockIterator and CarCIDIterator alone, as @ipld/car's does: the Node entry's, as
// 'dag-cbor-car' gives them.
// From their own modules (the Node entry gives the same classes from them), not the whole entry's:
// a program that imports them loads what they need (test/library-import.spec.js).
export { CarBlockIterator } from './block-iterator.js'
export { CarCIDIterator } from './readers.js'
