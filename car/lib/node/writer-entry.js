// Own file: 'dag-cbor-car/writer' in Node (the exports map's "node" condition), which gives
// CarWriter alone, as @ipld/car's does: the Node entry's, as 'dag-cbor-car' gives them.
// From its own module (the Node entry gives the same class from it), not the whole entry's: a
// program that imports one class loads what that class needs (test/library-import.spec.js); with
// the file descriptors CarWriter.updateRootsInFile uses, which the Node entry installs too.
import './writer-file-descriptors.js'
export { CarWriter } from '../core/api/car-writer.js'
