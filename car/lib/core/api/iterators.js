// Own file: the "./iterator" sub-entry's file (package.json), as @ipld/car's iterator gives both.
export { CarBlockIterator } from './car-block-iterator.js'
export { CarCIDIterator } from './car-cid-iterator.js'
