// @ipld/car's src/writer.js
export { CarWriter } from './index.js'
