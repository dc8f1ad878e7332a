// @ipld/car's src/indexed-reader.js
export { CarIndexedReader } from './index.js'
