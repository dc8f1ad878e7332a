// @ipld/car's src/encoder.js createHeader (an internal module its buffer-writer tests use): the
// CARv1 header's bytes, length varint first, as this library's writer makes them.
import { headerBytes } from '../../../lib/core/write/memory-target.js'

/** @param {import('multiformats/cid').CID[]} roots */
export const createHeader = (roots) => headerBytes(roots)
