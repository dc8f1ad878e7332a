// Own file: 'dag-cbor-car/indexer' in Node (the exports map's "node" condition), which gives
// CarIndexer alone, as @ipld/car's does: the Node entry's, as 'dag-cbor-car' gives them.
export { CarIndexer } from './node-library.js'
