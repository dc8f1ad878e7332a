// Own file: 'dag-cbor-car/iterator' in Node (the exports map's "node" condition), which gives
// CarBlockIterator and CarCIDIterator alone, as @ipld/car's does: the Node entry's, as
// 'dag-cbor-car' gives them.
export { CarBlockIterator, CarCIDIterator } from './node-library.js'
