// What the decoders that build maps share (generic decode, lib/decode.js, and the Lexicon reader,
// lib/lexicon/read.js and unknown.js): the maps' constructor, how a `__proto__` key is kept, and
// the keys' canonical order and its errors. A module of its own, so that a reader that builds maps
// need not bring generic decode into a bundle.

import { decodeFail } from './errors.js'

/**
 * @param {string} key
 * @param {number} at
 * @returns {import('./errors.js').DagCborDecodeError}
 */
export function duplicateKey (key, at) {
  return decodeFail('duplicate-key', `duplicate map key ${JSON.stringify(key)}`, at)
}

/**
 * @param {string} key
 * @param {number} at
 * @returns {import('./errors.js').DagCborDecodeError}
 */
export function keyOutOfOrder (key, at) {
  return decodeFail('map-key-order', `map key ${JSON.stringify(key)} is out of order (keys sort by length, then bytewise)`, at)
}

/**
 * How the map key at bytes[b, b + bLength) sorts after the key before it, at bytes[a, a + aLength):
 * negative in canonical order (shorter first, then bytewise), 0 for the same key, positive out of
 * order.
 *
 * @param {Uint8Array} bytes
 * @param {number} a
 * @param {number} aLength
 * @param {number} b
 * @param {number} bLength
 * @returns {number}
 */
export function compareKeyBytes (bytes, a, aLength, b, bLength) {
  let order = aLength - bLength
  for (let i = 0; order === 0 && i < bLength; i++) order = bytes[a + i] - bytes[b + i]
  return order
}

/**
 * A map's `__proto__` key, as a plain own property: assignment would set the prototype instead.
 *
 * @param {Record<string, unknown>} map
 * @param {unknown} value
 */
export function defineProtoKey (map, value) {
  Object.defineProperty(map, '__proto__', { value, enumerable: true, writable: true, configurable: true })
}

/** Decoded maps are made by this constructor instead of `{}`. They are the same plain objects
 * (prototype Object.prototype, constructor Object), but V8 gives them a tree of hidden classes
 * of their own: all objects made with `{}` in a program share one, and once other code has
 * grown it, adding properties to `{}` slows down. Measured: after the bench's corpora were
 * generated, building `{}` objects with the garbage-600B corpus's keys cost 142-244 ns per
 * property, against 17 ns with this constructor. Named Object so that debuggers, which name
 * an object after the function that made it, show decoded maps as plain objects.
 * @type {new () => Record<string, unknown>} */
export const PlainObject = /** @type {any} */ ({ Object: function () {} }).Object
PlainObject.prototype = Object.prototype
// V8 fixes how many properties such objects hold inline from the first few it makes; made
// with four, as `{}` holds, so that small first maps do not push every later map's
// properties out of line (a separate array per object)
for (let i = 0; i < 8; i++) {
  const primer = new PlainObject()
  primer.a = primer.b = primer.c = primer.d = 0
}
