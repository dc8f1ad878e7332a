// Own file: 'dag-cbor-car/buffer-reader' in Node (the exports map's "node" condition), which gives
// CarBufferReader alone, as @ipld/car's does: the Node entry's, as 'dag-cbor-car' gives them.
export { CarBufferReader } from './node-library.js'
