// Own file: 'dag-cbor-car/writer' in Node (the exports map's "node" condition), which gives
// CarWriter alone, as @ipld/car's does: the Node entry's, as 'dag-cbor-car' gives them.
export { CarWriter } from './node-library.js'
