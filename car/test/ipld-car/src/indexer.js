// @ipld/car's src/indexer.js
export { CarIndexer } from './index.js'
