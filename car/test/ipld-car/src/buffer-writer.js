// @ipld/car's src/buffer-writer.js (the CarBufferWriter namespace of its main entry), as this
// library's CarBufferWriter gives it; each name undefined while the library lacks it.
import { CarBufferWriter } from './index.js'

const w = CarBufferWriter ?? {}
export const addRoot = w.addRoot
export const blockLength = w.blockLength
export const calculateHeaderLength = w.calculateHeaderLength
export const close = w.close
export const createWriter = w.createWriter
export const estimateHeaderLength = w.estimateHeaderLength
export const headerLength = w.headerLength
export const resizeHeader = w.resizeHeader
export const addBlock = w.addBlock
