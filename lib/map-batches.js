// Bun only: package.json's "imports" maps '#map-batches' here under the "bun" condition, and to
// lib/map-batches-off.js for every other runtime and bundler, so no other engine loads or ships
// this. In JavaScriptCore a multi-argument fromCharCode (shortAscii) is a host call, and the
// string it makes is then copied again into the engine's table of property names; instead, a
// large map's short ASCII keys are copied into batchBytes as they are read and checked, and every
// KEY_BATCH keys are made by one TextDecoder call and cut from its text by `substring`, which costs
// neither, and stored with their values in the same order (bench/README.md has the measurements).

import { shortAscii, SHORT_TEXT } from './utf8.js'
import { withDecodeSegment as withSegment } from './errors.js'
import { input, position, readKeyHead, readItem, readText, compareLargeMapKeys } from './decode.js'
import { defineProtoKey, keyOutOfOrder, duplicateKey } from './maps.js'

/** the bytes of up to KEY_BATCH keys of one large map, each at most SHORT_TEXT bytes of ASCII,
 * one after the other; where each ends, and its value */
const KEY_BATCH = 256
const batchBytes = new Uint8Array(KEY_BATCH * SHORT_TEXT)
const batchEnds = new Int32Array(KEY_BATCH)
/** @type {unknown[]} */
const batchValues = new Array(KEY_BATCH).fill(undefined)
/** the keys taken from the batch so far (-1: no map is being read in batches) */
let batched = -1
const batchDecoder = new TextDecoder()

/**
 * decode.js's readMap for a map of more than LARGE_MAP keys, in strict mode, after its depth
 * check: the keys made in batches. Short ASCII keys go into the batch; other keys are read as
 * readMap reads them, after the keys before them are stored. Same checks and errors as readMap.
 * Returns null, reading nothing, inside a map already read this way (only the outermost such map
 * is: a large map among its values is read by readMap).
 *
 * @param {number} n
 * @returns {Record<string, unknown>|null}
 */
export function readLargeMapInBatches (n) {
  if (batched >= 0) return null
  const src = input()
  /** @type {Record<string, unknown>} */
  const map = {}
  let previous = -1
  let previousLength = 0
  /** @type {string|null} a key read as readMap reads it */
  let key = null
  // a key in the batch: where it is in the input (its string is made only for an error)
  let keyStart = -1
  let keyLength = 0
  let fill = 0
  batched = 0
  try {
    for (let i = 0; i < n; i++) {
      key = null
      keyStart = -1
      const keyAt = position()
      const start = readKeyHead()
      const end = position()
      const length = end - start
      let bits = 0x80
      if (length <= SHORT_TEXT) {
        bits = 0
        for (let j = 0; j < length; j++) bits |= (batchBytes[fill + j] = src[start + j])
      }
      if (bits < 0x80) {
        keyStart = start
        keyLength = length
      } else {
        storeBatch(map, fill)
        fill = 0
        key = readText(start, end)
      }
      if (previous >= 0) {
        const order = compareLargeMapKeys(previous, previousLength, start, length)
        if (order >= 0) {
          if (key === null) key = /** @type {string} */ (shortAscii(src, start, length))
          if (order === 0) throw duplicateKey(key, keyAt)
          throw keyOutOfOrder(key, keyAt)
        }
      }
      previous = start
      previousLength = length
      const value = readItem()
      if (key === null) {
        fill += length
        batchEnds[batched] = fill
        batchValues[batched] = value
        if (++batched === KEY_BATCH) {
          storeBatch(map, fill)
          fill = 0
        }
      } else if (key === '__proto__') {
        defineProtoKey(map, value)
      } else {
        map[key] = value
      }
    }
    storeBatch(map, fill)
  } catch (e) {
    if (key === null && keyStart >= 0) key = shortAscii(src, keyStart, keyLength)
    throw key === null ? e : withSegment(e, key)
  } finally {
    for (let j = 0; j < batched; j++) batchValues[j] = undefined // never keep a decoded value alive
    batched = -1
  }
  return map
}

/**
 * Store the batch's keys, made from its `fill` bytes, with their values; empties the batch.
 *
 * @param {Record<string, unknown>} map
 * @param {number} fill
 */
function storeBatch (map, fill) {
  if (batched === 0) return
  const text = batchDecoder.decode(batchBytes.subarray(0, fill))
  let from = 0
  for (let j = 0; j < batched; j++) {
    const to = batchEnds[j]
    const key = text.substring(from, to)
    const value = batchValues[j]
    batchValues[j] = undefined // never keep a decoded value alive
    if (key === '__proto__') {
      defineProtoKey(map, value)
    } else {
      map[key] = value
    }
    from = to
  }
  batched = 0
}
