// @ipld/car's src/reader.js: CarReader; and __browser, @ipld/car's flag saying which of its builds
// was loaded: here true when the entry lacks the Node-only CarReader.readRaw (the browser build).
import { CarReader } from './index.js'

export { CarReader }
export const __browser = typeof /** @type {any} */ (CarReader).readRaw !== 'function'
