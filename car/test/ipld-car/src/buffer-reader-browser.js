// @ipld/car's src/buffer-reader-browser.js
export { CarBufferReader } from './index.js'
