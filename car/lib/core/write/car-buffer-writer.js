// CarBufferWriter as @ipld/car's index exports it: buffer-writer.js's functions as one namespace.
import * as CarBufferWriter from './buffer-writer.js'

export { CarBufferWriter }
