// Own file: 'dag-cbor-car/indexed-reader' in Node (the exports map's "node" condition), which gives
// CarIndexedReader alone, as @ipld/car's does: the Node entry's, as 'dag-cbor-car' gives them.
export { CarIndexedReader } from './node-library.js'
