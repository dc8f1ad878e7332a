// @ipld/car's src/iterator.js
export { CarBlockIterator, CarCIDIterator } from './index.js'
