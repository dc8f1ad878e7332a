// Own file: 'dag-cbor-car/reader' in Node (the exports map's "node" condition), which gives
// CarReader alone, as @ipld/car's does: the Node entry's, as 'dag-cbor-car' gives them.
export { CarReader } from './node-library.js'
